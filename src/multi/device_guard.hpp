// device_guard.hpp — makes a CUDA device current for a scope and restores the caller's device on
// the way out (setup and teardown of per-device resources from the caller's thread).
#pragma once

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace ls::multi {

class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    CUDA_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace ls::multi
