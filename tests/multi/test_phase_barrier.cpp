// test_phase_barrier.cpp — the split bands' barrier (PhaseBarrier) and the bounded spin under it
// and under SlotThreads (spin_until). CTest runs this file twice: as the machine decides
// (LIFESTREAMS_SPIN_US unset: CI's two cores sleep at once) and with a 50 us spin forced.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

#include "core/error.hpp"
#include "multi/phase_barrier.hpp"
#include "multi/slot_threads.hpp"
#include "multi/spin_wait.hpp"

namespace ls::multi {
namespace {

TEST(PhaseBarrier, NoPartyLeavesARoundBeforeEveryPartyArrivedInIt) {
  constexpr int kParties = 4;
  constexpr int kRounds = 2000;
  PhaseBarrier barrier(kParties);
  std::vector<std::atomic<int>> arrived(kRounds);
  std::atomic<int> early{0};
  std::vector<std::thread> threads;
  for (int p = 0; p < kParties; ++p)
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        arrived[static_cast<std::size_t>(r)].fetch_add(1);
        barrier.arrive_and_wait();
        if (arrived[static_cast<std::size_t>(r)].load() != kParties) early.fetch_add(1);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(early.load(), 0) << "a party left a round that not every party had reached";
  for (int r = 0; r < kRounds; ++r) ASSERT_EQ(arrived[static_cast<std::size_t>(r)].load(), kParties) << r;
}

TEST(PhaseBarrier, AbortWakesAWaitingPartyWithAnErrorAndBreaksLaterRounds) {
  PhaseBarrier barrier(2);
  std::atomic<bool> threw{false};
  std::thread waiter([&] {
    try {
      barrier.arrive_and_wait();  // the other party never comes
    } catch (const DeviceError&) {
      threw = true;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // long past any spin: it sleeps
  barrier.abort();
  waiter.join();
  EXPECT_TRUE(threw.load());
  EXPECT_THROW(barrier.arrive_and_wait(), DeviceError);
}

TEST(SpinWait, ReturnsOnceAnotherThreadMakesTheConditionTrue) {
  std::atomic<bool> flag{false};
  std::thread setter([&] { flag = true; });
  // Spinning or not, the caller then blocks on the same predicate; here: poll until true.
  while (!spin_until([&] { return flag.load(); })) {
  }
  setter.join();
  EXPECT_TRUE(flag.load());
}

TEST(SpinWait, GivesUpOnAConditionThatNeverHoldsAfterAtMostItsLimit) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(spin_until([] { return false; }));
  const auto spent = std::chrono::steady_clock::now() - start;
  // Bounded, not timed: far above the limit (a preempted thread), far below a hang.
  EXPECT_LT(spent, std::chrono::seconds(2)) << "limit " << spin_limit_us() << " us";
}

TEST(SpinWait, TheLimitIsTheEnvironmentsOrTheMachinesDefault) {
  const char* text = std::getenv("LIFESTREAMS_SPIN_US");
  if (text && std::string(text) == "50") {
    EXPECT_EQ(spin_limit_us(), 50);
  } else if (!text) {
    EXPECT_EQ(spin_limit_us(), usable_cores() >= 8 ? 50 : 0);
    EXPECT_GE(usable_cores(), 1u);
    EXPECT_LE(usable_cores(), std::max(1u, std::thread::hardware_concurrency()));
  } else {
    GTEST_SKIP() << "LIFESTREAMS_SPIN_US=" << text << " set outside the test";
  }
}

#if defined(__linux__)
TEST(SpinWait, UsableCoresFollowTheThreadsAffinityNotTheMachine) {
  unsigned seen = 0;
  std::thread pinned([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(static_cast<int>(sched_getcpu() < 0 ? 0 : sched_getcpu()), &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0) seen = usable_cores();
  });
  pinned.join();
  if (seen == 0) GTEST_SKIP() << "this system refused to pin a thread to one core";
  EXPECT_EQ(seen, 1u) << "a thread pinned to one core may use one";
}
#endif

TEST(SpinWait, SlotThreadsHandOutManyShortJobsInOrder) {
  SlotThreads threads({{}, {}, {}});
  std::vector<int> last(3, -1);
  std::atomic<int> out_of_order{0};
  for (int round = 0; round < 5000; ++round)
    threads.run_on_all([&](int s) {
      if (last[static_cast<std::size_t>(s)] != round - 1) out_of_order.fetch_add(1);
      last[static_cast<std::size_t>(s)] = round;
    });
  EXPECT_EQ(out_of_order.load(), 0);
  EXPECT_EQ(last, std::vector<int>(3, 4999));
}

}  // namespace
}  // namespace ls::multi
