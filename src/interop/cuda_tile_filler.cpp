// cuda_tile_filler.cpp — implements CudaTileFiller (cuda_tile_filler.hpp): the frame's fill as one
// bracket on the display GPU's render stream (the atlas fitted, every tile sorted by where its
// instance runs, one map, every tile drawn, one unmap), the textbook path and the measurement of
// both. Measurements behind the choices here: bench/NOTES.md, the display sections.
#include "interop/cuda_tile_filler.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "interop/fill_measure.hpp"
#include "interop/graphics_resource.hpp"
#include "interop/map_wait.hpp"
#include "interop/remote_tile.hpp"
#include "interop/slot_renders.hpp"
#include "interop/tile_atlas.hpp"
#include "interop/tile_routes.hpp"
#include "kernels/cuda_check.hpp"
#include "render/gl.hpp"
#include "render/host_filler.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// One GPU's places: every instance on slot 0 at its own index.
InstancePlaces one_slot_places() {
  return [](std::size_t n, std::vector<InstancePlace>& out) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      out[i].slot = 0;
      out[i].local = i;
    }
  };
}

/// Brackets a remote tile's copies into the display's atlas in the display GPU's engine, for the
/// instance of the remote engine that drew it (sim::CudaEngine::begin_copy_for).
class AtlasCopyMarks final : public CopyMarks {
 public:
  AtlasCopyMarks(sim::CudaEngine& display, int remote, std::size_t local)
      : display_(display), remote_(remote), local_(local) {}
  void begin(TimelineBar::Copy copy, std::uint64_t bytes, cudaStream_t stream) override {
    handle_ = display_.begin_copy_for(remote_, local_, copy, bytes, stream);
  }
  void end(cudaStream_t stream) override {
    if (handle_ >= 0) display_.end_copy_for(handle_, stream);
    handle_ = -1;
  }

 private:
  sim::CudaEngine& display_;
  int remote_;
  std::size_t local_;
  int handle_ = -1;
};

/// A split instance's tile this frame: the tile, its instance, its view.
struct SplitDraw {
  render::Tile* tile = nullptr;
  std::size_t index = 0;
  kernels::TileView view;
};

}  // namespace

struct CudaTileFiller::State {
  /// One slot: its renders and how its tiles reach the display GPU.
  struct Slot {
    SlotRenders renders;
    RemoteCopy copy = RemoteCopy::peer;
  };
  // The display GPU's: made with it current (the constructor's guard).
  // The render stream: maps, copies in, shades split tiles, unmaps. Most urgent: its kernels are
  // small and the frame's GL work waits for them, while a huge lattice's next step (launched on
  // the same GPU as soon as this frame's counts are done) holds every multiprocessor for tens of
  // milliseconds. At the default priority a split tile's shade waited for that whole step, and
  // the display ran two frames at a time (786432² over two GPUs: frames of 2.6 ms and 70 ms).
  cuda::Stream stream{cuda::Stream::Create{}, cuda::stream_priorities().greatest};
  LocalRoute local{stream.get()};
  RemoteRoute remote;
  TileAtlas atlas;
  cudaSurfaceObject_t surface = 0;  // over the atlas while it is mapped
  MapWaitTimer map_wait;
  double map_host_ms = 0;
  double unmap_host_ms = 0;
  std::vector<cudaGraphicsResource_t> resources;
  std::vector<InstancePlace> places;
  std::vector<SplitDraw> split;  // this frame's tiles of split instances
  std::vector<Slot> slots;
  std::size_t display_slot = 0;
  int display_device = 0;
  InstancePlaces place_of;
  std::string_view remote_copy;
};

CudaTileFiller::CudaTileFiller(sim::CudaEngine& engine)
    : CudaTileFiller(engine, {&engine}, 0, one_slot_places()) {}

