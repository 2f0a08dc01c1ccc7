// cuda_check.hpp — the one error path for CUDA calls: CUDA_CHECK(expr) throws ls::DeviceError
// naming the failed call, the error, the file and the line.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/error.hpp"

namespace ls {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* expr, const char* file, int line) {
  throw DeviceError(std::string("CUDA error: ") + expr + " failed: " + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace ls

#define CUDA_CHECK(expr)                                                     \
  do {                                                                       \
    const cudaError_t ls_cuda_check_err_ = (expr);                           \
    if (ls_cuda_check_err_ != cudaSuccess)                                   \
      ::ls::throw_cuda_error(ls_cuda_check_err_, #expr, __FILE__, __LINE__); \
  } while (0)

/// After every <<<>>>: launch errors (bad configuration, too many resources) surface here.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
