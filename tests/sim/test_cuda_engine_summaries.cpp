// test_cuda_engine_summaries.cpp — graph mode's summaries: every summary shown names its generation
// truly, for many instances and while the GPU lags behind, and a paused app still gets the summary of
// the state it stands at.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/frame_graph.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

// A frame graph gathers up to 64 branches' summaries into one copy (FrameSummaries): with 70
// instances, the other six summarize into their own slots; and 70 short steps run chained,
// kChainLength a branch. Every summary any instance shows during the run, read every frame while the
// GPU may lag, is its reference's population and hash at the generation it names (no summary carries
// another frame's values), and the last ones arrive.
TEST_F(CudaEngineTest, GraphModeSummariesOfManyInstancesNameTheirGeneration) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  constexpr int kInstances = 70, kFrames = 48;
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> truth(kInstances);
  for (int i = 0; i < kInstances; ++i) {
    const Variant v = kAllVariants[static_cast<std::size_t>(i) % kAllVariants.size()];
    engine.add(random_spec(64, 64, 0.3, 900 + i, v, Rule::life(), 1));
    Lattice reference = Lattice::random(64, 64, 0.3, 900 + static_cast<std::uint64_t>(i));
    for (int g = 0; g <= kFrames; ++g) {
      truth[static_cast<std::size_t>(i)].emplace_back(reference.population(), reference.hash());
      cpu_run(reference, Rule::life(), 1);
    }
  }
  int checked = 0;
  for (int f = 0; f < kFrames; ++f) {
    engine.step(1);
    engine.request_summaries();
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const std::optional<StateSummary> got = engine.status(i).summary;
      if (!got) continue;
      ASSERT_LE(got->generation, static_cast<std::uint64_t>(kFrames));
      const auto& want = truth[i][got->generation];
      EXPECT_EQ(got->population, want.first) << "instance " << i << " generation " << got->generation;
      EXPECT_EQ(got->hash, want.second) << "instance " << i << " generation " << got->generation;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  // 70 steps of a few us each: the frame graph runs them in branches of kChainLength.
  EXPECT_EQ(engine.frame_graph_stats().chain, sim::kChainLength);
  engine.finish();
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const StateSummary last = engine.summarize(i);
    EXPECT_EQ(last.generation, static_cast<std::uint64_t>(kFrames));
    EXPECT_EQ(last.hash, truth[i][kFrames].second) << "instance " << i;
  }
}

/// Holds a stream until `release` is set (or 20 s pass): a host function that makes the GPU lag.
void CUDART_CB hold_stream(void* release) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!static_cast<std::atomic<bool>*>(release)->load() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
}

// The GPU held back for 10 frames (a host function blocks the frame stream): the frame graphs queue
// up, the gathered summaries' host slots fill, and later frames go without summaries instead of
// overwriting a slot still in flight. Every summary shown meanwhile names its generation truly, no
// step blocks, and once the GPU is released the summaries catch up with the state.
TEST_F(CudaEngineTest, GraphModeSummariesWhileTheGpuLagsNameTheirGeneration) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  constexpr int kInstances = 20, kFrames = 24, kHeld = 10;
  std::vector<std::vector<std::uint64_t>> truth(kInstances);
  for (int i = 0; i < kInstances; ++i) {
    engine.add(random_spec(64, 64, 0.3, 300 + i,
                           kAllVariants[static_cast<std::size_t>(i) % kAllVariants.size()], Rule::life(), 1));
    Lattice reference = Lattice::random(64, 64, 0.3, 300 + static_cast<std::uint64_t>(i));
    for (int g = 0; g <= kFrames; ++g) {
      truth[static_cast<std::size_t>(i)].push_back(reference.hash());
      cpu_run(reference, Rule::life(), 1);
    }
  }
  // Static: a failed assertion leaves the test while the host function may still read it.
  static std::atomic<bool> release;
  release = false;
  int checked = 0;
  for (int f = 0; f < kFrames; ++f) {
    if (f == 6) CUDA_CHECK(cudaLaunchHostFunc(engine.device_view(0).stream, hold_stream, &release));
    if (f == 6 + kHeld) release = true;
    engine.step(1);
    EXPECT_EQ(engine.host_syncs_in_last_step(), 0u) << "frame " << f;
    engine.request_summaries();
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const std::optional<StateSummary> got = engine.status(i).summary;
      if (!got) continue;
      ASSERT_LE(got->generation, static_cast<std::uint64_t>(kFrames));
      EXPECT_EQ(got->hash, truth[i][got->generation])
          << "instance " << i << " generation " << got->generation;
      ++checked;
    }
  }
  release = true;
  EXPECT_GT(checked, 0);
  engine.request_summaries();  // no frame since the last request: the waiting summaries go now
  engine.finish();
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const std::optional<StateSummary> last = engine.status(i).summary;
    ASSERT_TRUE(last.has_value()) << "instance " << i;
    EXPECT_EQ(last->generation, static_cast<std::uint64_t>(kFrames)) << "instance " << i;
    EXPECT_EQ(last->hash, truth[i][kFrames]) << "instance " << i;
  }
}

// A paused app asks for summaries without stepping: graph mode still delivers the summary of the
// state it stands at, without a host sync.
TEST_F(CudaEngineTest, GraphModeSummariesArriveWhilePaused) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  engine.add(random_spec(256, 256, 0.3, 5, Variant::bitpacked, Rule::life(), 2));
  for (int f = 0; f < 10; ++f) {
    engine.step(1);
    engine.request_summaries();
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::optional<StateSummary> got;
  while (std::chrono::steady_clock::now() < until) {
    engine.request_summaries();  // paused frames
    got = engine.status(0).summary;
    if (got && got->generation == 10) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->generation, 10u);
  Lattice reference = Lattice::random(256, 256, 0.3, 5);
  cpu_run(reference, Rule::life(), 10);
  EXPECT_EQ(got->hash, reference.hash());
}

}  // namespace
}  // namespace ls::sim
