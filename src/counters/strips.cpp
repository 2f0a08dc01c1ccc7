// strips.cpp — implements strips.hpp.
#include "counters/strips.hpp"

#include <algorithm>
#include <utility>

namespace ls::counters {

namespace {

int place_of(Counter c) {
  return static_cast<int>(std::find(kAllCounters.begin(), kAllCounters.end(), c) - kAllCounters.begin());
}

}  // namespace

StripBuilder::StripBuilder(double now_ms, double window_ms, int buckets)
    : now_ms_(now_ms), window_ms_(window_ms), buckets_(std::max(buckets, 1)) {}

void StripBuilder::add(const Sample& s) {
  const double from = now_ms_ - window_ms_;
  if (!(s.t_ms > from && s.t_ms <= now_ms_)) return;
  Sums& sums = by_key_[{s.gpu, place_of(s.counter)}];
  if (sums.sum.empty()) {
    sums.sum.assign(static_cast<std::size_t>(buckets_), 0.0);
    sums.n.assign(static_cast<std::size_t>(buckets_), 0);
  }
  const int b = std::min(buckets_ - 1, static_cast<int>((s.t_ms - from) / window_ms_ * buckets_));
  sums.sum[static_cast<std::size_t>(b)] += s.value;
  ++sums.n[static_cast<std::size_t>(b)];
  if (s.t_ms >= sums.newest_t) {
    sums.newest_t = s.t_ms;
    sums.newest = s.value;
  }
}

std::vector<Strip> StripBuilder::finish() const {
  std::vector<Strip> out;
  for (const auto& [key, sums] : by_key_) {
    Strip strip;
    strip.gpu = key.first;
    strip.counter = kAllCounters[static_cast<std::size_t>(key.second)];
    strip.newest = sums.newest;
    strip.values.resize(static_cast<std::size_t>(buckets_));
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

std::vector<Strip> strips(const std::vector<Sample>& samples, double now_ms, double window_ms, int buckets) {
  StripBuilder builder(now_ms, window_ms, buckets);
  for (const Sample& s : samples) builder.add(s);
  return builder.finish();
}

}  // namespace ls::counters
