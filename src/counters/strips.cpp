// strips.cpp — implements strips.hpp.
#include "counters/strips.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace ls::counters {

namespace {

int place_of(Counter c) {
  return static_cast<int>(std::find(kAllCounters.begin(), kAllCounters.end(), c) - kAllCounters.begin());
}

}  // namespace

std::vector<Strip> strips(const std::vector<Sample>& samples, double now_ms, double window_ms, int buckets) {
  buckets = std::max(buckets, 1);
  const double from = now_ms - window_ms;
  struct Sums {
    std::vector<double> sum;
    std::vector<int> n;
    double newest_t = -1, newest = 0;
  };
  std::map<std::pair<int, int>, Sums> by_key;  // (gpu, place in kAllCounters)
  for (const Sample& s : samples) {
    if (!(s.t_ms > from && s.t_ms <= now_ms)) continue;
    Sums& sums = by_key[{s.gpu, place_of(s.counter)}];
    if (sums.sum.empty()) {
      sums.sum.assign(static_cast<std::size_t>(buckets), 0.0);
      sums.n.assign(static_cast<std::size_t>(buckets), 0);
    }
    const int b = std::min(buckets - 1, static_cast<int>((s.t_ms - from) / window_ms * buckets));
    sums.sum[static_cast<std::size_t>(b)] += s.value;
    ++sums.n[static_cast<std::size_t>(b)];
    if (s.t_ms >= sums.newest_t) {
      sums.newest_t = s.t_ms;
      sums.newest = s.value;
    }
  }
  std::vector<Strip> out;
  for (const auto& [key, sums] : by_key) {
    Strip strip;
    strip.gpu = key.first;
    strip.counter = kAllCounters[static_cast<std::size_t>(key.second)];
    strip.newest = sums.newest;
    strip.values.resize(static_cast<std::size_t>(buckets));
    const auto first = std::find_if(sums.n.begin(), sums.n.end(), [](int n) { return n > 0; });
    double last = sums.sum[static_cast<std::size_t>(first - sums.n.begin())] / *first;
    for (std::size_t b = 0; b < strip.values.size(); ++b) {
      if (sums.n[b] > 0) last = sums.sum[b] / sums.n[b];
      strip.values[b] = static_cast<float>(last);
    }
    out.push_back(std::move(strip));
  }
  return out;
}

}  // namespace ls::counters
