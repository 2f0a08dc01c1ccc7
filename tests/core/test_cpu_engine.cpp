// test_cpu_engine.cpp — facts about Life on the CPU reference engine.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"

namespace ls {
namespace {

Pattern bundled(const std::string& name) {
  return load_pattern_file(std::string(LS_SOURCE_DIR) + "/assets/patterns/" + name);
}

Lattice with(const Pattern& p, int w, int h, int x, int y) {
  Lattice l(w, h);
  l.place(p, x, y);
  return l;
}

Lattice run(Lattice l, long long gens, const Rule& rule = Rule::life()) {
  cpu_run(l, rule, gens);
  return l;
}

// A deliberately plain per-cell step, independent of the bit-sliced engine.
Lattice plain_step(const Lattice& in, const Rule& rule) {
  Lattice out(in.width(), in.height());
  for (int y = 0; y < in.height(); ++y) {
    for (int x = 0; x < in.width(); ++x) {
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx || dy) && in.get(x + dx, y + dy)) ++n;
      out.set(x, y, rule.next(in.get(x, y), n));
    }
  }
  return out;
}

TEST(Life, BlinkerHasPeriodTwo) {
  const Lattice start = with(bundled("blinker.rle"), 32, 32, 10, 10);
  const Lattice one = run(start, 1);
  EXPECT_NE(one, start);
  EXPECT_EQ(one.population(), 3u);
  EXPECT_EQ(run(start, 2), start);
}

TEST(Life, BlockAndBeehiveAreStill) {
  for (const char* name : {"block.rle", "beehive.rle", "loaf.rle"}) {
    const Lattice start = with(bundled(name), 32, 32, 8, 8);
    EXPECT_EQ(run(start, 1), start) << name;
    EXPECT_EQ(run(start, 17), start) << name;
  }
}

TEST(Life, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  const Pattern g = bundled("glider.rle");
  const Lattice start = with(g, 64, 64, 20, 20);
  // The glider in glider.rle travels towards +x, +y (south-east).
  EXPECT_EQ(run(start, 4), with(g, 64, 64, 21, 21));
  EXPECT_EQ(run(start, 40), with(g, 64, 64, 30, 30));
}

TEST(Life, GliderWrapsTheTorusBackToItsStart) {
  const Lattice start = with(bundled("glider.rle"), 64, 64, 60, 61);  // straddles the edges soon
  EXPECT_EQ(run(start, 256), start);
  EXPECT_NE(run(start, 128), start);
  EXPECT_EQ(run(start, 128), with(bundled("glider.rle"), 64, 64, 60 + 32, 61 + 32));
}

TEST(Life, GosperGunEmitsOneGliderEvery30Generations) {
  const Lattice start = with(bundled("gosper-gun.rle"), 256, 256, 10, 10);
  Lattice l = start;
  cpu_run(l, Rule::life(), 60);  // let the first glider leave the gun
  for (int period = 0; period < 4; ++period) {
    const std::uint64_t before = l.population();
    cpu_run(l, Rule::life(), 30);
    EXPECT_EQ(l.population(), before + 5) << "period " << period;
  }
}

TEST(CpuStep, EqualsAPlainPerCellStepOnRandomRulesAndSoups) {
  std::mt19937 rng(7);
  const int sizes[][2] = {{32, 32}, {64, 32}, {96, 160}, {128, 64}};
  for (int t = 0; t < 24; ++t) {
    Rule rule;
    rule.birth = static_cast<std::uint16_t>(rng() & 0x1ff);
    rule.survive = static_cast<std::uint16_t>(rng() & 0x1ff);
    const auto& s = sizes[t % 4];
    Lattice a = Lattice::random(s[0], s[1], 0.1 + 0.02 * t, rng());
    Lattice b = a;
    for (int g = 0; g < 5; ++g) {
      b = plain_step(b, rule);
      Lattice next;
      cpu_step(a, next, rule, 1 + (t % 2));
      a = next;
      ASSERT_EQ(a, b) << "rule " << rule.to_string() << " generation " << g + 1;
    }
  }
}

TEST(CpuEngine, VariantsRunTheSameReferenceAndKeepTheirNames) {
  CpuEngine e(2);
  for (Variant v : kAllVariants) {
    InstanceSpec s;
    s.width = 64;
    s.height = 64;
    s.variant = v;
    e.add(s);
  }
  e.step(10);
  const StateSummary first = e.summarize(0);
  for (std::size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(e.summarize(i).hash, first.hash);
    EXPECT_EQ(e.status(i).variant, kAllVariants[i]);
    EXPECT_EQ(e.status(i).generation, 10u);
    EXPECT_EQ(e.status(i).origin, e.status(0).origin);
  }
}

