// test_cpu_engine.cpp — facts about Life on the CPU reference engine.
#include <gtest/gtest.h>

#include <random>
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
TEST(CpuEngine, TimingPeriodTimesOneFrameInN) {
  CpuEngine e(1);
  InstanceSpec s;
  s.width = 64;
  s.height = 64;
  e.add(s);
  e.add(s);
  EXPECT_EQ(e.timing_period(), 1);
  e.set_timing_period(4);
  EXPECT_THROW(e.set_timing_period(0), InputError);
  EXPECT_THROW(e.set_timing_period(kMaxTimingPeriod + 1), InputError);
  EXPECT_EQ(e.timing_period(), 4);
  for (int frame = 0; frame < 12; ++frame) {
    e.step(2);
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
  cpu_run(reference, Rule::life(), 31);
  EXPECT_EQ(e.summarize(1).hash, reference.hash());
}

}  // namespace
}  // namespace ls
