// test_split_exchanges.cpp — facts about how a split lattice's bands swap their halos: halos
// several launches deep, swapped once every few launches, keep every variant equal to the CPU
// reference cell for cell (soups, random rules, k that do and do not divide the halo, launches cut
// short, cell edits next to band edges), by NCCL or by peer copies; short launches (small lattices)
// take deep halos and long ones edges first; NCCL swaps the halos where every band has a GPU of its
// own and it loads, peer copies everywhere else. Skips (with the reason) where there is no CUDA
// device.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/band_partition.hpp"
#include "multi/exchange_plan.hpp"
#include "multi/split_engine.hpp"
#include "multi/split_lattice.hpp"
#include "split_fixtures.hpp"

namespace ls::multi {
namespace {

bool distinct(const std::vector<int>& devices) {
  for (std::size_t i = 0; i < devices.size(); ++i)
    for (std::size_t j = i + 1; j < devices.size(); ++j)
      if (devices[i] == devices[j]) return false;
  return true;
}

// Every launches-per-exchange from 1 to the most the bands hold, chosen or forced, by either
// exchange: the own rows stay exact between exchanges, across steps that end mid-cycle, and after
// edits that make the halos stale.
TEST_F(SplitLatticeTest, DeepHalosSwappedEveryFewLaunchesStayExact) {
  std::mt19937_64 rng(71);
  for (const auto& devices : band_layouts())
    for (const bool peer_only : {false, true})
      for (const int every : {-1, 1, 3, 16}) {
        if (peer_only && !distinct(devices)) continue;  // bands on one GPU copy anyway
        SplitEngine engine(devices, SplitTuning{.exchange_every = every, .peer_only = peer_only});
        for (const Variant v : kAllVariants) {
          const std::vector<int> ks = variant_iterates(v) ? std::vector<int>{1, 5, 16} : std::vector<int>{1};
          for (const int k : ks) {
            const int g = variant_iterates(v) ? k : 1;
            const int n = static_cast<int>(devices.size());
            // Bands thick enough for the forced depth, and of unequal heights.
            const int band_rows = std::max(64, (2 * std::max(every, 1) * g + 31) / 32 * 32);
            const int height = band_rows * n + 32 * static_cast<int>(rng() % 2);
            const Rule rule = rng() % 3 == 0 ? Rule::life() : random_rule(rng);
            const InstanceSpec spec = soup(96, height, v, k, rule, rng());
            engine.add(spec);
            const SplitLattice& l = engine.lattice(0);
            EXPECT_FALSE(l.edges_first());
            if (every > 0) {
              EXPECT_EQ(l.launches_per_exchange(), every);
            }
            EXPECT_GE(l.halo(), l.launches_per_exchange() * g);
            if (l.exchange_by_nccl()) {
              EXPECT_TRUE(distinct(devices) && !peer_only) << name_of(devices);
            }
            Lattice want = Lattice::random(96, height, 0.3, std::get<RandomInit>(spec.init).seed);
            int edit = 0;
            for (const int steps : {k, 1, 3 * k + 2, 7, 5 * k, 2 * k + 1}) {
              engine.step(steps);
              cpu_run(want, rule, steps, 1);
              ASSERT_EQ(difference(engine.read(0), want), "")
                  << name_of(devices) << (peer_only ? " (peer only)" : "") << ", " << variant_name(v)
                  << " k=" << k << ", " << l.launches_per_exchange() << " launches per exchange, rule "
                  << rule.to_string() << ", after +" << steps;
              // Every other step: a cell on the last row of band 0 (its lower neighbour's upper
              // halo) toggled, which refreshes the halos; between edits the next step starts
              // with halos already part used.
              if (edit++ % 2 == 1) continue;
              const int y = l.bands()[0].rows - 1, x = 7 + 11 * edit;
              const bool alive = !want.get(x, y);
              engine.set_cell(0, x, y, alive);
              want.set(x, y, alive);
            }
            engine.remove(0);
          }
        }
      }
}

// With halos four launches deep, one launch a frame: a timed frame brackets an exchange on every
// band's row exactly where its launch is followed by one, every fourth frame.
TEST_F(SplitLatticeTest, DeepHalosShowTheirExchangeInTheFramesThatSwap) {
  for (const auto& devices : band_layouts()) {
    SplitEngine split(devices, SplitTuning{.exchange_every = 4});
    split.add(soup(256, 128 * static_cast<int>(devices.size()), Variant::bitpacked, 8, Rule::life(), 5));
    split.set_timing_period(1);
    for (int f = 0; f < 12; ++f) {
      split.step(8);
      split.finish();
      const std::vector<TimelineBar> bars = split.timeline();
      const auto exchanges = std::count_if(bars.begin(), bars.end(), [](const TimelineBar& b) {
        return b.kind == TimelineBar::Kind::exchange;
      });
      EXPECT_EQ(exchanges, f % 4 == 3 ? static_cast<long>(devices.size()) : 0L)
          << name_of(devices) << ", frame " << f;
    }
  }
}

TEST_F(SplitLatticeTest, ShortLaunchesTakeDeepHalosAndLongOnesEdgesFirst) {
  const std::vector<int> devices = cuda_device_count() >= 2 ? std::vector<int>{0, 1} : std::vector<int>{0, 0};
  SplitEngine engine(devices);
  // 2048² bitpacked, k = 16: a band's launch is a few microseconds.
  engine.add(soup(2048, 2048, Variant::bitpacked, 16, Rule::life(), 5));
  EXPECT_FALSE(engine.lattice(0).edges_first());
  EXPECT_GT(engine.lattice(0).launches_per_exchange(), 1);
  engine.remove(0);
  // 16384 x 2048 global, one generation a launch: far from hiding it either; the halo's 16 rows
  // take 16 launches for free.
  engine.add(soup(16384, 2048, Variant::global, 1, Rule::life(), 6));
  EXPECT_FALSE(engine.lattice(0).edges_first());
  EXPECT_EQ(engine.lattice(0).launches_per_exchange(), kMaxExchangeEvery);
  EXPECT_EQ(engine.lattice(0).halo(), 16);
  engine.remove(0);
  // 32768 x 16384 naive: each band's launch is ~2 ms, edges first.
  engine.add(soup(32768, 16384, Variant::naive, 1, Rule::life(), 7));
  EXPECT_TRUE(engine.lattice(0).edges_first());
  EXPECT_EQ(engine.lattice(0).launches_per_exchange(), 1);
}

// The bitpacked launcher runs whole rounds of blocks, so halos a few launches deeper can cost a
// band's launch nothing: 65536² in four bands (k = 16) never leaves a deeper depth whose launch the
// launcher's model finds as cheap (it would share the exchange among more launches for free).
TEST_F(SplitLatticeTest, DeepHalosTakeTheDeepestDepthOfTheirLaunchsCost) {
  std::vector<int> devices = {0, 0, 0, 0};
  if (cuda_device_count() >= 4) devices = {0, 1, 2, 3};
  SplitEngine engine(devices);
  engine.add(soup(65536, 65536, Variant::bitpacked, 16, Rule::life(), 8));
  const SplitLattice& l = engine.lattice(0);
  ASSERT_FALSE(l.edges_first());
  const auto cost = [](int m) {
    return kernels::bitpacked_launch_plan(65536, 16384 + 2 * halo_holding(16 * m), 16).cost;
  };
  const int chosen = l.launches_per_exchange();
  EXPECT_GE(l.halo(), chosen * 16);
  for (int m = chosen + 1; m <= kMaxExchangeEvery; ++m)
    EXPECT_GT(cost(m), cost(chosen)) << m << " launches per exchange cost a launch no more than the chosen "
                                     << chosen;
}

TEST_F(SplitLatticeTest, NcclSwapsTheHalosWhereEveryBandHasAGpuOfItsOwn) {
  SplitEngine shared({0, 0});
  shared.add(soup(1024, 1024, Variant::bitpacked, 16, Rule::life(), 3));
  EXPECT_FALSE(shared.lattice(0).exchange_by_nccl()) << "two bands on one GPU";
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs two CUDA devices for the rest";
  SplitEngine own({0, 1});
  own.add(soup(1024, 1024, Variant::bitpacked, 16, Rule::life(), 3));
  const SplitLattice& l = own.lattice(0);
  // Where NCCL is missing the note says why and peer copies carry the halos.
  EXPECT_NE(l.exchange_by_nccl(), !l.exchange_note().empty()) << l.exchange_note();
  if (!l.exchange_by_nccl()) GTEST_SKIP() << "NCCL not taken: " << l.exchange_note();
  SplitEngine peers({0, 1}, SplitTuning{.peer_only = true});
  peers.add(soup(1024, 1024, Variant::bitpacked, 16, Rule::life(), 3));
  EXPECT_FALSE(peers.lattice(0).exchange_by_nccl());
  // NCCL's halos and peer copies' carry the same lattice.
  own.step(100);
  peers.step(100);
  EXPECT_EQ(own.summarize(0).hash, peers.summarize(0).hash);
}

TEST(SplitEngine, LaunchesPerExchangeTheBandsCannotHoldAreRefusedNamingThem) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  SplitEngine engine({0, 0}, SplitTuning{.exchange_every = 16});
  try {
    engine.add(soup(256, 256, Variant::bitpacked, 16, Rule::life(), 1));  // 128-row bands, 512 asked
    ADD_FAILURE() << "taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("16 launches per exchange need bands of 512 rows"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(engine.size(), 0u);
}

}  // namespace
}  // namespace ls::multi
