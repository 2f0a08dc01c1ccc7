// test_strips.cpp — the panel's strips: readings bucketed by time over the window, means per
// bucket, gaps filled with the reading before, readings outside the window left out, and strips
// ordered by GPU then counter.
#include <gtest/gtest.h>

#include "counters/strips.hpp"

namespace ls::counters {
namespace {

TEST(CounterStrips, BucketMeansOverTheWindowWithGapsFilledFromTheReadingBefore) {
  const std::vector<Sample> samples = {
      {50, 0, Counter::power_w, 999},   // before the window: left out
      {101, 0, Counter::power_w, 10},   // bucket 0 of (100, 200]
      {120, 0, Counter::power_w, 20},   // bucket 0
      {175, 0, Counter::power_w, 40},   // bucket 3
      {199, 0, Counter::power_w, 60},   // bucket 3
      {250, 0, Counter::power_w, 999},  // after now: left out
  };
  const std::vector<Strip> s = strips(samples, 200, 100, 4);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].gpu, 0);
  EXPECT_EQ(s[0].counter, Counter::power_w);
  EXPECT_EQ(s[0].values, (std::vector<float>{15, 15, 15, 50}));
  EXPECT_EQ(s[0].newest, 60);
}

TEST(CounterStrips, LeadingEmptyBucketsTakeTheFirstReadingAndStripsAreOrderedByGpuThenCounter) {
  const std::vector<Sample> samples = {
      {95, 1, Counter::sm_clock_mhz, 1980},
      {96, 1, Counter::sm_active, 0.75},
      {97, 0, Counter::power_w, 300},
  };
  const std::vector<Strip> s = strips(samples, 100, 100, 10);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].gpu, 0);
  EXPECT_EQ(s[1].gpu, 1);
  EXPECT_EQ(s[1].counter, Counter::sm_active);
  EXPECT_EQ(s[2].counter, Counter::sm_clock_mhz);
  for (const float v : s[2].values) EXPECT_EQ(v, 1980.f);
  EXPECT_TRUE(strips({}, 100, 100, 10).empty());
}

}  // namespace
}  // namespace ls::counters
