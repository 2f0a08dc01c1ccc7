// event_reads.hpp — reading CUDA events without waiting: whether an event's work is done, and the
// time between two events. A pending event answers false, never blocks, and leaves no
// cudaErrorNotReady behind for a later cudaGetLastError() check after a launch; a real error
// throws DeviceError (cuda_check.hpp's one error path).
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/cuda_check.hpp"

namespace ls::sim {

/// Whether `event`'s work is done.
inline bool event_done(cudaEvent_t event) {
  const cudaError_t err = cudaEventQuery(event);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) {
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();
    return false;
  }
  throw_cuda_error(err, "cudaEventQuery(event)", __FILE__, __LINE__);
}

/// Milliseconds from `from` to `to` (events of one device), or false while either is pending. Also
/// the completion test of `to` where `from` is known to be done: it saves a query.
inline bool try_elapsed_ms(cudaEvent_t from, cudaEvent_t to, double& ms) {
  float t = 0;
  const cudaError_t err = cudaEventElapsedTime(&t, from, to);
  if (err == cudaSuccess) {
    ms = t;
    return true;
  }
  if (err == cudaErrorNotReady) {
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();
    return false;
  }
  throw_cuda_error(err, "cudaEventElapsedTime(&t, from, to)", __FILE__, __LINE__);
}

}  // namespace ls::sim
