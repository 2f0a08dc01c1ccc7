// test_split_lattice.cpp — facts about one lattice split into bands across GPUs (or, on a one-GPU
// machine, into 2-4 bands of that GPU, each band with its own thread): every variant equals the
// CPU reference cell for cell on random soups and random Life-like rules over many generations and
// several k, with patterns that cross band edges and the wrap; the summary equals the one-GPU
// engine's at every checked generation, whatever the tuning (trim, edges first or whole buffers);
// a too-thin band is refused, changing nothing. Skips (with the reason) where there is no CUDA
// device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/stats.hpp"
#include "multi/peer_exchange.hpp"
#include "multi/split_engine.hpp"
#include "multi/split_lattice.hpp"
#include "sim/cuda_engine.hpp"
#include "split_fixtures.hpp"

namespace ls::multi {
namespace {

// Both ways of stepping a band (edges first, and the whole buffer then the exchange), each band
// layout, every variant and several k, band heights that differ between bands.
TEST_F(SplitLatticeTest, EveryVariantSplitIntoBandsEqualsTheCpuReferenceOnSoupsAndRandomRules) {
  std::mt19937_64 rng(12);
  int edges_first = 0, whole = 0;
  for (const bool whole_buffer : {false, true})
    for (const auto& devices : band_layouts()) {
      SplitEngine engine(
          devices, SplitTuning{.steps = whole_buffer ? SplitSteps::whole_buffers : SplitSteps::edges_first});
      for (const Variant v : kAllVariants) {
        const std::vector<int> ks =
            variant_iterates(v) ? std::vector<int>{1, 5, 16, 33} : std::vector<int>{1};
        for (const int k : ks) {
          const Rule rule = rng() % 3 == 0 ? Rule::life() : random_rule(rng);
          const int height =
              32 * static_cast<int>(devices.size()) * (k > 32 ? 3 : 2) + 32 * static_cast<int>(rng() % 3);
          const InstanceSpec spec = soup(96, height, v, k, rule, rng());
          engine.add(spec);
          (engine.lattice(0).edges_first() ? edges_first : whole) += 1;
          if (whole_buffer) {
            ASSERT_FALSE(engine.lattice(0).edges_first());
          }
          Lattice want = Lattice::random(96, height, 0.3, std::get<RandomInit>(spec.init).seed);
          ASSERT_EQ(difference(engine.read(0), want), "") << name_of(devices) << " at generation 0";
          for (const int n : {1, k, 2 * k + 3, 37}) {
            engine.step(n);
            cpu_run(want, rule, n, 1);
            ASSERT_EQ(difference(engine.read(0), want), "")
                << name_of(devices) << ", " << variant_name(v) << " k=" << k << " rule " << rule.to_string()
                << " height " << height << " after +" << n;
            const StateSummary s = engine.summarize(0);
            EXPECT_EQ(s.population, want.population());
            EXPECT_EQ(s.hash, want.hash());
          }
          engine.remove(0);
        }
      }
    }
  EXPECT_GT(edges_first, 0);
  EXPECT_GT(whole, 0);
}

// The windows' arithmetic at its edge: bands of exactly the rows edges first needs (k = 16: a
// 64-row window holds 16 halo rows and 48 own rows, so 64-row bands qualify and 32-row bands step
// their whole buffer), and the rows next to band edges after every launch depth.
TEST_F(SplitLatticeTest, BandsAtTheEdgesFirstMinimumStayExact) {
  std::mt19937_64 rng(31);
  for (const auto& devices : band_layouts()) {
    SplitEngine engine(devices, SplitTuning{.steps = SplitSteps::edges_first});
    const int n = static_cast<int>(devices.size());
    for (const int band_rows : {32, 64, 96}) {
      for (const int k : {1, 2, 15, 16}) {
        const Rule rule = random_rule(rng);
        const InstanceSpec spec = soup(128, band_rows * n, Variant::bitpacked, k, rule, rng(), 0.4);
        engine.add(spec);
        EXPECT_EQ(engine.lattice(0).edges_first(), band_rows >= 64 || k < 8)
            << band_rows << " rows, k=" << k << " (window " << engine.lattice(0).halo() << " halo)";
        Lattice want = Lattice::random(128, band_rows * n, 0.4, std::get<RandomInit>(spec.init).seed);
        for (const int steps : {k, 1, 3 * k + 1}) {
          engine.step(steps);
          cpu_run(want, rule, steps, 1);
          ASSERT_EQ(difference(engine.read(0), want), "")
              << name_of(devices) << ", " << band_rows << " rows per band, k=" << k << " rule "
              << rule.to_string();
        }
        engine.remove(0);
      }
    }
  }
}

// Interiors that leave more rows to the edge windows: the windows grow, and the band's first and
// last trim + k rows come from them. Exact for every variant at every trim, k and band height,
// including trims a band is too thin for (they fall back to none).
TEST_F(SplitLatticeTest, TrimmedInteriorsStayExact) {
  std::mt19937_64 rng(47);
  for (const auto& devices : band_layouts()) {
    const int n = static_cast<int>(devices.size());
    for (const int trim : {16, 48, 96}) {
      SplitEngine engine(devices, SplitTuning{.trim_rows = trim, .steps = SplitSteps::edges_first});
      for (const Variant v : kAllVariants) {
        const std::vector<int> ks =
            variant_iterates(v) ? std::vector<int>{1, 5, 16, 33} : std::vector<int>{1};
        for (const int k : ks) {
          const int depth = variant_iterates(v) ? k : 1;
          const int band_rows = 96 + 64 * static_cast<int>(rng() % 5);  // k = 33 needs 66 rows
          const Rule rule = rng() % 2 ? Rule::life() : random_rule(rng);
          const InstanceSpec spec = soup(160, band_rows * n, v, k, rule, rng(), 0.35);
          engine.add(spec);
          const SplitLattice& l = engine.lattice(0);
          const bool fits = l.edges_first() && band_rows >= 2 * (trim + depth) + 32 &&
                            band_rows + l.halo() >= (l.halo() + trim + 2 * depth + 31) / 32 * 32;
          EXPECT_EQ(l.interior_trim(), fits ? trim : 0)
              << variant_name(v) << ", " << band_rows << " rows per band, k=" << k << ", trim " << trim;
          Lattice want = Lattice::random(160, band_rows * n, 0.35, std::get<RandomInit>(spec.init).seed);
          for (const int steps : {k, 1, 2 * k + 5}) {
            engine.step(steps);
            cpu_run(want, rule, steps, 1);
            ASSERT_EQ(difference(engine.read(0), want), "")
                << name_of(devices) << ", " << variant_name(v) << ", " << band_rows
                << " rows per band, k=" << k << ", trim " << l.interior_trim() << ", rule "
                << rule.to_string();
          }
          engine.remove(0);
        }
      }
    }
  }
}

// Without overlap every band steps its whole buffer, then exchanges: no edge windows, so no trim
// even where one is asked, and the lattice stays exact.
TEST_F(SplitLatticeTest, WholeBandsSteppedWithoutOverlapTakeNoTrimAndStayExact) {
  std::mt19937_64 rng(53);
  for (const auto& devices : band_layouts()) {
    SplitEngine engine(devices, SplitTuning{.trim_rows = 16, .steps = SplitSteps::whole_buffers});
    const int rows = 256 * static_cast<int>(devices.size());
    const InstanceSpec spec = soup(128, rows, Variant::bitpacked, 8, Rule::life(), rng());
    engine.add(spec);
    EXPECT_FALSE(engine.lattice(0).edges_first()) << name_of(devices);
    EXPECT_EQ(engine.lattice(0).interior_trim(), 0) << name_of(devices);
    Lattice want = Lattice::random(128, rows, 0.3, std::get<RandomInit>(spec.init).seed);
    for (const int steps : {8, 3, 21}) {
      engine.step(steps);
      cpu_run(want, Rule::life(), steps, 1);
      ASSERT_EQ(difference(engine.read(0), want), "") << name_of(devices) << " after +" << steps;
    }
  }
}

// A trim is -1 (chosen) or whole halo granules: anything else is refused when the engine is made,
// before any device is touched (so this holds without a GPU too).
TEST(SplitEngine, ATrimThatIsNotAMultipleOf16IsRefusedNamingIt) {
  for (const int trim : {-2, 8, 17, 100}) {
    try {
      SplitEngine engine({0, 0}, SplitTuning{.trim_rows = trim});
      ADD_FAILURE() << "trim " << trim << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::to_string(trim)), std::string::npos) << e.what();
    }
  }
}

