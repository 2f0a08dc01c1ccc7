// tile_routes.cpp — implements tile_routes.hpp.
#include "interop/tile_routes.hpp"

#include "kernels/cuda_check.hpp"

namespace ls::interop {

void LayoutWait::operator()() {
  if (done_) return;
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  done_ = true;
}

InteropTile& interop_of(render::Tile& tile) { return static_cast<InteropTile&>(*tile.attachment); }

void InteropTile::keep_local(LayoutWait& wait) {
  if (!remote && !split) return;
  wait();
  remote.reset();
  split.reset();
}

void InteropTile::keep_remote(render::Tile& tile, std::size_t slot, int device, int display, RemoteCopy copy,
                              LayoutWait& wait) {
  if (remote && remote_slot == slot && remote->width() == tile.width && remote->height() == tile.height)
    return;
  if (remote || split) wait();
  remote.reset();
  split.reset();
  remote = std::make_unique<RemoteTile>(device, display, copy, tile.width, tile.height);
  remote_slot = slot;
  tile.drawn = render::Tile::Drawn::never;
}

void InteropTile::keep_split(render::Tile& tile, const std::vector<sim::BandView>& bands, int display,
                             LayoutWait& wait) {
  if (split && split->fits(bands, tile.width, tile.height)) return;
  if (remote || split) wait();
  remote.reset();
  split.reset();
  split = std::make_unique<SplitTile>(bands, display, tile.width, tile.height);
  tile.drawn = render::Tile::Drawn::never;
}

void LocalRoute::mapped(cudaSurfaceObject_t atlas) {
  atlas_ = atlas;
  mapped_.record(render_);
}

RenderTarget LocalRoute::target(render::Tile& tile) const { return {atlas_, tile.source_x, tile.source_y}; }

void LocalRoute::before(render::Tile& tile, cudaStream_t stream) {
  (void)tile;
  CUDA_CHECK(cudaStreamWaitEvent(stream, mapped_.get(), 0));
}

void LocalRoute::unbracketed(render::Tile& tile, cudaStream_t stream) {
  interop_of(tile).handoff.record(stream);
}

void LocalRoute::after(render::Tile& tile, cudaStream_t stream, const CopyTiming& timing) {
  (void)timing;  // renders straight into the atlas: no copy
  const cuda::Event& rendered = interop_of(tile).rendered;
  rendered.record(stream);
  CUDA_CHECK(cudaStreamWaitEvent(render_, rendered.get(), 0));
}

void LocalRoute::before_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame) {
  (void)tiles;
  CUDA_CHECK(cudaStreamWaitEvent(frame, mapped_.get(), 0));
  handoff_.record(frame);  // the graph's stamps are no timing events: see unbracketed
}

void LocalRoute::after_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame) {
  (void)tiles;
  rendered_.record(frame);
  CUDA_CHECK(cudaStreamWaitEvent(render_, rendered_.get(), 0));
}

RenderTarget RemoteRoute::target(render::Tile& tile) const {
  return {interop_of(tile).remote->surface(), 0, 0};
}

void RemoteRoute::before(render::Tile& tile, cudaStream_t stream) {
  interop_of(tile).remote->before_render(stream);
}

namespace {

/// Brackets a remote tile's copy out of its array in its instance's engine (on the instance's
/// stream, where after_render copies).
class TileCopyMarks final : public CopyMarks {
 public:
  TileCopyMarks(const CopyTiming& timing, int display) : timing_(timing), display_(display) {}
  void begin(TimelineBar::Copy copy, std::uint64_t bytes, cudaStream_t stream) override {
    (void)stream;
    open_ = timing_.engine->begin_tile_copy(timing_.local, copy, display_, bytes);
  }
  void end(cudaStream_t stream) override {
    (void)stream;
    if (open_) timing_.engine->end_tile_copy(timing_.local);
    open_ = false;
  }

 private:
  CopyTiming timing_;
  int display_;
  bool open_ = false;
};

}  // namespace

void RemoteRoute::after(render::Tile& tile, cudaStream_t stream, const CopyTiming& timing) {
  RemoteTile& remote = *interop_of(tile).remote;
  if (!timing.engine) {
    remote.after_render(stream);
    return;
  }
  TileCopyMarks marks(timing, remote.display_device());
  remote.after_render(stream, &marks);
}

}  // namespace ls::interop
