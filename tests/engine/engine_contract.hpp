// engine_contract.hpp — the Engine conformance suite's parameter: one engine configuration (how to
// make it, what its lattices need, whether it can run here) and the fixture every fact runs on.
// test_engine_contract.cpp states the facts; host_engines.cpp and cuda_engines.cpp instantiate them
// for the engines of each build.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "core/engine.hpp"

namespace ls::conformance {

struct EngineConfig {
  /// The configuration's name in the test names ("cpu", "cuda_graph", "split_four_bands").
  std::string name;
  /// An empty engine of this configuration (its stream mode set).
  std::function<std::unique_ptr<Engine>()> make;
  /// Why it cannot run on this machine ("needs a CUDA device: ..."), or "" when it can. Unset: it
  /// always runs.
  std::function<std::string()> unavailable;
  /// Bands each lattice is cut into (a split engine's devices; 1 for the others): a band holds 32
  /// rows at least, and twice the generations of a launch.
  int bands = 1;
  /// The instances' state lives in host memory (CpuEngine children): what cannot fit is host memory.
  bool on_host = false;

  /// `at_least` rows (a multiple of 32), or more where the bands need them.
  int rows(int at_least) const { return std::max(at_least, 32 * bands); }
  /// The most generations per launch a lattice of `height` rows takes: a band's rows must hold two
  /// launches' worth (multi/band_partition.hpp).
  int max_k(int height) const {
    if (bands == 1) return kMaxGenerationsPerLaunch;
    const int thinnest = height / 32 / bands * 32;
    return std::clamp(thinnest / 2, 1, kMaxGenerationsPerLaunch);
  }
};

inline void PrintTo(const EngineConfig& config, std::ostream* out) { *out << config.name; }

/// The test names' suffix: the configuration's name.
inline std::string config_name(const ::testing::TestParamInfo<EngineConfig>& info) { return info.param.name; }

/// Every fact runs on a fresh engine of the configuration; a configuration that cannot run here
/// (no CUDA device) skips, saying why.
class EngineContract : public ::testing::TestWithParam<EngineConfig> {
 protected:
  void SetUp() override {
    if (GetParam().unavailable) {
      const std::string why = GetParam().unavailable();
      if (!why.empty()) GTEST_SKIP() << why;
    }
    engine_ = GetParam().make();
  }
  void TearDown() override { engine_.reset(); }

  Engine& engine() { return *engine_; }
  const EngineConfig& config() const { return GetParam(); }

 private:
  std::unique_ptr<Engine> engine_;
};

}  // namespace ls::conformance
