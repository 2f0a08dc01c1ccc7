// gpu_versions.cpp — the driver's and the CUDA runtime's versions (gpu_versions.hpp).
#include "bench/gpu_versions.hpp"

#include <cuda_runtime_api.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "kernels/cuda_check.hpp"

namespace ls::bench {

std::string driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (std::getline(in, line)) {
    // "NVRM version: NVIDIA UNIX [Open ]Kernel Module [for x86_64]  580.65.06  Release Build ...":
    // the first word after "Kernel Module" that starts with a digit.
    const std::size_t at = line.find("Kernel Module");
    if (at != std::string::npos) {
      std::istringstream words(line.substr(at + 13));
      std::string word;
      while (words >> word)
        if (std::isdigit(static_cast<unsigned char>(word[0]))) return word;
    }
  }
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess)
    return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  return "unknown";
}

std::string cuda_runtime_version() {
  int v = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&v));
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace ls::bench
