// counter.hpp — the hardware counters the app samples per GPU, their names and units, and one
// reading of one of them.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ls::counters {

enum class Counter {
  sm_active,        ///< fraction of the SMs' time with a warp resident, 0..1
  occupancy,        ///< achieved occupancy: resident warps over the SMs' maximum, 0..1
  dram_throughput,  ///< DRAM bandwidth used as a fraction of its peak, 0..1
  dram_gbps,        ///< DRAM traffic, GB/s (read + write)
  nvlink_gbps,      ///< NVLink traffic, GB/s (transmitted + received)
  pcie_gbps,        ///< PCIe traffic, GB/s (transmitted + received)
  sm_clock_mhz,     ///< SM clock, MHz
  power_w,          ///< board power draw, W
};

inline constexpr std::array<Counter, 8> kAllCounters = {
    Counter::sm_active,   Counter::occupancy, Counter::dram_throughput, Counter::dram_gbps,
    Counter::nvlink_gbps, Counter::pcie_gbps, Counter::sm_clock_mhz,    Counter::power_w};

/// The report's and the CSV's name: "sm_active", "dram_gbps", ...
std::string_view counter_name(Counter c);
/// What the panel shows beside a value: "" for fractions (drawn as %), "GB/s", "MHz", "W".
std::string_view counter_unit(Counter c);
/// Whether the counter is a fraction 0..1 (drawn as a percentage).
bool is_fraction(Counter c);

/// One reading: `value` of `counter` on CUDA device `gpu` at `t_ms` (the sampler's clock).
struct Sample {
  double t_ms = 0;
  int gpu = 0;
  Counter counter = Counter::sm_active;
  double value = 0;
  /// The interval the value is the mean over, on the GPU's own clock (%globaltimer, ns), where the
  /// source has it (CUPTI's PM sampling); 0 otherwise. The engines time their frames on the same
  /// clock, so the timeline places these samples exactly.
  std::uint64_t gpu_start_ns = 0;
  std::uint64_t gpu_end_ns = 0;
  /// The interval is the host's system clock taken for the GPU's (NVML's readings): close to it,
  /// but not stamped by the GPU.
  bool host_clock = false;
};

}  // namespace ls::counters
