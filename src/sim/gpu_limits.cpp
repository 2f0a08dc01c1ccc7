// gpu_limits.cpp — a GPU's SMs, clock and measured copy bandwidth (gpu_limits.hpp).
#include "sim/gpu_limits.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "core/stats.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::sim {

double measure_copy_gbps(std::size_t max_bytes) {
  constexpr std::size_t kMin = std::size_t{64} << 20;
  std::size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  std::size_t bytes = std::max(max_bytes, kMin);
  while (bytes > kMin && 2 * bytes + (std::size_t{256} << 20) > free_bytes) bytes /= 2;
  cuda::DeviceBuffer a = cuda::DeviceBuffer::try_allocate(bytes);
  cuda::DeviceBuffer b = cuda::DeviceBuffer::try_allocate(bytes);
  if (!a || !b) return 0;
  cuda::Stream stream(cuda::Stream::Create{});
  cuda::Event start(cuda::Event::Create{}), stop(cuda::Event::Create{});
  CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()));
  std::vector<double> ms;
  for (int i = 0; i < 13; ++i) {
    start.record(stream.get());
    CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    stop.record(stream.get());
    CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
    if (i >= 3) ms.push_back(t);
  }
  const double median_ms = median(ms);
  return median_ms > 0 ? 2.0 * static_cast<double>(bytes) / (median_ms * 1e-3) / 1e9 : 0;
}

GpuLimits measure_gpu_limits(int device, std::size_t max_copy_bytes) {
  CUDA_CHECK(cudaSetDevice(device));
  GpuLimits limits;
  int sms = 0, clock_khz = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  limits.sms = sms;
  limits.sm_clock_hz = static_cast<double>(clock_khz) * 1e3;
  limits.copy_gbps = measure_copy_gbps(max_copy_bytes);
  return limits;
}

}  // namespace ls::sim
