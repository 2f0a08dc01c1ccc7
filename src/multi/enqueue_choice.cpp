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
    }
    return;
  }
  if (warmup_ > 0) {
    --warmup_;
    return;
  }
  (trial_threads_ ? threads_ms_ : caller_ms_).push_back(host_ms);
  trial_threads_ = !trial_threads_;
  if (static_cast<int>(caller_ms_.size()) == kTrialFrames) decide();
}

void EnqueueChoice::decide() {
  const double threads = median(threads_ms_), caller = median(caller_ms_);
  threads_ms_.clear();
  caller_ms_.clear();
  if (!decided_) {
    kept_threads_ = threads <= caller;
    decided_ = true;
  } else if (kept_threads_) {
    kept_threads_ = !(caller < threads * (1 - kSwitchGain));
  } else {
    kept_threads_ = threads < caller * (1 - kSwitchGain);
  }
  trying_ = false;
  settled_ = 0;
}

}  // namespace ls::multi
