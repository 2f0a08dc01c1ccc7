// test_steps.cpp — every variant's step kernels against the CPU reference: random soups under named
// and random Life-like rules, 1000 generations, k generations per launch equal to k single steps,
// a lattice beyond L2, and generations per launch outside 1..64 refused.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

#include "kernel_test.hpp"

namespace ls::kernel_tests {
namespace {

constexpr Size kSizes[] = {{32, 32}, {64, 96}, {256, 128}, {96, 320}, {1024, 64}, {2048, 1024}, {480, 224}};

class VariantTest : public ::testing::TestWithParam<Variant> {};

// Every variant equals the CPU reference on random soups for 27 rules (the named ones, a B0 rule
// and 22 random ones), several sizes, densities and seeds, after 1, 2, 31 and 64 generations.
TEST_P(VariantTest, EqualsCpuReferenceOnRandomSoupsAndRules) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  const std::vector<Rule> rules = test_rules();
  const long long gens[] = {1, 2, 31, 64};
  const int ks[] = {1, 2, 5, 31, 32, 33, 64};
  int case_no = 0;
  for (std::size_t ri = 0; ri < rules.size(); ++ri) {
    for (long long g : gens) {
      const Size s = kSizes[case_no % (std::size(kSizes) - 1)];  // 2048x1024 has its own test
      const double density = 0.1 + 0.1 * (case_no % 6);
      const std::uint64_t seed = 1000 + case_no;
      const int k = ks[case_no % std::size(ks)];
      ++case_no;
      SCOPED_TRACE(std::string(variant_name(v)) + " rule " + rules[ri].to_string() + " " +
                   std::to_string(s.w) + "x" + std::to_string(s.h) + " p=" + std::to_string(density) +
                   " seed=" + std::to_string(seed) + " gens=" + std::to_string(g) +
                   " k=" + std::to_string(k));
      Lattice want = Lattice::random(s.w, s.h, density, seed);
      const Lattice got = run_on_device(v, want, rules[ri], g, k);
      ls::cpu_run(want, rules[ri], g);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

// 1000 generations of Life, HighLife, Day & Night and the B0 rule on 2048x1024 and 480x224 soups.
TEST_P(VariantTest, EqualsCpuReferenceAfter1000Generations) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  const std::vector<Rule> rules = test_rules();
  const int k = (v == Variant::iterate || v == Variant::bitpacked) ? 16 : 1;
  int i = 0;
  for (Size s : {Size{2048, 1024}, Size{480, 224}}) {
    for (int ri : {0, 1, 2, 4}) {
      const double density = 0.2 + 0.1 * (i % 4);
      SCOPED_TRACE(std::string(variant_name(v)) + " rule " + rules[ri].to_string() + " " +
                   std::to_string(s.w) + "x" + std::to_string(s.h) + " k=" + std::to_string(k));
      Lattice want = Lattice::random(s.w, s.h, density, 77 + i++);
      const Lattice got = run_on_device(v, want, rules[ri], 1000, k);
      ls::cpu_run(want, rules[ri], 1000);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

// A lattice larger than any GPU's L2 (both 8192 x 8192 byte buffers: 128 MiB), where `global`
// takes its streaming shape (4 rows a thread) rather than the one of lattices L2 holds: still equal
// to the CPU reference, under Life and a random rule, the torus' wrap included.
TEST_P(VariantTest, EqualsCpuReferenceOnALatticeBeyondL2) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  if (v != Variant::global && v != Variant::shared) GTEST_SKIP() << "byte variants' shapes only";
  for (const Rule& rule : {Rule::life(), test_rules().back()}) {
    SCOPED_TRACE(std::string(variant_name(v)) + " rule " + rule.to_string());
    Lattice want = Lattice::random(8192, 8192, 0.35, 4242);
    const Lattice got = run_on_device(v, want, rule, 3, 1);
    ls::cpu_run(want, rule, 3);
    ASSERT_TRUE(got == want) << first_difference(got, want);
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest,
                         ::testing::Values(Variant::naive, Variant::global, Variant::shared, Variant::iterate,
                                           Variant::bitpacked),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(variant_name(info.param));
                         });

class DeepVariantTest : public ::testing::TestWithParam<Variant> {};

// k generations in one launch equal k single CPU steps, for every k the engine may ask for,
// including the deepest halos, each side of the k where `iterate` takes a taller tile (8 and 24),
// multi-block lattices and lattices narrower than a tile.
TEST_P(DeepVariantTest, KGenerationsPerLaunchEqualKSingleSteps) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  const std::vector<Rule> rules = test_rules();
  int i = 0;
  for (int k : {1, 2, 5, 8, 9, 16, 17, 24, 25, 31, 32, 33, 48, 63, 64}) {
    for (Size s : {Size{32, 32}, Size{2048, 1024}, Size{992, 288}, Size{64, 2048}}) {
      const Rule& rule = rules[i % rules.size()];
      SCOPED_TRACE(std::string(variant_name(v)) + " k=" + std::to_string(k) + " rule " + rule.to_string() +
                   " " + std::to_string(s.w) + "x" + std::to_string(s.h));
      Lattice want = Lattice::random(s.w, s.h, 0.15 + 0.05 * (i % 8), 500 + i);
      ++i;
      const Lattice got = run_on_device(v, want, rule, k, k);
      ls::cpu_run(want, rule, k);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MultiGeneration, DeepVariantTest,
                         ::testing::Values(Variant::iterate, Variant::bitpacked),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(variant_name(info.param));
                         });

// Bad generations-per-launch values are refused, not run.
TEST(Layouts, GenerationsPerLaunchOutsideOneTo64AreRefused) {
  EXPECT_THROW(ls::kernels::launch_step_iterate(nullptr, nullptr, 32, 32, {8, 12}, 0, nullptr),
               ls::InputError);
  EXPECT_THROW(ls::kernels::launch_step_bitpacked(nullptr, nullptr, 32, 32, {8, 12}, 65, nullptr),
               ls::InputError);
}

}  // namespace
}  // namespace ls::kernel_tests
