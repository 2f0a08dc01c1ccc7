// test_split_tuning.cpp — facts about a split lattice's tuning (no GPU needed): the defaults are a
// chosen trim with the edge windows overlapping the interior, and a trim is -1 or whole halo
// granules, anything else refused naming the value.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "multi/band_partition.hpp"
#include "multi/split_tuning.hpp"

namespace ls::multi {
namespace {

TEST(SplitTuning, TheDefaultsChooseTheTrimAndOverlapTheEdgeWindows) {
  const SplitTuning tuning;
  EXPECT_EQ(tuning.trim_rows, -1);
  EXPECT_TRUE(tuning.overlap);
  EXPECT_NO_THROW(check_split_tuning(tuning));
}

TEST(SplitTuning, ATrimIsMinusOneOrWholeHaloGranules) {
  for (const int trim : {-1, 0, kHaloGranularity, 4 * kHaloGranularity, 128})
    EXPECT_NO_THROW(check_split_tuning(SplitTuning{.trim_rows = trim})) << trim;
  for (const int trim : {-16, -2, 1, 8, kHaloGranularity + 1, 100}) {
    try {
      check_split_tuning(SplitTuning{.trim_rows = trim, .overlap = false});
      ADD_FAILURE() << "trim " << trim << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("split trim " + std::to_string(trim) + ":"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace ls::multi
