// test_cuda_engine_stream_modes.cpp — the CUDA engine's stream modes (per instance, shared, graph) and
// replayed frame graphs give the CPU reference's results, switching between them keeps the state,
// a shared stream runs nothing side by side, and frame graphs are rebuilt only when a frame changes.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "sim/cuda_engine.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

// One stream per instance, one shared stream, or switching between them mid-run: equal results.
TEST_F(CudaEngineTest, StreamModesGiveEqualResults) {
  const auto build = [](sim::CudaEngine& e) {
    int i = 0;
    for (Variant v : kAllVariants) {
      e.add(random_spec(256, 256, 0.3, 900 + i, v, Rule::life(), 7));
      e.add(random_spec(128, 64, 0.5, 950 + i, v, parse_rule("B36/S23"), 3));
      ++i;
    }
  };
  sim::CudaEngine per_instance, shared, switching;
  build(per_instance);
  build(shared);
  build(switching);
  shared.set_stream_mode(StreamMode::shared);
  EXPECT_EQ(shared.stream_mode(), StreamMode::shared);
  for (int frame = 0; frame < 40; ++frame) {
    per_instance.step(3);
    shared.step(3);
    switching.step(3);
    if (frame % 7 == 3)
      switching.set_stream_mode(switching.stream_mode() == StreamMode::shared ? StreamMode::per_instance
                                                                              : StreamMode::shared);
  }
  for (std::size_t i = 0; i < per_instance.size(); ++i) {
    const std::uint64_t hash = per_instance.summarize(i).hash;
    EXPECT_EQ(shared.summarize(i).hash, hash) << "instance " << i;
    EXPECT_EQ(switching.summarize(i).hash, hash) << "instance " << i;
  }
  Lattice reference = Lattice::random(256, 256, 0.3, 900);
  cpu_run(reference, Rule::life(), 120);
  EXPECT_EQ(per_instance.summarize(0).hash, reference.hash());
}

// Frames that repeat are replayed from CUDA graphs (with the summaries requested every frame): on
// both stream modes, across a variant switch and with odd and even launches per frame, every
// variant still ends on the reference, its summaries and timings arrive, and stepping never blocks.
TEST_F(CudaEngineTest, GraphFramesEqualDirectFramesAndTheReference) {
  sim::CudaEngine graphs, direct;
  EXPECT_TRUE(graphs.launch_graphs());
  direct.set_launch_graphs(false);
  for (sim::CudaEngine* e : {&graphs, &direct}) {
    int i = 0;
    for (Variant v : kAllVariants) {
      e->add(random_spec(256, 128, 0.35, 300 + i, v, Rule::life(), 2));
      e->add(random_spec(96, 64, 0.4, 310 + i, v, parse_rule("B36/S23"), 3));
      ++i;
    }
  }
  long long generations = 0;
  const auto run = [&](int frames, int gens) {
    for (int frame = 0; frame < frames; ++frame) {
      for (sim::CudaEngine* e : {&graphs, &direct}) {
        e->step(gens);
        EXPECT_EQ(e->host_syncs_in_last_step(), 0u);
        e->request_summaries();
      }
      generations += gens;
    }
  };
  run(12, 1);  // one launch per frame: the front buffer alternates
  run(12, 5);  // 3 launches (k = 2) or 2 (k = 3), 5 for one-generation variants
  graphs.set_stream_mode(StreamMode::shared);
  run(12, 4);
  graphs.set_variant(0, Variant::iterate);
  graphs.set_variant(9, Variant::naive);
  graphs.set_stream_mode(StreamMode::per_instance);
  run(12, 3);
  graphs.finish();
  direct.finish();
  // Summaries are paced: one in flight defers the next; ask again once all is done.
  graphs.request_summaries();
  graphs.finish();
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    const InstanceStatus g = graphs.status(i);
    SCOPED_TRACE("instance " + std::to_string(i) + " (" + std::string(variant_name(g.variant)) + ")");
    Lattice reference = Lattice::random(g.width, g.height, i % 2 ? 0.4 : 0.35, (i % 2 ? 310 : 300) + i / 2);
    cpu_run(reference, g.rule, static_cast<int>(generations));
    EXPECT_EQ(difference(graphs.read(i), reference), "");
    EXPECT_EQ(difference(direct.read(i), reference), "");
    ASSERT_TRUE(g.summary.has_value());
    EXPECT_EQ(g.summary->generation, static_cast<std::uint64_t>(generations));
    EXPECT_EQ(g.summary->hash, reference.hash());
    EXPECT_EQ(g.summary->population, reference.population());
    EXPECT_GT(g.step_ms.samples, 0);
    EXPECT_GT(g.step_ms.mean, 0.0);
  }
}

// On one shared stream nothing runs side by side: the busy time fits in the span.
TEST_F(CudaEngineTest, SharedStreamFramesDoNotOverlap) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::shared);
  for (int i = 0; i < 6; ++i)
    engine.add(random_spec(1024, 1024, 0.3, 40 + i, Variant::global, Rule::life(), 1));
  for (int frame = 0; frame < 20; ++frame) engine.step(2);
  engine.finish();
  const FrameTimings frame = engine.frame_timings();
  ASSERT_TRUE(frame.valid);
  EXPECT_LE(frame.concurrency, 1.02);
  for (const auto& bar : engine.timeline()) EXPECT_EQ(bar.stream, 0);
}

