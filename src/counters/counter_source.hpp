// counter_source.hpp — where the sampler's readings come from: NVML (clocks, power, PCIe), and a
// fake for the tests. A source is used from the sampler's thread only.
#pragma once

#include <string>
#include <vector>

#include "counters/counter.hpp"

namespace ls::counters {

class CounterSource {
 public:
  virtual ~CounterSource() = default;
  /// The API behind it, for the report's `counters_source` ("NVML", "fake").
  virtual std::string name() const = 0;
  /// The counters it reads (for every GPU it was given).
  virtual std::vector<Counter> counters() const = 0;
  /// Appends one reading of each of its counters on each of its GPUs, stamped `t_ms`. False when
  /// it cannot read now; why() then says why in one line.
  virtual bool read(double t_ms, std::vector<Sample>& out) = 0;
  virtual std::string why() const { return {}; }
  /// The shortest useful time between two reads (ms): the API's own update interval.
  virtual double period_ms() const = 0;
};

}  // namespace ls::counters
