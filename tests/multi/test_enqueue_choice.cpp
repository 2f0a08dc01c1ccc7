// Who enqueues a frame over several slots (multi/enqueue_choice.hpp), fed host times of a model:
// each way costs a fixed time per frame, as a host-bound frame loop does.
#include <gtest/gtest.h>

#include <functional>

#include "multi/enqueue_choice.hpp"

namespace ls::multi {
namespace {

constexpr int kWarmup = EnqueueChoice::kWarmupFrames;
constexpr int kTrial = EnqueueChoice::kTrialFrames;

/// Runs `frames` frames, each costing cost(threads) ms the way the choice says.
void run(EnqueueChoice& choice, int frames, const std::function<double(bool)>& cost) {
  for (int f = 0; f < frames; ++f) choice.record(cost(choice.threads()));
}

TEST(EnqueueChoice, AfterTheWarmUpATrialRunsPairsOfBothWaysAndTheFasterIsKept) {
  EnqueueChoice choice;
  for (int f = 0; f < kWarmup; ++f) {
    EXPECT_TRUE(choice.threads()) << "the warm-up runs on the threads";
    EXPECT_FALSE(choice.trying());
    choice.record(50.0);  // building graphs, loading modules: not counted
  }
  int threads_first = 0;
  for (int pair = 0; pair < kTrial; ++pair) {
    ASSERT_TRUE(choice.trying()) << pair;
    const bool first = choice.threads();
    threads_first += first ? 1 : 0;
    choice.record(first ? 0.05 : 0.03);
    ASSERT_TRUE(choice.trying()) << pair;
    EXPECT_NE(choice.threads(), first) << "pair " << pair << ": one frame each way";
    choice.record(choice.threads() ? 0.05 : 0.03);
  }
  EXPECT_GT(threads_first, 0) << "the order within pairs is drawn, not fixed";
  EXPECT_LT(threads_first, kTrial);
  EXPECT_FALSE(choice.trying());
  EXPECT_FALSE(choice.threads()) << "the caller's 0.03 ms beat the threads' 0.05 ms";
  EXPECT_EQ(choice.frames_on_threads(), static_cast<std::uint64_t>(kWarmup + kTrial));
  EXPECT_EQ(choice.frames_on_caller(), static_cast<std::uint64_t>(kTrial));

  EnqueueChoice other;
  run(other, kWarmup + 2 * kTrial, [](bool threads) { return threads ? 0.02 : 0.06; });
  EXPECT_TRUE(other.threads()) << "the threads' 0.02 ms beat the caller's 0.06 ms";
}

TEST(EnqueueChoice, FramesThatCostMoreWhileTheTrialRunsWeighOnBothWays) {
  // The first ten frames cost 10 ms whichever way (graphs built, modules loaded), then the threads
  // take 0.02 ms and the caller 0.06: the trial's first frames of each way are dear, the medians
  // still say the threads.
  EnqueueChoice choice;
  int frame = 0;
  run(choice, kWarmup + 2 * kTrial, [&](bool threads) {
    return frame++ < 10 ? 10.0 : threads ? 0.02 : 0.06;
  });
  EXPECT_TRUE(choice.threads());
}

TEST(EnqueueChoice, BothWaysAreTriedAgainAndTheKeptWayChangesOnlyForAClearGain) {
  EnqueueChoice choice;
  run(choice, kWarmup + 2 * kTrial, [](bool threads) { return threads ? 0.05 : 0.03; });
  ASSERT_FALSE(choice.threads());
  // The threads become 2% faster than the caller: not enough to switch.
  const auto slightly = [](bool threads) { return threads ? 0.0294 : 0.03; };
  run(choice, EnqueueChoice::kSettledFrames + 2 * kTrial, slightly);
  EXPECT_FALSE(choice.threads()) << "a 2% gain does not move the choice";
  // Then 20% faster: the next trial switches to them.
  const std::uint64_t before = choice.frames_on_threads();
  const auto clearly = [](bool threads) { return threads ? 0.024 : 0.03; };
  run(choice, EnqueueChoice::kSettledFrames + 2 * kTrial, clearly);
  EXPECT_TRUE(choice.threads());
  EXPECT_EQ(choice.frames_on_threads() - before, static_cast<std::uint64_t>(kTrial))
      << "only the trial's frames ran on the threads before the switch";
}

TEST(EnqueueChoice, ACostEveryOtherFrameWeighsOnBothWays) {
  // Every other frame is timed (a timing period of 2) and costs 1 ms more, whichever way: the ways
  // themselves cost the same. Over many trials the choice must not settle on one way for it.
  EnqueueChoice choice;
  int frame = 0, kept_threads = 0, trials = 0;
  bool was_trying = true;
  for (int f = 0; f < 200 * (EnqueueChoice::kSettledFrames + 2 * kTrial); ++f) {
    choice.record(frame++ % 2 == 0 ? 1.05 : 0.05);
    if (was_trying && !choice.trying() && f > kWarmup) {
      ++trials;
      kept_threads += choice.threads() ? 1 : 0;
    }
    was_trying = choice.trying();
  }
  ASSERT_GT(trials, 100);
  // A fixed order would put every timed frame on one way and keep the other every time.
  EXPECT_GT(kept_threads, 0);
  EXPECT_LT(kept_threads, trials);
}

TEST(EnqueueChoice, ARestartWarmsUpAndTriesBothWaysAgainAtOnce) {
  EnqueueChoice choice;
  run(choice, kWarmup + 2 * kTrial + 10, [](bool threads) { return threads ? 0.05 : 0.03; });
  ASSERT_FALSE(choice.threads());
  choice.restart();  // another stream mode: now the threads are the faster
  for (int f = 0; f < kWarmup; ++f) {
    EXPECT_TRUE(choice.threads());
    EXPECT_FALSE(choice.trying());
    choice.record(0.01);
  }
  EXPECT_TRUE(choice.trying()) << "not after kSettledFrames: at once";
  run(choice, 2 * kTrial, [](bool threads) { return threads ? 0.02 : 0.06; });
  EXPECT_TRUE(choice.threads());
}

TEST(EnqueueChoice, TheSlowerWayRunsOnlyTheTrialFrames) {
  EnqueueChoice choice;
  constexpr int kFrames = 20000;
  run(choice, kFrames, [](bool threads) { return threads ? 0.1 : 0.05; });
  EXPECT_LE(static_cast<double>(choice.frames_on_threads()), 0.01 * kFrames);
  EXPECT_EQ(choice.frames_on_threads() + choice.frames_on_caller(), static_cast<std::uint64_t>(kFrames));
}

}  // namespace
}  // namespace ls::multi
