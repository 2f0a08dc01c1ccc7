// The counters on the timeline's axis (app/counter_lanes.hpp): samples on the GPU's clock placed
// under the frame whose origin that clock stamped, clipped to the frame, one lane per counter.
#include "app/counter_lanes.hpp"

#include <gtest/gtest.h>

namespace ls::app {
namespace {

using counters::Counter;
using counters::Sample;

constexpr std::uint64_t kOrigin = 1'000'000'000;  // the frame's origin on GPU 0's clock, ns

Sample at(int gpu, Counter c, double from_ms, double to_ms, double value) {
  Sample s;
  s.gpu = gpu;
  s.counter = c;
  s.value = value;
  s.gpu_start_ns = static_cast<std::uint64_t>(static_cast<double>(kOrigin) + from_ms * 1e6);
  s.gpu_end_ns = static_cast<std::uint64_t>(static_cast<double>(kOrigin) + to_ms * 1e6);
  return s;
}

const std::vector<TimelineBar> kBars = {{0, 0, TimelineBar::Kind::step, 0.0, 1.5, 0},
                                        {0, 0, TimelineBar::Kind::display, 1.6, 2.0, 0}};

TEST(CounterLanes, SamplesGoUnderTheirFrameClippedToItOneLanePerCounter) {
  const std::vector<Sample> samples = {
      at(0, Counter::sm_active, -0.5, 0.5, 0.2), at(0, Counter::sm_active, 0.5, 1.5, 0.9),
      at(0, Counter::sm_active, 1.5, 2.5, 0.4),  at(0, Counter::dram_throughput, 0.5, 1.5, 0.7),
      at(1, Counter::sm_active, 0.5, 1.5, 0.5),   // another GPU
      at(0, Counter::sm_active, 2.5, 3.5, 0.1)};  // after the frame
  const auto lanes = lanes_of(kBars, {{0, kOrigin}}, samples);
  ASSERT_EQ(lanes.size(), 2u);  // sm_active, then dram_throughput (the lane order)
  EXPECT_EQ(lanes[0].name, "sm_active");
  EXPECT_EQ(lanes[0].label, "SM");
  ASSERT_EQ(lanes[0].segments.size(), 3u);
  EXPECT_DOUBLE_EQ(lanes[0].segments[0].start_ms, 0.0);  // clipped at the frame's start
  EXPECT_NEAR(lanes[0].segments[0].end_ms, 0.5, 1e-9);
  EXPECT_NEAR(lanes[0].segments[1].start_ms, 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(lanes[0].segments[1].value, 0.9);
  EXPECT_DOUBLE_EQ(lanes[0].segments[2].end_ms, 2.0);  // and at its end (the GPU's span)
  EXPECT_FALSE(lanes[0].coarse);
  EXPECT_EQ(lanes[1].name, "dram_throughput");
  EXPECT_TRUE(lanes[1].fraction);
}

TEST(CounterLanes, AFrameShorterThanASampleGetsTheCoveringSampleMarkedCoarse) {
  const auto coarse = lanes_of(kBars, {{0, kOrigin}}, {at(0, Counter::occupancy, -0.3, 2.7, 0.5)});
  ASSERT_EQ(coarse.size(), 1u);
  EXPECT_TRUE(coarse[0].coarse);  // one sample begins before the 2 ms frame and ends after it
  ASSERT_EQ(coarse[0].segments.size(), 1u);
  EXPECT_DOUBLE_EQ(coarse[0].segments[0].start_ms, 0.0);
  EXPECT_DOUBLE_EQ(coarse[0].segments[0].end_ms, 2.0);
  // Two samples that meet inside the frame say when it changed: not coarse.
  const auto two =
      lanes_of(kBars, {{0, kOrigin}},
               {at(0, Counter::occupancy, -0.3, 0.7, 0.5), at(0, Counter::occupancy, 0.7, 2.7, 0.6)});
  ASSERT_EQ(two.size(), 1u);
  EXPECT_FALSE(two[0].coarse);
  EXPECT_EQ(two[0].segments.size(), 2u);
}

TEST(CounterLanes, ClockAndPowerGetLanesAfterTheOthers) {
  // NVML's readings every 5 ms, on the host's system clock (which %globaltimer follows): in a 2 ms
  // frame one reading covers it, marked coarse.
  const auto lanes =
      lanes_of(kBars, {{0, kOrigin}},
               {at(0, Counter::power_w, -3, 2.5, 310), at(0, Counter::sm_clock_mhz, -3, 2.5, 1980),
                at(0, Counter::sm_active, 0, 1, 0.5)});
  ASSERT_EQ(lanes.size(), 3u);
  EXPECT_EQ(lanes[0].label, "SM");
  EXPECT_EQ(lanes[1].label, "MHz");
  EXPECT_EQ(lanes[2].label, "W");
  EXPECT_TRUE(lanes[2].coarse);
  EXPECT_FALSE(lanes[2].fraction);
  EXPECT_DOUBLE_EQ(lanes[2].segments[0].value, 310);
}

TEST(CounterLanes, AGpuWhoseBarsHaveTwoOriginsGetsNoLanes) {
  // Two slots on GPU 0 (or a slot beside a split band), each timed from its own origin.
  const auto lanes =
      lanes_of(kBars, {{0, kOrigin}, {0, kOrigin + 400'000}}, {at(0, Counter::sm_active, 0.0, 1.0, 0.5)});
  EXPECT_TRUE(lanes.empty());
}

TEST(CounterLanes, RatesAreScaledToTheirLargestValueAndHostTimedReadingsHaveNoLane) {
  Sample nvml;  // a reading without GPU times (a source that has no clock to give)
  nvml.counter = Counter::power_w;
  nvml.value = 300;
  const auto lanes =
      lanes_of(kBars, {{0, kOrigin}},
               {at(0, Counter::nvlink_gbps, 0.0, 1.0, 40), nvml, at(0, Counter::nvlink_gbps, 1.0, 2.0, 120)});
  ASSERT_EQ(lanes.size(), 1u);
  EXPECT_FALSE(lanes[0].fraction);
  EXPECT_DOUBLE_EQ(lanes[0].top, 120);
  // No origin for a GPU: no lanes for it.
  EXPECT_TRUE(lanes_of(kBars, {}, {at(0, Counter::sm_active, 0, 1, 1)}).empty());
}

}  // namespace
}  // namespace ls::app
