// CpuBand: bands of a lattice, each with its halos refreshed from its neighbours' own rows, step
// exactly as the whole lattice does on the CPU reference, and their population and hash terms add
// up to the lattice's (the per-rank arithmetic of `run --distributed`, without MPI).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/splitmix.hpp"
#include "dist/cpu_band.hpp"

namespace {

using ls::dist::CpuBand;

// Steps `bands` in rounds of kHalo generations: every band's halo rows are copied from its
// neighbours' own rows as they were when the round began, as the MPI exchange delivers them.
void step_bands(std::vector<std::unique_ptr<CpuBand>>& bands, long long generations) {
  const int n = static_cast<int>(bands.size());
  while (generations > 0) {
    const long long g = std::min<long long>(generations, CpuBand::kHalo);
    std::vector<std::vector<std::uint32_t>> first(n), last(n);
    for (int b = 0; b < n; ++b) {
      const std::size_t words = bands[b]->halo_words();
      first[b].assign(bands[b]->first_own_rows(), bands[b]->first_own_rows() + words);
      last[b].assign(bands[b]->last_own_rows(), bands[b]->last_own_rows() + words);
    }
    for (int b = 0; b < n; ++b) {
      bands[b]->step(g, [&](CpuBand& band) {
        std::copy(last[(b + n - 1) % n].begin(), last[(b + n - 1) % n].end(), band.upper_halo());
        std::copy(first[(b + 1) % n].begin(), first[(b + 1) % n].end(), band.lower_halo());
      });
    }
    generations -= g;
  }
}

TEST(CpuBand, BandsOfARandomSoupStepAsTheWholeLatticeUnderRandomRules) {
  const int width = 96, height = 224;  // 7 granules: 2, 3 and 4 bands of unequal heights
  const ls::Rule rules[] = {ls::Rule::life(), ls::parse_rule("B36/S23"), ls::parse_rule("B2/S"),
                            ls::parse_rule("B368/S245")};
  for (const ls::Rule& rule : rules) {
    ls::Lattice whole = ls::Lattice::random(width, height, 0.37, 99);
    for (int n = 1; n <= 4; ++n) {
      const auto parts = ls::multi::partition_rows(height, n, ls::Variant::naive, 1);
      std::vector<std::unique_ptr<CpuBand>> bands;
      for (const auto& part : parts) {
        bands.push_back(std::make_unique<CpuBand>(width, height, part, rule, 1));
        bands.back()->fill_random(ls::RandomInit{0.37, 99});
      }
      ls::Lattice expect = whole;
      ls::cpu_run(expect, rule, 53, 1);
      step_bands(bands, 53);
      std::uint64_t population = 0, hash = ls::lattice_hash_base(width, height);
      for (const auto& band : bands) {
        for (int i = 0; i < band->band().rows; ++i) {
          const std::uint32_t* want = expect.row(band->band().first_row + i);
          ASSERT_TRUE(std::equal(want, want + expect.words_per_row(), band->own_row(i)))
              << rule.to_string() << ", " << n << " bands: row " << band->band().first_row + i;
        }
        population += band->population();
        hash += band->hash_terms();
      }
      EXPECT_EQ(population, expect.population()) << n << " bands";
      EXPECT_EQ(hash, expect.hash()) << n << " bands";
    }
  }
}

TEST(CpuBand, APatternPlacedOnBandsIsThePatternPlacedOnTheLattice) {
  ls::Pattern p;  // a glider crossing the edge between rows 63 and 64
  p.width = 3;
  p.height = 3;
  p.cells = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  ls::Lattice whole(64, 128);
  whole.place_centred(p);  // top-left (30, 62): rows 62..64
  const auto parts = ls::multi::partition_rows(128, 2, ls::Variant::naive, 1);
  for (const auto& part : parts) {
    CpuBand band(64, 128, part, ls::Rule::life(), 1);
    band.place_centred(p);
    for (int i = 0; i < part.rows; ++i) {
      const std::uint32_t* want = whole.row(part.first_row + i);
      EXPECT_TRUE(std::equal(want, want + whole.words_per_row(), band.own_row(i)))
          << "row " << part.first_row + i;
    }
  }
}

}  // namespace
