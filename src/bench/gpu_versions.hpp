// gpu_versions.hpp — the driver and CUDA runtime versions that the GPU benches' headers and JSON name.
#pragma once

#include <string>

namespace ls::bench {

/// The NVIDIA kernel module's version ("580.65.06"), else the driver's CUDA version ("CUDA 13.0"),
/// else "unknown".
std::string driver_version();

/// The CUDA runtime's version ("13.0").
std::string cuda_runtime_version();

}  // namespace ls::bench
