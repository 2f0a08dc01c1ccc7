// test_summary_walk.cpp — the summary kernel's walk (core/summary_walk.hpp), run on the CPU for
// every thread of a grid: the parts add up to Lattice's population and hash on any width (one
// word a row, odd word counts), any band of rows, any number of threads, whatever the density.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/lattice.hpp"
#include "core/summary_walk.hpp"

namespace ls {
namespace {

/// The sum of every thread's part over rows [first_row, first_row + rows) of `cells`.
SummaryPart walk_all(const Lattice& cells, int first_row, int rows, std::size_t threads) {
  const std::uint32_t words_per_row = static_cast<std::uint32_t>(cells.width() / 32);
  const std::uint32_t* base = cells.words().data() + static_cast<std::size_t>(first_row) * words_per_row;
  const std::size_t words = static_cast<std::size_t>(rows) * words_per_row;
  const auto load = [&](std::size_t c, std::uint32_t(&w)[kWalkWords]) {
    for (int k = 0; k < kWalkWords; ++k) {
      const std::size_t j = c * kWalkWords + static_cast<std::size_t>(k);
      w[k] = j < words ? base[j] : 0u;
    }
  };
  SummaryPart sum;
  for (std::size_t t = 0; t < threads; ++t) {
    const SummaryPart p =
        summary_walk(load, words, words_per_row, static_cast<std::uint32_t>(first_row), t, threads);
    sum.population += p.population;
    sum.hash += p.hash;
  }
  return sum;
}

TEST(SummaryWalk, EveryThreadsPartsAddUpToTheLatticesPopulationAndHash) {
  struct Size {
    int w, h;
  };
  for (Size s : {Size{32, 32}, Size{32, 1024}, Size{160, 64}, Size{96, 320}, Size{2048, 64}, Size{224, 32}}) {
    for (double p : {0.0, 0.11, 0.5, 1.0}) {
      const Lattice cells = Lattice::random(s.w, s.h, p, 17);
      for (std::size_t threads : {1u, 3u, 7u, 64u, 1000u, 5000u}) {
        SCOPED_TRACE(std::to_string(s.w) + "x" + std::to_string(s.h) + " p=" + std::to_string(p) + " " +
                     std::to_string(threads) + " threads");
        const SummaryPart got = walk_all(cells, 0, s.h, threads);
        EXPECT_EQ(got.population, cells.population());
        EXPECT_EQ(
            got.hash + lattice_hash_base(static_cast<std::uint32_t>(s.w), static_cast<std::uint32_t>(s.h)),
            cells.hash());
      }
    }
  }
}

TEST(SummaryWalk, BandsOfRowsAddUpToTheWholeLattice) {
  // A split lattice summarizes each band from its first row; the bands' parts add up.
  const Lattice cells = Lattice::random(160, 96, 0.3, 23);
  SummaryPart sum;
  for (int first : {0, 17, 50, 51}) {
    const int end = first == 0 ? 17 : first == 17 ? 50 : first == 50 ? 51 : 96;
    const SummaryPart p = walk_all(cells, first, end - first, 13);
    sum.population += p.population;
    sum.hash += p.hash;
  }
  EXPECT_EQ(sum.population, cells.population());
  EXPECT_EQ(sum.hash + lattice_hash_base(160, 96), cells.hash());
}

TEST(SummaryWalk, TheMixAfterTheGammaIsSplitmix64) {
  for (std::uint64_t v : {0ull, 1ull, 0x123456789abcdefull, ~0ull})
    EXPECT_EQ(splitmix64_mix(v + 0x9e3779b97f4a7c15ull), splitmix64(v));
}

}  // namespace
}  // namespace ls