// The trim the lattice chooses itself, on the GPUs this was tuned on (132 multiprocessors: H100,
// H200): 65536² at k = 16 in two bands has 32768-row interiors whose last 9 of 4761 blocks start a
// 37th round of the launcher's; 64 rows each side leave 32640 rows, 36 rounds. 16384² gains nothing
// from a trim. Whatever it chooses, the split lattice equals the one-GPU lattice.
TEST_F(SplitLatticeTest, TheChosenTrimFitsTheLaunchersRoundsAndKeepsTheLatticeExact) {
  std::vector<int> devices = {0, 0};
  if (cuda_device_count() >= 2) devices = {0, 1};
  int sms = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  for (const int size : {16384, 65536}) {
    const InstanceSpec spec = soup(size, size, Variant::bitpacked, 16, Rule::life(), 5 + size);
    SplitEngine split(devices);
    split.add(spec);
    if (sms == 132) {
      EXPECT_EQ(split.lattice(0).interior_trim(), size == 65536 ? 64 : 0) << size << "²";
    }
    sim::CudaEngine one(0);
    one.add(spec);
    for (const int steps : {16, 37}) {
      split.step(steps);
      one.step(steps);
      EXPECT_EQ(split.summarize(0).hash, one.summarize(0).hash)
          << size << "², trim " << split.lattice(0).interior_trim() << ", +" << steps;
    }
  }
  if (sms != 132) RecordProperty("trim_values_unchecked", "not a 132-multiprocessor GPU");
}

