// multi_tile_filler.cpp — implements multi_tile_filler.hpp: one atlas on the display GPU, mapped
// once per frame on its render stream; the display slot's tiles rendered into it as the one-GPU
// filler renders them (cuda_tile_filler.cpp), every remote slot's tiles rendered on their own GPU
// (that GPU current) and copied in on the render stream (remote_tile.hpp), then one unmap.
#include "interop/multi_tile_filler.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "kernels/cuda_check.hpp"
#include "interop/display_graph.hpp"
#include "interop/graphics_resource.hpp"
#include "interop/map_wait.hpp"
#include "interop/remote_tile.hpp"
#include "interop/split_tile.hpp"
#include "interop/tile_atlas.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// What a tile keeps: the display GPU's events that order a display-slot render against the
/// render stream (as the one-GPU filler's), and, while its instance runs on a remote slot, the
/// buffers that bring its pixels over.
struct MultiTile final : render::TileAttachment {
  cuda::Event rendered{cuda::Event::Create{}, false};
  cuda::Event handoff{cuda::Event::Create{}, true};  // see CudaTileFiller::fill_streams
  std::unique_ptr<RemoteTile> remote;
  std::size_t remote_slot = 0;
  std::unique_ptr<SplitTile> split;  // while its instance is split across GPUs
};

MultiTile& multi_of(render::Tile& tile) { return static_cast<MultiTile&>(*tile.attachment); }

}  // namespace

struct MultiTileFiller::State {
  /// One slot: its engine and device, how its tiles reach the display, its display graphs (made
  /// with its device current), and this frame's tiles of its instances.
  struct Slot {
    sim::CudaEngine* engine = nullptr;
    int device = 0;
    RemoteCopy copy = RemoteCopy::peer;
    std::unique_ptr<DisplayGraphs> graphs;
    std::vector<std::size_t> tiles;  // this frame's tile indices of the slot's instances
  };
  // The display GPU's: made with it current (the constructor's guard).
  cuda::Stream stream{cuda::Stream::Create{}};  // the render stream: maps, copies in, unmaps
  cuda::Event mapped{cuda::Event::Create{}, false};
  cuda::Event rendered{cuda::Event::Create{}, false};  // stream mode graph: the display graph done
  cuda::Event handoff{cuda::Event::Create{}, true};
  TileAtlas atlas;
  cudaArray_t array = nullptr;      // the atlas's array while it is mapped
  cudaSurfaceObject_t surface = 0;  // over it
  MapWaitTimer map_wait;
  double map_host_ms = 0;
  double unmap_host_ms = 0;
  std::vector<cudaGraphicsResource_t> resources;
  std::vector<RenderJob> jobs;
  std::vector<InstancePlace> places;
  std::vector<std::size_t> split_tiles;        // this frame's tiles of split instances
  std::vector<kernels::TileView> split_views;  // their views, made before they are marked drawn
  std::vector<Slot> slots;
  std::size_t display_slot = 0;
  int display_device = 0;
  InstancePlaces place_of;
  std::string_view remote_copy;
};

MultiTileFiller::MultiTileFiller(Engine& engine, std::vector<sim::CudaEngine*> slots, std::size_t display_slot,
                                 InstancePlaces places)
    : InteropFiller(engine), engine_(engine) {
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
    State::Slot slot;
    slot.engine = slots[i];
    slot.device = slots[i]->device();
    cuda::DeviceGuard on(slot.device);
    slot.graphs = std::make_unique<DisplayGraphs>();
    if (i != display_slot) {
      slot.copy = open_remote_copy(slot.device, display);
      if (s.remote_copy.empty() || slot.copy == RemoteCopy::host_staged)
        s.remote_copy = remote_copy_name(slot.copy);
    }
    s.slots.push_back(std::move(slot));
  }
}

MultiTileFiller::~MultiTileFiller() {
  // Its stream may still order render work and copies behind tiles' events.
  cudaStreamSynchronize(state_->stream.get());
}

