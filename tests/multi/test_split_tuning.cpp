// test_split_tuning.cpp — facts about a split lattice's tuning and exchange plan (no GPU needed):
// the defaults choose the trim, the way of stepping and the launches between exchanges; a trim is
// -1 or whole halo granules and the launches per exchange -1 or 1..16 (never with edges first),
// anything else refused naming the value; the plan keeps edges first for long launches and gives
// short ones halos deep enough that the exchange's cost is shared by several launches, as deep as
// the launcher's rounds make free.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "multi/band_partition.hpp"
#include "multi/exchange_plan.hpp"
#include "multi/split_tuning.hpp"

namespace ls::multi {
namespace {

void expect_refused(const SplitTuning& tuning, const std::string& naming) {
  try {
    check_split_tuning(tuning);
    ADD_FAILURE() << "taken: " << naming;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(naming), std::string::npos) << e.what();
  }
}

TEST(SplitTuning, TheDefaultsChooseTheTrimTheStepsAndTheExchanges) {
  const SplitTuning tuning;
  EXPECT_EQ(tuning.trim_rows, -1);
  EXPECT_EQ(tuning.steps, SplitSteps::chosen);
  EXPECT_EQ(tuning.exchange_every, -1);
  EXPECT_FALSE(tuning.peer_only);
  EXPECT_NO_THROW(check_split_tuning(tuning));
}

TEST(SplitTuning, ATrimIsMinusOneOrWholeHaloGranules) {
  for (const int trim : {-1, 0, kHaloGranularity, 4 * kHaloGranularity, 128})
    EXPECT_NO_THROW(check_split_tuning(SplitTuning{.trim_rows = trim})) << trim;
  for (const int trim : {-16, -2, 1, 8, kHaloGranularity + 1, 100})
    expect_refused(SplitTuning{.trim_rows = trim, .steps = SplitSteps::whole_buffers},
                   "split trim " + std::to_string(trim) + ":");
}

TEST(SplitTuning, LaunchesPerExchangeAreMinusOneOrOneToSixteenAndNeverWithEdgesFirst) {
  for (const int every : {-1, 1, 2, kMaxExchangeEvery})
    EXPECT_NO_THROW(check_split_tuning(SplitTuning{.exchange_every = every})) << every;
  for (const int every : {-2, 0, kMaxExchangeEvery + 1, 1000})
    expect_refused(SplitTuning{.exchange_every = every},
                   "launches per exchange " + std::to_string(every) + ":");
  expect_refused(SplitTuning{.steps = SplitSteps::edges_first, .exchange_every = 4}, "edges first");
}

TEST(ExchangePlan, LongLaunchesHideTheExchangeAndShortOnesDoNot) {
  // bitpacked, 16 generations a launch: a band of 65536² over two (~1.2 ms) hides it; of 65536²
  // over four (~0.6 ms) and of 16384² over two (~80 us) it does not.
  EXPECT_TRUE(launch_hides_exchange(Variant::bitpacked, 65536, 32768, 16));
  EXPECT_FALSE(launch_hides_exchange(Variant::bitpacked, 65536, 16384, 16));
  EXPECT_FALSE(launch_hides_exchange(Variant::bitpacked, 16384, 8192, 16));
  // The slower a variant, the sooner its launch hides it: one generation of a 65536 x 32768 band.
  EXPECT_TRUE(launch_hides_exchange(Variant::global, 65536, 32768, 1));
  EXPECT_FALSE(launch_hides_exchange(Variant::bitpacked, 65536, 32768, 1));
}

TEST(ExchangePlan, ShortLaunchesShareTheExchangeOverSeveralAndTheBandBoundsThem) {
  // bitpacked 16384² over two, NCCL: several launches per exchange, the halo a few launches deep.
  const int m = choose_exchange_every(Variant::bitpacked, 16384, 8192, 16, kNcclExchangeSeconds);
  EXPECT_GE(m, 4);
  EXPECT_LE(m, kMaxExchangeEvery);
  // A costlier exchange is shared by at least as many launches; a wider band (longer rows, so
  // costlier halo rows) by at most as many.
  EXPECT_GE(choose_exchange_every(Variant::bitpacked, 16384, 8192, 16, kPeerExchangeSeconds), m);
  EXPECT_LE(choose_exchange_every(Variant::bitpacked, 65536, 8192, 16, kNcclExchangeSeconds), m);
  // One generation a launch: the halo holds 16 rows anyway, so 16 launches share an exchange.
  EXPECT_EQ(choose_exchange_every(Variant::global, 16384, 8192, 1, kNcclExchangeSeconds), kMaxExchangeEvery);
  // Each band's own rows hold both neighbours' halos: 2 x m x generations rows at most.
  for (const int rows : {32, 64, 96, 128, 256})
    for (const int g : {1, 5, 16, 33}) {
      const int every = choose_exchange_every(Variant::bitpacked, 16384, rows, g, kPeerExchangeSeconds);
      EXPECT_GE(every, 1);
      EXPECT_TRUE(every == 1 || 2 * every * g <= rows) << rows << " rows, " << g << " generations: " << every;
    }
  // A free exchange is never worth a deeper halo than the one the launch needs anyway.
  EXPECT_EQ(choose_exchange_every(Variant::bitpacked, 16384, 8192, 16, 0.0), 1);
}

TEST(ExchangePlan, ALauncherOfWholeRoundsTakesTheDeepestHaloItsRoundHolds) {
  // A launcher whose launch costs 50 us a round of 1000 rows: a band of 9800 own rows with halos of
  // 16 m rows each side (k = 16) stays in 10 rounds up to m = 6 (9992 rows) and needs 11 from m = 7.
  std::vector<int> asked;
  const LaunchSeconds rounds = [&](int rows) {
    asked.push_back(rows);
    return 50e-6 * ((rows + 999) / 1000);
  };
  EXPECT_EQ(choose_exchange_every(Variant::bitpacked, 16384, 9800, 16, kNcclExchangeSeconds, rounds), 6);
  // It was asked for the band and both halos at every depth the band holds.
  ASSERT_EQ(asked.size(), static_cast<std::size_t>(kMaxExchangeEvery));
  for (int m = 1; m <= kMaxExchangeEvery; ++m)
    EXPECT_EQ(asked[static_cast<std::size_t>(m - 1)], 9800 + 32 * m);
  // A round cheap against the exchange: the next round is worth it (m = 16, 10312 rows).
  const LaunchSeconds cheap_rounds = [](int rows) { return 1e-6 * ((rows + 999) / 1000); };
  EXPECT_EQ(choose_exchange_every(Variant::bitpacked, 16384, 9800, 16, kNcclExchangeSeconds, cheap_rounds),
            kMaxExchangeEvery);
  // Without a launcher's model, rows cost at the nominal rate: the same choice as that model given.
  const LaunchSeconds nominal = [](int rows) {
    return nominal_launch_seconds(Variant::bitpacked, 16384, rows, 16);
  };
  EXPECT_EQ(choose_exchange_every(Variant::bitpacked, 16384, 9800, 16, kNcclExchangeSeconds),
            choose_exchange_every(Variant::bitpacked, 16384, 9800, 16, kNcclExchangeSeconds, nominal));
}

}  // namespace
}  // namespace ls::multi
