// test_cuda_engine_clock.cpp — the timeline's origin on the GPU's own clock (%globaltimer, the clock
// CUPTI stamps its counter samples with): there while the clock is on (and in stream mode graph,
// whose frames are stamped anyway), absent otherwise, and a moment of the past that moves on.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rule.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

/// The GPU's clock now (ns), read by a kernel.
std::uint64_t gpu_now_ns() {
  cuda::PinnedBuffer at(sizeof(std::uint64_t));
  kernels::launch_stamp(at.as<std::uint64_t>(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return *at.as<std::uint64_t>();
}

/// `frames` frames with display brackets, then every timing read.
void run_frames(CudaEngine& engine, int frames) {
  for (int f = 0; f < frames; ++f) {
    engine.step(1);
    for (std::size_t i = 0; i < engine.size(); ++i) {
      engine.begin_display(i);
      engine.end_display(i);
    }
  }
  engine.finish();
}

TEST_F(CudaEngineTest, TheTimelinesOriginIsOnTheGpusClockOnlyWhileTheClockIsOn) {
  CudaEngine engine;
  engine.add(random_spec(1024, 1024, 0.3, 1, Variant::bitpacked, Rule::life(), 16));
  engine.add(random_spec(1024, 512, 0.3, 2, Variant::global, Rule::life(), 1));
  run_frames(engine, 20);
  ASSERT_FALSE(engine.timeline().empty());
  EXPECT_TRUE(engine.timeline_origins().empty());  // not stamped: the clock is off

  engine.set_timeline_clock(true);
  run_frames(engine, 20);
  const std::vector<EngineReports::TimelineOrigin> first = engine.timeline_origins();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].device, engine.cuda_device());
  double span = 0;
  for (const TimelineBar& b : engine.timeline()) span = std::max(span, b.end_ms);
  const std::uint64_t now = gpu_now_ns();
  // The frame began and ended before now, and not long before (the 20 frames took well under 10 s).
  EXPECT_LT(first[0].gpu_ns + static_cast<std::uint64_t>(span * 1e6), now);
  EXPECT_LT(now - first[0].gpu_ns, std::uint64_t{10'000'000'000});

  run_frames(engine, 5);
  ASSERT_EQ(engine.timeline_origins().size(), 1u);
  EXPECT_GT(engine.timeline_origins()[0].gpu_ns, now);  // a later frame, later on the same clock

  engine.set_timeline_clock(false);
  run_frames(engine, 5);
  EXPECT_TRUE(engine.timeline_origins().empty());
}

TEST_F(CudaEngineTest, StreamModeGraphStampsItsFramesWithTheClockOff) {
  CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  engine.add(random_spec(1024, 1024, 0.3, 1, Variant::bitpacked, Rule::life(), 16));
  run_frames(engine, 20);
  const std::uint64_t now = gpu_now_ns();
  ASSERT_EQ(engine.timeline_origins().size(), 1u);
  EXPECT_LT(engine.timeline_origins()[0].gpu_ns, now);
  EXPECT_LT(now - engine.timeline_origins()[0].gpu_ns, std::uint64_t{10'000'000'000});
}

}  // namespace
}  // namespace ls::sim