TEST_F(SplitLatticeTest, GlidersCrossingBandEdgesAndTheWrapStayExact) {
  const Pattern glider = parse_rle("x = 3, y = 3\nbo$2bo$3o!\n");
  for (const auto& devices : band_layouts()) {
    SplitEngine engine(devices);
    for (const Variant v : kAllVariants) {
      Lattice start(64, 32 * 4 * static_cast<int>(devices.size()));
      // Gliders just above every band edge and the wrap, heading down across them.
      for (int y = 0; y < start.height(); y += 32) start.place(glider, (y * 7) % 60, y - 2);
      InstanceSpec spec;
      spec.variant = v;
      spec.generations_per_launch = 7;
      spec.init = start;
      engine.add(spec);
      Lattice want = start;
      for (int round = 0; round < 6; ++round) {
        engine.step(41);
        cpu_run(want, Rule::life(), 41, 1);
        ASSERT_EQ(difference(engine.read(0), want), "") << name_of(devices) << " " << variant_name(v);
      }
      engine.remove(0);
    }
  }
}

TEST_F(SplitLatticeTest, SummariesEqualTheOneGpuEnginesAtEveryCheckedGeneration) {
  sim::CudaEngine one(0);
  const InstanceSpec spec = soup(1024, 1024, Variant::bitpacked, 16, Rule::life(), 77);
  one.add(spec);
  for (const auto& devices : band_layouts()) {
    SplitEngine split(devices);
    split.add(spec);
    sim::CudaEngine ref(0);
    ref.add(spec);
    for (const int n : {0, 1, 16, 100, 333}) {
      split.step(n);
      ref.step(n);
      const StateSummary a = split.summarize(0), b = ref.summarize(0);
      EXPECT_EQ(a.generation, b.generation);
      EXPECT_EQ(a.population, b.population) << name_of(devices) << " +" << n;
      EXPECT_EQ(a.hash, b.hash) << name_of(devices) << " +" << n;
    }
    // Non-blocking summaries arrive too, and agree.
    split.request_summaries();
    split.finish();
    const auto st = split.status(0).summary;
    ASSERT_TRUE(st.has_value());
    EXPECT_EQ(st->hash, ref.summarize(0).hash);
  }
}

TEST_F(SplitLatticeTest, ATooThinBandIsRefusedAndTheEngineIsUnchanged) {
  SplitEngine engine({0, 0, 0, 0});
  engine.add(soup(64, 512, Variant::bitpacked, 16, Rule::life(), 3));
  const StateSummary before = engine.summarize(0);
  // 384 rows in 4 bands are 96 each, and k = 64 needs 128; 96 rows are 3 granules for 4 bands.
  EXPECT_THROW(engine.add(soup(64, 384, Variant::bitpacked, 64, Rule::life(), 4)), InputError);
  EXPECT_THROW(engine.replace(0, soup(64, 96, Variant::naive, 1, Rule::life(), 4)), InputError);
  EXPECT_EQ(engine.size(), 1u);
  const StateSummary after = engine.summarize(0);
  EXPECT_EQ(after.hash, before.hash);
  EXPECT_EQ(after.generation, before.generation);
}

