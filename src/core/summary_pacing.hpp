// summary_pacing.hpp — pacing an instance's summaries (population, hash) by their cost: a pure
// decision (no CUDA, no clock) that an engine asks once per request_summaries() call.
//
// A summary costs about as much as a step on a huge lattice (every live cell is hashed: 524288²
// took ~150 ms on an H200 against a 29.7 ms step), so one every frame would cap the frame rate. An
// instance is summarized when its state has changed since its last summary and at least every()
// calls have passed since then, every() being the frames the summary's measured GPU time needs so
// that it stays within kSummaryBudget of the instance's own stream work per frame (step + display,
// never less than kSummaryFloorMs). Cheap summaries (small lattices: microseconds) come every
// frame; a huge lattice's come every N frames and the readout says how old they are.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ls {

/// Summaries may take this fraction of an instance's stream work per frame (on average). A huge
/// lattice's summary holds the frame it runs in (it cannot be spread: the buffer it reads is
/// rewritten two generations later), so the frame rate is at best 1 / (1 + kSummaryBudget) of the
/// step rate: 5% keeps it above 0.9 with the display's share on top.
inline constexpr double kSummaryBudget = 0.05;
/// Stream work below this counts as this much: a summary of up to kSummaryBudget * kSummaryFloorMs
/// (50 us) runs every frame however little the instance's frame costs (the app's frame costs the
/// host about a millisecond anyway, and the cross-check wants fresh hashes).
inline constexpr double kSummaryFloorMs = 1.0;
/// A summary that costs more than the instance's whole stream work per frame (and more than
/// kSummaryFloorMs) holds the frame it runs in by more than the frame itself: the display visibly
/// stops for it. Such summaries come at most once in this many frames, so that fewer than 1% of
/// the frames stall (524288² on one H100: a 138 ms summary against a 40 ms step, which the budget
/// alone would ask every 69 frames).
inline constexpr int kLongSummaryEvery = 128;
/// At most this many frames between summaries, whatever the estimate says, so that a summary
/// always comes eventually (a bad estimate cannot starve the cross-check).
inline constexpr int kMaxSummaryEvery = 1000;

/// Frames between summaries for a summary of `cost_ms` (GPU) and `work_ms` of stream work per
/// frame: the smallest N >= 1 with cost_ms <= N * kSummaryBudget * max(work_ms, kSummaryFloorMs),
/// and at least kLongSummaryEvery where cost_ms > max(work_ms, kSummaryFloorMs); at most
/// kMaxSummaryEvery. A cost not measured yet (<= 0) gives 1.
int summary_every(double cost_ms, double work_ms);

class SummaryPacer {
 public:
  /// Measurements the estimate is taken from (observe_cost).
  static constexpr std::size_t kCostWindow = 4;
  /// A summary's measured GPU time (ms). The estimate is the least of the newest kCostWindow
  /// measurements: a measurement between two events on a stream that shares the GPU with other
  /// streams (and with the display's GL work) includes the time the summary waited for them, so it
  /// can only be too high (1024² summaries beside 15 others: mostly 15-40 us, now and then 60-560
  /// us); the least of the recent ones follows a drop at once and a rise within kCostWindow.
  void observe_cost(double ms);
  /// Forgets the estimate (the summary kernel changed: another layout or size).
  void forget_cost();
  bool measured() const { return observed_ > 0; }
  double cost_ms() const;
  /// Frames between summaries at the present estimate and `work_ms` of stream work per frame.
  int every(double work_ms) const { return measured() ? summary_every(cost_ms(), work_ms) : 1; }

  /// One request opportunity (one request_summaries() call): whether to summarize now. `changed`:
  /// the state differs from the last summarized one (no summary is ever asked of a state already
  /// asked for, so a paused app costs nothing). `in_flight`: a summary of this instance is still
  /// running; while its cost is unknown nothing more is asked (a huge lattice's first summary must
  /// not be queued again every frame before its cost is known). On true the pacer counts the
  /// request (the frames to the next one start again).
  bool due(bool changed, double work_ms, bool in_flight);
  /// Opportunities since the last request (huge before the first).
  std::uint64_t since_last() const { return since_; }

 private:
  std::array<double, kCostWindow> costs_{};  // the newest measurements, round robin
  std::size_t observed_ = 0;                 // measurements since the estimate was forgotten
  std::uint64_t since_ = ~std::uint64_t{0} / 2;
};

}  // namespace ls