CudaTileFiller::CudaTileFiller(Simulation& engine, std::vector<sim::CudaEngine*> slots,
                               std::size_t display_slot, InstancePlaces places)
    : engine_(engine) {
  const int display = slots.at(display_slot)->device();
  {
    cuda::DeviceGuard on(display);
    state_ = std::make_unique<State>();
  }
  State& s = *state_;
  s.display_slot = display_slot;
  s.display_device = display;
  s.place_of = std::move(places);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    State::Slot slot{SlotRenders(*slots[i]), RemoteCopy::peer};
    if (i != display_slot) {
      slot.copy = open_remote_copy(slot.renders.device(), display);
      if (s.remote_copy.empty() || slot.copy == RemoteCopy::host_staged)
        s.remote_copy = remote_copy_name(slot.copy);
    }
    s.slots.push_back(std::move(slot));
  }
}

CudaTileFiller::~CudaTileFiller() {
  // Its stream may still order render work and copies behind tiles' events.
  cudaStreamSynchronize(state_->stream.get());
}

std::unique_ptr<render::TileAttachment> CudaTileFiller::attach(const render::Tile& tile) {
  (void)tile;
  cuda::DeviceGuard on(state_->display_device);  // its events order display-GPU streams
  return std::make_unique<InteropTile>();
}

void CudaTileFiller::finish_writes() { CUDA_CHECK(cudaStreamSynchronize(state_->stream.get())); }

std::string_view CudaTileFiller::remote_copy() const { return state_->remote_copy; }

render::InteropStats CudaTileFiller::interop_stats() const {
  const State& s = *state_;
  render::InteropStats stats;
  stats.map_wait_ms = s.map_wait.summary();
  stats.map_host_ms = s.map_host_ms;
  stats.unmap_host_ms = s.unmap_host_ms;
  stats.remote_copy = s.remote_copy;
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
  State& s = *state_;
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
        CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
        glFinish();
      },
      MapTotals{s.map_host_ms, s.unmap_host_ms}, min_seconds, max_frames);
}

void CudaTileFiller::fill_textbook(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                   const render::DisplayOptions& options, const render::Palette& palette) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  // Blocking host copies (the textbook path cannot avoid them): the path interop is measured
  // against, never the frame loop's default.
  for (std::size_t i = 0; i < n; ++i)
    render::upload_host_pixels(*tiles[i], engine_.read(i), placements[i], options, palette);
}

void CudaTileFiller::fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                  const render::DisplayOptions& options, const render::Palette& palette,
                                  bool timed) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  if (n == 0) return;
  cuda::DeviceGuard on_display(state_->display_device);  // the map, the copies in, the unmap
  fit_atlas(tiles, n, options);
  sort_tiles(tiles, n, placements, options, palette);
  const cudaArray_t atlas = map_atlas(tiles, n, timed);
  draw_tiles(atlas, timed);
  unmap_atlas();
}

void CudaTileFiller::fit_atlas(render::Tiles tiles, std::size_t n, const render::DisplayOptions& options) {
  State& s = *state_;
  if (s.atlas.fit(tiles, n, s.stream.get()))
    for (std::size_t i = 0; i < n; ++i) tiles[i]->drawn = render::Tile::Drawn::never;  // no history
  // Pixels last written under write-discard are not promised to be there: start afresh.
  if (s.atlas.resource.set_write_discard(!options.age_shading) && options.age_shading)
    for (std::size_t i = 0; i < n; ++i) tiles[i]->drawn = render::Tile::Drawn::never;
}

void CudaTileFiller::sort_tiles(render::Tiles tiles, std::size_t n,
                                const std::vector<view::Placement>& placements,
                                const render::DisplayOptions& options, const render::Palette& palette) {
  State& s = *state_;
  s.place_of(n, s.places);
  for (State::Slot& slot : s.slots) slot.renders.tiles().clear();
  s.split.clear();
  // Buffers for tiles new to their kind, slot or bands, or resized: a layout change, the only time
  // a fill waits (for the last frame's copies out of the buffers it replaces).
  LayoutWait wait(s.stream.get());
  for (std::size_t i = 0; i < n; ++i) {
    render::Tile& tile = *tiles[i];
    InteropTile& it = interop_of(tile);
    const InstancePlace& place = s.places[i];
    if (!place.bands.empty()) {
      it.keep_split(tile, place.bands, s.display_device, wait);
      if (it.split->host_staged()) s.remote_copy = remote_copy_name(RemoteCopy::host_staged);
      s.split.push_back({&tile, i, tile_view(tile, placements[i], options, palette)});
      continue;
    }
    State::Slot& slot = s.slots.at(place.slot);
    if (place.slot == s.display_slot)
      it.keep_local(wait);
    else
      it.keep_remote(tile, place.slot, slot.renders.device(), s.display_device, slot.copy, wait);
    slot.renders.tiles().push_back({&tile, place.local, tile_view(tile, placements[i], options, palette)});
  }
}

