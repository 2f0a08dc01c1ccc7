// test_timing_history.cpp — the timing history the panel plots: the rolling window's samples in
// order, and the CPU engine's step and span histories of its timed frames.
#include <gtest/gtest.h>

#include "core/cpu_engine.hpp"
#include "core/stats.hpp"

namespace ls {
namespace {

TEST(TimingHistory, RollingWindowKeepsTheNewestSamplesOldestFirst) {
  RollingStats stats;
  EXPECT_TRUE(stats.history().empty());
  for (int i = 0; i < kTimingWindow + 10; ++i) stats.add(i);
  const std::vector<float> h = stats.history();
  ASSERT_EQ(h.size(), static_cast<std::size_t>(kTimingWindow));
  for (int i = 0; i < kTimingWindow; ++i)
    EXPECT_EQ(h[static_cast<std::size_t>(i)], static_cast<float>(i + 10));
}

TEST(TimingHistory, CpuStepHistoryHoldsOneSamplePerTimedFrame) {
  CpuEngine engine(1);
  InstanceSpec spec;
  spec.width = spec.height = 64;
  engine.add(spec);
  engine.set_timing_period(2);  // frames 0, 2 and 4 of five are timed
  for (int f = 0; f < 5; ++f) engine.step(1);
  InstanceStatus s = engine.status(0);
  engine.step_history(0, s.step_history);
  ASSERT_EQ(s.step_history.size(), 3u);
  EXPECT_FLOAT_EQ(s.step_history.back(), static_cast<float>(s.step_ms.last));
  float most = 0;
  for (float v : s.step_history) most = std::max(most, v);
  EXPECT_FLOAT_EQ(most, static_cast<float>(s.step_ms.max));
}

TEST(TimingHistory, CpuSpanHistoryFollowsEachClosedTimedFrame) {
  CpuEngine engine(1);
  InstanceSpec spec;
  spec.width = spec.height = 64;
  engine.add(spec);
  engine.add(spec);
  // A frame's span is known once the next frame starts: four steps close three frames.
  for (int f = 0; f < 4; ++f) engine.step(1);
  FrameTimings frame = engine.frame_timings();
  engine.span_history(frame.span_history);
  ASSERT_EQ(frame.span_history.size(), 3u);
  EXPECT_FLOAT_EQ(frame.span_history.back(), static_cast<float>(frame.gpu_span_ms));
}

}  // namespace
}  // namespace ls
