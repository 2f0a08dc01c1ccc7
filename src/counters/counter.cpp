// counter.cpp — implements counter.hpp.
#include "counters/counter.hpp"

namespace ls::counters {

std::string_view counter_name(Counter c) {
  switch (c) {
    case Counter::sm_active:
      return "sm_active";
    case Counter::occupancy:
      return "occupancy";
    case Counter::dram_throughput:
      return "dram_throughput";
    case Counter::dram_gbps:
      return "dram_gbps";
    case Counter::nvlink_gbps:
      return "nvlink_gbps";
    case Counter::pcie_gbps:
      return "pcie_gbps";
    case Counter::sm_clock_mhz:
      return "sm_clock_mhz";
    case Counter::power_w:
      return "power_w";
  }
  return "?";
}

std::string_view counter_unit(Counter c) {
  switch (c) {
    case Counter::dram_gbps:
    case Counter::nvlink_gbps:
    case Counter::pcie_gbps:
      return "GB/s";
    case Counter::sm_clock_mhz:
      return "MHz";
    case Counter::power_w:
      return "W";
    default:
      return "";
  }
}

bool is_fraction(Counter c) {
  return c == Counter::sm_active || c == Counter::occupancy || c == Counter::dram_throughput;
}

}  // namespace ls::counters
