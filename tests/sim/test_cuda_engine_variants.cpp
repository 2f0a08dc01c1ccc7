// test_cuda_engine_variants.cpp — the CUDA engine's variants against the CPU reference: all five on
// random soups and rules at several checkpoints, switches between them keeping the state exactly, a
// glider crossing the torus's seams, `iterate` on a GPU with less shared memory, set_cell.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "core/rule.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_engine.hpp"

#include "cuda_engine_test.hpp"

namespace ls::sim {
namespace {

struct SoupCase {
  int width, height;
  double density;
  std::uint64_t seed;
  int k;
  Rule rule;
};

std::vector<SoupCase> soup_cases() {
  static const int sizes[][2] = {{32, 32},  {64, 64},    {96, 160},  {256, 128}, {2048, 1024}, {512, 512},
                                 {160, 96}, {1024, 256}, {32, 2048}, {384, 32},  {128, 1024}};
  static const int ks[] = {3, 7, 16, 64, 5, 13, 32, 2};
  std::vector<SoupCase> cases;
  const auto rules = test_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto& size = sizes[i % std::size(sizes)];
    cases.push_back({size[0], size[1], 0.1 + 0.1 * static_cast<double>(i % 6), 1000 + i,
                     ks[i % std::size(ks)], rules[i]});
  }
  return cases;
}

class VariantsEqualReference : public CudaEngineTest, public ::testing::WithParamInterface<int> {};

// All five variants run side by side from one device-made soup; at 0, 1, 2, 31, 64 and 1000
// generations each equals the CPU reference cell for cell, with equal population and hash. The k
// values split the steps into several launches plus a remainder.
TEST_P(VariantsEqualReference, OnRandomSoupsAfterEachCheckpoint) {
  const SoupCase c = soup_cases()[static_cast<std::size_t>(GetParam())];
  SCOPED_TRACE("rule " + c.rule.to_string() + ", " + std::to_string(c.width) + "x" +
               std::to_string(c.height) + ", density " + std::to_string(c.density) + ", seed " +
               std::to_string(c.seed) + ", k " + std::to_string(c.k));
  sim::CudaEngine engine;
  for (Variant v : kAllVariants)
    engine.add(random_spec(c.width, c.height, c.density, c.seed, v, c.rule, c.k));
  Lattice reference = Lattice::random(c.width, c.height, c.density, c.seed);
  long long at = 0;
  for (long long checkpoint : {0LL, 1LL, 2LL, 31LL, 64LL, 1000LL}) {
    const int delta = static_cast<int>(checkpoint - at);
    engine.step(delta);
    cpu_run(reference, c.rule, delta);
    at = checkpoint;
    for (std::size_t i = 0; i < engine.size(); ++i) {
      const std::string variant(variant_name(engine.status(i).variant));
      EXPECT_EQ(difference(engine.read(i), reference), "") << variant << " at generation " << at;
      const StateSummary s = engine.summarize(i);
      EXPECT_EQ(s.generation, static_cast<std::uint64_t>(at)) << variant;
      EXPECT_EQ(s.population, reference.population()) << variant << " at generation " << at;
      EXPECT_EQ(s.hash, reference.hash()) << variant << " at generation " << at;
    }
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Soups, VariantsEqualReference,
                         ::testing::Range(0, static_cast<int>(soup_cases().size())));

// Switching variants in the middle of a run converts the state on the device: the hash right
// after each switch equals the hash right before, and the run still ends on the reference.
TEST_F(CudaEngineTest, VariantSwitchesKeepTheStateExactly) {
  const auto rules = test_rules();
  for (std::size_t r = 0; r < 6; ++r) {
    const Rule rule = rules[r * 3];
    SCOPED_TRACE("rule " + rule.to_string());
    sim::CudaEngine engine;
    engine.add(random_spec(320, 192, 0.35, 77 + r, Variant::naive, rule, 5));
    Lattice reference = Lattice::random(320, 192, 0.35, 77 + r);
    const Variant order[] = {Variant::bitpacked, Variant::shared,  Variant::iterate,   Variant::naive,
                             Variant::global,    Variant::iterate, Variant::bitpacked, Variant::global};
    int gens = 3;
    for (Variant next : order) {
      engine.step(gens);
      cpu_run(reference, rule, gens);
      const StateSummary before = engine.summarize(0);
      engine.set_variant(0, next);
      const StateSummary after = engine.summarize(0);
      EXPECT_EQ(after.hash, before.hash) << "switch to " << variant_name(next);
      EXPECT_EQ(after.population, before.population);
      EXPECT_EQ(after.hash, reference.hash());
      gens = gens * 2 + 1;
    }
    EXPECT_EQ(difference(engine.read(0), reference), "");
  }
}

// Life facts on every variant: a glider moves one cell diagonally every 4 generations, wrapping
// around the torus; an uploaded lattice reads back unchanged.
TEST_F(CudaEngineTest, GliderMovesOneCellDiagonallyEveryFourGenerations) {
  Lattice start(64, 32);
  // .O. / ..O / OOO with its box's top-left at (60, 29): it straddles both seams.
  for (auto [x, y] : {std::pair{61, 29}, {62, 30}, {60, 31}, {61, 31}, {62, 31}}) start.set(x, y, true);
  for (Variant v : kAllVariants) {
    SCOPED_TRACE(std::string(variant_name(v)));
    sim::CudaEngine engine;
    InstanceSpec spec;
    spec.variant = v;
    spec.generations_per_launch = 3;
    spec.init = start;
    engine.add(spec);
    EXPECT_EQ(difference(engine.read(0), start), "");
    engine.step(4 * 25);
    Lattice moved(64, 32);
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 64; ++x)
        if (start.get(x, y)) moved.set(x + 25, y + 25, true);
    EXPECT_EQ(difference(engine.read(0), moved), "");
  }
}

// set_cell wraps its coordinates onto the torus, changes exactly one cell and gives a new origin.
TEST_F(CudaEngineTest, SetCellChangesOneCellAndTheOrigin) {
  for (Variant v : kAllVariants) {
    SCOPED_TRACE(std::string(variant_name(v)));
    sim::CudaEngine engine;
    engine.add(random_spec(96, 64, 0.0, 1, v, Rule::life(), 1));
    const std::uint64_t origin = engine.status(0).origin;
    engine.set_cell(0, -1, 69, true);
    const Lattice after = engine.read(0);
    EXPECT_TRUE(after.get(95, 5));
    EXPECT_EQ(after.population(), 1u);
    EXPECT_NE(engine.status(0).origin, origin);
    const DeviceLatticeView view = engine.device_view(0);
    EXPECT_NE(view.cells, nullptr);
    EXPECT_EQ(view.width, 96);
    EXPECT_EQ(view.layout == kernels::Layout::bit_cells, v == Variant::bitpacked);
  }
}

}  // namespace
}  // namespace ls::sim
