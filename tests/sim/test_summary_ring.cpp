// test_summary_ring.cpp — asynchronous summaries keep arriving while the host stays far ahead of
// the device: a request that finds every slot of the summary ring in flight replaces the newest
// pending one, never the oldest (which would leave status().summary stale for good).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include "core/engine.hpp"
#include "core/rule.hpp"
#include "core/summary_pacing.hpp"
#include "sim/cuda_engine.hpp"

namespace ls {
namespace {

using Clock = std::chrono::steady_clock;

class SummaryRingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  }
};

/// Steps and requests a summary every frame, polling status() as the app does, until a summary
/// newer than `after` arrives (or `limit` passes). Returns it with the frames it took.
std::optional<StateSummary> request_until_newer(sim::CudaEngine& engine, std::uint64_t after,
                                                std::chrono::seconds limit, long long& frames,
                                                std::uint64_t& lag) {
  const auto deadline = Clock::now() + limit;
  frames = 0;
  while (Clock::now() < deadline) {
    engine.step(8);
    engine.request_summaries();
    ++frames;
    const InstanceStatus s = engine.status(0);
    if (s.summary && (after == ~std::uint64_t{0} || s.summary->generation > after)) {
      lag = s.generation - s.summary->generation;
      return s.summary;
    }
  }
  return std::nullopt;
}

// A slow instance (8 generations of a 8192x8192 int32 lattice per frame) and a host that enqueues
// frames as fast as it can: the host runs far more frames ahead than the ring has slots, and the
// newest finished summary must still advance; the last request, made with the ring full, ends
// equal to the state read back.
TEST_F(SummaryRingTest, SummariesArriveWhileTheHostStaysFarAhead) {
  sim::CudaEngine engine;
  InstanceSpec spec;
  spec.width = 8192;
  spec.height = 8192;
  spec.variant = Variant::naive;
  spec.generations_per_launch = 1;
  spec.init = RandomInit{0.3, 77};
  engine.add(spec);

  long long frames = 0;
  std::uint64_t lag = 0;
  const auto first = request_until_newer(engine, ~std::uint64_t{0}, std::chrono::seconds(20), frames, lag);
  ASSERT_TRUE(first) << "no summary arrived in 20 s while requesting one every frame (" << frames
                     << " frames)";
  std::printf("first summary: generation %llu after %lld frames, the host %llu generations ahead\n",
              static_cast<unsigned long long>(first->generation), frames,
              static_cast<unsigned long long>(lag));
  // The premise: when it arrived the host was more frames ahead than the ring holds (4).
  EXPECT_GT(lag, 4u * 8u) << "the host was only " << lag << " generations ahead";
  const auto second = request_until_newer(engine, first->generation, std::chrono::seconds(20), frames, lag);
  ASSERT_TRUE(second) << "the summary stayed at generation " << first->generation << " for 20 s";
  EXPECT_GT(second->generation, first->generation);
  EXPECT_EQ(second->generation % 8, 0u);

  // A request made while every slot is still in flight is not lost: it replaces the newest pending
  // one, so once the device is done the summary is of the current state, exactly. (Summaries are
  // paced by their cost: requests without a step in between ask the current state within
  // kMaxSummaryEvery of them, and nothing more once it is asked.)
  for (int i = 0; i < kMaxSummaryEvery; ++i) engine.request_summaries();
  engine.finish();
  const InstanceStatus now = engine.status(0);
  ASSERT_TRUE(now.summary);
  EXPECT_EQ(now.summary->generation, now.generation);
  const Lattice cells = engine.read(0);
  EXPECT_EQ(now.summary->hash, cells.hash());
  EXPECT_EQ(now.summary->population, cells.population());
  // summarize() still works with the ring full of requests nobody polled.
  engine.step(8);
  for (int i = 0; i < 16; ++i) engine.request_summaries();
  const StateSummary exact = engine.summarize(0);
  EXPECT_EQ(exact.generation, now.generation + 8);
  EXPECT_EQ(exact.hash, engine.read(0).hash());
}

}  // namespace
}  // namespace ls
