// cuda_device.cpp — implements cuda_device_count (cuda_engine.hpp): how many CUDA devices this
// process can use, and why none when there are none.
#include <cuda_runtime_api.h>

#include <string>

#include "sim/cuda_engine.hpp"

namespace ls {

int cuda_device_count(std::string* why_none) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why_none) *why_none = std::string("no CUDA device: ") + cudaGetErrorString(err);
    return 0;
  }
  if (count == 0 && why_none) *why_none = "no CUDA device";
  return count;
}

}  // namespace ls