TEST(CpuEngine, BadRequestsLeaveTheEngineAsItWas) {
  CpuEngine e(1);
  InstanceSpec s;
  s.width = 64;
  s.height = 64;
  e.add(s);
  e.step(3);
  const std::uint64_t h = e.summarize(0).hash;
  InstanceSpec bad = s;
  bad.width = 33;
  EXPECT_THROW(e.add(bad), InputError);
  EXPECT_THROW(e.replace(0, bad), InputError);
  EXPECT_THROW(e.set_generations_per_launch(0, 65), InputError);
  EXPECT_THROW(e.remove(1), InputError);
  InstanceSpec huge = s;
  huge.width = 1 << 20;
  huge.height = 1 << 20;  // 2 x 128 GiB of bits: more than this machine has
  EXPECT_THROW(e.add(huge), InputError);
  EXPECT_EQ(e.size(), 1u);
  EXPECT_EQ(e.summarize(0).hash, h);
  EXPECT_EQ(e.status(0).generation, 3u);
}

TEST(CpuEngine, CopyStartsFromTheSourceState) {
  CpuEngine e(1);
  InstanceSpec s;
  s.width = 64;
  s.height = 64;
  e.add(s);
  e.step(7);
  InstanceSpec c = s;
  c.init = CopyInit{0};
  e.add(c);
  EXPECT_EQ(e.summarize(1).hash, e.summarize(0).hash);
  e.step(9);
  EXPECT_EQ(e.summarize(1).hash, e.summarize(0).hash);
  e.set_cell(1, 0, 0, !e.read(1).get(0, 0));
  EXPECT_NE(e.status(1).origin, e.status(0).origin);
}

// Timings come from one frame in N: the statistics count only those frames, the timeline is the
// newest timed frame, and the state is the same as without timing.
// The CPU engine keeps stream mode `graph` as a setting: each instance keeps its own timeline row
// (as a branch of the frame graph does on CUDA), and the host time of each step is measured.
TEST(CpuEngine, GraphModeKeepsARowPerInstanceAndMeasuresHostEnqueue) {
  CpuEngine engine(1);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    InstanceSpec spec;
    spec.width = spec.height = 64;
    spec.init = RandomInit{0.3, seed};
    engine.add(spec);
  }
  engine.set_stream_mode(StreamMode::graph);
  EXPECT_EQ(engine.stream_mode(), StreamMode::graph);
  EXPECT_EQ(engine.host_enqueue_ms().samples, 0);
  for (int f = 0; f < 3; ++f) engine.step(2);
  for (std::size_t i = 0; i < engine.size(); ++i) {
    engine.begin_display(i);
    engine.end_display(i);
  }
  engine.step(1);
  std::vector<int> rows;
  for (const TimelineBar& bar : engine.timeline())
    if (bar.kind == TimelineBar::Kind::step) rows.push_back(bar.stream);
  EXPECT_EQ(rows, (std::vector<int>{0, 1, 2}));
  const StatSummary host = engine.host_enqueue_ms();
  EXPECT_EQ(host.samples, 4);
  EXPECT_GT(host.mean, 0.0);
  EXPECT_EQ(engine.frame_graph_stats().builds, 0u);
}

/// Adds two 64 x 64 soups (the default spec) to `e`.
void add_two_small(CpuEngine& e) {
  InstanceSpec s;
  s.width = 64;
  s.height = 64;
  e.add(s);
  e.add(s);
}

// Frames of another length, another variant or k, or another stream mode are another workload:
// the rolling statistics (and the cell rate from them) start again.
TEST(CpuEngine, TimingStatisticsRestartWhenTheWorkloadChanges) {
  CpuEngine e(1);
  add_two_small(e);
  for (int frame = 0; frame < 5; ++frame) e.step(2);
  EXPECT_EQ(e.status(0).step_ms.samples, 5);
  e.step(256);
  EXPECT_EQ(e.status(0).step_ms.samples, 1);
  EXPECT_EQ(e.status(1).step_ms.samples, 1);
  e.step(256);
  e.set_variant(0, Variant::global);
  EXPECT_EQ(e.status(0).step_ms.samples, 0);
  EXPECT_EQ(e.status(1).step_ms.samples, 2) << "another instance's variant is not this one's workload";
  e.set_generations_per_launch(1, 8);
  EXPECT_EQ(e.status(1).step_ms.samples, 0);
  e.step(256);
  e.set_stream_mode(StreamMode::shared);
  EXPECT_EQ(e.status(0).step_ms.samples, 0);
  EXPECT_EQ(e.status(1).step_ms.samples, 0);
}

