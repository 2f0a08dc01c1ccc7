// test_cuda_engine.cpp — facts about the CUDA engine: every variant equals the CPU reference, state
// survives variant and stream-mode switches, stepping never blocks, memory comes back, and requests
// that do not fit fail cleanly. Skips (with the reason) where there is no CUDA device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "core/summary_pacing.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/frame_graph.hpp"

namespace ls {
namespace {

class CudaEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  }
};

/// Empty string when equal, else where the first difference is.
std::string difference(const Lattice& got, const Lattice& want) {
  if (got.width() != want.width() || got.height() != want.height()) {
    return "size " + std::to_string(got.width()) + "x" + std::to_string(got.height()) + " vs " +
           std::to_string(want.width()) + "x" + std::to_string(want.height());
  }
  long long differing = 0;
  std::string first;
  for (int y = 0; y < want.height(); ++y) {
    for (int x = 0; x < want.width(); ++x) {
      if (got.get(x, y) == want.get(x, y)) continue;
      if (differing++ == 0)
        first = "cell (" + std::to_string(x) + ", " + std::to_string(y) + ") is " +
                (got.get(x, y) ? "live" : "dead") + ", expected " + (want.get(x, y) ? "live" : "dead");
    }
  }
  if (differing == 0) return {};
  return std::to_string(differing) + " cells differ; first: " + first;
}

InstanceSpec random_spec(int w, int h, double density, std::uint64_t seed, Variant v, const Rule& rule,
                         int k) {
  InstanceSpec spec;
  spec.width = w;
  spec.height = h;
  spec.rule = rule;
  spec.variant = v;
  spec.generations_per_launch = k;
  spec.init = RandomInit{density, seed};
  return spec;
}

/// The rules every variant is checked on: the named ones, plus 22 random Life-like rules (with
/// B0 rules among them), from a fixed seed so failures reproduce.
std::vector<Rule> test_rules() {
  std::vector<Rule> rules;
  for (const auto& named : named_rules()) rules.push_back(named.rule);
  std::mt19937_64 rng(20240601);
  while (rules.size() < named_rules().size() + 22) {
    Rule r;
    r.birth = static_cast<std::uint16_t>(rng() & 0x1ff);
    r.survive = static_cast<std::uint16_t>(rng() & 0x1ff);
    rules.push_back(r);
  }
  return rules;
}

struct SoupCase {
  int width, height;
  double density;
  std::uint64_t seed;
  int k;
  Rule rule;
};

std::vector<SoupCase> soup_cases() {
  static const int sizes[][2] = {{32, 32},  {64, 64},    {96, 160},  {256, 128}, {2048, 1024}, {512, 512},
                                 {160, 96}, {1024, 256}, {32, 2048}, {384, 32},  {128, 1024}};
  static const int ks[] = {3, 7, 16, 64, 5, 13, 32, 2};
  std::vector<SoupCase> cases;
  const auto rules = test_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto& size = sizes[i % std::size(sizes)];
    cases.push_back({size[0], size[1], 0.1 + 0.1 * static_cast<double>(i % 6), 1000 + i,
                     ks[i % std::size(ks)], rules[i]});
  }
  return cases;
}

class VariantsEqualReference : public CudaEngineTest, public ::testing::WithParamInterface<int> {};

// All five variants run side by side from one device-made soup; at 0, 1, 2, 31, 64 and 1000
// generations each equals the CPU reference cell for cell, with equal population and hash. The k
// values split the steps into several launches plus a remainder.
TEST_P(VariantsEqualReference, OnRandomSoupsAfterEachCheckpoint) {
  const SoupCase c = soup_cases()[static_cast<std::size_t>(GetParam())];
  SCOPED_TRACE("rule " + c.rule.to_string() + ", " + std::to_string(c.width) + "x" +
               std::to_string(c.height) + ", density " + std::to_string(c.density) + ", seed " +
               std::to_string(c.seed) + ", k " + std::to_string(c.k));
  sim::CudaEngine engine;
  for (Variant v : kAllVariants)
    engine.add(random_spec(c.width, c.height, c.density, c.seed, v, c.rule, c.k));
  Lattice reference = Lattice::random(c.width, c.height, c.density, c.seed);
  long long at = 0;
  for (long long checkpoint : {0LL, 1LL, 2LL, 31LL, 64LL, 1000LL}) {
    const int delta = static_cast<int>(checkpoint - at);
    engine.step(delta);
    cpu_run(reference, c.rule, delta);
    at = checkpoint;
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const std::string variant(variant_name(engine.status(i).variant));
      EXPECT_EQ(difference(engine.read(i), reference), "") << variant << " at generation " << at;
      const StateSummary s = engine.summarize(i);
      EXPECT_EQ(s.generation, static_cast<std::uint64_t>(at)) << variant;
      EXPECT_EQ(s.population, reference.population()) << variant << " at generation " << at;
      EXPECT_EQ(s.hash, reference.hash()) << variant << " at generation " << at;
    }
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Soups, VariantsEqualReference,
                         ::testing::Range(0, static_cast<int>(soup_cases().size())));