TEST_F(SplitLatticeTest, VariantAndDepthChangesKeepTheState) {
  SplitEngine engine({0, 0, 0});
  engine.add(soup(128, 384, Variant::bitpacked, 16, Rule::life(), 5));
  engine.step(50);
  const std::uint64_t hash = engine.summarize(0).hash;
  for (const Variant v : kAllVariants) {
    engine.set_variant(0, v);
    EXPECT_EQ(engine.summarize(0).hash, hash) << variant_name(v);
  }
  engine.set_generations_per_launch(0, 32);
  EXPECT_EQ(engine.summarize(0).hash, hash);
  EXPECT_EQ(engine.summarize(0).generation, 50u);
}

TEST_F(SplitLatticeTest, CellEditsNearBandEdgesReachTheNeighboursHalos) {
  SplitEngine engine({0, 0});
  InstanceSpec spec = soup(64, 128, Variant::bitpacked, 8, Rule::life(), 0, 0.0);
  engine.add(spec);
  Lattice want(64, 128);
  // A blinker across the band edge (row 64) and one across the wrap.
  const int cells[][2] = {{10, 63}, {10, 64}, {10, 65}, {30, 127}, {30, 0}, {30, 1}};
  for (const auto& c : cells) {
    engine.set_cell(0, c[0], c[1], true);
    want.set(c[0], c[1], true);
  }
  ASSERT_EQ(difference(engine.read(0), want), "");
  for (int i = 0; i < 5; ++i) {
    engine.step(3);
    cpu_run(want, Rule::life(), 3, 1);
    ASSERT_EQ(difference(engine.read(0), want), "") << "round " << i;
  }
}

// Timings: one frame in the timing period is timed; each timed frame gives one step bar per band
// of every instance, rows grouped per GPU (distinct rows, the first GPU's first); the frame's busy
// time is the bars' sum and its span the longest GPU's; an instance's step time is its longest
// band's. Timing changes no cell: the hash equals the one-GPU engine's.
TEST_F(SplitLatticeTest, TimedFramesGiveOneBarPerBandAndChangeNoState) {
  for (const auto& devices : band_layouts()) {
    // Edges first: every launch exchanges, so every timed frame brackets one exchange a band.
    SplitEngine split(devices, SplitTuning{.steps = SplitSteps::edges_first});
    sim::CudaEngine ref(0);
    const InstanceSpec a = soup(512, 512, Variant::bitpacked, 8, Rule::life(), 5);
    const InstanceSpec b = soup(256, 1024, Variant::shared, 1, Rule::life(), 6);
    split.add(a);
    split.add(b);
    ref.add(a);
    ref.add(b);
    EXPECT_FALSE(split.frame_timings().valid);
    split.set_timing_period(3);
    int timed = 0;
    for (int f = 0; f < 9; ++f) {
      split.step(8);
      ref.step(8);
      EXPECT_EQ(split.frame_timed(), f % 3 == 0) << "frame " << f;
      timed += split.frame_timed();
      split.finish();  // every band done: the frame's timings read at once, none dropped
    }
    const std::size_t bands = devices.size();
    for (std::size_t i = 0; i < 2; ++i) {
      const InstanceStatus st = split.status(i);
      EXPECT_EQ(st.step_ms.samples, timed) << name_of(devices);
      EXPECT_GT(st.step_ms.mean, 0);
      EXPECT_GT(st.cups, 0);
      std::vector<float> history;
      split.step_history(i, history);
      EXPECT_EQ(history.size(), static_cast<std::size_t>(timed));
      EXPECT_EQ(split.summarize(i).hash, ref.summarize(i).hash) << name_of(devices) << " instance " << i;
    }
    const FrameTimings t = split.frame_timings();
    ASSERT_TRUE(t.valid);
    // One step bar per band, and its first launch's exchange beside it on its row.
    const std::vector<TimelineBar> all = split.timeline();
    std::vector<TimelineBar> bars, exchanges;
    for (const TimelineBar& bar : all)
      (bar.kind == TimelineBar::Kind::step ? bars : exchanges).push_back(bar);
    ASSERT_EQ(bars.size(), 2 * bands) << name_of(devices);
    ASSERT_EQ(exchanges.size(), 2 * bands) << name_of(devices);
    for (const TimelineBar& x : exchanges) {
      EXPECT_EQ(x.kind, TimelineBar::Kind::exchange);
      const auto step =
          std::find_if(bars.begin(), bars.end(), [&](const TimelineBar& b) { return b.stream == x.stream; });
      ASSERT_NE(step, bars.end());
      EXPECT_EQ(step->instance, x.instance);
      EXPECT_EQ(step->device, x.device);
      EXPECT_GE(x.start_ms, step->start_ms) << "the exchange follows its launch's start";
      EXPECT_LE(x.end_ms, step->end_ms + 1e-9) << "the band's step waits for its halos";
    }
    std::vector<int> rows;
    double busy = 0, longest_end = 0;
    std::vector<double> longest_band(2, 0);
    for (const TimelineBar& bar : bars) {
      EXPECT_GE(bar.start_ms, 0);
      EXPECT_GE(bar.end_ms, bar.start_ms);
      EXPECT_LE(bar.end_ms, t.gpu_span_ms + 1e-9);
      rows.push_back(bar.stream);
      busy += bar.end_ms - bar.start_ms;
      longest_end = std::max(longest_end, bar.end_ms);
      longest_band[bar.instance] = std::max(longest_band[bar.instance], bar.end_ms - bar.start_ms);
    }
    std::sort(rows.begin(), rows.end());
    EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end()) << "one row per band";
    EXPECT_NEAR(t.busy_ms, busy, 1e-6);
    EXPECT_NEAR(t.gpu_span_ms, longest_end, 1e-6);  // some GPU's bars end at the span
    EXPECT_NEAR(t.concurrency, t.busy_ms / t.gpu_span_ms, 1e-9);
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_NEAR(split.status(i).step_ms.last, longest_band[i], 1e-6) << "instance " << i;
    // Rows grouped per GPU, in the order the devices are listed: a GPU's rows hold instance 0's
    // bands on it, then instance 1's, before the next GPU's rows begin.
    std::vector<std::size_t> expected;
    std::vector<int> seen;
    for (const int d : devices) {
      if (std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
      seen.push_back(d);
      const auto on_d = static_cast<std::size_t>(std::count(devices.begin(), devices.end(), d));
      for (std::size_t i = 0; i < 2; ++i) expected.insert(expected.end(), on_d, i);
    }
    ASSERT_EQ(expected.size(), bars.size());
    for (const TimelineBar& bar : bars)
      EXPECT_EQ(bar.instance, expected[static_cast<std::size_t>(bar.stream)])
          << name_of(devices) << " row " << bar.stream;
  }
}

