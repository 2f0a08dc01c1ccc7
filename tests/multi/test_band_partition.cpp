// test_band_partition.cpp — facts about cutting a split lattice into bands (no GPU needed): bands
// tile the lattice in order, differ by at most one row granule, halos cover a launch, and a band
// too thin for the variant is refused naming what was asked.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "multi/band_partition.hpp"

namespace ls::multi {
namespace {

TEST(BandPartition, BandsTileTheLatticeInOrderAndDifferByAtMostOneGranule) {
  for (const int height : {64, 96, 1024, 1056, 4096 + 32 * 7}) {
    for (int n = 1; n <= 4; ++n) {
      if (height / kBandRowGranularity < n) continue;
      const auto bands = partition_rows(height, n, Variant::global, 1);
      ASSERT_EQ(static_cast<int>(bands.size()), n);
      int row = 0, lo = height, hi = 0;
      for (const Band& b : bands) {
        EXPECT_EQ(b.first_row, row);
        EXPECT_EQ(b.rows % kBandRowGranularity, 0);
        row += b.rows;
        lo = std::min(lo, b.rows);
        hi = std::max(hi, b.rows);
      }
      EXPECT_EQ(row, height);
      EXPECT_LE(hi - lo, kBandRowGranularity);
      for (int y = 0; y < height; y += 31) {
        const Band& b = bands[static_cast<std::size_t>(band_of_row(bands, y))];
        EXPECT_TRUE(y >= b.first_row && y < b.first_row + b.rows) << y;
      }
    }
  }
}

TEST(BandPartition, HalosHoldOneLaunchAndKeepBuffersMultiplesOf32Rows) {
  for (const Variant v : kAllVariants) {
    for (const int k : {1, 2, 15, 16, 17, 33, 64}) {
      const int g = generations_per_exchange(v, k);
      EXPECT_EQ(g, variant_iterates(v) ? k : 1);
      EXPECT_GE(halo_rows(v, k), g);
      EXPECT_EQ(halo_rows(v, k) % kHaloGranularity, 0);
      EXPECT_EQ((32 + 2 * halo_rows(v, k)) % 32, 0);
      // A band's neighbours send it disjoint rows, and a halo never asks for more than a band has.
      EXPECT_GE(min_band_rows(v, k), 2 * g);
      EXPECT_GE(min_band_rows(v, k), halo_rows(v, k));
    }
  }
}

TEST(BandPartition, ATooThinBandIsRefusedNamingWhatWasAsked) {
  EXPECT_THROW(partition_rows(64, 3, Variant::bitpacked, 1), InputError);
  try {
    partition_rows(256, 4, Variant::bitpacked, 64);  // 64-row bands; k = 64 needs 128
    FAIL() << "expected a refusal";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("height 256 split over 4 devices"), std::string::npos) << what;
    EXPECT_NE(what.find("bitpacked at 64 generations per launch needs at least 128 rows per band"),
              std::string::npos)
        << what;
  }
  EXPECT_NO_THROW(partition_rows(512, 4, Variant::bitpacked, 64));
  EXPECT_NO_THROW(partition_rows(128, 4, Variant::naive, 1));
  EXPECT_THROW(partition_rows(128, 0, Variant::naive, 1), InputError);
}

}  // namespace
}  // namespace ls::multi