// Switching variants in the middle of a run converts the state on the device: the hash right
// after each switch equals the hash right before, and the run still ends on the reference.
TEST_F(CudaEngineTest, VariantSwitchesKeepTheStateExactly) {
  const auto rules = test_rules();
  for (std::size_t r = 0; r < 6; ++r) {
    const Rule rule = rules[r * 3];
    SCOPED_TRACE("rule " + rule.to_string());
    sim::CudaEngine engine;
    engine.add(random_spec(320, 192, 0.35, 77 + r, Variant::naive, rule, 5));
    Lattice reference = Lattice::random(320, 192, 0.35, 77 + r);
    const Variant order[] = {Variant::bitpacked, Variant::shared,  Variant::iterate,   Variant::naive,
                             Variant::global,    Variant::iterate, Variant::bitpacked, Variant::global};
    int gens = 3;
    for (Variant next : order) {
      engine.step(gens);
      cpu_run(reference, rule, gens);
      const StateSummary before = engine.summarize(0);
      engine.set_variant(0, next);
      const StateSummary after = engine.summarize(0);
      EXPECT_EQ(after.hash, before.hash) << "switch to " << variant_name(next);
      EXPECT_EQ(after.population, before.population);
      EXPECT_EQ(after.hash, reference.hash());
      gens = gens * 2 + 1;
    }
    EXPECT_EQ(difference(engine.read(0), reference), "");
  }
}

// A copy starts from its source's state and generation, in any variant, and then runs alike.
TEST_F(CudaEngineTest, CopyInitGivesEqualHashes) {
  sim::CudaEngine engine;
  engine.add(random_spec(512, 256, 0.3, 5, Variant::bitpacked, Rule::life(), 16));
  engine.step(10);
  for (Variant v : kAllVariants) {
    InstanceSpec copy;
    copy.variant = v;
    copy.generations_per_launch = 6;
    copy.init = CopyInit{0};
    engine.add(copy);
  }
  const StateSummary source = engine.summarize(0);
  for (std::size_t i = 1; i < engine.size(); ++i) {
    EXPECT_EQ(engine.status(i).generation, 10u);
    EXPECT_EQ(engine.status(i).origin, engine.status(0).origin);
    EXPECT_EQ(engine.summarize(i).hash, source.hash);
  }
  engine.step(45);
  const std::uint64_t hash = engine.summarize(0).hash;
  for (std::size_t i = 1; i < engine.size(); ++i) EXPECT_EQ(engine.summarize(i).hash, hash);
  Lattice reference = Lattice::random(512, 256, 0.3, 5);
  cpu_run(reference, Rule::life(), 55);
  EXPECT_EQ(hash, reference.hash());
}

// A moved instance (Engine::add_moved) holds exactly the lattice it was given, stands at the given
// generation with the given origin in every variant, and runs on as the CPU reference does; a
// move without a lattice is refused, changing nothing.
TEST_F(CudaEngineTest, AddMovedKeepsTheLatticeGenerationAndOrigin) {
  const Rule rule = parse_rule("B36/S23");
  const Lattice start = Lattice::random(160, 96, 0.35, 77);
  sim::CudaEngine engine;
  std::uint64_t origin = 0xabc0;
  for (Variant v : kAllVariants) {
    InstanceSpec spec;
    spec.rule = rule;
    spec.variant = v;
    spec.generations_per_launch = 5;
    spec.init = start;
    engine.add_moved(spec, 1234, ++origin);
  }
  ASSERT_EQ(engine.size(), kAllVariants.size());
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(s.generation, 1234u) << variant_name(kAllVariants[i]);
    EXPECT_EQ(s.origin, 0xabc1u + i);
    EXPECT_EQ(s.rule, rule);
    EXPECT_EQ(s.variant, kAllVariants[i]);
    EXPECT_EQ(s.width, 160);
    EXPECT_EQ(s.height, 96);
    const StateSummary sum = engine.summarize(i);
    EXPECT_EQ(sum.generation, 1234u);
    EXPECT_EQ(sum.hash, start.hash());
    EXPECT_EQ(sum.population, start.population());
    EXPECT_EQ(difference(engine.read(i), start), "");
  }
  engine.step(23);
  Lattice reference = start;
  cpu_run(reference, rule, 23);
  for (std::size_t i = 0; i < engine.size(); ++i) {
    EXPECT_EQ(engine.status(i).generation, 1257u);
    EXPECT_EQ(engine.status(i).origin, 0xabc1u + i) << "stepping keeps the origin";
    EXPECT_EQ(difference(engine.read(i), reference), "") << variant_name(kAllVariants[i]);
  }

  InstanceSpec soup = random_spec(64, 64, 0.3, 1, Variant::bitpacked, rule, 1);
  try {
    engine.add_moved(soup, 5, 6);
    ADD_FAILURE() << "a move without a lattice was taken";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "a moved instance needs its lattice (spec.init must be a Lattice)");
  }
  EXPECT_EQ(engine.size(), kAllVariants.size());
}

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

