// fake_source.cpp — implements fake_source.hpp.
#include "counters/fake_source.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ls::counters {

double fake_value(Counter counter, int gpu) {
  if (is_fraction(counter)) return 0.5 + 0.1 * gpu;
  const auto place =
      std::distance(kAllCounters.begin(), std::find(kAllCounters.begin(), kAllCounters.end(), counter));
  return 100.0 * static_cast<double>(place + 1) + gpu;
}

FakeSource::FakeSource(std::vector<int> gpus, double period_ms, int fail_reads)
    : gpus_(std::move(gpus)), period_ms_(period_ms), fail_reads_(fail_reads) {}

std::vector<Counter> FakeSource::counters() const { return {kAllCounters.begin(), kAllCounters.end()}; }

bool FakeSource::read(double t_ms, std::vector<Sample>& out) {
  if (fail_reads_ > 0) {
    --fail_reads_;
    busy_ = true;
    return false;
  }
  busy_ = false;
  for (const int g : gpus_)
    for (const Counter c : kAllCounters) out.push_back(Sample{t_ms, g, c, fake_value(c, g)});
  return true;
}

std::string FakeSource::why() const { return busy_ ? "the fake counter unit is busy" : ""; }

}  // namespace ls::counters