// A step's timing may start at the last step's end event only where the bands' streams ran
// nothing in between: the lattice knows whether they did.
TEST_F(SplitLatticeTest, TheLatticeKnowsWhetherItsStreamsRanAnythingSinceItsLastStep) {
  const std::vector<int> devices = cuda_device_count() >= 2 ? std::vector<int>{0, 1} : std::vector<int>{0, 0};
  SplitEngine split(devices);
  split.add(soup(1024, 1024, Variant::bitpacked, 16, Rule::life(), 9));
  SplitLattice& l = split.lattice(0);
  EXPECT_FALSE(l.ran_nothing_since_step()) << "filled, never stepped";
  l.step(16);
  EXPECT_TRUE(l.ran_nothing_since_step());
  l.step(16);
  EXPECT_TRUE(l.ran_nothing_since_step());
  l.request_summary();
  EXPECT_FALSE(l.ran_nothing_since_step()) << "a summary on the bands' streams";
  l.step(16);
  EXPECT_TRUE(l.ran_nothing_since_step());
  (void)l.band_views();
  EXPECT_FALSE(l.ran_nothing_since_step()) << "the streams given out (the display draws on them)";
  l.step(16);
  l.set_cell(3, 500, true);
  EXPECT_FALSE(l.ran_nothing_since_step()) << "an edit";
  l.step(16);
  l.request_snapshot();
  EXPECT_FALSE(l.ran_nothing_since_step()) << "a snapshot";
}

