// cuda_device.cpp — implements cuda_device_count (cuda_engine.hpp): how many CUDA devices this
// process can use and, when none, why, in words a user can act on. The runtime's own text misleads
// where no driver is loaded at all: it says "CUDA driver version is insufficient for CUDA runtime
// version" (cudaErrorInsufficientDriver), as if an old driver were there.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>

#include "sim/cuda_engine.hpp"

namespace ls {

namespace {

/// "13.0" from the runtime's 13000.
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string why_no_device(cudaError_t err) {
  int driver = 0;   // 0 when no driver is loaded
  int runtime = 0;  // this build's runtime
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  cudaGetLastError();
  const std::string answer = std::string("cudaGetDeviceCount answers ") + cudaGetErrorName(err);
  if (driver == 0) return "no NVIDIA driver is loaded, " + answer;
  if (err == cudaErrorInsufficientDriver)
    return "the NVIDIA driver supports CUDA " + cuda_version_text(driver) +
           ", older than this build's CUDA " + cuda_version_text(runtime) + ", " + answer;
  if (err == cudaSuccess || err == cudaErrorNoDevice) {
    std::string why =
        "no CUDA device found: the NVIDIA driver for CUDA " + cuda_version_text(driver) + " sees none";
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"))
      why += std::string(" with CUDA_VISIBLE_DEVICES=\"") + visible + "\"";
    return why;
  }
  return "the CUDA runtime cannot use a device, " + answer + ": " + cudaGetErrorString(err);
}

}  // namespace

int cuda_device_count(std::string* why_none) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    count = 0;
  }
  if (count == 0 && why_none) *why_none = why_no_device(err);
  return count;
}

}  // namespace ls
