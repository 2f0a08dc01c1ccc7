// fill_measure.hpp — the isolated cost of filling every tile (the report's interop_ms_per_tile and
// textbook_ms_per_tile): one warm-up fill, then fills back to back until `min_seconds` or
// `max_frames`, each measurement ended by a drain (the render stream and GL finished). For
// CudaTileFiller::measure; never in the frame loop.
#pragma once

#include <cstddef>
#include <functional>

#include "render/tile_filler.hpp"

namespace ls::interop {

/// The host-side totals a filler keeps of its map and unmap calls (read before and after).
struct MapTotals {
  const double& map_host_ms;
  const double& unmap_host_ms;
};

/// Measures `fill_once` over `tiles` tiles: `settle` (the engine's work finished) and `drain` first,
/// a warm-up fill, then the timed fills; the map/unmap host time per fill from `totals`.
render::DisplayCost measure_fill(std::size_t tiles, const std::function<void()>& settle,
                                 const std::function<void()>& fill_once, const std::function<void()>& drain,
                                 MapTotals totals, double min_seconds, int max_frames);

}  // namespace ls::interop
