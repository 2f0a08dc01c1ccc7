// edge_windows.cpp — edge window rows and the chosen interior trim (edge_windows.hpp).
#include "multi/edge_windows.hpp"

#include <algorithm>

#include "kernels/life_kernels.hpp"
#include "multi/band_partition.hpp"

namespace ls::multi {

int edge_window_rows(int halo, int depth, int trim) {
  return (halo + trim + 2 * depth + kBandRowGranularity - 1) / kBandRowGranularity * kBandRowGranularity;
}

/// The launcher runs whole blocks, so an interior of 32768 rows (65536 wide, k = 16, 132
/// multiprocessors) spills 9 of its 4761 blocks into a 37th round, where 32640 rows fit 36 (2% of
/// the split 65536²'s speed-up on two H200s, NOTES.md). The smallest trim (at most 128 rows, and
/// rows / 32) whose interior keeps the band's tile and needs at least 1% fewer rounds, the rounds
/// saved outweighing what the larger edge windows add (counted as if they ran alone; they run
/// beside the interior and fill its last round). Measured: trims that change the tile, or windows
/// of hundreds of rows, lose (16384², NOTES.md).
int choose_trim(int rows, int width, int halo, int depth) {
  using kernels::bitpacked_launch_plan;
  const auto edge_work = [&](int trim) {
    const kernels::BitpackedPlan e = bitpacked_launch_plan(width, edge_window_rows(halo, depth, trim), depth);
    return 2 * e.rounds * e.tile_rows;
  };
  const kernels::BitpackedPlan whole = bitpacked_launch_plan(width, rows, depth);
  for (int trim = kHaloGranularity; trim <= std::min(128, rows / 32); trim += kHaloGranularity) {
    const kernels::BitpackedPlan p = bitpacked_launch_plan(width, rows - 2 * trim, depth);
    if (p.tile_rows != whole.tile_rows || p.warps != whole.warps) continue;
    const long long saved = (whole.rounds - p.rounds) * whole.tile_rows;
    if (static_cast<double>(p.rounds) <= 0.99 * static_cast<double>(whole.rounds) &&
        saved > edge_work(trim) - edge_work(0))
      return trim;
  }
  return 0;
}

}  // namespace ls::multi
