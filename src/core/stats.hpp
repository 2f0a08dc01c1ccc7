// stats.hpp — rolling timing statistics over a fixed window of frames.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/engine.hpp"

namespace ls {

/// The median of `v` (the mean of the middle two for an even count); 0 for none.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Keeps the last kTimingWindow samples; summary() gives last/mean/std/min/max.
class RollingStats {
 public:
  void add(double value) {
    samples_[next_] = value;
    next_ = (next_ + 1) % samples_.size();
    if (count_ < samples_.size()) ++count_;
    last_ = value;
  }
  void clear() {
    count_ = next_ = 0;
    last_ = 0;
  }
  std::size_t count() const { return count_; }
  /// The samples in the window, oldest first (what a history plot draws).
  std::vector<float> history() const {
    std::vector<float> out;
    history(out);
    return out;
  }
  /// The same into `out` (replaced, its capacity reused).
  void history(std::vector<float>& out) const {
    out.clear();
    const std::size_t first = count_ < samples_.size() ? 0 : next_;
    for (std::size_t i = 0; i < count_; ++i)
      out.push_back(static_cast<float>(samples_[(first + i) % samples_.size()]));
  }
  StatSummary summary() const {
    StatSummary s;
    if (count_ == 0) return s;
    s.samples = static_cast<int>(count_);
    s.last = last_;
    s.min = s.max = samples_[0];
    double sum = 0;
    for (std::size_t i = 0; i < count_; ++i) {
      sum += samples_[i];
      s.min = samples_[i] < s.min ? samples_[i] : s.min;
      s.max = samples_[i] > s.max ? samples_[i] : s.max;
    }
    s.mean = sum / static_cast<double>(count_);
    double var = 0;
    for (std::size_t i = 0; i < count_; ++i) var += (samples_[i] - s.mean) * (samples_[i] - s.mean);
    s.std = std::sqrt(var / static_cast<double>(count_));
    return s;
  }

 private:
  std::array<double, kTimingWindow> samples_{};
  std::size_t count_ = 0;
  std::size_t next_ = 0;
  double last_ = 0;
};

}  // namespace ls