TEST(CpuEngine, TimingPeriodTimesOneFrameInN) {
  CpuEngine e(1);
  add_two_small(e);
  EXPECT_EQ(e.timing_period(), 1);
  e.set_timing_period(4);
  EXPECT_THROW(e.set_timing_period(0), InputError);
  EXPECT_THROW(e.set_timing_period(kMaxTimingPeriod + 1), InputError);
  EXPECT_EQ(e.timing_period(), 4);
  for (int frame = 0; frame < 12; ++frame) {
    e.step(1);
    for (std::size_t i = 0; i < e.size(); ++i) {
      e.begin_display(i);
      e.end_display(i);
    }
  }
  e.step(1);  // frame 12: timed (frame 8's timeline was closed by frame 9's step)
  for (std::size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(e.status(i).step_ms.samples, 4);  // frames 0, 4, 8 and 12
    EXPECT_EQ(e.status(i).display_ms.samples, 3);
  }
  EXPECT_EQ(e.timeline().size(), 4u);  // a step and a display bar per instance
  EXPECT_TRUE(e.frame_timed());
  e.step(0);  // no frame: nothing changes
  EXPECT_TRUE(e.frame_timed());
  EXPECT_EQ(e.status(0).step_ms.samples, 4);
  e.step(1);
  EXPECT_FALSE(e.frame_timed());
  EXPECT_FALSE(e.begin_display(0));
  e.set_timing_period(1);
  for (int frame = 0; frame < 5; ++frame) {
    e.step(1);
    EXPECT_TRUE(e.frame_timed());
  }
  EXPECT_EQ(e.status(0).step_ms.samples, 9);
  Lattice reference = Lattice::random(64, 64, 0.25, 1);
  cpu_run(reference, Rule::life(), 19);
  EXPECT_EQ(e.summarize(1).hash, reference.hash());
}

// The recovery snapshots of the CPU engine are copies of its lattices made when asked: they keep
// that generation's cells and rule while the instance steps on, follow the instance when an
// earlier one is removed, and leave out lattices above the size asked for.
TEST(CpuEngine, SnapshotsAreTheLatticesAtTheRequest) {
  CpuEngine e(1);
  EXPECT_EQ(e.cuda_device(), -1);  // the state is in host memory
  InstanceSpec s;
  s.width = 64;
  s.height = 32;
  e.add(s);
  s.rule = parse_rule("B36/S23");
  s.init = RandomInit{0.4, 9};
  e.add(s);
  InstanceSpec big = s;
  big.width = 128;
  big.height = 128;
  e.add(big);
  EXPECT_TRUE(e.snapshots().empty());  // none asked for yet
  e.step(5);
  const Lattice at5[] = {e.read(0), e.read(1)};
  e.request_snapshots(64 * 32);
  e.step(3);
  std::vector<HostSnapshot> snaps = e.snapshots();
  ASSERT_EQ(snaps.size(), 2u);  // not the 128x128 instance
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(snaps[i].instance, i);
    EXPECT_EQ(snaps[i].generation, 5u);
    EXPECT_EQ(snaps[i].rule, e.status(i).rule);
    EXPECT_EQ(snaps[i].cells, at5[i]);
    EXPECT_NE(snaps[i].cells, e.read(i)) << "the snapshot followed the lattice";
  }
  e.remove(0);
  snaps = e.snapshots();
  ASSERT_EQ(snaps.size(), 1u);
  EXPECT_EQ(snaps[0].instance, 0u);
  EXPECT_EQ(snaps[0].cells, at5[1]);
  e.request_snapshots(128 * 128);
  snaps = e.snapshots();
  ASSERT_EQ(snaps.size(), 2u);
  for (const HostSnapshot& snap : snaps) {
    EXPECT_EQ(snap.generation, 8u);
    EXPECT_EQ(snap.cells, e.read(snap.instance));
  }
}

/// Redraws the instances the way a paused app does (no step), every few ms for `ms` ms; returns
/// how many of those redraws the engine took as timed display work.
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
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return bracketed;
}

// Paused (Space) for a while, then one step (N): the frame's span must not cover the pause (a span
// of the whole pause and a concurrency near 0 would be wrong). A frame covers its own step and its
// first display only.
TEST(CpuEngine, AStepAfterAPauseSpansItsOwnWorkNotThePause) {
  constexpr int kPauseMs = 400;
  constexpr double kFrameMs = 100;  // 64x64 steps take microseconds; room for a loaded host
  CpuEngine e(1);
  InstanceSpec s;
  s.width = 64;
  s.height = 64;
  e.add(s);
  e.add(s);
  const auto check_frame = [&](const char* which) {
    SCOPED_TRACE(which);
    const FrameTimings f = e.frame_timings();
    ASSERT_TRUE(f.valid);
    EXPECT_LT(f.gpu_span_ms, kFrameMs);
    EXPECT_GT(f.concurrency, 0.0);
    const auto bars = e.timeline();
    EXPECT_EQ(bars.size(), 4u);  // a step and a display bar per instance
    for (const TimelineBar& bar : bars) {
      EXPECT_GE(bar.start_ms, 0.0);
      EXPECT_LE(bar.start_ms, bar.end_ms);
      EXPECT_LE(bar.end_ms, f.gpu_span_ms + 1e-9);
    }
  };
  e.step(1);
  EXPECT_EQ(redraw_while_paused(e, kPauseMs), 2);  // the frame's own display, then only redraws
  e.step(1);                                       // N: closes the frame before the pause
  check_frame("the frame before the pause");
  EXPECT_EQ(redraw_while_paused(e, kPauseMs), 2);
  e.step(1);  // closes N's frame
  check_frame("the single step after the pause");
}

}  // namespace
}  // namespace ls
