// split_tile.hpp — the tile of an instance whose lattice is split into bands over several GPUs
// (multi::SplitLattice): drawn band by band. Each band's GPU counts, for every pixel of the tile,
// the live samples on its own rows (kernels::launch_count_tile_band); the counts travel to the
// display GPU (peer to peer, or through pinned host memory where two GPUs have no peer access, as
// remote tiles' pixels do) and one kernel there sums them and shades the pixels into the tile's
// place in the mapped atlas (kernels::launch_shade_tile): exactly what the render kernel draws from
// the whole lattice on one GPU. Ordered by events on both sides, never by the host:
//
//   band b's stream:  wait copied(N-1) -> count -> [host-staged: counts to pinned] -> record counted_b(N)
//   display stream:   wait counted_b(N), counts of b into the sum buffer (every b) -> shade -> record
//   copied(N)
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <vector>

#include "kernels/life_kernels.hpp"
#include "sim/band_view.hpp"

namespace ls::interop {

class SplitTile {
 public:
  /// Makes each band's count buffer and event on the band's GPU and the display GPU's sum buffer
  /// and event (each with its device current; the caller's device is kept), opening peer access
  /// where there is any.
  SplitTile(const std::vector<sim::BandView>& bands, int display, int width, int height);
  ~SplitTile();
  SplitTile(const SplitTile&) = delete;
  SplitTile& operator=(const SplitTile&) = delete;

  /// Whether this tile's buffers serve `bands` (the same devices and rows) at this size.
  bool fits(const std::vector<sim::BandView>& bands, int width, int height) const;
  /// Whether some band's counts go through host memory (no peer access to the display GPU).
  bool host_staged() const;
  /// On each band's GPU and stream (its device made current here): this frame's counts for `view`,
  /// between `start` and `end` (band index, stream) where given (timeline brackets).
  using BandMark = std::function<void(int band, cudaStream_t stream)>;
  void count(const std::vector<sim::BandView>& bands, const kernels::TileView& view,
             const BandMark& start = {}, const BandMark& end = {});
  /// Display GPU current, on its render stream while the atlas is mapped: waits for every band's
  /// counts, brings them over and shades the tile into `surface` at (view.surface_x, view.surface_y).
  void shade(cudaSurfaceObject_t surface, const kernels::TileView& view, cudaStream_t stream);

 private:
  struct Band;
  struct DisplaySide;
  int display_ = 0;
  int width_ = 0;  // the tile's, in pixels
  int height_ = 0;
  int lattice_width_ = 0;
  int lattice_height_ = 0;
  std::vector<std::unique_ptr<Band>> bands_;
  std::unique_ptr<DisplaySide> display_side_;
};

}  // namespace ls::interop
