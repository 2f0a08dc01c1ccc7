// cuda_tile_filler.cpp — the CUDA engine's tiles: the interop fill (every tile drawn into one
// shared texture, mapped once per frame; render kernels on the instances' streams, or one display
// graph in stream mode graph), the textbook path (host copy, CPU pixels, GL upload) and the
// measurement of both. Measurements behind the choices here: bench/NOTES.md,
// "Architecture (issue 11): display" and the display sections before it.
#include "interop/cuda_tile_filler.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <tuple>
#include <utility>

#include "core/error.hpp"
#include "interop/display_graph.hpp"
#include "interop/graphics_resource.hpp"
#include "interop/map_wait.hpp"
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
/// stream (its pixels go to the shared texture, CudaTileFiller::State::Atlas).
struct InteropTile final : render::TileAttachment {
  cuda::Event rendered{cuda::Event::Create{}, false};
  cuda::Event handoff{cuda::Event::Create{}, true};  // see fill_streams
};

/// Places for tiles of these sizes in one texture: left to right on shelves `row_width` wide
/// (wider where a tile is), each shelf as tall as its tallest tile. Returns the texture's size.
std::pair<int, int> pack(const std::vector<std::pair<int, int>>& sizes, int row_width,
                         std::vector<std::pair<int, int>>& places) {
  places.clear();
  int x = 0, y = 0, shelf = 0, width = 1;
  for (const auto& [w, h] : sizes) {
    if (x > 0 && x + w > row_width) {
      x = 0;
      y += shelf;
      shelf = 0;
    }
    places.emplace_back(x, y);
    x += w;
    width = std::max(width, x);
    shelf = std::max(shelf, h);
  }
  return {width, std::max(1, y + shelf)};
}

/// How the tile samples its lattice, in the render kernel's terms.
kernels::TileView tile_view(const render::Tile& tile, const view::Placement& placement,
                            const render::DisplayOptions& options, const render::Palette& palette) {
  const render::Sampling smp =
      render::tile_sampling(placement, options, tile.drawn == render::Tile::Drawn::device);
  kernels::TileView tv;
  tv.origin_x = smp.origin_x;
  tv.origin_y = smp.origin_y;
  tv.cells_per_pixel = smp.cells_per_pixel;
  tv.grid_lines = smp.grid_lines;
  tv.age_shading = smp.age_shading;
  tv.live_rgba = palette.live;
  tv.dead_rgba = palette.dead;
  tv.grid_rgba = palette.grid;
  return tv;
}

/// The tile's interop state. Every attachment of these tiles was made by CudaTileFiller::attach.
InteropTile& interop_of(render::Tile& tile) { return static_cast<InteropTile&>(*tile.attachment); }

}  // namespace

struct CudaTileFiller::State {
  /// Every tile's pixels in one registered texture, each at its own place: one map per frame maps
  /// one texture whatever the tile count. The map's cost goes with the textures mapped (64 tile
  /// textures: ~2.8 ms per fill on an H200, bench/NOTES.md "The display as one texture").
  struct Atlas {
    render::GlTexture texture;  // declared first: destroyed after its registration
    GraphicsResource resource;
    Surface surface;
    std::vector<std::pair<int, int>> sizes;   // the tiles' sizes it was packed for
    std::vector<std::pair<int, int>> places;  // each tile's top-left texel
  };
  cuda::Stream stream{cuda::Stream::Create{}};  // the render stream: maps, unmaps, waits
  cuda::Event mapped{cuda::Event::Create{}, false};
  cuda::Event rendered{cuda::Event::Create{}, false};  // stream mode graph: the display graph done
  cuda::Event handoff{cuda::Event::Create{}, true};
  std::vector<cudaGraphicsResource_t> resources;
  std::vector<RenderJob> jobs;
  DisplayGraphs graphs;
  Atlas atlas;
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
  return {state_->map_wait.summary(), state_->map_host_ms, state_->unmap_host_ms};
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
  render::DisplayCost cost;
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  if (n == 0) return cost;
  auto fill_once = [&] {
    if (path == render::DisplayPath::textbook)
      fill_textbook(tiles, placements, options, palette);
    else
      fill_interop(tiles, placements, options, palette, false);
  };
  auto drain = [&] {
    CUDA_CHECK(cudaStreamSynchronize(state_->stream.get()));
    glFinish();
  };
  engine_.finish();
  drain();
  fill_once();  // warm-up: first maps, first launches, host buffers
  drain();
  const double map_before = state_->map_host_ms, unmap_before = state_->unmap_host_ms;
  const auto start = Clock::now();
  int frames = 0;
  do {
    fill_once();
    ++frames;
  } while (frames < max_frames && std::chrono::duration<double>(Clock::now() - start).count() < min_seconds);
  drain();
  const double ms = ms_since(start);
  cost.tiles = static_cast<int>(n);
  cost.frames = frames;
  cost.ms_per_frame = ms / frames;
  cost.ms_per_tile = cost.ms_per_frame / static_cast<double>(n);
  cost.map_host_ms = (state_->map_host_ms - map_before) / frames;
  cost.unmap_host_ms = (state_->unmap_host_ms - unmap_before) / frames;
  return cost;
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
  State::Atlas& atlas = s.atlas;
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
  State& s = *state_;
  State::Atlas& atlas = s.atlas;
  // Every frame: compared in place, no allocation unless the layout changed.
  bool same = atlas.resource && atlas.sizes.size() == n;
  for (std::size_t i = 0; same && i < n; ++i)
    same = atlas.sizes[i] == std::pair<int, int>(tiles[i]->width, tiles[i]->height);
  if (same) return false;
  std::vector<std::pair<int, int>> sizes;
  for (std::size_t i = 0; i < n; ++i) sizes.emplace_back(tiles[i]->width, tiles[i]->height);
  // Only when the layout changes: the last fill's kernels (the unmap waited for them) must be done
  // before their texture goes.
  CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  std::vector<std::pair<int, int>> places;
  auto [w, h] = pack(sizes, std::min(4096, static_cast<int>(max_size)), places);
  if (h > max_size) std::tie(w, h) = pack(sizes, max_size, places);
  if (w > max_size || h > max_size)
    throw DeviceError("the tiles (" + std::to_string(n) + ") do not fit in one " + std::to_string(max_size) +
                      "-pixel texture");
  atlas.surface = Surface{};
  atlas.resource = GraphicsResource{};
  atlas.texture = render::make_rgba8_texture(w, h);
  atlas.resource = GraphicsResource(atlas.texture.get());
  atlas.sizes = std::move(sizes);
  atlas.places = std::move(places);
  return true;
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
    const DeviceLatticeView v = engine_.device_view(i);
    RenderJob job;
    job.layout = v.layout;
    job.cells = v.cells;
    job.width = v.width;
    job.height = v.height;
    job.surface = s.surface;
    job.tex_width = tile.width;
    job.tex_height = tile.height;
    job.view = tile_view(tile, placements[i], options, palette);
    job.view.surface_x = tile.source_x;
    job.view.surface_y = tile.source_y;
    job.stamps = timed ? engine_.claim_display_stamps(i) : nullptr;
    s.jobs.push_back(job);
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