// Every frame timed, steps enqueued far ahead of the GPU (each takes the last one's end event as
// its start) measure what steps timed one at a time do (each has its own start event: the GPU is
// idle when the next step comes).
TEST_F(SplitLatticeTest, BackToBackTimedStepsMeasureWhatStepsTimedAloneDo) {
  const std::vector<int> devices = cuda_device_count() >= 2 ? std::vector<int>{0, 1} : std::vector<int>{0, 0};
  const InstanceSpec spec = soup(8192, 8192, Variant::bitpacked, 64, Rule::life(), 10);
  // The median of the timed steps after three warm-up frames (the first exchanges connect NCCL).
  const auto median_step_ms = [&](bool one_at_a_time, std::uint64_t& borrowed) {
    constexpr int kWarmUp = 3;
    SplitEngine split(devices);
    split.add(spec);
    split.set_timing_period(1);
    for (int f = 0; f < kWarmUp; ++f) {
      split.step(64);
      split.finish();
    }
    for (int f = 0; f < 40; ++f) {
      split.step(64);
      if (one_at_a_time) split.finish();
    }
    split.finish();
    borrowed = split.borrowed_starts(0);
    std::vector<float> history;
    split.step_history(0, history);
    EXPECT_GT(history.size(), static_cast<std::size_t>(kWarmUp)) << "no step read after the warm-up";
    if (history.size() <= static_cast<std::size_t>(kWarmUp)) return 0.0;
    return median(std::vector<double>(history.begin() + kWarmUp, history.end()));
  };
  std::uint64_t borrowed_alone = 0, borrowed_back_to_back = 0;
  const double alone = median_step_ms(true, borrowed_alone);
  const double back_to_back = median_step_ms(false, borrowed_back_to_back);
  EXPECT_EQ(borrowed_alone, 0u);
  EXPECT_GT(borrowed_back_to_back, 0u) << "no step read took its step before's end event as its start";
  ASSERT_GT(alone, 0);
  EXPECT_NEAR(back_to_back / alone, 1.0, 0.25) << back_to_back << " ms against " << alone << " ms";
}

// A summary and a recovery snapshot asked in a timed frame are that frame's work: a bar each on
// every band's row, after the band's step (they follow it on the band's stream), counted busy.
TEST_F(SplitLatticeTest, SummariesAndSnapshotsOfATimedFrameShowOnEveryBandsRow) {
  for (const auto& devices : band_layouts()) {
    SplitEngine split(devices, SplitTuning{.steps = SplitSteps::edges_first});
    split.add(soup(512, 512, Variant::bitpacked, 16, Rule::life(), 9));
    split.set_timing_period(2);
    for (int f = 0; f < 2; ++f) {
      split.step(16);
      split.request_summaries();
      split.request_snapshots(1u << 20);
      split.finish();
      if (!split.frame_timed()) continue;
      const std::vector<TimelineBar> bars = split.timeline();
      const FrameTimings t = split.frame_timings();
      double busy = 0;
      for (std::size_t band = 0; band < devices.size(); ++band) {
        std::vector<TimelineBar> row;
        for (const TimelineBar& b : bars)
          if (b.stream == static_cast<int>(band)) row.push_back(b);
        const auto of = [&](TimelineBar::Kind k) {
          return std::count_if(row.begin(), row.end(), [k](const TimelineBar& b) { return b.kind == k; });
        };
        ASSERT_EQ(of(TimelineBar::Kind::step), 1) << name_of(devices) << " band " << band;
        EXPECT_EQ(of(TimelineBar::Kind::exchange), 1);
        EXPECT_EQ(of(TimelineBar::Kind::summary), 1);
        EXPECT_EQ(of(TimelineBar::Kind::snapshot), 1);
        const TimelineBar& step = row.front();
        for (const TimelineBar& b : row) {
          EXPECT_EQ(b.device, step.device);
          if (b.kind == TimelineBar::Kind::summary || b.kind == TimelineBar::Kind::snapshot) {
            EXPECT_GE(b.start_ms, step.end_ms - 1e-9)
                << "kind " << static_cast<int>(b.kind) << " after the step";
          }
          if (b.kind != TimelineBar::Kind::exchange) busy += b.end_ms - b.start_ms;
          EXPECT_LE(b.end_ms, t.gpu_span_ms + 1e-9);
        }
      }
      EXPECT_NEAR(t.busy_ms, busy, 1e-6) << name_of(devices);
    }
    // The snapshot the timed frame started arrived, and is the lattice at that generation.
    const std::vector<HostSnapshot> snaps = split.snapshots();
    ASSERT_EQ(snaps.size(), 1u);
    EXPECT_EQ(snaps[0].cells.hash(), split.read(0).hash()) << "no step since the last snapshot";
  }
}

TEST_F(SplitLatticeTest, BandsOnDistinctGpusCopyPeerToPeerOrThroughHostMemory) {
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs two CUDA devices";
  SplitEngine engine({0, 1}, SplitTuning{.peer_only = true});
  engine.add(soup(256, 256, Variant::bitpacked, 16, Rule::life(), 9));
  auto& ex = dynamic_cast<PeerExchange&>(engine.lattice(0).exchange());
  const CopyPath p = ex.path(0, 1);
  EXPECT_NE(p, CopyPath::same_device);
  std::printf("bands 0 -> 1 copy %s\n", p == CopyPath::peer ? "peer to peer" : "through pinned host memory");
}

}  // namespace
}  // namespace ls::multi
