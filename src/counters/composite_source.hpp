// composite_source.hpp — several counter sources read as one (CUPTI's PM sampling for the SM and
// memory counters, NVML for clocks and power): each is read every time, at the shortest period
// any of them asks for.
#pragma once

#include <memory>
#include <vector>

#include "counters/counter_source.hpp"

namespace ls::counters {

class CompositeSource final : public CounterSource {
 public:
  explicit CompositeSource(std::vector<std::unique_ptr<CounterSource>> parts);
  /// The parts' names joined with " + ".
  std::string name() const override;
  std::vector<Counter> counters() const override;
  /// True when any part read; why() names the parts that did not.
  bool read(double t_ms, std::vector<Sample>& out) override;
  std::string why() const override { return why_; }
  double period_ms() const override;

 private:
  std::vector<std::unique_ptr<CounterSource>> parts_;
  std::string why_;
};

}  // namespace ls::counters
