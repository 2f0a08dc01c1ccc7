// gpu_facts.hpp — what the --report says of each GPU besides its timings: its name and memory in
// use and free, asked of the driver once (cudaMemGetInfo), at report time, never in the frame loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ls::app {

struct GpuFacts {
  std::string name;                                // "(unreadable)" when the driver would not say
  std::optional<std::uint64_t> memory_used_bytes;  // total - free; none when unreadable
  std::optional<std::uint64_t> memory_free_bytes;
};

/// The facts of CUDA device `device`, asked with that device current and the caller's device
/// restored. Never throws: what the driver does not answer is left out (a build without CUDA
/// answers nothing).
GpuFacts gpu_facts(int device);

/// CUDA device `device`'s PCI bus id ("0000:1B:00.0", how NVML finds it); empty when the driver
/// would not say or the build has no CUDA.
std::string pci_bus_id(int device);

}  // namespace ls::app
