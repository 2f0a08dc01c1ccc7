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
#include "interop/fill_measure.hpp"
#include "interop/graphics_resource.hpp"
#include "interop/map_wait.hpp"
#include "interop/tile_atlas.hpp"
#include "life_kernels.hpp"
#include "render/host_filler.hpp"
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

CudaTileFiller::CudaTileFiller(CudaEngine& engine) : engine_(engine), state_(std::make_unique<State>()) {}

CudaTileFiller::~CudaTileFiller() {
  // Its stream may still order render work behind tiles' events.
  cudaStreamSynchronize(state_->stream.get());
}

std::unique_ptr<render::TileAttachment> CudaTileFiller::attach(const render::Tile& tile) {
  (void)tile;
  return std::make_unique<InteropTile>();
}

void CudaTileFiller::finish_writes() { CUDA_CHECK(cudaStreamSynchronize(state_->stream.get())); }

render::InteropStats CudaTileFiller::interop_stats() const {
  render::InteropStats stats;
  stats.map_wait_ms = state_->map_wait.summary();
  stats.map_host_ms = state_->map_host_ms;
  stats.unmap_host_ms = state_->unmap_host_ms;
  return stats;
}

void CudaTileFiller::fill(render::Tiles tiles, const std::vector<view::Placement>& placements,
                          const render::DisplayOptions& options, const render::Palette& palette,
                          render::DisplayPath path) {
  if (path == render::DisplayPath::textbook)
    fill_textbook(tiles, placements, options, palette);
  else
    fill_interop(tiles, placements, options, palette, true);
}

render::DisplayCost CudaTileFiller::measure(render::Tiles tiles,
                                            const std::vector<view::Placement>& placements,
                                            const render::DisplayOptions& options,
                                            const render::Palette& palette, render::DisplayPath path,
                                            double min_seconds, int max_frames) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  return measure_fill(
      n, [&] { engine_.finish(); },
      [&] {
        if (path == render::DisplayPath::textbook)
          fill_textbook(tiles, placements, options, palette);
        else
          fill_interop(tiles, placements, options, palette, false);
      },
      [&] {
        // The render stream waited for every render (and remote copy) of the fill.
        CUDA_CHECK(cudaStreamSynchronize(state_->stream.get()));
        glFinish();
      },
      MapTotals{state_->map_host_ms, state_->unmap_host_ms}, min_seconds, max_frames);
}

void CudaTileFiller::fill_textbook(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                   const render::DisplayOptions& options, const render::Palette& palette) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  for (std::size_t i = 0; i < n; ++i) {
    // The lattice to the host (a blocking copy: the textbook path cannot avoid this sync), its
    // pixels on the CPU, the upload through GL.
    render::upload_host_pixels(*tiles[i], engine_.read(i), placements[i], options, palette);
  }
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
    InteropTile& it = interop_of(tile);
    const DeviceLatticeView v = engine_.device_view(i);
    kernels::TileView tv = tile_view(tile, placements[i], options, palette);
    tv.surface_x = tile.source_x;
    tv.surface_y = tile.source_y;
    // The render kernel runs on the instance's own stream, after its step work, once mapped.
    CUDA_CHECK(cudaStreamWaitEvent(v.stream, s.mapped.get(), 0));
    // A timing event right after that wait and before the kernel hurries the driver's CUDA-GL
    // handoff (bench/NOTES.md, "the event that hurries the CUDA-GL handoff"). On timed frames the
    // engine's display start event is that event; otherwise the tile's own.
    const bool bracketed = timed && engine_.begin_display(i);
    if (!bracketed) it.handoff.record(v.stream);
    kernels::launch_render_tile(v.layout, v.cells, v.width, v.height, s.surface, tile.width, tile.height, tv,
                                v.stream);
    if (bracketed) engine_.end_display(i);
    it.rendered.record(v.stream);
    tile.drawn = render::Tile::Drawn::device;
    CUDA_CHECK(cudaStreamWaitEvent(stream, it.rendered.get(), 0));
  }
}

}  // namespace ls::interop
