// test_lattice.cpp — facts about the host lattice, the state hash and the random fill.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/splitmix.hpp"

namespace ls {
namespace {

TEST(Splitmix, MatchesTheReferenceSequence) {
  // splitmix64 as a generator with state 0: the published first outputs of the sequence.
  std::uint64_t state = 0;
  auto next = [&] {
    const std::uint64_t out = splitmix64(state);
    state += 0x9e3779b97f4a7c15ull;
    return out;
  };
  EXPECT_EQ(next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(next(), 0x06c45d188009454full);
}

TEST(Lattice, SizesMustBeMultiplesOf32) {
  EXPECT_THROW(Lattice(0, 32), InputError);
  EXPECT_THROW(Lattice(33, 32), InputError);
  EXPECT_THROW(Lattice(32, 16), InputError);
  EXPECT_NO_THROW(Lattice(32, 32));
  EXPECT_NO_THROW(Lattice(96, 64));
}

TEST(Lattice, CoordinatesWrapAroundTheTorus) {
  Lattice l(64, 32);
  l.set(-1, -1, true);
  EXPECT_TRUE(l.get(63, 31));
  EXPECT_TRUE(l.get(127, 63));
  EXPECT_EQ(l.population(), 1u);
  l.set(63, 31, false);
  EXPECT_EQ(l.population(), 0u);
}

TEST(Lattice, HashIsTheBasePlusOneTermPerLiveCell) {
  Lattice l(64, 96);
  const std::uint64_t base = lattice_hash_base(64, 96);
  EXPECT_EQ(l.hash(), base);
  l.set(5, 7, true);
  l.set(63, 95, true);
  EXPECT_EQ(l.hash(), base + cell_hash(5, 7) + cell_hash(63, 95));
  // The same cells on another size hash differently (the base term names the size).
  Lattice m(96, 64);
  m.set(5, 7, true);
  m.set(63, 95 - 32, true);
  EXPECT_NE(m.hash(), l.hash());
}

TEST(Lattice, RandomFillFollowsTheFormulaCellByCell) {
  const std::uint64_t seed = 42;
  const Lattice l = Lattice::random(64, 64, 0.3, seed);
  const FillThreshold t = fill_threshold(0.3);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const bool want =
          splitmix64(seed ^ splitmix64((std::uint64_t(y) << 32) | std::uint32_t(x))) < t.threshold;
      ASSERT_EQ(l.get(x, y), want) << x << "," << y;
    }
  }
}

TEST(Lattice, RandomFillDensityIsClose) {
  const Lattice l = Lattice::random(512, 512, 0.25, 1);
  const double density = static_cast<double>(l.population()) / (512.0 * 512.0);
  EXPECT_NEAR(density, 0.25, 0.01);
  EXPECT_EQ(Lattice::random(64, 64, 0.0, 3).population(), 0u);
  EXPECT_EQ(Lattice::random(64, 64, 1.0, 3).population(), 64u * 64u);
  EXPECT_THROW(Lattice::random(64, 64, 1.5, 3), InputError);
}

TEST(Lattice, PlaceCentredUsesIntegerDivision) {
  Pattern p;
  p.width = 3;
  p.height = 3;
  p.cells = {{0, 0}, {2, 2}};
  Lattice l(64, 64);
  l.place_centred(p);
  EXPECT_TRUE(l.get((64 - 3) / 2, (64 - 3) / 2));
  EXPECT_TRUE(l.get((64 - 3) / 2 + 2, (64 - 3) / 2 + 2));
  EXPECT_EQ(l.population(), 2u);
  Pattern big;
  big.width = 65;
  big.height = 1;
  EXPECT_THROW(l.place_centred(big), InputError);
}

TEST(Lattice, ToPatternGivesTheBoundingBoxAndPosition) {
  Lattice l(64, 64);
  l.set(10, 20, true);
  l.set(40, 22, true);
  const Pattern p = l.to_pattern();
  EXPECT_EQ(p.width, 31);
  EXPECT_EQ(p.height, 3);
  ASSERT_TRUE(p.pos.has_value());
  EXPECT_EQ(p.pos->x, 10);
  EXPECT_EQ(p.pos->y, 20);
  Lattice back(64, 64);
  back.place(p, p.pos->x, p.pos->y);
  EXPECT_EQ(back, l);
}

}  // namespace
}  // namespace ls
