// test_split_summaries.cpp — on the device: a large split lattice's summaries are paced by their
// measured cost as a one-GPU instance's are (a cost above zero is learnt from the first one, and
// then fewer than one a frame is asked), one at a time, and exact at their own generation, with
// the label's age in frames. Bands on two GPUs where there are two, else on device 0. Skips (with
// the reason) where there is no CUDA device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/summary_pacing.hpp"
#include "multi/split_engine.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::multi {
namespace {

TEST(SplitSummaries, ALargeSplitLatticesSummariesArePacedByTheirCostAndExact) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  const std::vector<int> devices = cuda_device_count() >= 2 ? std::vector<int>{0, 1} : std::vector<int>{0, 0};
  SplitEngine engine(devices);
  // 2^30 cells, half of them live: a summary costs far more than a tenth of a one-generation step.
  InstanceSpec spec;
  spec.width = spec.height = 32768;
  spec.variant = Variant::bitpacked;
  spec.generations_per_launch = 1;
  spec.init = RandomInit{0.5, 2024};
  engine.add(spec);
  constexpr int kFrames = 2 * kLongSummaryEvery + 8;  // two paced summaries after the first, at least
  int summaries = 0;
  std::uint64_t newest = ~std::uint64_t{0};
  for (int f = 0; f < kFrames; ++f) {
    engine.step(1);
    engine.request_summaries();
    engine.finish();  // the summary asked in this frame (if any) is done: it is this frame's state
    const InstanceStatus s = engine.status(0);
    ASSERT_TRUE(s.summary.has_value()) << "frame " << f;
    if (s.summary->generation == newest) continue;
    newest = s.summary->generation;
    ++summaries;
    EXPECT_EQ(s.summary->generation, s.generation);
    EXPECT_EQ(s.summary_frames_ago, 0u);
    const Lattice cells = engine.read(0);
    EXPECT_EQ(s.summary->population, cells.population()) << "generation " << s.generation;
    EXPECT_EQ(s.summary->hash, cells.hash()) << "generation " << s.generation;
  }
  const InstanceStatus s = engine.status(0);
  // The cost was measured (never taken as zero), and it paces the requests.
  ASSERT_GT(s.summary_ms, kSummaryBudget * kSummaryFloorMs) << "the summary is too cheap to be paced here";
  EXPECT_EQ(s.summary_every, summary_every(s.summary_ms, s.step_ms.mean));
  EXPECT_GT(s.summary_every, 1);
  EXPECT_GE(summaries, 2);
  // Within a quarter of what the final pacing gives: the step's mean moves as launches with and
  // without a halo exchange come and go (deep halos, exchange_plan.hpp), and the pacing with it.
  EXPECT_LE(summaries, kFrames * 5 / (4 * s.summary_every) + 2) << summaries << " summaries";

  // A blocking summary between frames (a script's expect-hash) leaves the pacing as it was: the
  // paced summaries still come after it.
  const std::uint64_t blocking = engine.summarize(0).generation;
  for (int f = 0; f < 2 * s.summary_every + 2; ++f) {
    engine.step(1);
    engine.request_summaries();
    engine.finish();
  }
  const InstanceStatus after = engine.status(0);
  ASSERT_TRUE(after.summary.has_value());
  EXPECT_GT(after.summary->generation, blocking);
}

}  // namespace
}  // namespace ls::multi