std::unique_ptr<render::TileAttachment> MultiTileFiller::attach(const render::Tile& tile) {
  (void)tile;
  cuda::DeviceGuard on(state_->display_device);  // its events order display-GPU streams
  return std::make_unique<MultiTile>();
}

std::string_view MultiTileFiller::remote_copy() const { return state_->remote_copy; }

render::InteropStats MultiTileFiller::interop_stats() const {
  render::InteropStats stats = InteropFiller::interop_stats();
  stats.remote_copy = state_->remote_copy;
  return stats;
}

cudaStream_t MultiTileFiller::render_stream() const { return state_->stream.get(); }

InteropFiller::Counters MultiTileFiller::counters() const {
  return {state_->map_wait, MapTotals{state_->map_host_ms, state_->unmap_host_ms}};
}

void MultiTileFiller::fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                   const render::DisplayOptions& options, const render::Palette& palette,
                                   bool timed) {
  const std::size_t n = std::min({tiles.size(), placements.size(), engine_.size()});
  if (n == 0) return;
  State& s = *state_;
  cuda::DeviceGuard on_display(s.display_device);  // the map, the copies in, the unmap
  TileAtlas& atlas = s.atlas;
  if (atlas.fit(tiles, n, s.stream.get()))
    for (std::size_t i = 0; i < n; ++i) tiles[i]->drawn = render::Tile::Drawn::never;  // no history
  if (atlas.resource.set_write_discard(!options.age_shading) && options.age_shading)
    for (std::size_t i = 0; i < n; ++i) tiles[i]->drawn = render::Tile::Drawn::never;
  // Each slot's tiles this frame, in tile order (no allocation once the vectors have grown).
  s.place_of(n, s.places);
  for (State::Slot& slot : s.slots) slot.tiles.clear();
  s.split_tiles.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (!s.places[i].bands.empty())
      s.split_tiles.push_back(i);
    else
      s.slots.at(s.places[i].slot).tiles.push_back(i);
  }

  s.resources.assign(1, atlas.resource.get());
  const cudaStream_t stream = s.stream.get();
  MapWaitTimer::Slot* wait = timed ? s.map_wait.begin(stream) : nullptr;
  const auto map_start = Clock::now();
  CUDA_CHECK(cudaGraphicsMapResources(1, s.resources.data(), stream));
  s.map_host_ms += ms_since(map_start);
  MapWaitTimer::end(wait, stream);
  s.mapped.record(stream);
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&s.array, atlas.resource.get(), 0, 0));
  s.surface = atlas.surface.get(s.array);
  for (std::size_t i = 0; i < n; ++i) {
    render::Tile& tile = *tiles[i];
    tile.source = atlas.texture.get();
    tile.source_x = atlas.places[i].first;
    tile.source_y = atlas.places[i].second;
  }
  // Split instances' counts first, then remote slots: they run on their GPUs while the display
  // slot's renders are enqueued.
  if (!s.split_tiles.empty()) count_split_tiles(tiles, placements, options, palette);
  for (std::size_t slot = 0; slot < s.slots.size(); ++slot)
    if (slot != s.display_slot && !s.slots[slot].tiles.empty())
      fill_remote_slot(slot, tiles, placements, options, palette, timed);
  if (!s.slots[s.display_slot].tiles.empty()) fill_display_slot(tiles, placements, options, palette, timed);
  // The remote tiles' pixels into the atlas, each after its GPU's render (events, no host wait).
  for (std::size_t slot = 0; slot < s.slots.size(); ++slot) {
    if (slot == s.display_slot) continue;
    for (const std::size_t i : s.slots[slot].tiles)
      multi_of(*tiles[i]).remote->place(s.array, tiles[i]->source_x, tiles[i]->source_y, stream);
  }
  // Split instances' tiles: the bands' counts summed and shaded into the atlas.
  for (std::size_t k = 0; k < s.split_tiles.size(); ++k) {
    render::Tile& tile = *tiles[s.split_tiles[k]];
    kernels::TileView view = s.split_views[k];
    view.surface_x = tile.source_x;
    view.surface_y = tile.source_y;
    multi_of(tile).split->shade(s.surface, view, stream);
  }
  const auto unmap_start = Clock::now();
  CUDA_CHECK(cudaGraphicsUnmapResources(1, s.resources.data(), stream));
  s.unmap_host_ms += ms_since(unmap_start);
  s.array = nullptr;
}