// The frame loop (step, summaries requested and polled, display brackets) makes no blocking call;
// the summaries and timings it reads later are the real ones.
TEST_F(CudaEngineTest, StepMakesNoHostSyncsAndTimingsArrive) {
  sim::CudaEngine engine;
  for (Variant v : kAllVariants) engine.add(random_spec(1024, 512, 0.25, 3, v, Rule::life(), 16));
  for (int frame = 0; frame < 300; ++frame) {
    engine.step(2);
    EXPECT_EQ(engine.host_syncs_in_last_step(), 0u) << "frame " << frame;
    if (frame % 10 == 0) engine.request_summaries();
    for (std::size_t i = 0; i < engine.size(); ++i) {
      engine.begin_display(i);
      engine.end_display(i);
      (void)engine.status(i);
    }
  }
  // Summaries are paced (issue 12): one still in flight defers the next, and a summary whose
  // measured GPU time exceeds its share of the instance's (tiny) step waits a few requests. A paused
  // app keeps asking once a frame, so the final state's summary comes within the pacing bound; it
  // still belongs to the last frame (nothing stepped since). (Asking once was flaky: an H200 run
  // measured the bitpacked instance's summary above its 50 us share and deferred it.)
  engine.finish();
  const auto all_final = [&] {
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const InstanceStatus s = engine.status(i);
      if (!s.summary || s.summary->generation != 600u) return false;
    }
    return true;
  };
  for (int ask = 0; ask <= kMaxSummaryEvery && !all_final(); ++ask) {
    engine.request_summaries();
    engine.finish();
  }
  Lattice reference = Lattice::random(1024, 512, 0.25, 3);
  cpu_run(reference, Rule::life(), 600);
  const FrameTimings frame = engine.frame_timings();
  ASSERT_TRUE(frame.valid);
  EXPECT_GT(frame.gpu_span_ms, 0.0);
  EXPECT_GT(frame.busy_ms, 0.0);
  EXPECT_GT(frame.concurrency, 0.0);
  EXPECT_LE(frame.concurrency, 2.0 * static_cast<double>(engine.size()));
  const auto bars = engine.timeline();
  // A step and a display bar per instance, and a summary bar for each summary asked right after
  // the frame's step (the last request above: every instance's, its state new and its summary
  // cheap).
  std::vector<int> per_kind(3 * engine.size());
  for (const auto& bar : bars) ++per_kind[3 * bar.instance + static_cast<std::size_t>(bar.kind)];
  for (std::size_t i = 0; i < per_kind.size(); ++i) {
    const auto kind = static_cast<TimelineBar::Kind>(i % 3);
    if (kind == TimelineBar::Kind::summary)
      EXPECT_LE(per_kind[i], 1);  // paced: a summary bar where one was asked right after the step
    else
      EXPECT_EQ(per_kind[i], 1);
  }
  for (const auto& bar : bars) {
    EXPECT_GE(bar.start_ms, 0.0);
    EXPECT_GE(bar.end_ms, bar.start_ms);
    EXPECT_LE(bar.end_ms, frame.gpu_span_ms + 1e-6);
    EXPECT_EQ(bar.stream, static_cast<int>(bar.instance));
  }
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(s.generation, 600u);
    ASSERT_TRUE(s.summary.has_value());
    EXPECT_EQ(s.summary->generation, 600u);
    EXPECT_EQ(s.summary->hash, reference.hash()) << variant_name(s.variant);
    EXPECT_GT(s.step_ms.samples, 0);
    EXPECT_LE(s.step_ms.samples, kTimingWindow);
    EXPECT_GT(s.step_ms.mean, 0.0);
    EXPECT_GT(s.cups, 0.0);
  }
}

/// Redraws every instance the way a paused app does (no step), every few ms for `ms` ms; returns how
/// many of those redraws the engine took as timed display work.
int redraw_while_paused(Engine& e, int ms) {
  int bracketed = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e.begin_display(i)) {
        ++bracketed;
        e.end_display(i);
      }
    }
    e.request_summaries();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return bracketed;
}

// Issue 10: paused (Space) for a while, then one step (N): the panel showed "GPU span 1352 ms" and
// a concurrency of 0.01x, because every paused redraw re-recorded the frame's display events. A
// frame's span covers its own steps and its first display only, and every bar lies inside it.
TEST_F(CudaEngineTest, AStepAfterAPauseSpansItsOwnWorkNotThePause) {
  constexpr int kPauseMs = 400;
  constexpr double kFrameMs = 100;  // a frame of two 256x256 instances takes well under 1 ms
  sim::CudaEngine engine;
  engine.add(random_spec(256, 256, 0.3, 61, Variant::bitpacked, Rule::life(), 4));
  engine.add(random_spec(256, 256, 0.3, 62, Variant::shared, Rule::life(), 4));
  const auto check_frame = [&](const char* which) {
    SCOPED_TRACE(which);
    const FrameTimings f = engine.frame_timings();
    ASSERT_TRUE(f.valid);
    EXPECT_LT(f.gpu_span_ms, kFrameMs);
    EXPECT_GT(f.concurrency, 0.0);
    const auto bars = engine.timeline();
    // A step and a display bar per instance, and a summary bar where a summary was asked for
    // right after the step (paced summaries, issue 12).
    std::size_t steps_and_displays = 0, summaries = 0;
    for (const TimelineBar& bar : bars)
      (bar.kind == TimelineBar::Kind::summary ? summaries : steps_and_displays)++;
    EXPECT_EQ(steps_and_displays, 2 * engine.size());
    EXPECT_LE(summaries, engine.size());
    for (const TimelineBar& bar : bars) {
      EXPECT_GE(bar.start_ms, 0.0);
      EXPECT_LE(bar.start_ms, bar.end_ms);
      EXPECT_LE(bar.end_ms, f.gpu_span_ms + 1e-6);
    }
  };
  // A step() reads the timed frames before the newest one (whose display bracket may still be
  // open), so a frame's figures are there two steps after it.
  engine.step(1);                                       // frame A, then a pause
  EXPECT_EQ(redraw_while_paused(engine, kPauseMs), 2);  // A's own display, then only redraws
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);      // complete when a later step reads it
  engine.step(1);                                       // N: frame B
  EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
  engine.step(1);  // frame C reads A
  EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
  check_frame("the frame before the pause");
  EXPECT_EQ(redraw_while_paused(engine, kPauseMs), 2);  // after C: C's display, then redraws
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  engine.step(1);  // D
  engine.step(1);  // E reads B and C
  check_frame("a single step followed by a pause");
}

