// bench_devices.hpp — the rows of `lifestreams bench --devices LIST` with several GPUs: lattices
// split across them (multi::SplitEngine) and instances spread over them (one CudaEngine per GPU,
// each stepped by its own host thread), each measured against the same work on the first listed
// GPU in the same run. bench.cpp hands over here when more than one GPU is listed.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/rule.hpp"

namespace ls {

/// The sweep as bench's options give it (an absent list takes this file's multi-GPU default) and
/// the devices, resolved and in the order given.
struct DevicesBench {
  std::vector<int> devices;
  std::optional<std::vector<Variant>> variants;
  std::optional<std::vector<std::pair<int, int>>> sizes;
  std::optional<std::vector<int>> instances;  // 1: a split row; more: a spread row
  std::optional<std::vector<StreamMode>> modes;
  std::optional<std::vector<int>> ks;
  std::optional<std::vector<int>> timing_periods;
  Rule rule = Rule::life();
  std::string json_path;
  std::string driver;
  std::string cuda;
};

/// Measures and prints the multi-GPU rows (and writes --json). Returns the exit status (0).
int run_devices_bench(const DevicesBench& bench);

/// Tests only: with LS_TEST_BANDS=N (2..8) in the environment and one device listed, that device
/// N times, so that a one-GPU machine (CI, the H100) runs the multi-GPU rows as N bands or N
/// engines of one GPU; otherwise `devices` unchanged. Not a user option: the command line refuses
/// a repeated device.
std::vector<int> with_test_bands(std::vector<int> devices);

}  // namespace ls
