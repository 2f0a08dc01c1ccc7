// enqueue_choice.hpp — who enqueues a frame over several device slots: the slots' own threads or the
// caller's thread, whichever the host measures faster (plain C++, no clock of its own).
//
// A thread per GPU enqueues the GPUs' parts side by side, but handing a frame to the threads and
// waiting for them costs the host too, and CUDA calls made at once from several threads on
// several devices run slower than the same calls made one after the other (two H200s, stream mode
// graph, 128 x 1024², one generation a frame: one graph launch per GPU, 0.023 ms each; the threads'
// frames were 6% slower than the calling thread's: bench/NOTES.md "Threads on two GPUs"). Which
// wins depends on the frame's calls per GPU and on the number of GPUs, so it is measured. After
// kWarmupFrames frames (an engine's first frames load modules and build graphs), a trial runs
// pairs of frames, one each way in an order drawn per pair, until each way has run kTrialFrames
// frames, so that a change in the frames' cost during the trial, or a cost that comes every other
// frame (a timing period of 2), weighs on both ways alike; the faster (median host time) is kept for
// kSettledFrames frames, then both are tried again, and the kept way changes only when the other
// was at least kSwitchGain faster. The trial frames in the slower way cost at most
// kTrialFrames / kSettledFrames of the frames (under 1%).
#pragma once

#include <cstdint>
#include <vector>

namespace ls::multi {

class EnqueueChoice {
 public:
  static constexpr int kWarmupFrames = 4;
  static constexpr int kTrialFrames = 8;
  static constexpr int kSettledFrames = 1000;
  static constexpr double kSwitchGain = 0.03;

  /// Whether the next frame is enqueued by the slots' threads.
  bool threads() const { return trying_ ? trial_threads_ : kept_threads_; }
  /// Whether the next frame is a trial frame (its time decides), not a kept way's or a warm-up's.
  bool trying() const { return trying_ && warmup_ == 0; }
  /// The host time of the frame just enqueued, the way threads() said.
  void record(double host_ms);
  /// What a frame's calls are changed (another stream mode): a warm-up and a trial again, at once.
  void restart();
  /// Frames enqueued so far by each way (tests, the bench's notes).
  std::uint64_t frames_on_threads() const { return on_threads_; }
  std::uint64_t frames_on_caller() const { return on_caller_; }

 private:
  void begin_trial();
  /// Draws which way the next pair's first frame takes.
  void start_pair();
  /// Ends a trial of both ways: keeps the faster (the first trial) or switches when the other was
  /// kSwitchGain faster (median host times).
  void decide();

  bool kept_threads_ = true;
  bool decided_ = false;  // a first trial has ended
  bool trying_ = true;
  bool trial_threads_ = true;       // the way the next trial (or warm-up) frame uses
  int warmup_ = kWarmupFrames;      // frames left before the first trial frame
  int trial_frame_ = 0;             // frames of this trial so far
  std::uint64_t pairs_ = 0;         // pairs begun: drawn from, for the way each goes first
  std::vector<double> threads_ms_;  // this trial's frames, each way
  std::vector<double> caller_ms_;
  int settled_ = 0;  // frames since the last trial ended
  std::uint64_t on_threads_ = 0;
  std::uint64_t on_caller_ = 0;
};

}  // namespace ls::multi