void MultiTileFiller::fill_display_slot(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                        const render::DisplayOptions& options, const render::Palette& palette,
                                        bool timed) {
  // As CudaTileFiller::fill_streams and fill_graph, with the slot's own instance indices.
  State& s = *state_;
  State::Slot& slot = s.slots[s.display_slot];
  sim::CudaEngine& engine = *slot.engine;
  const cudaStream_t stream = s.stream.get();
  for (const std::size_t i : slot.tiles) {
    // A tile that came from a remote slot keeps no remote buffers (a layout change: may wait).
    MultiTile& mt = multi_of(*tiles[i]);
    if (mt.remote || mt.split) {
      CUDA_CHECK(cudaStreamSynchronize(stream));
      mt.remote.reset();
      mt.split.reset();
    }
  }
  if (engine.stream_mode() == StreamMode::graph) {
    s.jobs.clear();
    for (const std::size_t i : slot.tiles) {
      render::Tile& tile = *tiles[i];
      const std::size_t local = s.places[i].local;
      kernels::TileView view = tile_view(tile, placements[i], options, palette);
      view.surface_x = tile.source_x;  // its place in the shared texture
      view.surface_y = tile.source_y;
      s.jobs.push_back(render_job(engine.device_view(local), s.surface, tile.width, tile.height, view,
                                  timed ? engine.claim_display_stamps(local) : nullptr));
      tile.drawn = render::Tile::Drawn::device;
    }
    const cudaStream_t frame = engine.device_view(s.places[slot.tiles.front()].local).stream;
    CUDA_CHECK(cudaStreamWaitEvent(frame, s.mapped.get(), 0));
    s.handoff.record(frame);
    slot.graphs->launch(s.jobs, frame);
    if (timed) engine.display_enqueued(frame);
    s.rendered.record(frame);
    CUDA_CHECK(cudaStreamWaitEvent(stream, s.rendered.get(), 0));
    return;
  }
  for (const std::size_t i : slot.tiles) {
    render::Tile& tile = *tiles[i];
    const MultiTile& mt = multi_of(tile);
    kernels::TileView tv = tile_view(tile, placements[i], options, palette);
    tv.surface_x = tile.source_x;
    tv.surface_y = tile.source_y;
    draw_on_instance_stream(engine, s.places[i].local, tile, tv, s.surface, s.mapped,
                            {mt.rendered, mt.handoff}, stream, timed);
  }
}

