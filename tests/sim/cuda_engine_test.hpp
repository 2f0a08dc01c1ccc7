// cuda_engine_test.hpp — what the CUDA engine's tests share: the fixture that skips without a
// device, where a lattice first differs from the expected one, a random instance's spec, the rules
// every variant is checked on, free device memory, and one round of instance churn.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::sim {

class CudaEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  }
};

/// Empty string when equal, else where the first difference is.
inline std::string difference(const Lattice& got, const Lattice& want) {
  if (got.width() != want.width() || got.height() != want.height()) {
    return "size " + std::to_string(got.width()) + "x" + std::to_string(got.height()) + " vs " +
           std::to_string(want.width()) + "x" + std::to_string(want.height());
  }
  long long differing = 0;
  std::string first;
  for (int y = 0; y < want.height(); ++y) {
    for (int x = 0; x < want.width(); ++x) {
      if (got.get(x, y) == want.get(x, y)) continue;
      if (differing++ == 0)
        first = "cell (" + std::to_string(x) + ", " + std::to_string(y) + ") is " +
                (got.get(x, y) ? "live" : "dead") + ", expected " + (want.get(x, y) ? "live" : "dead");
    }
  }
  if (differing == 0) return {};
  return std::to_string(differing) + " cells differ; first: " + first;
}

inline InstanceSpec random_spec(int w, int h, double density, std::uint64_t seed, Variant v, const Rule& rule,
                                int k) {
  InstanceSpec spec;
  spec.width = w;
  spec.height = h;
  spec.rule = rule;
  spec.variant = v;
  spec.generations_per_launch = k;
  spec.init = RandomInit{density, seed};
  return spec;
}

/// The rules every variant is checked on: the named ones, plus 22 random Life-like rules (with
/// B0 rules among them), from a fixed seed so failures reproduce.
inline std::vector<Rule> test_rules() {
  std::vector<Rule> rules;
  for (const auto& named : named_rules()) rules.push_back(named.rule);
  std::mt19937_64 rng(20240601);
  while (rules.size() < named_rules().size() + 22) {
    Rule r;
    r.birth = static_cast<std::uint16_t>(rng() & 0x1ff);
    r.survive = static_cast<std::uint16_t>(rng() & 0x1ff);
    rules.push_back(r);
  }
  return rules;
}

inline std::size_t free_device_memory() {
  std::size_t free_bytes = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  return free_bytes;
}

inline void churn_once(CudaEngine& engine) {
  engine.add(random_spec(1024, 1024, 0.3, 1, Variant::bitpacked, Rule::life(), 16));
  engine.add(random_spec(2048, 512, 0.3, 2, Variant::global, Rule::life(), 1));
  engine.add(random_spec(512, 512, 0.3, 3, Variant::naive, Rule::life(), 1));
  InstanceSpec copy;
  copy.variant = Variant::iterate;
  copy.init = CopyInit{0};
  engine.add(copy);
  engine.step(5);
  engine.set_variant(1, Variant::bitpacked);
  engine.set_variant(0, Variant::shared);
  engine.request_summaries();
  (void)engine.read(2);
  engine.step(5);
  while (engine.size() > 0) engine.remove(engine.size() - 1);
}

}  // namespace ls::sim
