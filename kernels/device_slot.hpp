// device_slot.hpp — which per-device cache entry a launcher uses: the kernels' launchers keep what
// they read from the device once (attributes, occupancy) per device, since the host threads of a
// lattice split across GPUs launch the same kernels on several, which may differ (a workstation
// with two unlike cards).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/cuda_check.hpp"

namespace ls::kernels::detail {

/// Devices told apart by the per-device caches (ordinals beyond share the last entry).
constexpr int kMaxDevices = 64;

/// The current device's cache entry (cudaGetDevice: per host thread, never waits for a device).
inline int current_device_slot() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  return device < 0 || device >= kMaxDevices ? kMaxDevices - 1 : device;
}

}  // namespace ls::kernels::detail
