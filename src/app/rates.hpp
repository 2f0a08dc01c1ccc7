// rates.hpp — the rates the panel and --report show: generations per second of an instance, the
// cell updates the app delivered, and the kernel rate (the instances' own step rates summed).
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "core/engine.hpp"

namespace ls::app {

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

/// The kernel rate: the sum of the instances' step rates (cell updates per second).
double kernel_rate(const std::vector<InstanceStatus>& statuses);

}  // namespace ls::app