// With the timing period at N only one frame in N carries timing events: the statistics count
// exactly those frames (each frame is waited for, so none is dropped), the timeline is complete,
// stepping never blocks, and every variant still ends on the reference.
TEST_F(CudaEngineTest, TimingPeriodTimesOneFrameInNAndKeepsTheStateExact) {
  sim::CudaEngine engine;
  int seed = 40;
  for (Variant v : kAllVariants) engine.add(random_spec(256, 128, 0.3, seed++, v, Rule::life(), 4));
  engine.set_timing_period(8);
  EXPECT_THROW(engine.set_timing_period(0), InputError);
  EXPECT_THROW(engine.set_timing_period(kMaxTimingPeriod + 1), InputError);
  EXPECT_EQ(engine.timing_period(), 8);
  const auto frames = [&](int n, int gens) {
    for (int frame = 0; frame < n; ++frame) {
      engine.step(gens);
      EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
      for (std::size_t i = 0; i < engine.size(); ++i) {
        engine.begin_display(i);
        engine.end_display(i);
      }
      if (frame % 10 == 0) engine.request_summaries();
      engine.finish();
    }
  };
  frames(80, 3);  // frames 0, 8, ..., 72 are timed
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    EXPECT_EQ(s.step_ms.samples, 10) << variant_name(s.variant);
    EXPECT_EQ(s.display_ms.samples, 10) << variant_name(s.variant);
    EXPECT_GT(s.cups, 0.0);
  }
  EXPECT_TRUE(engine.frame_timings().valid);
  EXPECT_EQ(engine.timeline().size(), 2 * engine.size());
  engine.set_timing_period(1);  // the next frame is timed, and every one after it
  frames(6, 1);
  engine.request_summaries();
  engine.finish();
  // Read the way the app reads them: by the next steps, never by finish(). The device is drained
  // behind the engine's back so every timed frame is complete when the next step looks.
  engine.set_timing_period(4);
  for (int frame = 0; frame < 40; ++frame) {
    engine.step(1);
    EXPECT_EQ(engine.frame_timed(), frame % 4 == 0) << "frame " << frame;
    for (std::size_t i = 0; i < engine.size(); ++i)
      if (engine.begin_display(i)) engine.end_display(i);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  engine.step(0);  // no frame: the newest one (39) stays untimed
  EXPECT_FALSE(engine.frame_timed());
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    // The six one-generation frames at period 1 and frames 0, 4, ..., 36 read by steps; the frames
    // of three generations before them were another workload, whose statistics were dropped.
    EXPECT_EQ(s.step_ms.samples, 16) << variant_name(s.variant);
    EXPECT_EQ(s.display_ms.samples, 16) << variant_name(s.variant);
  }
  engine.request_summaries();
  engine.finish();
  for (std::size_t i = 0; i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    SCOPED_TRACE(std::string(variant_name(s.variant)));
    EXPECT_EQ(s.step_ms.samples, 16);
    Lattice reference = Lattice::random(256, 128, 0.3, 40 + static_cast<int>(i));
    cpu_run(reference, Rule::life(), 286);
    ASSERT_TRUE(s.summary.has_value());
    EXPECT_EQ(s.summary->generation, 286u);
    EXPECT_EQ(s.summary->hash, reference.hash());
  }
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
  // Summaries are paced (issue 12): one in flight defers the next; ask again once all is done.
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

std::size_t free_device_memory() {
  std::size_t free_bytes = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  return free_bytes;
}

void churn_once(sim::CudaEngine& engine) {
  engine.add(random_spec(1024, 1024, 0.3, 1, Variant::bitpacked, Rule::life(), 16));
  engine.add(random_spec(2048, 512, 0.3, 2, Variant::global, Rule::life(), 1));
  engine.add(random_spec(512, 512, 0.3, 3, Variant::naive, Rule::life(), 1));
  InstanceSpec copy;
  copy.variant = Variant::iterate;
  copy.init = CopyInit{0};
  engine.add(copy);
  engine.step(5);
  engine.set_variant(1, Variant::bitpacked);
  engine.set_variant(0, Variant::shared);
  engine.request_summaries();
  (void)engine.read(2);
  engine.step(5);
  while (engine.size() > 0) engine.remove(engine.size() - 1);
}

// Device memory per cell, both buffers together (issue 6): the byte variants take 2 bytes, bitpacked
// 2 bits, naive (the books' int cells) 8 bytes, each plus a small fixed part (summary results and
// the allocator's 2 MiB granularity), measured as free memory before and after adding a 16384²
// instance of each variant and stepping it into a frame graph.
TEST_F(CudaEngineTest, DeviceMemoryPerCellIsTwoBytesOrTwoBits) {
  sim::CudaEngine engine;
  engine.add(random_spec(256, 256, 0.3, 1, Variant::bitpacked, Rule::life(), 4));
  for (int f = 0; f < 4; ++f) engine.step(4);  // kernels loaded, graphs made
  engine.finish();
  const double cells = 16384.0 * 16384.0;
  const std::size_t fixed = std::size_t{4} << 20;
  const std::pair<Variant, double> expected[] = {{Variant::naive, 8.0},
                                                 {Variant::global, 2.0},
                                                 {Variant::shared, 2.0},
                                                 {Variant::iterate, 2.0},
                                                 {Variant::bitpacked, 0.25}};
  for (const auto& [variant, bytes_per_cell] : expected) {
    SCOPED_TRACE(std::string(variant_name(variant)));
    const std::size_t before = free_device_memory();
    engine.add(random_spec(16384, 16384, 0.3, 2, variant, Rule::life(), 8));
    for (int f = 0; f < 4; ++f) engine.step(8);
    engine.finish();
    const double used = static_cast<double>(before - free_device_memory());
    std::printf("%-9s %.4f bytes per cell on the device (both buffers)\n",
                std::string(variant_name(variant)).c_str(), used / cells);
    EXPECT_GE(used, bytes_per_cell * cells);
    EXPECT_LE(used, bytes_per_cell * cells + static_cast<double>(fixed));
    engine.remove(engine.size() - 1);
    engine.finish();
  }
}

