// test_rule_program.cpp — the bitpacked kernel for one rule, without a GPU: the logic network of
// every rule computes that rule, every header the NVRTC program includes is embedded, it compiles to
// an sm_90 cubin for a random rule and for a B0 rule, an architecture NVRTC does not know gets PTX,
// and B3/S23 waits for nothing. The compiles skip where libnvrtc is not installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "core/rule.hpp"
#include "kernels/bitpacked_shapes.hpp"
#include "kernels/life_kernels.hpp"
#include "kernels/rule_network.hpp"
#include "kernels/rule_program.hpp"

namespace ls::kernel_tests {
namespace {

using ls::kernels::RuleMasks;
using ls::kernels::detail::compile_rule_kernel;
using ls::kernels::detail::kRuleProgramHeaderCount;
using ls::kernels::detail::kRuleProgramHeaders;
using ls::kernels::detail::RuleKernelImage;

#define SKIP_WITHOUT_NVRTC() \
  if (const std::string why = ls::kernels::detail::nvrtc_unavailable(); !why.empty()) GTEST_SKIP() << why

// The network a kernel compiled for one rule evaluates (its truth table over the cell and the
// adders' planes, split into four 3-input functions and muxes) gives every one of the 2^18 rules'
// next state for every cell state and neighbour count, in at most six LOP3s; B3/S23's in four, as
// the hand-written B3/S23 kernel.
TEST(RuleNetwork, EveryRulesNetworkComputesThatRule) {
  using namespace ls::kernels::detail;
  int most = 0;
  for (unsigned birth = 0; birth < 512; ++birth) {
    for (unsigned survive = 0; survive < 512; ++survive) {
      const Rule rule{static_cast<std::uint16_t>(birth), static_cast<std::uint16_t>(survive)};
      const unsigned table = rule_table(birth, survive << 1);
      const RuleSplit split = best_split(table);
      for (unsigned row = 0; row < 32; ++row) {
        const unsigned alive = plane_bit(row, kPlaneAlive);
        const int total = static_cast<int>(
            plane_bit(row, kPlaneT0) +
            2 * (plane_bit(row, kPlaneK) + plane_bit(row, kPlaneU) + 2 * plane_bit(row, kPlaneV)));
        const bool next = rule.next(alive != 0, total - static_cast<int>(alive));
        ASSERT_EQ(table >> row & 1u, next ? 1u : 0u) << rule.to_string() << " row " << row;
        ASSERT_EQ(split_value(split, row), next ? 1u : 0u) << rule.to_string() << " row " << row;
      }
      most = std::max(most, split_cost(split));
    }
  }
  EXPECT_LE(most, 6);
  EXPECT_EQ(split_cost(best_split(rule_table(1u << 3, ((1u << 2) | (1u << 3)) << 1))), 4);
}

/// The names in a text's #include lines (<name> or "name").
std::set<std::string> includes_of(const std::string& text) {
  std::set<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line.compare(hash, 1, "#") != 0) continue;
    const std::size_t word = line.find_first_not_of(" \t", hash + 1);
    if (word == std::string::npos || line.compare(word, 7, "include") != 0) continue;
    const std::size_t open = line.find_first_of("<\"", word + 7);
    const std::size_t close = line.find_first_of(">\"", open + 1);
    if (open != std::string::npos && close != std::string::npos)
      names.insert(line.substr(open + 1, close - open - 1));
  }
  return names;
}

// NVRTC is given no include path at run time: every #include of the program and its headers names
// a header embedded at build time, and each embedded header is the source tree's (non-empty).
TEST(RuleProgram, EveryIncludeOfTheProgramIsAnEmbeddedHeader) {
  std::set<std::string> embedded;
  for (int i = 0; i < kRuleProgramHeaderCount; ++i) {
    embedded.insert(kRuleProgramHeaders[i].name);
    EXPECT_GT(std::string(kRuleProgramHeaders[i].text).size(), 100u) << kRuleProgramHeaders[i].name;
  }
  std::set<std::string> needed = includes_of(ls::kernels::detail::rule_program_source());
  EXPECT_EQ(needed, std::set<std::string>{"kernels/step_bitpacked.cuh"});
  for (int i = 0; i < kRuleProgramHeaderCount; ++i)
    for (const std::string& name : includes_of(kRuleProgramHeaders[i].text)) {
      EXPECT_TRUE(embedded.count(name))
          << kRuleProgramHeaders[i].name << " includes " << name << ", which the program does not embed";
      needed.insert(name);
    }
  EXPECT_TRUE(needed.count("kernels/life_device.cuh"));
}

// A random rule and a B0 rule (every Life-like rule is a template argument of the same kernel)
// compile to sm_90 cubins without a GPU: an ELF image and a mangled name to look the kernel up by.
TEST(RuleProgram, ARandomRuleAndAB0RuleCompileToSm90Cubins) {
  SKIP_WITHOUT_NVRTC();
  std::mt19937 rng(20261127);
  const auto mask = [&rng] { return static_cast<std::uint32_t>(rng() & 0x1ffu); };
  const RuleMasks random{(mask() & ~1u) | 0x8u, mask()};  // born on 3, never on 0
  const RuleMasks b0{0b110011111, 0b111011111};           // B0123478/S01234678
  for (const RuleMasks rule : {random, b0}) {
    for (const int shape : {0, 4}) {  // the smallest tile and the tallest (32 rows x 16 warps)
      RuleKernelImage image;
      std::string why;
      ASSERT_TRUE(compile_rule_kernel(rule, shape, 90, image, why)) << why;
      EXPECT_FALSE(image.ptx);
      EXPECT_EQ(image.target, 90);
      ASSERT_GT(image.code.size(), 1000u);
      EXPECT_EQ(std::string(image.code.data(), 4),
                "\x7f"
                "ELF");
      EXPECT_EQ(image.kernel_name.rfind("_ZN2ls7kernels6detail14life_step_bits", 0), 0u) << image.kernel_name;
      std::printf("B mask 0x%03x S mask 0x%03x shape %d: %.2f s, cubin %zu bytes\n", rule.birth, rule.survive,
                  shape, image.seconds, image.code.size());
    }
  }
}

// A GPU newer than this NVRTC gets PTX of the newest architecture NVRTC knows (the driver compiles
// it); one older than any it knows gets a reason, not a crash.
TEST(RuleProgram, AnArchitectureNvrtcDoesNotKnowGetsPtxOrAReason) {
  SKIP_WITHOUT_NVRTC();
  const RuleMasks rule{(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)};  // HighLife
  RuleKernelImage image;
  std::string why;
  ASSERT_TRUE(compile_rule_kernel(rule, 0, 990, image, why)) << why;
  EXPECT_TRUE(image.ptx);
  EXPECT_LT(image.target, 990);
  ASSERT_FALSE(image.code.empty());
  EXPECT_EQ(image.code.back(), '\0');
  EXPECT_NE(std::string(image.code.data()).find(".entry " + image.kernel_name), std::string::npos);
  RuleKernelImage old;
  EXPECT_FALSE(compile_rule_kernel(rule, 0, 10, old, why));
  EXPECT_NE(why.find("sm_10"), std::string::npos) << why;
}

// B3/S23 has a kernel of its own: nothing to wait for, with or without a device.
TEST(RuleProgram, LifeWaitsForNothing) {
  EXPECT_TRUE(ls::kernels::wait_rule_kernels(RuleMasks{1u << 3, (1u << 2) | (1u << 3)}, 0.0));
}

}  // namespace
}  // namespace ls::kernel_tests
