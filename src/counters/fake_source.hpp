// fake_source.hpp — a counter source without hardware, for the tests: every counter of every GPU
// reads a fixed value (fake_value), so lanes, strip, CSV and report means can be checked exactly.
#pragma once

#include <vector>

#include "counters/counter_source.hpp"

namespace ls::counters {

/// The value FakeSource reads for `counter` on `gpu`: fractions 0.5 + 0.1 * gpu, the rest
/// 100 * (the counter's place in kAllCounters + 1) + gpu.
double fake_value(Counter counter, int gpu);

class FakeSource final : public CounterSource {
 public:
  /// Reads every counter of kAllCounters on each of `gpus`; the `fail_reads` first reads fail
  /// (a busy counter unit).
  explicit FakeSource(std::vector<int> gpus, double period_ms = 1.0, int fail_reads = 0);
  std::string name() const override { return "fake"; }
  std::vector<Counter> counters() const override;
  bool read(double t_ms, std::vector<Sample>& out) override;
  std::string why() const override;
  double period_ms() const override { return period_ms_; }

 private:
  std::vector<int> gpus_;
  double period_ms_;
  int fail_reads_;
  bool busy_ = false;
};

}  // namespace ls::counters