// Adding and removing instances (with copies, switches, summaries and reads) gives every byte back.
TEST_F(CudaEngineTest, AddAndRemoveInALoopGivesDeviceMemoryBack) {
  sim::CudaEngine engine;
  churn_once(engine);  // loads every kernel module (lazy loading allocates on first use)
  engine.finish();
  const std::size_t before = free_device_memory();
  std::size_t lowest = before;
  for (int cycle = 0; cycle < 30; ++cycle) {
    churn_once(engine);
    engine.add(random_spec(4096, 4096, 0.2, 9, Variant::iterate, Rule::life(), 8));
    lowest = std::min(lowest, free_device_memory());
    engine.remove(0);
  }
  engine.finish();
  EXPECT_LT(lowest + 2 * 4096 * 4096 - (std::size_t{1} << 20), before) << "the loop did not take memory";
  EXPECT_EQ(free_device_memory(), before);
  EXPECT_EQ(engine.size(), 0u);
}

// A lattice that cannot fit is refused with how much was asked and how much is free, and the
// instances already there go on untouched.
TEST_F(CudaEngineTest, ImpossibleLatticeThrowsInputErrorAndChangesNothing) {
  sim::CudaEngine engine;
  engine.add(random_spec(256, 256, 0.3, 11, Variant::bitpacked, Rule::life(), 16));
  engine.add(random_spec(256, 128, 0.3, 12, Variant::shared, Rule::life(), 1));
  engine.step(7);
  const std::uint64_t h0 = engine.summarize(0).hash, h1 = engine.summarize(1).hash;
  const InstanceSpec huge = random_spec(1048576, 1048576, 0.3, 1, Variant::global, Rule::life(), 1);
  try {
    engine.add(huge);
    FAIL() << "a 1048576x1048576 byte lattice was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1048576x1048576 (global) needs 2097152 MiB"), std::string::npos) << what;
    EXPECT_NE(what.find("MiB free"), std::string::npos) << what;
  }
  EXPECT_THROW(engine.replace(1, huge), InputError);
  EXPECT_EQ(engine.size(), 2u);
  EXPECT_EQ(engine.status(1).width, 256);
  EXPECT_EQ(engine.status(1).variant, Variant::shared);
  EXPECT_EQ(engine.summarize(0).hash, h0);
  EXPECT_EQ(engine.summarize(1).hash, h1);
  engine.step(1);  // and they still run
  EXPECT_EQ(engine.status(0).generation, 8u);
}

TEST_F(CudaEngineTest, BadRequestsThrowInputErrorAndChangeNothing) {
  sim::CudaEngine engine;
  engine.add(random_spec(64, 64, 0.3, 1, Variant::iterate, Rule::life(), 4));
  EXPECT_THROW(engine.remove(1), InputError);
  EXPECT_THROW(engine.set_variant(3, Variant::naive), InputError);
  EXPECT_THROW(engine.set_generations_per_launch(0, 0), InputError);
  EXPECT_THROW(engine.set_generations_per_launch(0, 65), InputError);
  EXPECT_THROW(engine.add(random_spec(33, 64, 0.3, 1, Variant::naive, Rule::life(), 1)), InputError);
  InstanceSpec copy;
  copy.init = CopyInit{4};
  EXPECT_THROW(engine.add(copy), InputError);
  EXPECT_THROW(engine.step(-1), InputError);
  EXPECT_EQ(engine.size(), 1u);
  EXPECT_EQ(engine.status(0).generations_per_launch, 4);
  EXPECT_THROW(sim::CudaEngine(1 << 20), DeviceError);
}

// Life facts on every variant: a glider moves one cell diagonally every 4 generations, wrapping
// around the torus; an uploaded lattice reads back unchanged.
TEST_F(CudaEngineTest, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  Lattice start(64, 32);
  // .O. / ..O / OOO with its box's top-left at (60, 29): it straddles both seams.
  for (auto [x, y] : {std::pair{61, 29}, {62, 30}, {60, 31}, {61, 31}, {62, 31}}) start.set(x, y, true);
  for (Variant v : kAllVariants) {
    SCOPED_TRACE(std::string(variant_name(v)));
    sim::CudaEngine engine;
    InstanceSpec spec;
    spec.variant = v;
    spec.generations_per_launch = 3;
    spec.init = start;
    engine.add(spec);
    EXPECT_EQ(difference(engine.read(0), start), "");
    engine.step(4 * 25);
    Lattice moved(64, 32);
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 64; ++x)
        if (start.get(x, y)) moved.set(x + 25, y + 25, true);
    EXPECT_EQ(difference(engine.read(0), moved), "");
  }
}