void MultiTileFiller::fill_remote_slot(std::size_t slot_index, render::Tiles tiles,
                                       const std::vector<view::Placement>& placements,
                                       const render::DisplayOptions& options, const render::Palette& palette,
                                       bool timed) {
  State& s = *state_;
  State::Slot& slot = s.slots[slot_index];
  sim::CudaEngine& engine = *slot.engine;
  // Buffers for tiles new to this slot or resized: a layout change, the only time this waits (for
  // the last frame's copies out of the buffers it replaces).
  bool synced = false;
  for (const std::size_t i : slot.tiles) {
    render::Tile& tile = *tiles[i];
    MultiTile& mt = multi_of(tile);
    if (mt.remote && mt.remote_slot == slot_index && mt.remote->width() == tile.width &&
        mt.remote->height() == tile.height)
      continue;
    if ((mt.remote || mt.split) && !synced) {
      CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
      synced = true;
    }
    mt.remote.reset();
    mt.split.reset();
    mt.remote =
        std::make_unique<RemoteTile>(slot.device, s.display_device, slot.copy, tile.width, tile.height);
    mt.remote_slot = slot_index;
    tile.drawn = render::Tile::Drawn::never;  // its new array holds no last frame to fade from
  }
  // Everything below is enqueued with the slot's GPU current.
  cuda::DeviceGuard on(slot.device);
  if (engine.stream_mode() == StreamMode::graph) {
    s.jobs.clear();
    for (const std::size_t i : slot.tiles) {
      render::Tile& tile = *tiles[i];
      const std::size_t local = s.places[i].local;
      // The tile's own array on its GPU: drawn at (0, 0).
      s.jobs.push_back(render_job(engine.device_view(local), multi_of(tile).remote->surface(), tile.width,
                                  tile.height, tile_view(tile, placements[i], options, palette),
                                  timed ? engine.claim_display_stamps(local) : nullptr));
      tile.drawn = render::Tile::Drawn::device;
    }
    const cudaStream_t frame = engine.device_view(s.places[slot.tiles.front()].local).stream;
    for (const std::size_t i : slot.tiles) multi_of(*tiles[i]).remote->before_render(frame);
    slot.graphs->launch(s.jobs, frame);
    if (timed) engine.display_enqueued(frame);
    for (const std::size_t i : slot.tiles) multi_of(*tiles[i]).remote->after_render(frame);
    return;
  }
  for (const std::size_t i : slot.tiles) {
    render::Tile& tile = *tiles[i];
    RemoteTile& remote = *multi_of(tile).remote;
    const std::size_t local = s.places[i].local;
    const DeviceLatticeView v = engine.device_view(local);
    const kernels::TileView tv = tile_view(tile, placements[i], options, palette);
    remote.before_render(v.stream);
    // Bracketed as on the display GPU, so the remote render shows in its GPU's timeline rows.
    const bool bracketed = timed && engine.begin_display(local);
    kernels::launch_render_tile(v.layout, v.cells, v.width, v.height, remote.surface(), tile.width,
                                tile.height, tv, v.stream);
    if (bracketed) engine.end_display(local);
    remote.after_render(v.stream);
    tile.drawn = render::Tile::Drawn::device;
  }
}

void MultiTileFiller::count_split_tiles(render::Tiles tiles, const std::vector<view::Placement>& placements,
                                        const render::DisplayOptions& options,
                                        const render::Palette& palette) {
  State& s = *state_;
  // Buffers for tiles new to a split (or whose bands or size changed): a layout change, the only
  // time this waits (for the last frame's copies out of what it replaces).
  bool synced = false;
  for (const std::size_t i : s.split_tiles) {
    render::Tile& tile = *tiles[i];
    MultiTile& mt = multi_of(tile);
    const std::vector<sim::BandView>& bands = s.places[i].bands;
    if (mt.split && mt.split->fits(bands, tile.width, tile.height)) continue;
    if ((mt.split || mt.remote) && !synced) {
      CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
      synced = true;
    }
    mt.remote.reset();
    mt.split.reset();
    mt.split = std::make_unique<SplitTile>(bands, s.display_device, tile.width, tile.height);
    if (mt.split->host_staged()) s.remote_copy = remote_copy_name(RemoteCopy::host_staged);
    tile.drawn = render::Tile::Drawn::never;
  }
  // The view before the tile counts as drawn: a tile without a last frame is not aged.
  s.split_views.clear();
  for (const std::size_t i : s.split_tiles) {
    render::Tile& tile = *tiles[i];
    s.split_views.push_back(tile_view(tile, placements[i], options, palette));
    const InstancePlace& p = s.places[i];
    multi_of(tile).split->count(p.bands, s.split_views.back(), p.display_start, p.display_end);
    tile.drawn = render::Tile::Drawn::device;
  }
}

}  // namespace ls::interop
