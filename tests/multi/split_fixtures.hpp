// split_fixtures.hpp — what the split-lattice GPU tests share: the fixture that skips without a
// device, the band layouts they run on, random rules and soups, and the difference of two lattices.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "sim/cuda_engine.hpp"

namespace ls::multi {

class SplitLatticeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  }
};

/// The band layouts each test runs on: 2, 3 and 4 bands of device 0, bands over two distinct
/// devices (alternating) when there are two, and one band on each of four when there are four.
inline std::vector<std::vector<int>> band_layouts() {
  std::vector<std::vector<int>> out = {{0, 0}, {0, 0, 0}, {0, 0, 0, 0}};
  if (cuda_device_count() >= 2) {
    out.push_back({0, 1});
    out.push_back({0, 1, 0});
    out.push_back({0, 1, 0, 1});
  }
  if (cuda_device_count() >= 4) out.push_back({0, 1, 2, 3});
  return out;
}

inline std::string name_of(const std::vector<int>& devices) {
  std::string s = "bands on devices";
  for (const int d : devices) {
    s += ' ';
    s += std::to_string(d);
  }
  return s;
}

inline std::string difference(const Lattice& got, const Lattice& want) {
  if (got.width() != want.width() || got.height() != want.height()) return "sizes differ";
  long long differing = 0;
  std::string first;
  for (int y = 0; y < want.height(); ++y)
    for (int x = 0; x < want.width(); ++x)
      if (got.get(x, y) != want.get(x, y) && differing++ == 0)
        first = std::to_string(x) + ", " + std::to_string(y);
  return differing == 0 ? std::string() : std::to_string(differing) + " cells differ; first " + first;
}

inline Rule random_rule(std::mt19937_64& rng) {
  Rule r;
  r.birth = static_cast<std::uint16_t>(rng() & 0x1feu);  // no B0: the torus would flash
  r.survive = static_cast<std::uint16_t>(rng() & 0x1ffu);
  return r;
}

inline InstanceSpec soup(int w, int h, Variant v, int k, const Rule& rule, std::uint64_t seed,
                         double density = 0.3) {
  InstanceSpec s;
  s.width = w;
  s.height = h;
  s.variant = v;
  s.generations_per_launch = k;
  s.rule = rule;
  s.init = RandomInit{density, seed};
  return s;
}

}  // namespace ls::multi