// On a GPU with 64 KB of shared memory per block (Turing), `iterate` runs at most 48 generations
// per launch: an instance set to 64 runs (launches of 48 and a remainder), says so in its status,
// and still equals the CPU reference.
TEST_F(CudaEngineTest, IterateDeeperThanTheGpuAllowsRunsShallowerAndExact) {
  ls::kernels::set_iterate_smem_limit_for_testing(64 * 1024);
  struct Restore {
    ~Restore() { ls::kernels::set_iterate_smem_limit_for_testing(0); }
  } restore;
  const Lattice start = Lattice::random(480, 224, 0.3, 4242);
  sim::CudaEngine engine;
  InstanceSpec spec;
  spec.variant = Variant::iterate;
  spec.generations_per_launch = 64;
  spec.init = start;
  engine.add(spec);
  EXPECT_EQ(engine.status(0).generations_per_launch, 48);
  for (int frame = 0; frame < 5; ++frame) engine.step(100);
  Lattice want = start;
  cpu_run(want, Rule::life(), 500);
  EXPECT_EQ(difference(engine.read(0), want), "");
  ls::kernels::set_iterate_smem_limit_for_testing(0);
  EXPECT_EQ(engine.status(0).generations_per_launch, 64);
}

// set_cell wraps its coordinates onto the torus, changes exactly one cell and gives a new origin.
TEST_F(CudaEngineTest, SetCellChangesOneCellAndTheOrigin) {
  for (Variant v : kAllVariants) {
    SCOPED_TRACE(std::string(variant_name(v)));
    sim::CudaEngine engine;
    engine.add(random_spec(96, 64, 0.0, 1, v, Rule::life(), 1));
    const std::uint64_t origin = engine.status(0).origin;
    engine.set_cell(0, -1, 69, true);
    const Lattice after = engine.read(0);
    EXPECT_TRUE(after.get(95, 5));
    EXPECT_EQ(after.population(), 1u);
    EXPECT_NE(engine.status(0).origin, origin);
    const DeviceLatticeView view = engine.device_view(0);
    EXPECT_NE(view.cells, nullptr);
    EXPECT_EQ(view.width, 96);
    EXPECT_EQ(view.layout == kernels::Layout::bit_cells, v == Variant::bitpacked);
  }
}

// Host snapshots hold exactly the state (and generation) an instance had when they were asked for,
// and lattices above the size limit get none.
TEST_F(CudaEngineTest, SnapshotsCopyTheStateToTheHost) {
  sim::CudaEngine engine;
  for (Variant v : kAllVariants) engine.add(random_spec(256, 160, 0.4, 21, v, Rule::life(), 6));
  engine.add(random_spec(1024, 1024, 0.4, 22, Variant::bitpacked, Rule::life(), 6));
  engine.step(9);
  engine.request_snapshots(256 * 160);
  engine.step(4);  // the snapshot is of generation 9, whatever the steps enqueued after it
  engine.finish();
  Lattice reference = Lattice::random(256, 160, 0.4, 21);
  cpu_run(reference, Rule::life(), 9);
  const auto snaps = engine.snapshots();
  ASSERT_EQ(snaps.size(), kAllVariants.size());  // not the 1024x1024 instance
  for (const auto& snap : snaps) {
    EXPECT_EQ(snap.generation, 9u);
    EXPECT_EQ(snap.rule, Rule::life());
    EXPECT_EQ(difference(snap.cells, reference), "") << "instance " << snap.instance;
  }
  engine.request_snapshots(1u << 20);
  engine.finish();
  cpu_run(reference, Rule::life(), 4);
  const auto newer = engine.snapshots();
  ASSERT_EQ(newer.size(), engine.size());
  for (std::size_t i = 0; i < kAllVariants.size(); ++i) {
    EXPECT_EQ(newer[i].generation, 13u);
    EXPECT_EQ(difference(newer[i].cells, reference), "");
  }
}

// A snapshot started in a timed frame is that frame's work: a bar on its instance's row after the
// instance's step, counted busy; an instance too large for a snapshot has none. In every stream
// mode (graph mode times it by stamps, written once its copy is done).
TEST_F(CudaEngineTest, ASnapshotStartedInATimedFrameShowsOnItsInstancesRow) {
  for (const StreamMode mode : {StreamMode::per_instance, StreamMode::shared, StreamMode::graph}) {
    sim::CudaEngine engine;
    engine.set_stream_mode(mode);
    engine.add(random_spec(256, 160, 0.4, 31, Variant::bitpacked, Rule::life(), 8));
    engine.add(random_spec(1024, 1024, 0.4, 32, Variant::shared, Rule::life(), 1));
    engine.step(8);
    engine.request_snapshots(256 * 160);
    engine.finish();
    const FrameTimings frame = engine.frame_timings();
    ASSERT_TRUE(frame.valid);
    std::vector<TimelineBar> snaps;
    std::optional<TimelineBar> step0;
    double busy = 0;
    for (const TimelineBar& b : engine.timeline()) {
      if (b.kind == TimelineBar::Kind::snapshot) snaps.push_back(b);
      if (b.kind == TimelineBar::Kind::step && b.instance == 0) step0 = b;
      busy += b.end_ms - b.start_ms;
    }
    ASSERT_TRUE(step0.has_value());
    ASSERT_EQ(snaps.size(), 1u) << "instance 0 only: instance 1 is above the size";
    EXPECT_EQ(snaps[0].instance, 0u);
    EXPECT_EQ(snaps[0].stream, step0->stream);
    EXPECT_GE(snaps[0].start_ms, step0->end_ms - 1e-9);
    EXPECT_GT(snaps[0].end_ms, snaps[0].start_ms);
    EXPECT_NEAR(frame.busy_ms, busy, 1e-6);
    ASSERT_EQ(engine.snapshots().size(), 1u);
  }
}

