// cuda_tile_filler.hpp — the TileFiller of CUDA engines, on one GPU or several: every tile drawn
// into one shared texture on the display GPU (tile_atlas.hpp), mapped once per frame. A tile is
// local (its instance runs on the display slot: its render kernel writes the mapped atlas, on the
// instance's stream or in one display graph), remote (its instance runs on another slot: drawn
// there and copied over, peer to peer or through pinned host memory, remote_tile.hpp) or split
// (its lattice in bands over several GPUs: drawn band by band, split_tile.hpp), ordered by events,
// the host waiting for no GPU. One GPU is the case of one slot, every tile local. Also the
// textbook path the interop fill is measured against, that measurement, and the interop figures
// for the report.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/engine.hpp"
#include "render/tile_filler.hpp"
#include "sim/band_view.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::interop {

/// Where instance `index` of the filled engine runs: its slot and its index in that slot's
/// engine; or, for an instance split across GPUs, its bands (then slot and local are unused).
struct InstancePlace {
  using BandMark = std::function<void(int band, cudaStream_t stream)>;
  std::size_t slot = 0;
  std::size_t local = 0;
  std::vector<sim::BandView> bands;  // non-empty: a split instance, drawn band by band
  /// A split instance's timeline brackets around each band's part of drawing its tile (its device
  /// current), where the frame is timed.
  BandMark display_start, display_end;
};
/// The places of instances 0..n-1 into `out` (resized to n), once per fill.
using InstancePlaces = std::function<void(std::size_t n, std::vector<InstancePlace>& out)>;

class CudaTileFiller final : public render::TileFiller {
 public:
  /// One GPU: fills the tiles from `engine`, one slot that is the display's (every instance local).
  /// `engine` must outlive the filler. Touches no GL until tiles are made (attach), so it may be
  /// made before the GL context; that context must then share the engine's device
  /// (HeadlessContext(engine.device())).
  explicit CudaTileFiller(sim::CudaEngine& engine);
  /// Several slots: `engine` is the engine the tiles show (its size, read() for the textbook path,
  /// finish()); `slots` each slot's CUDA engine, in slot order (all must outlive the filler);
  /// `places` where each instance runs. A slot other than `display_slot` is remote even where its
  /// device is the display's (two slots of one GPU: the copy is then within one device). Makes the
  /// display GPU's render stream and opens the remote copies (peer access) at once; touches no GL
  /// until tiles are made.
  CudaTileFiller(Simulation& engine, std::vector<sim::CudaEngine*> slots, std::size_t display_slot,
                 InstancePlaces places);
  ~CudaTileFiller() override;

  /// The new tile's interop state (its events on the display GPU).
  std::unique_ptr<render::TileAttachment> attach(const render::Tile& tile) override;
  /// Waits for the render stream: the last fill's kernels, copies and unmap are done.
  void finish_writes() override;
  /// interop: the fill above, timed (display brackets on timed frames); textbook: each lattice read
  /// to the host, its pixels made there and uploaded through GL.
  void fill(render::Tiles tiles, const std::vector<view::Placement>& placements,
            const render::DisplayOptions& options, const render::Palette& palette,
            render::DisplayPath path) override;
  render::DisplayCost measure(render::Tiles tiles, const std::vector<view::Placement>& placements,
                              const render::DisplayOptions& options, const render::Palette& palette,
                              render::DisplayPath path, double min_seconds, int max_frames) override;
  /// The map wait, map and unmap host times, and how remote tiles travel.
  render::InteropStats interop_stats() const override;

  /// How remote tiles travel: "host-staged" when any remote slot's GPU (or a split instance's band)
  /// has no peer access to the display GPU, else "peer" ("" with no remote slot).
  std::string_view remote_copy() const;

 private:
  struct State;
  /// The interop fill of the first min(tiles, placements, engine) tiles; `timed`: the frame
  /// loop's fill, not a measurement's.
  void fill_interop(render::Tiles tiles, const std::vector<view::Placement>& placements,
                    const render::DisplayOptions& options, const render::Palette& palette, bool timed);
  void fill_textbook(render::Tiles tiles, const std::vector<view::Placement>& placements,
                     const render::DisplayOptions& options, const render::Palette& palette);
  /// Packs the first `n` tiles into the atlas; where it was made again (or its pixels are not kept,
  /// under write-discard) they count as never drawn.
  void fit_atlas(render::Tiles tiles, std::size_t n, const render::DisplayOptions& options);
  /// Each tile's buffers for the kind of its instance this frame, and its place in its slot's list
  /// (or the split list) with its view.
  void sort_tiles(render::Tiles tiles, std::size_t n, const std::vector<view::Placement>& placements,
                  const render::DisplayOptions& options, const render::Palette& palette);
  /// Maps the atlas on the render stream (the map wait timed where `timed`) and points the tiles
  /// at their places in it; returns its array.
  cudaArray_t map_atlas(render::Tiles tiles, std::size_t n, bool timed);
  void unmap_atlas();
  /// Every tile drawn: split counts and remote renders first (they run on their GPUs while the
  /// display slot's renders are enqueued), then the local renders, then what the other GPUs made
  /// brought into `atlas`.
  void draw_tiles(cudaArray_t atlas, bool timed);

  Simulation& engine_;
  std::unique_ptr<State> state_;
};

}  // namespace ls::interop
