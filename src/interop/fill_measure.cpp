// fill_measure.cpp — implements measure_fill (fill_measure.hpp).
#include "interop/fill_measure.hpp"

#include <chrono>

namespace ls::interop {

render::DisplayCost measure_fill(std::size_t tiles, const std::function<void()>& settle,
                                 const std::function<void()>& fill_once, const std::function<void()>& drain,
                                 MapTotals totals, double min_seconds, int max_frames) {
  using Clock = std::chrono::steady_clock;
  render::DisplayCost cost;
  if (tiles == 0) return cost;
  settle();
  drain();
  fill_once();  // warm-up: first maps, first launches, host and remote buffers
  drain();
  const double map_before = totals.map_host_ms, unmap_before = totals.unmap_host_ms;
  const auto start = Clock::now();
  int frames = 0;
  do {
    fill_once();
    ++frames;
  } while (frames < max_frames && std::chrono::duration<double>(Clock::now() - start).count() < min_seconds);
  drain();
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  cost.tiles = static_cast<int>(tiles);
  cost.frames = frames;
  cost.ms_per_frame = ms / frames;
  cost.ms_per_tile = cost.ms_per_frame / static_cast<double>(tiles);
  cost.map_host_ms = (totals.map_host_ms - map_before) / frames;
  cost.unmap_host_ms = (totals.unmap_host_ms - unmap_before) / frames;
  return cost;
}

}  // namespace ls::interop
