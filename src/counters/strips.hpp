// strips.hpp — the panel's strips: the readings of the last seconds, per GPU and counter, as the
// means of equal time buckets (one value per drawn point, whatever the sampling rate).
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "counters/counter.hpp"

namespace ls::counters {

struct Strip {
  int gpu = 0;
  Counter counter = Counter::sm_active;
  /// Bucket means, oldest first; a bucket without a reading repeats the one before it (the first
  /// readings fill the buckets before them).
  std::vector<float> values;
  double newest = 0;  ///< the newest reading
};

/// Bucket means built one reading at a time, so that a caller holding readings elsewhere (the
/// sampler's kept window, under its lock) builds the strips without copying them first.
class StripBuilder {
 public:
  /// `buckets` < 1 counts as 1.
  StripBuilder(double now_ms, double window_ms, int buckets);
  /// Counts `s` when it lies in (now_ms - window_ms, now_ms].
  void add(const Sample& s);
  /// The strips of what was added, as strips() describes them.
  std::vector<Strip> finish() const;

 private:
  struct Sums {
    std::vector<double> sum;
    std::vector<int> n;
    double newest_t = -1, newest = 0;
  };
  double now_ms_, window_ms_;
  int buckets_;
  std::map<std::pair<int, int>, Sums> by_key_;  // (gpu, place in kAllCounters)
};

/// The readings in (now_ms - window_ms, now_ms] as `buckets` means for every (GPU, counter) read
/// there, ordered by GPU, then as in kAllCounters. `buckets` < 1 counts as 1.
std::vector<Strip> strips(const std::vector<Sample>& samples, double now_ms, double window_ms, int buckets);

}  // namespace ls::counters
