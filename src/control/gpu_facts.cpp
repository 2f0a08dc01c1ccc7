// gpu_facts.cpp — a GPU's name and memory for the --report (gpu_facts.hpp).
#include "control/gpu_facts.hpp"

#if defined(LIFESTREAMS_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace ls::app {

GpuFacts gpu_facts(int device) {
  GpuFacts out;
  out.name = "(unreadable)";
#if defined(LIFESTREAMS_HAVE_CUDA)
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) out.name = prop.name;
  int previous = -1;
  if (cudaGetDevice(&previous) == cudaSuccess && cudaSetDevice(device) == cudaSuccess) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      out.memory_free_bytes = free_bytes;
      out.memory_used_bytes = total_bytes - free_bytes;
    }
    cudaSetDevice(previous);
  }
  cudaGetLastError();  // a failed query leaves no error behind for the next checked call
#else
  (void)device;
#endif
  return out;
}

std::string pci_bus_id(int device) {
#if defined(LIFESTREAMS_HAVE_CUDA)
  char id[32] = {};
  if (cudaDeviceGetPCIBusId(id, static_cast<int>(sizeof id), device) == cudaSuccess) return id;
  cudaGetLastError();
#else
  (void)device;
#endif
  return {};
}

}  // namespace ls::app
