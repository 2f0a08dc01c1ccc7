// test_summary_pacing.cpp — summaries paced by their cost: cheap ones every frame, a huge
// lattice's within the budget, pacing back to every frame when the cost drops, a measurement
// inflated by other streams' work ignored, nothing asked of a state already summarized.
#include <gtest/gtest.h>

#include "core/summary_pacing.hpp"

namespace ls {
namespace {

/// Requests made by `pacer` over `frames` frames, each frame changing the state (a running app),
/// with the summaries finishing at once (nothing in flight).
int requests_over(SummaryPacer& pacer, int frames, double work_ms) {
  int n = 0;
  for (int f = 0; f < frames; ++f) n += pacer.due(true, work_ms, false) ? 1 : 0;
  return n;
}

TEST(SummaryPacing, AFiveMicrosecondSummaryInAHundredMicrosecondFrameComesEveryFrame) {
  SummaryPacer pacer;
  pacer.observe_cost(0.005);
  EXPECT_EQ(pacer.every(0.1), 1);
  EXPECT_EQ(requests_over(pacer, 100, 0.1), 100);
}

TEST(SummaryPacing, AHugeLatticesSummaryComesAtMostOnceInThirtyFrames) {
  // A 524288² bitpacked instance on an H200: 150 ms of summary, 31 ms of stream work.
  SummaryPacer pacer;
  pacer.observe_cost(150);
  EXPECT_GE(pacer.every(31), 30);
  const int frames = 3000;
  const int n = requests_over(pacer, frames, 31);
  EXPECT_LE(n * 30, frames);
  // Within the budget: the summaries' GPU time over the run is at most kSummaryBudget of the
  // stream work (plus the first summary, taken before anything was known).
  EXPECT_LE((n - 1) * 150.0, kSummaryBudget * 31 * frames);
  // ... and not far below it: the pacing does not starve the cross-check.
  EXPECT_GE(n * 150.0, 0.5 * kSummaryBudget * 31 * frames);
}

TEST(SummaryPacing, ASummaryLongerThanItsFrameComesAtMostOnceInKLongSummaryEveryFrames) {
  // 138 ms of summary against 40 ms of stream work: the budget alone would ask every 69 frames.
  EXPECT_EQ(summary_every(138, 40), kLongSummaryEvery);
  SummaryPacer pacer;
  pacer.observe_cost(138);
  const int frames = 100 * kLongSummaryEvery;
  EXPECT_LE(requests_over(pacer, frames, 40), frames / kLongSummaryEvery + 1)
      << "fewer than 1% of frames stall";
  // A summary longer than its frame whose budget asks for rarer still keeps the budget's pace.
  EXPECT_EQ(summary_every(1000, 100), 200);
  // Up to the frame's own cost the budget alone decides: 39 ms in a 40 ms frame, every 20 frames;
  // and a summary under the floor is never long (the floor counts as the frame).
  EXPECT_EQ(summary_every(39, 40), 20);
  EXPECT_EQ(summary_every(0.9, 0.1), 18);
  EXPECT_LT(1.0 / kLongSummaryEvery, 0.01);
}

TEST(SummaryPacing, WhenTheCostDropsPacingReturnsToEveryFrame) {
  SummaryPacer pacer;
  pacer.observe_cost(150);
  ASSERT_TRUE(pacer.due(true, 31, false));  // the first: never asked before
  EXPECT_FALSE(pacer.due(true, 31, false));
  pacer.observe_cost(0.004);  // the lattice emptied (or was replaced by a small one)
  EXPECT_EQ(pacer.every(31), 1);
  EXPECT_EQ(requests_over(pacer, 10, 31), 10);
}

TEST(SummaryPacing, AnUnchangedStateIsNeverSummarizedAgain) {
  SummaryPacer pacer;
  pacer.observe_cost(0.005);
  ASSERT_TRUE(pacer.due(true, 0.1, false));
  for (int f = 0; f < 50; ++f) EXPECT_FALSE(pacer.due(false, 0.1, false));  // paused
  EXPECT_TRUE(pacer.due(true, 0.1, false));                                 // an edit
}

TEST(SummaryPacing, AnEditWhilePausedIsSummarizedOnceItsTurnComes) {
  // A huge lattice paused after a summary: a drawn cell is summarized after the paced number of
  // redraws even though no frame is stepped, and the state is then left alone.
  SummaryPacer pacer;
  pacer.observe_cost(150);
  ASSERT_TRUE(pacer.due(true, 31, false));
  const int every = pacer.every(31);
  int calls = 1;
  while (!pacer.due(true, 31, false)) ++calls;
  EXPECT_EQ(calls, every);
  EXPECT_FALSE(pacer.due(false, 31, false));
}

TEST(SummaryPacing, AnUnmeasuredSummaryInFlightIsNotAskedAgain) {
  SummaryPacer pacer;
  ASSERT_TRUE(pacer.due(true, 31, false));
  for (int f = 0; f < 10; ++f) EXPECT_FALSE(pacer.due(true, 31, true));
  // Once its cost is known the pacing takes over (here: cheap, so at once).
  pacer.observe_cost(0.01);
  EXPECT_TRUE(pacer.due(true, 31, true));
}

TEST(SummaryPacing, EveryIsTheSmallestFrameCountWithinTheBudget) {
  // 1 ms of summary against 2 ms of work at a 5% budget: 0.1 ms per frame, so 10 frames.
  EXPECT_EQ(summary_every(1.0, 2.0), 10);
  // Work below the floor counts as the floor: 50 us fit in every frame.
  EXPECT_EQ(summary_every(kSummaryBudget * kSummaryFloorMs, 0.001), 1);
  EXPECT_EQ(summary_every(2 * kSummaryBudget * kSummaryFloorMs, 0.001), 2);
  EXPECT_EQ(summary_every(0, 31), 1);
  EXPECT_EQ(summary_every(1e12, 31), kMaxSummaryEvery);
}

TEST(SummaryPacing, ASummaryThatWaitedBehindOtherStreamsDoesNotPaceACheapOne) {
  // Measured on an H100, 16 x 1024² in their own streams: most summaries took 15-40 us between
  // their events, one now and then 560 us (it waited for the others' kernels and the display).
  // Paced by that one (every 12 frames), frames without it waited ~2.5 ms for the CUDA-GL handoff.
  SummaryPacer pacer;
  pacer.observe_cost(0.020);
  pacer.observe_cost(0.030);
  pacer.observe_cost(0.560);
  EXPECT_DOUBLE_EQ(pacer.cost_ms(), 0.020);
  EXPECT_EQ(pacer.every(0.075), 1);
  EXPECT_EQ(requests_over(pacer, 50, 0.075), 50);
}

TEST(SummaryPacing, ACostThatStaysHigherIsFollowedWithinTheWindow) {
  // The lattice filled up: every measurement from now on is higher. The estimate keeps the cheap
  // one until the window has only the new cost left, then paces by it.
  SummaryPacer pacer;
  pacer.observe_cost(0.010);
  for (std::size_t i = 1; i < SummaryPacer::kCostWindow; ++i) {
    pacer.observe_cost(150);
    EXPECT_DOUBLE_EQ(pacer.cost_ms(), 0.010) << i << " high measurements";
  }
  pacer.observe_cost(150);
  EXPECT_DOUBLE_EQ(pacer.cost_ms(), 150);
  EXPECT_GE(pacer.every(31), 30);
}

TEST(SummaryPacing, ForgettingTheCostForgetsEveryMeasurement) {
  // Another layout: the old kernel's cheap measurements must not keep the new one's estimate low.
  SummaryPacer pacer;
  pacer.observe_cost(0.001);
  pacer.forget_cost();
  EXPECT_DOUBLE_EQ(pacer.cost_ms(), 0);
  pacer.observe_cost(150);
  EXPECT_DOUBLE_EQ(pacer.cost_ms(), 150);
}

TEST(SummaryPacing, ForgettingTheCostAsksAtOnce) {
  SummaryPacer pacer;
  pacer.observe_cost(150);
  ASSERT_TRUE(pacer.due(true, 31, false));
  pacer.forget_cost();
  EXPECT_FALSE(pacer.measured());
  EXPECT_TRUE(pacer.due(true, 31, false));
}

}  // namespace
}  // namespace ls