// Through the Engine interface alone, as the app's recovery uses it: the engine names its device,
// and its snapshots are the lattices at the request (here after finish(), so they have landed).
TEST_F(CudaEngineTest, SnapshotsThroughTheEngineInterfaceAreTheLatticesAtTheRequest) {
  sim::CudaEngine cuda;
  Engine& engine = cuda;
  EXPECT_EQ(engine.cuda_device(), cuda.device());
  for (Variant v : kAllVariants) engine.add(random_spec(128, 96, 0.35, 23, v, parse_rule("B36/S23"), 3));
  EXPECT_TRUE(engine.snapshots().empty());
  engine.step(6);
  std::vector<Lattice> at6;
  for (std::size_t i = 0; i < engine.size(); ++i) at6.push_back(engine.read(i));
  engine.request_snapshots(128 * 96);
  engine.step(2);
  engine.finish();
  const std::vector<HostSnapshot> snaps = engine.snapshots();
  ASSERT_EQ(snaps.size(), engine.size());
  for (const HostSnapshot& snap : snaps) {
    SCOPED_TRACE("instance " + std::to_string(snap.instance));
    EXPECT_EQ(snap.generation, 6u);
    EXPECT_EQ(snap.rule, parse_rule("B36/S23"));
    EXPECT_EQ(difference(snap.cells, at6[snap.instance]), "");
  }
  engine.request_snapshots(128 * 96 - 1);  // below every lattice: nothing new, the old ones stay
  engine.finish();
  EXPECT_EQ(engine.snapshots().size(), engine.size());
}

// 1000 cycles of adding, removing, resizing, switching variants, k and stream modes around two
// instances nobody touches: those end exactly as in a clean run, and device memory comes back.
TEST_F(CudaEngineTest, ChurnLeavesUntouchedInstancesAndDeviceMemoryAsInACleanRun) {
  const InstanceSpec a = random_spec(512, 512, 0.3, 101, Variant::bitpacked, Rule::life(), 16);
  const InstanceSpec b = random_spec(256, 384, 0.4, 102, Variant::iterate, parse_rule("B36/S23"), 5);
  sim::CudaEngine engine, clean;
  clean.add(a);
  clean.add(b);
  churn_once(engine);
  engine.finish();
  const std::size_t before = free_device_memory();
  engine.add(a);
  engine.add(b);
  std::mt19937 rng(7);
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const auto any_variant = [&] { return kAllVariants[static_cast<std::size_t>(pick(5))]; };
  const auto churn_index = [&] {
    return 2 + static_cast<std::size_t>(pick(static_cast<int>(engine.size()) - 2));
  };
  long long generations = 0;
  int adds = 0, removes = 0, resizes = 0, switches = 0, mode_flips = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    const int action = pick(7);
    const bool has_churn = engine.size() > 2;
    if (action == 0 || (!has_churn && action != 3)) {
      if (engine.size() < 10) {
        engine.add(random_spec(32 * (1 + pick(16)), 32 * (1 + pick(16)), 0.3, rng(), any_variant(),
                               Rule::life(), 1 + pick(64)));
        ++adds;
      }
    } else if (action == 1) {
      engine.remove(churn_index());
      ++removes;
    } else if (action == 2) {
      engine.set_variant(churn_index(), any_variant());
      ++switches;
    } else if (action == 3) {
      engine.set_stream_mode(engine.stream_mode() == StreamMode::shared ? StreamMode::per_instance
                                                                        : StreamMode::shared);
      ++mode_flips;
    } else if (action == 4) {
      engine.replace(churn_index(), random_spec(32 * (1 + pick(32)), 32 * (1 + pick(8)), 0.5, rng(),
                                                any_variant(), parse_rule("B2/S"), 1 + pick(64)));
      ++resizes;
    } else if (action == 5) {
      engine.set_generations_per_launch(churn_index(), 1 + pick(64));
    } else {
      engine.set_cell(churn_index(), pick(1000), pick(1000), true);
    }
    const int gens = 1 + pick(3);
    engine.step(gens);
    generations += gens;
    if (cycle % 50 == 0) engine.request_summaries();
  }
  EXPECT_GT(adds, 50);
  EXPECT_GT(removes, 50);
  EXPECT_GT(resizes, 50);
  EXPECT_GT(switches, 50);
  EXPECT_GT(mode_flips, 50);
  clean.step(static_cast<int>(generations));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(engine.status(i).generation, static_cast<std::uint64_t>(generations));
    EXPECT_EQ(engine.summarize(i).hash, clean.summarize(i).hash) << "untouched instance " << i;
  }
  while (engine.size() > 0) engine.remove(engine.size() - 1);
  engine.finish();
  EXPECT_EQ(free_device_memory(), before);
}

