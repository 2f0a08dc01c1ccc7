// enqueue_choice.cpp — implements enqueue_choice.hpp: trials of both ways, the faster kept.
#include "multi/enqueue_choice.hpp"

#include "core/stats.hpp"

namespace ls::multi {

void EnqueueChoice::record(double host_ms) {
  ++(threads() ? on_threads_ : on_caller_);
  if (!trying_) {
    if (++settled_ >= kSettledFrames) {
      trying_ = true;
      trial_threads_ = true;
      trial_ways_done_ = 0;
    }
    return;
  }
  trial_ms_.push_back(host_ms);
  if (static_cast<int>(trial_ms_.size()) < kTrialFrames) return;
  (trial_threads_ ? threads_ms_ : caller_ms_) = median(trial_ms_);
  trial_ms_.clear();
  if (++trial_ways_done_ < 2) {
    trial_threads_ = !trial_threads_;
    return;
  }
  decide();
}

void EnqueueChoice::decide() {
  if (!decided_) {
    kept_threads_ = threads_ms_ <= caller_ms_;
    decided_ = true;
  } else if (kept_threads_) {
    kept_threads_ = !(caller_ms_ < threads_ms_ * (1 - kSwitchGain));
  } else {
    kept_threads_ = threads_ms_ < caller_ms_ * (1 - kSwitchGain);
  }
  trying_ = false;
  settled_ = 0;
}

}  // namespace ls::multi
