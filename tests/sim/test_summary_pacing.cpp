// test_summary_pacing.cpp — on the device: a large lattice's summaries are paced by their cost
// (fewer than one a frame) yet exact when they come (population and hash equal the CPU's at the
// summary's own generation), their age is counted in frames, they show in the timeline, and the
// pacing follows the cost when it drops.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/engine.hpp"
#include "core/rule.hpp"
#include "core/summary_pacing.hpp"
#include "sim/cuda_engine.hpp"

namespace ls {
namespace {

class SummaryPacingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  }
};

InstanceSpec large_soup() {
  // 2^30 cells, about a quarter of a billion live: its summary costs far more than the 50 us a
  // frame of a one-generation step may spend on it (kSummaryBudget of kSummaryFloorMs).
  InstanceSpec spec;
  spec.width = spec.height = 32768;
  spec.variant = Variant::bitpacked;
  spec.generations_per_launch = 1;
  spec.init = RandomInit{0.5, 2024};
  return spec;
}

TEST_F(SummaryPacingTest, ALargeLatticesSummariesArePacedAndExactAtTheirGeneration) {
  sim::CudaEngine engine;
  engine.add(large_soup());
  // Enough frames for two paced summaries after the first, even at a summary longer than its
  // frame (kLongSummaryEvery).
  constexpr int kFrames = 2 * kLongSummaryEvery + 8;
  int summaries = 0;
  std::uint64_t newest = ~std::uint64_t{0};
  std::uint64_t last_every = 0;
  for (int f = 0; f < kFrames; ++f) {
    engine.step(1);
    engine.request_summaries();
    for (std::size_t i = 0; i < engine.size(); ++i)
      if (engine.begin_display(i)) engine.end_display(i);
    engine.finish();  // the summary asked in this frame (if any) is done: it is this frame's state
    const InstanceStatus s = engine.status(0);
    ASSERT_TRUE(s.summary.has_value()) << "frame " << f;
    if (s.summary->generation != newest) {
      newest = s.summary->generation;
      ++summaries;
      // A new summary is of this frame's state, and exact.
      EXPECT_EQ(s.summary->generation, s.generation);
      EXPECT_EQ(s.summary_frames_ago, 0u);
      const Lattice cells = engine.read(0);
      EXPECT_EQ(s.summary->population, cells.population()) << "generation " << s.generation;
      EXPECT_EQ(s.summary->hash, cells.hash()) << "generation " << s.generation;
      // It was timed in a timed frame: it has its bar, on the instance's row, inside the span.
      bool bar = false;
      for (const TimelineBar& b : engine.timeline())
        if (b.kind == TimelineBar::Kind::summary && b.instance == 0) {
          bar = true;
          EXPECT_NEAR(b.end_ms - b.start_ms, s.summary_ms, 0.05 * s.summary_ms + 0.01);
        }
      EXPECT_TRUE(bar) << "no summary bar in the timeline of generation " << s.generation;
    } else {
      // An old one: its age grows by one frame a frame.
      EXPECT_EQ(s.summary_frames_ago, s.generation - s.summary->generation);
    }
    last_every = static_cast<std::uint64_t>(s.summary_every);
  }
  const InstanceStatus s = engine.status(0);
  // The premise: the summary costs more than a frame may spend on it.
  ASSERT_GT(s.summary_ms, kSummaryBudget * kSummaryFloorMs) << "the summary is too cheap to be paced here";
  EXPECT_GT(last_every, 1u);
  EXPECT_EQ(static_cast<std::uint64_t>(summary_every(s.summary_ms, s.step_ms.mean + s.display_ms.mean)),
            last_every);
  // Paced: about one in summary_every frames (the first came at once, before its cost was known).
  EXPECT_LE(summaries, kFrames / static_cast<int>(last_every) + 2) << summaries << " summaries";
  EXPECT_GE(summaries, 2);
}

// When the summary gets cheap (everything died), the pacing follows: the next summaries come
// sooner, and the newest is exact.
TEST_F(SummaryPacingTest, PacingFollowsTheCostWhenItDrops) {
  sim::CudaEngine engine;
  engine.add(large_soup());
  for (int f = 0; f < 20; ++f) {
    engine.step(1);
    engine.request_summaries();
    engine.finish();
  }
  const InstanceStatus before = engine.status(0);
  ASSERT_GT(before.summary_every, 1);
  engine.set_rule(0, parse_rule("B/S"));  // nothing is born, nothing survives
  for (int f = 0; f < before.summary_every + 20; ++f) {
    engine.step(1);
    engine.request_summaries();
    engine.finish();
  }
  const InstanceStatus after = engine.status(0);
  EXPECT_LT(after.summary_ms, before.summary_ms / 3);
  EXPECT_LT(after.summary_every, before.summary_every);
  ASSERT_TRUE(after.summary.has_value());
  EXPECT_EQ(after.summary->population, 0u);
  EXPECT_EQ(after.summary->hash, Lattice(32768, 32768).hash());
}

// A paused app asks for summaries every redraw: an unchanged state is never summarized again, so a
// paused huge lattice costs the GPU nothing.
TEST_F(SummaryPacingTest, APausedLatticeIsNotSummarizedAgain) {
  sim::CudaEngine engine;
  engine.add(large_soup());
  engine.step(1);
  for (int i = 0; i < kMaxSummaryEvery; ++i) engine.request_summaries();
  engine.finish();
  const InstanceStatus first = engine.status(0);
  ASSERT_TRUE(first.summary.has_value());
  EXPECT_EQ(first.summary->generation, 1u);
  const double ms = first.summary_ms;
  for (int i = 0; i < 200; ++i) engine.request_summaries();
  engine.finish();
  // No new summary was measured (a new one would give another time, to the microsecond).
  EXPECT_EQ(engine.status(0).summary_ms, ms);
  // An edit is summarized once its turn comes.
  engine.set_cell(0, 5, 5, true);
  engine.set_cell(0, 6, 5, true);
  for (int i = 0; i < kMaxSummaryEvery; ++i) engine.request_summaries();
  engine.finish();
  const InstanceStatus edited = engine.status(0);
  EXPECT_EQ(edited.summary->hash, engine.read(0).hash());
}

}  // namespace
}  // namespace ls
