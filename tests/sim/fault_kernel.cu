// fault_kernel.cu — a real fatal device error for tests: a kernel that traps, which leaves the
// CUDA context unusable (a "sticky" error) as a crashed kernel would.
#include <cuda_runtime_api.h>

namespace ls::test {
namespace {

__global__ void trap_kernel() { __trap(); }

}  // namespace

/// Launches a trapping kernel on its own stream and waits for it; returns the error it left.
cudaError_t trigger_device_fault() {
  cudaStream_t stream = nullptr;
  if (const cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); err != cudaSuccess)
    return err;
  trap_kernel<<<1, 1, 0, stream>>>();
  const cudaError_t err = cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  return err;
}

}  // namespace ls::test
