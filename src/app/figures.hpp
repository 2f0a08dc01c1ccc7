// figures.hpp — what the frame loop measures of itself for the panel and --report: each frame's CPU
// time and the engine's timings of it, host syncs, and, after the loop, what filling the tiles
// costs by each display path.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "app/report.hpp"
#include "core/engine.hpp"
#include "core/stats.hpp"

namespace ls::render {
class TileRenderer;
struct Palette;
}  // namespace ls::render

namespace ls::app {

class Scene;

/// Generations per second, measured over the last half second or more from an instance's
/// generation count (which a reset or load starts again from 0).
class GenerationRate {
 public:
  /// The count at `now_s` seconds.
  void add(double now_s, std::uint64_t generation);
  /// Negative until a whole window has been measured.
  double per_second() const { return rate_; }

 private:
  static constexpr double kWindowSeconds = 0.5;  // steady to read, quick to follow a change
  double start_s_ = -1;
  std::uint64_t start_generation_ = 0;
  double rate_ = -1;
};

/// Cell updates the app delivered: cells times generations actually advanced, per wall-clock
/// second over the last second. Whatever runs the steps (frames, a step command, kernels back to
/// back or one after another), this is what the person got.
class DeliveredRate {
 public:
  /// `cells` updated (cells times generations, every instance) since the last add, at `now_s`.
  void add(double now_s, double cells);
  /// Over the last kWindowSeconds (0 before two samples, or when nothing advanced).
  double per_second() const;
  /// Every cell update counted since the start.
  double total() const { return total_; }

  static constexpr double kWindowSeconds = 1.0;

 private:
  std::deque<std::pair<double, double>> window_;  // (time, total then), oldest first
  double total_ = 0;
};

class FrameFigures {
 public:
  /// The figures so far (the frame steps add their own host times to it).
  RunFigures& run() { return run_; }
  const RunFigures& run() const { return run_; }
  long long frames() const { return run_.frames; }
  /// The recent frames' CPU time, for the panel.
  StatSummary recent_frame_ms() const { return frame_stats_.summary(); }

  /// One frame drawn: its CPU time and the engine's timings for it (valid or not yet).
  void add_frame(double ms, const FrameTimings& timings);
  /// The blocking calls of the frame's engine step.
  void add_host_syncs(std::uint64_t syncs) { syncs_total_ += static_cast<double>(syncs); }

  /// After the loop, for --report: the loop's wall time, the means over frames with timings, and
  /// what filling every tile costs by each display path (the same tiles and state, measured now).
  void finish(double seconds, render::TileRenderer& renderer, Engine& engine, const Scene& scene,
              const render::Palette& palette);

 private:
  void measure_display(render::TileRenderer& renderer, Engine& engine, const Scene& scene,
                       const render::Palette& palette);

  RunFigures run_;
  RollingStats frame_stats_;
  long long valid_timings_ = 0;
  std::map<int, long long> gpu_frames_;  // frames that timed each GPU
  double syncs_total_ = 0;
};

}  // namespace ls::app
