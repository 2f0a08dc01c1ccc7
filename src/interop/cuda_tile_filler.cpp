// cuda_tile_filler.cpp — the CUDA engine's tiles: the interop fill (every tile drawn into one
// shared texture, mapped once per frame; render kernels on the instances' streams, or one display
// graph in stream mode graph), the textbook path (host copy, CPU pixels, GL upload) and the
// measurement of both. Measurements behind the choices here: bench/NOTES.md,
// "Architecture (issue 11): display" and the display sections before it.
#include "interop/cuda_tile_filler.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "interop/display_graph.hpp"
#include "interop/graphics_resource.hpp"
#include "interop/map_wait.hpp"
#include "interop/tile_atlas.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {
using view::Placement;
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// What a tile keeps for interop: the events that order its render kernel against the render
/// stream (its pixels go to the shared texture, TileAtlas).
struct InteropTile final : render::TileAttachment {
  cuda::Event rendered{cuda::Event::Create{}, false};
  cuda::Event handoff{cuda::Event::Create{}, true};  // see fill_streams
};

/// The tile's interop state. Every attachment of these tiles was made by CudaTileFiller::attach.
InteropTile& interop_of(render::Tile& tile) { return static_cast<InteropTile&>(*tile.attachment); }

}  // namespace

struct CudaTileFiller::State {
  cuda::Stream stream{cuda::Stream::Create{}};  // the render stream: maps, unmaps, waits
  cuda::Event mapped{cuda::Event::Create{}, false};
  cuda::Event rendered{cuda::Event::Create{}, false};  // stream mode graph: the display graph done
  cuda::Event handoff{cuda::Event::Create{}, true};
  std::vector<cudaGraphicsResource_t> resources;
  std::vector<RenderJob> jobs;
  DisplayGraphs graphs;
  TileAtlas atlas;
  cudaSurfaceObject_t surface = 0;  // over the atlas while it is mapped
  MapWaitTimer map_wait;
  double map_host_ms = 0;
  double unmap_host_ms = 0;
};

CudaTileFiller::CudaTileFiller(sim::CudaEngine& engine)
    : InteropFiller(engine), engine_(engine), state_(std::make_unique<State>()) {}

CudaTileFiller::~CudaTileFiller() {
  // Its stream may still order render work behind tiles' events.
  cudaStreamSynchronize(state_->stream.get());
}

std::unique_ptr<render::TileAttachment> CudaTileFiller::attach(const render::Tile& tile) {
  (void)tile;
  return std::make_unique<InteropTile>();
}

cudaStream_t CudaTileFiller::render_stream() const { return state_->stream.get(); }

InteropFiller::Counters CudaTileFiller::counters() const {
  return {state_->map_wait, MapTotals{state_->map_host_ms, state_->unmap_host_ms}};
}

void CudaTileFiller::fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                  const render::DisplayOptions& options, const render::Palette& palette,
                                  bool timed) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  if (n == 0) return;
  State& s = *state_;
  TileAtlas& atlas = s.atlas;
  if (pack_atlas(tiles, n))
    for (std::size_t i = 0; i < n; ++i) tiles[i]->drawn = render::Tile::Drawn::never;  // no history
  // Pixels last written under write-discard are not promised to be there: start afresh.
  if (atlas.resource.set_write_discard(!options.age_shading) && options.age_shading)
    for (std::size_t i = 0; i < n; ++i) tiles[i]->drawn = render::Tile::Drawn::never;
  s.resources.assign(1, atlas.resource.get());
  const cudaStream_t stream = s.stream.get();
  MapWaitTimer::Slot* wait = timed ? s.map_wait.begin(stream) : nullptr;
  const auto map_start = Clock::now();
  // One texture for all tiles, mapped once: mapping each on its own stream costs far more, and
  // mapping many in one call still costs per texture (bench/NOTES.md).
  CUDA_CHECK(cudaGraphicsMapResources(1, s.resources.data(), stream));
  s.map_host_ms += ms_since(map_start);
  MapWaitTimer::end(wait, stream);
  s.mapped.record(stream);
  cudaArray_t array = nullptr;
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, atlas.resource.get(), 0, 0));
  s.surface = atlas.surface.get(array);
  for (std::size_t i = 0; i < n; ++i) {
    render::Tile& tile = *tiles[i];
    tile.source = atlas.texture.get();
    tile.source_x = atlas.places[i].first;
    tile.source_y = atlas.places[i].second;
  }
  if (engine_.stream_mode() == StreamMode::graph) {
    fill_graph(tiles, placements, options, palette, timed, n);
  } else {
    fill_streams(tiles, placements, options, palette, timed, n);
  }
  const auto unmap_start = Clock::now();
  CUDA_CHECK(cudaGraphicsUnmapResources(1, s.resources.data(), stream));
  s.unmap_host_ms += ms_since(unmap_start);
}

bool CudaTileFiller::pack_atlas(render::Tiles tiles, std::size_t n) {
  return state_->atlas.fit(tiles, n, state_->stream.get());
}

void CudaTileFiller::fill_graph(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                const render::DisplayOptions& options, const render::Palette& palette,
                                bool timed, std::size_t n) {
  // Stream mode graph: every tile's render kernel in one graph launch on the engine's frame stream
  // (after the frame's step graph, once mapped), timed by stamps inside it; the render stream waits
  // for it before the unmap. Per tile this costs the host a few hundred ns instead of the seven
  // calls of fill_streams (bench/NOTES.md, "Frame graph shapes").
  State& s = *state_;
  s.jobs.clear();
  for (std::size_t i = 0; i < n; ++i) {
    render::Tile& tile = *tiles[i];
    kernels::TileView view = tile_view(tile, placements[i], options, palette);
    view.surface_x = tile.source_x;  // its place in the shared texture
    view.surface_y = tile.source_y;
    s.jobs.push_back(render_job(engine_.device_view(i), s.surface, tile.width, tile.height, view,
                                timed ? engine_.claim_display_stamps(i) : nullptr));
    tile.drawn = render::Tile::Drawn::device;
  }
  const cudaStream_t frame = engine_.device_view(0).stream;
  CUDA_CHECK(cudaStreamWaitEvent(frame, s.mapped.get(), 0));
  s.handoff.record(frame);  // a timestamp behind the map's wait hurries the handoff (fill_streams)
  s.graphs.launch(s.jobs, frame);
  if (timed) engine_.display_enqueued(frame);
  s.rendered.record(frame);
  CUDA_CHECK(cudaStreamWaitEvent(s.stream.get(), s.rendered.get(), 0));
}

void CudaTileFiller::fill_streams(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                  const render::DisplayOptions& options, const render::Palette& palette,
                                  bool timed, std::size_t n) {
  State& s = *state_;
  const cudaStream_t stream = s.stream.get();
  for (std::size_t i = 0; i < n; ++i) {
    render::Tile& tile = *tiles[i];
    const InteropTile& it = interop_of(tile);
    kernels::TileView tv = tile_view(tile, placements[i], options, palette);
    tv.surface_x = tile.source_x;
    tv.surface_y = tile.source_y;
    draw_on_instance_stream(engine_, i, tile, tv, s.surface, s.mapped, {it.rendered, it.handoff}, stream,
                            timed);
  }
}

}  // namespace ls::interop
