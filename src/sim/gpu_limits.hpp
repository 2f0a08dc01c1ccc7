// gpu_limits.hpp — a GPU's roofline limits (core/kernel_costs.hpp): its SMs and clock asked of the
// runtime, and its device-to-device copy bandwidth measured with events. The measurement waits on
// its own events: callers run it outside the frame loop (the bench before its rows, the app on a
// thread of its own).
#pragma once

#include <cstddef>

#include "core/kernel_costs.hpp"

namespace ls::sim {

/// Device-to-device copy bandwidth of the current device, bytes read plus written (GB/s, 1e9
/// bytes): the median of 10 timed copies after 3 untimed, of the largest buffer pair up to
/// `max_bytes` each that fits beside what is allocated (at least 64 MiB, or 0 when that is not free).
double measure_copy_gbps(std::size_t max_bytes = std::size_t{1} << 30);

/// The limits of CUDA device `device` (made current on the calling thread), its copy bandwidth
/// measured with buffers of up to `max_copy_bytes`. Throws DeviceError on a CUDA failure.
GpuLimits measure_gpu_limits(int device, std::size_t max_copy_bytes = std::size_t{1} << 30);

}  // namespace ls::sim
