// tile_routes.hpp — how a tile's pixels reach the display GPU's atlas: what every tile keeps for
// interop (InteropTile), the buffers it keeps for the kind of instance it shows this frame (none
// for the display slot's, a RemoteTile for another slot's, a SplitTile for a split one's), and the
// two routes a slot's renders take: LocalRoute (straight into the mapped atlas, the render stream
// after them) and RemoteRoute (into the tile's own array on its GPU, copied over after).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "interop/remote_tile.hpp"
#include "interop/slot_renders.hpp"
#include "interop/split_tile.hpp"
#include "render/tile_filler.hpp"
#include "sim/band_view.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {

/// Waits once for a stream's work to finish, the first time it is called: a layout change's wait
/// for the last frame's copies out of buffers about to be replaced.
class LayoutWait {
 public:
  explicit LayoutWait(cudaStream_t stream) : stream_(stream) {}
  void operator()();

 private:
  cudaStream_t stream_;
  bool done_ = false;
};

/// What a tile keeps for interop: the display GPU's events that order a local render against the
/// render stream, and the buffers of the kind of instance it showed last (at most one of them).
struct InteropTile final : render::TileAttachment {
  cuda::Event rendered{cuda::Event::Create{}, false};
  cuda::Event handoff{cuda::Event::Create{}, true};  // see LocalRoute::unbracketed
  std::unique_ptr<RemoteTile> remote;
  std::size_t remote_slot = 0;
  std::unique_ptr<SplitTile> split;  // while its instance is split across GPUs

  /// Its instance runs on the display slot: no remote or split buffers (freed after `wait`).
  void keep_local(LayoutWait& wait);
  /// Its instance runs on slot `slot` (device `device`) other than the display's (`display`):
  /// buffers of the tile's size there, made anew (after `wait`) when the slot or the size changed;
  /// a new array holds no last frame to fade from (the tile counts as never drawn).
  void keep_remote(render::Tile& tile, std::size_t slot, int device, int display, RemoteCopy copy,
                   LayoutWait& wait);
  /// Its instance is split into `bands`: their buffers, made anew (after `wait`) when the bands or
  /// the size changed (the tile then counts as never drawn).
  void keep_split(render::Tile& tile, const std::vector<sim::BandView>& bands, int display, LayoutWait& wait);
};
/// The tile's interop state. Every attachment of these tiles was made by CudaTileFiller::attach.
InteropTile& interop_of(render::Tile& tile);

/// The display slot's route: renders write the mapped atlas at the tile's place, after the map
/// (their streams wait for it), and the render stream waits for them before the unmap. Its events
/// live on the display GPU.
class LocalRoute final : public TileRoute {
 public:
  /// Made with the display GPU current; `render_stream` maps and unmaps the atlas.
  explicit LocalRoute(cudaStream_t render_stream) : render_(render_stream) {}
  /// Recorded on the render stream after the frame's map: renders wait for it and write `atlas`.
  void mapped(cudaSurfaceObject_t atlas);

  RenderTarget target(render::Tile& tile) const override;
  void before(render::Tile& tile, cudaStream_t stream) override;
  /// A timing event between the wait for the map and the kernel hurries the driver's CUDA-GL
  /// handoff (bench/NOTES.md, "the event that hurries the CUDA-GL handoff"); on timed frames the
  /// display bracket's start event is that event.
  void unbracketed(render::Tile& tile, cudaStream_t stream) override;
  void after(render::Tile& tile, cudaStream_t stream, const CopyTiming& timing) override;
  void before_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame) override;
  void after_graph(const std::vector<SlotTile>& tiles, cudaStream_t frame) override;

 private:
  cudaStream_t render_;
  cudaSurfaceObject_t atlas_ = 0;
  cuda::Event mapped_{cuda::Event::Create{}, false};
  cuda::Event handoff_{cuda::Event::Create{}, true};
  cuda::Event rendered_{cuda::Event::Create{}, false};  // stream mode graph: the display graph done
};

/// A remote slot's route: each tile rendered into its own array on the slot's GPU at (0, 0), after
/// the display took the last frame's pixels, and sent on (RemoteTile::before_render/after_render;
/// no map to hand off there); RemoteTile::place brings them into the atlas. On timed frames the
/// copy out of the tile's array is bracketed in its instance's engine (its copy lane there).
class RemoteRoute final : public TileRoute {
 public:
  RenderTarget target(render::Tile& tile) const override;
  void before(render::Tile& tile, cudaStream_t stream) override;
  void after(render::Tile& tile, cudaStream_t stream, const CopyTiming& timing) override;
};

}  // namespace ls::interop