cudaArray_t CudaTileFiller::map_atlas(render::Tiles tiles, std::size_t n, bool timed) {
  State& s = *state_;
  TileAtlas& atlas = s.atlas;
  s.resources.assign(1, atlas.resource.get());
  const cudaStream_t stream = s.stream.get();
  MapWaitTimer::Slot* wait = timed ? s.map_wait.begin(stream) : nullptr;
  const auto map_start = Clock::now();
  // One texture for all tiles, mapped once: mapping each on its own stream costs far more, and
  // mapping many in one call still costs per texture (bench/NOTES.md).
  CUDA_CHECK(cudaGraphicsMapResources(1, s.resources.data(), stream));
  s.map_host_ms += ms_since(map_start);
  MapWaitTimer::end(wait, stream);
  cudaArray_t array = nullptr;
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, atlas.resource.get(), 0, 0));
  s.surface = atlas.surface.get(array);
  s.local.mapped(s.surface);
  for (std::size_t i = 0; i < n; ++i) {
    render::Tile& tile = *tiles[i];
    tile.source = atlas.texture.get();
    tile.source_x = atlas.places[i].first;
    tile.source_y = atlas.places[i].second;
  }
  return array;
}

void CudaTileFiller::unmap_atlas() {
  State& s = *state_;
  const auto unmap_start = Clock::now();
  CUDA_CHECK(cudaGraphicsUnmapResources(1, s.resources.data(), s.stream.get()));
  s.unmap_host_ms += ms_since(unmap_start);
  s.surface = 0;
}

void CudaTileFiller::draw_tiles(cudaArray_t atlas, bool timed) {
  State& s = *state_;
  for (const SplitDraw& d : s.split) {
    const InstancePlace& p = s.places[d.index];
    interop_of(*d.tile).split->count(p.bands, d.view, p.display_start, p.display_end);
    d.tile->drawn = render::Tile::Drawn::device;
  }
  for (std::size_t slot = 0; slot < s.slots.size(); ++slot)
    if (slot != s.display_slot) s.slots[slot].renders.draw(s.remote, timed);
  s.slots[s.display_slot].renders.draw(s.local, timed);
  // What the other GPUs made, into the atlas after their work (events, no host wait).
  const cudaStream_t stream = s.stream.get();
  sim::CudaEngine& display = s.slots[s.display_slot].renders.engine();
  for (std::size_t slot = 0; slot < s.slots.size(); ++slot) {
    if (slot == s.display_slot) continue;
    for (const SlotTile& t : s.slots[slot].renders.tiles()) {
      RemoteTile& remote = *interop_of(*t.tile).remote;
      // Timed where its render was: in a timed frame, once (a redraw while paused is not timed).
      // Two slots of one device (tests) would name the instance by a device both slots share.
      AtlasCopyMarks marks(display, remote.remote_device(), t.local);
      const bool timed = t.timed && remote.remote_device() != s.display_device;
      remote.place(atlas, t.tile->source_x, t.tile->source_y, stream, timed ? &marks : nullptr);
    }
  }
  for (const SplitDraw& d : s.split) {
    kernels::TileView view = d.view;
    view.surface_x = d.tile->source_x;
    view.surface_y = d.tile->source_y;
    interop_of(*d.tile).split->shade(s.surface, view, stream);
  }
}

}  // namespace ls::interop
