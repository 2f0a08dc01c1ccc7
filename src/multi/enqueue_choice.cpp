// enqueue_choice.cpp — implements enqueue_choice.hpp: trials of both ways, the faster kept.
#include "multi/enqueue_choice.hpp"

#include "core/splitmix.hpp"
#include "core/stats.hpp"

namespace ls::multi {

void EnqueueChoice::record(double host_ms) {
  ++(threads() ? on_threads_ : on_caller_);
  if (!trying_) {
    if (++settled_ >= kSettledFrames) begin_trial();
    return;
  }
  if (warmup_ > 0) {
    if (--warmup_ == 0) begin_trial();
    return;
  }
  (trial_threads_ ? threads_ms_ : caller_ms_).push_back(host_ms);
  if (++trial_frame_ % 2 == 1)
    trial_threads_ = !trial_threads_;  // the pair's second frame: the other way
  else
    start_pair();
  if (static_cast<int>(threads_ms_.size()) == kTrialFrames &&
      static_cast<int>(caller_ms_.size()) == kTrialFrames)
    decide();
}

void EnqueueChoice::restart() {
  trying_ = true;
  trial_threads_ = true;
  warmup_ = kWarmupFrames;
  threads_ms_.clear();
  caller_ms_.clear();
}

void EnqueueChoice::begin_trial() {
  trying_ = true;
  trial_frame_ = 0;
  start_pair();
}

void EnqueueChoice::start_pair() {
  // Which way goes first in each pair is drawn, so that a cost that comes every other frame (a
  // timing period of 2) falls on both ways alike.
  trial_threads_ = (splitmix64(++pairs_) & 1u) != 0;
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