// Every variant, on random rules, over many frames of one graph launch each (with summaries asked
// for every frame, as the app does): the state equals the CPU reference cell for cell, and no step
// blocks.
TEST_F(CudaEngineTest, GraphModeEqualsTheReferenceForEveryVariantOnRandomRules) {
  const auto rules = test_rules();
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  std::vector<Rule> used;
  int i = 0;
  for (Variant v : kAllVariants) {
    for (int r = 0; r < 2; ++r, ++i) {
      const Rule rule = rules[static_cast<std::size_t>(i * 3) % rules.size()];
      engine.add(random_spec(128 + 32 * r, 96, 0.35, 700 + i, v, rule, 1 + 3 * r));
      used.push_back(rule);
    }
  }
  constexpr int kFrames = 90;
  for (int f = 0; f < kFrames; ++f) {
    engine.step(f < 60 ? 1 : 3);
    EXPECT_EQ(engine.host_syncs_in_last_step(), 0u) << "frame " << f;
    engine.request_summaries();
  }
  engine.finish();
  const int generations = 60 + 3 * (kFrames - 60);
  EXPECT_GT(engine.frame_graph_stats().builds, 0u);
  for (std::size_t n = 0; n < engine.size(); ++n) {
    const InstanceStatus s = engine.status(n);
    SCOPED_TRACE("instance " + std::to_string(n) + " " + std::string(variant_name(s.variant)) + " " +
                 s.rule.to_string());
    Lattice reference = Lattice::random(s.width, s.height, 0.35, 700 + n);
    cpu_run(reference, used[n], generations);
    EXPECT_EQ(difference(engine.read(n), reference), "");
    ASSERT_TRUE(s.summary.has_value());
    EXPECT_EQ(s.summary->generation, static_cast<std::uint64_t>(generations));
    EXPECT_EQ(s.summary->hash, reference.hash());
  }
}

// Switching among the three stream modes and across variants keeps each instance's hash, and the
// run ends on the reference.
TEST_F(CudaEngineTest, SwitchingModesAndVariantsInGraphModeKeepsTheHash) {
  sim::CudaEngine engine;
  for (int i = 0; i < 4; ++i)
    engine.add(random_spec(256, 128, 0.3, 40 + i, kAllVariants[i], Rule::life(), 4));
  const StreamMode modes[] = {StreamMode::graph, StreamMode::per_instance, StreamMode::graph,
                              StreamMode::shared};
  int generations = 0;
  for (int round = 0; round < 8; ++round) {
    const StreamMode mode = modes[round % 4];
    engine.set_stream_mode(mode);
    for (int f = 0; f < 6; ++f) {
      engine.step(2);
      engine.request_summaries();
      generations += 2;
    }
    std::vector<std::uint64_t> before;
    for (std::size_t i = 0; i < engine.size(); ++i) before.push_back(engine.summarize(i).hash);
    const std::size_t changed = static_cast<std::size_t>(round) % engine.size();
    engine.set_variant(changed, kAllVariants[static_cast<std::size_t>(round + 2) % kAllVariants.size()]);
    engine.set_stream_mode(modes[(round + 1) % 4]);
    for (std::size_t i = 0; i < engine.size(); ++i)
      EXPECT_EQ(engine.summarize(i).hash, before[i]) << "round " << round << " instance " << i;
  }
  for (std::size_t i = 0; i < engine.size(); ++i) {
    Lattice reference = Lattice::random(256, 128, 0.3, 40 + i);
    cpu_run(reference, Rule::life(), generations);
    EXPECT_EQ(difference(engine.read(i), reference), "") << "instance " << i;
  }
}

/// Frame graph builds while `frames` frames of `generations` run.
std::uint64_t builds_over(sim::CudaEngine& e, int frames, int generations) {
  const std::uint64_t before = e.frame_graph_stats().builds;
  for (int f = 0; f < frames; ++f) e.step(generations);
  return e.frame_graph_stats().builds - before;
}

// The frame graph is built again only when the frame's shape changes: unchanged frames relaunch it
// (timed and untimed frames, both front buffers), and each change of instances, variant, k,
// generations per frame or timing period builds anew.
TEST_F(CudaEngineTest, GraphModeRebuildsOnlyWhenTheFramesShapeChanges) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  for (int i = 0; i < 4; ++i)
    engine.add(random_spec(256, 256, 0.3, 20 + i, Variant::bitpacked, Rule::life(), 1));
  const auto settles = [&](const char* after) {
    // 40 frames: at a timing period of 8 every timing slot comes around once.
    EXPECT_GT(builds_over(engine, 40, 1), 0u) << "no build after " << after;
    EXPECT_EQ(builds_over(engine, 40, 1), 0u) << "unchanged frames rebuilt after " << after;
  };
  settles("start");
  engine.add(random_spec(256, 256, 0.3, 30, Variant::global, Rule::life(), 1));
  settles("add");
  engine.set_variant(1, Variant::shared);
  settles("variant");
  engine.set_generations_per_launch(0, 4);
  settles("k");
  engine.set_timing_period(8);
  settles("timing period");
  engine.remove(2);
  settles("remove");
  // At timing 1/8 the keys cycle over 4 timing slots of 8 frames: 40 frames see every key once.
  EXPECT_GT(builds_over(engine, 40, 2), 0u) << "generations per frame";
  EXPECT_EQ(builds_over(engine, 40, 2), 0u);
  const FrameGraphStats stats = engine.frame_graph_stats();
  EXPECT_GT(stats.build_ms, 0.0);
  EXPECT_LT(stats.builds, 60u);
}

}  // namespace
}  // namespace ls::sim
