// test_slot_threads.cpp — one host thread per slot (SlotThreads): each slot's jobs run on its own
// thread after its `enter`, the slots run side by side, and a job's exception reaches the caller
// as it was thrown (the lowest failing slot's), after every job has run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "multi/slot_threads.hpp"

namespace ls::multi {
namespace {

thread_local int entered_as = -1;  // what a slot's `enter` left on its thread

std::vector<std::function<void()>> entering(int n) {
  std::vector<std::function<void()>> out;
  for (int s = 0; s < n; ++s) out.emplace_back([s] { entered_as = s; });
  return out;
}

TEST(SlotThreads, EachSlotsJobsRunOnItsOwnThreadAfterItsEnter) {
  SlotThreads threads(entering(3));
  ASSERT_EQ(threads.size(), 3u);
  std::vector<std::set<std::thread::id>> ran(3);
  std::vector<int> wrong(3, 0);
  for (int round = 0; round < 50; ++round)
    threads.run_on_all([&](int s) {
      ran[static_cast<std::size_t>(s)].insert(std::this_thread::get_id());
      if (entered_as != s) ++wrong[static_cast<std::size_t>(s)];
    });
  std::set<std::thread::id> all;
  for (std::size_t s = 0; s < 3; ++s) {
    ASSERT_EQ(ran[s].size(), 1u) << s;
    EXPECT_EQ(*ran[s].begin(), threads.thread_id(s)) << s;
    EXPECT_NE(*ran[s].begin(), std::this_thread::get_id()) << s;
    all.insert(*ran[s].begin());
    EXPECT_EQ(wrong[s], 0) << "slot " << s << " ran without its enter";
  }
  EXPECT_EQ(all.size(), 3u);
}

TEST(SlotThreads, TheSlotsRunSideBySide) {
  SlotThreads threads(entering(4));
  std::mutex m;
  std::condition_variable cv;
  int inside = 0;
  std::atomic<int> met{0};
  threads.run_on_all([&](int) {
    std::unique_lock lock(m);
    ++inside;
    cv.notify_all();
    if (cv.wait_for(lock, std::chrono::seconds(5), [&] { return inside == 4; })) ++met;
  });
  EXPECT_EQ(met.load(), 4) << "every job was running while the others were";
}

TEST(SlotThreads, TheLowestFailingSlotsExceptionReachesTheCallerAsThrownAfterEveryJobRan) {
  SlotThreads threads(entering(3));
  std::atomic<int> finished{0};
  try {
    threads.run_on_all([&](int s) {
      if (s == 2) throw InputError("slot 2");
      if (s == 1) throw DeviceError("slot 1");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++finished;
    });
    FAIL() << "no exception";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "slot 1");
  }
  EXPECT_EQ(finished.load(), 1) << "slot 0 ran to its end before the caller saw the failure";
  int ran = 0;
  threads.run_on_all([&](int) {
    static std::mutex m;
    std::lock_guard lock(m);
    ++ran;
  });
  EXPECT_EQ(ran, 3) << "a failure leaves the threads ready for the next jobs";
}

TEST(SlotThreads, ASlotWhoseEnterFailedThrowsThatFailureForEveryJob) {
  std::vector<std::function<void()>> enter = entering(2);
  enter[1] = [] { throw DeviceError("cudaSetDevice(1): invalid device ordinal"); };
  SlotThreads threads(std::move(enter));
  for (int round = 0; round < 2; ++round) {
    int ran0 = 0;
    try {
      threads.run_on_all([&](int s) {
        if (s == 0) ++ran0;
      });
      FAIL() << "no exception";
    } catch (const DeviceError& e) {
      EXPECT_STREQ(e.what(), "cudaSetDevice(1): invalid device ordinal");
    }
    EXPECT_EQ(ran0, 1);
  }
}

}  // namespace
}  // namespace ls::multi
