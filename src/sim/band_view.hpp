// band_view.hpp — one band of a split lattice as a reader sees it (header only, no link
// dependency): what SplitLattice::band_views() gives and what the display draws a split instance's
// tile from, band by band.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/life_kernels.hpp"

namespace ls::sim {

/// One band as a renderer (or any reader) sees it: its own rows of the current generation on its
/// device, valid for work enqueued on `stream` after the last step() (or ordered behind it by an
/// event recorded there), until the next step(), edit or destruction.
struct BandView {
  int device = 0;
  cudaStream_t stream = nullptr;
  kernels::Layout layout = kernels::Layout::bit_cells;
  const void* own_rows = nullptr;  // row first_row of the lattice; rows follow at the layout's pitch
  int first_row = 0;               // in the whole lattice
  int rows = 0;
  int width = 0;   // the whole lattice's
  int height = 0;  // the whole lattice's
};

}  // namespace ls::sim
