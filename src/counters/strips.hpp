// strips.hpp — the panel's strips: the readings of the last seconds, per GPU and counter, as the
// means of equal time buckets (one value per drawn point, whatever the sampling rate).
#pragma once

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

/// The readings in (now_ms - window_ms, now_ms] as `buckets` means for every (GPU, counter) read
/// there, ordered by GPU, then as in kAllCounters. `buckets` < 1 counts as 1.
std::vector<Strip> strips(const std::vector<Sample>& samples, double now_ms, double window_ms, int buckets);

}  // namespace ls::counters
