// slot_renders.cpp — implements SlotRenders (slot_renders.hpp).
#include "interop/slot_renders.hpp"

#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {
namespace {

/// The tile's view with its place on the target.
kernels::TileView view_at(const SlotTile& t, const RenderTarget& into) {
  kernels::TileView view = t.view;
  view.surface_x = into.x;
  view.surface_y = into.y;
  return view;
}

}  // namespace

void TileRoute::unbracketed(render::Tile& tile, cudaStream_t stream) { (void)tile, (void)stream; }

void TileRoute::before_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame) {
  for (const SlotTile& t : tiles) before(*t.tile, frame);
}

void TileRoute::after_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame) {
  for (const SlotTile& t : tiles) after(*t.tile, frame, CopyTiming{});
}

SlotRenders::SlotRenders(sim::CudaEngine& engine) : engine_(&engine), device_(engine.device()) {
  cuda::DeviceGuard on(device_);
  graphs_ = std::make_unique<DisplayGraphs>();
}

void SlotRenders::draw(TileRoute& route, bool timed) {
  if (tiles_.empty()) return;
  cuda::DeviceGuard on(device_);
  if (engine_->stream_mode() == StreamMode::graph)
    draw_as_graph(route, timed);
  else
    draw_on_streams(route, timed);
}

void SlotRenders::draw_on_streams(TileRoute& route, bool timed) {
  sim::CudaEngine& engine = *engine_;
  for (SlotTile& t : tiles_) {
    render::Tile& tile = *t.tile;
    const RenderTarget into = route.target(tile);
    const DeviceLatticeView v = engine.device_view(t.local);
    route.before(tile, v.stream);
    const bool bracketed = timed && engine.begin_display(t.local);
    if (!bracketed) route.unbracketed(tile, v.stream);
    kernels::launch_render_tile(v.layout, v.cells, v.width, v.height, into.surface, tile.width, tile.height,
                                view_at(t, into), v.stream);
    if (bracketed) engine.end_display(t.local);
    route.after(tile, v.stream, bracketed ? CopyTiming{&engine, t.local} : CopyTiming{});
    t.timed = bracketed;
    tile.drawn = render::Tile::Drawn::device;
  }
}

void SlotRenders::draw_as_graph(TileRoute& route, bool timed) {
  // Every tile's render kernel in one graph launch on the stream of the first tile's instance
  // (after the frame's step graph), timed by stamps inside it. Per tile this costs the host a few
  // hundred ns instead of the calls of draw_on_streams (bench/NOTES.md, "Frame graph shapes").
  sim::CudaEngine& engine = *engine_;
  jobs_.clear();
  for (SlotTile& t : tiles_) {
    t.timed = false;  // timed by stamps in the graph: its copies are not bracketed
    render::Tile& tile = *t.tile;
    const RenderTarget into = route.target(tile);
    jobs_.push_back(render_job(engine.device_view(t.local), into.surface, tile.width, tile.height,
                               view_at(t, into), timed ? engine.claim_display_stamps(t.local) : nullptr));
    tile.drawn = render::Tile::Drawn::device;
  }
  const cudaStream_t frame = engine.device_view(tiles_.front().local).stream;
  route.before_graph(tiles_, frame);
  graphs_->launch(jobs_, frame);
  if (timed) engine.display_enqueued(frame);
  route.after_graph(tiles_, frame);
}

}  // namespace ls::interop