// Adding instances until the device is full ends in an InputError that says how much was asked
// and how much is free; the instances already running are untouched, and memory comes back (the
// first fill may leave the driver's page tables for the whole device behind, so the second fill
// is the one that must give back every byte).
TEST_F(CudaEngineTest, FillingTheDeviceEndsInACleanInputError) {
  sim::CudaEngine engine;
  churn_once(engine);
  engine.finish();
  const InstanceSpec big =
      random_spec(65536, 32768, 0.3, 5, Variant::global, Rule::life(), 1);  // 4 GiB a pair
  const auto fill_and_empty = [&] {
    engine.add(big);
    engine.step(3);
    const std::uint64_t hash = engine.summarize(0).hash;
    std::string message;
    for (int i = 0; i < 200 && message.empty(); ++i) {
      try {
        engine.add(big);
      } catch (const InputError& e) {
        message = e.what();
      }
    }
    ASSERT_FALSE(message.empty()) << "200 lattices of 4 GiB all fitted";
    EXPECT_NE(message.find("lattice 65536x32768 (global) needs 4096 MiB of device memory; "),
              std::string::npos)
        << message;
    EXPECT_GE(engine.size(), 2u);
    EXPECT_EQ(engine.summarize(0).hash, hash);
    EXPECT_EQ(engine.status(0).generation, 3u);
    engine.step(1);
    EXPECT_EQ(engine.summarize(0).generation, 4u);
    EXPECT_EQ(engine.summarize(engine.size() - 1).generation, 1u);
    while (engine.size() > 0) engine.remove(engine.size() - 1);
    engine.finish();
  };
  const std::size_t before = free_device_memory();
  fill_and_empty();
  const std::size_t after_first = free_device_memory();
  EXPECT_LE(static_cast<long long>(before) - static_cast<long long>(after_first), 8LL << 20)
      << "the first fill kept more than 8 MiB";
  fill_and_empty();
  EXPECT_EQ(free_device_memory(), after_first);
}

}  // namespace
}  // namespace ls

// ---- stream mode `graph`: the whole frame as one CUDA graph (issue 14) ------------------------

namespace ls {
namespace {

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

// A frame graph gathers up to 64 branches' summaries into one copy (FrameSummaries): with 70
// instances, six summarize the old way; and 70 short steps run chained, kChainLength a branch. Every summary
// any instance shows during the run, read every frame while the GPU may lag, is its reference's population
// and hash at the generation it names (no summary carries another frame's values), and the last ones arrive.
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

// In graph mode each instance is a branch of its own: every instance has its own step bar on its own
// row, a display bar, and step timings; the frame has a span; host enqueue time is measured.
TEST_F(CudaEngineTest, GraphModeTimingsAndTimelineAreComplete) {
  sim::CudaEngine engine;
  engine.set_stream_mode(StreamMode::graph);
  for (int i = 0; i < 8; ++i)
    engine.add(random_spec(512, 256, 0.25, 80 + i, kAllVariants[i % kAllVariants.size()], Rule::life(), 8));
  const auto run_frame = [&] {
    engine.step(2);
    EXPECT_EQ(engine.host_syncs_in_last_step(), 0u);
    // In graph mode a display is timed by two stamps its graph writes (as the tile filler's
    // display graph does), not by begin_display's events.
    const cudaStream_t frame_stream = engine.device_view(0).stream;
    for (std::size_t i = 0; i < engine.size(); ++i) {
      EXPECT_FALSE(engine.begin_display(i));
      if (std::uint64_t* stamps = engine.claim_display_stamps(i)) {
        ls::kernels::launch_stamp(stamps, frame_stream);
        ls::kernels::launch_stamp(stamps + 1, frame_stream);
      }
    }
    engine.display_enqueued(frame_stream);
    engine.request_summaries();
  };
  for (int f = 0; f < 60; ++f) run_frame();
  // The summaries asked after the last frame ride in the next frame's graph once its results' host
  // slot is free: the GPU idle, it is. (finish() would serve them at once, without a frame.)
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  run_frame();
  engine.finish();
  const FrameTimings frame = engine.frame_timings();
  ASSERT_TRUE(frame.valid);
  EXPECT_GT(frame.gpu_span_ms, 0.0);
  const auto bars = engine.timeline();
  std::vector<int> steps(engine.size(), 0), displays(engine.size(), 0), summaries(engine.size(), 0);
  std::vector<double> step_start(engine.size(), 0), summary_end(engine.size(), -1);
  for (const auto& bar : bars) {
    EXPECT_EQ(bar.stream, static_cast<int>(bar.instance));
    EXPECT_GE(bar.end_ms, bar.start_ms);
    if (bar.kind == TimelineBar::Kind::step) {
      ++steps[bar.instance];
      step_start[bar.instance] = bar.start_ms;
    } else if (bar.kind == TimelineBar::Kind::display) {
      ++displays[bar.instance];
    } else {
      ASSERT_EQ(bar.kind, TimelineBar::Kind::summary);
      ++summaries[bar.instance];
      summary_end[bar.instance] = bar.end_ms;
    }
  }
  // The summaries rode in the last frame's graph, ahead of each branch's step: a summary bar per
  // instance, ending where its step starts.
  for (std::size_t i = 0; i < engine.size(); ++i) {
    EXPECT_EQ(steps[i], 1) << "instance " << i;
    EXPECT_EQ(displays[i], 1) << "instance " << i;
    EXPECT_EQ(summaries[i], 1) << "instance " << i;
    EXPECT_DOUBLE_EQ(summary_end[i], step_start[i]) << "instance " << i;
    const InstanceStatus s = engine.status(i);
    EXPECT_GT(s.step_ms.samples, 0);
    EXPECT_GT(s.cups, 0.0);
  }
  const StatSummary host = engine.host_enqueue_ms();
  EXPECT_EQ(host.samples, 61);
  EXPECT_GT(host.mean, 0.0);
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
}  // namespace ls
