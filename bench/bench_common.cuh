// bench_common.cuh — what the kernel harness (kernel_bench.cu) and the bitpacked kernel probes
// (stream_probe.cu, tile_probe.cu) share: the median time of a step timed with CUDA events, and for
// the probes a random soup, a count of the words two lattices differ in and the cell updates/s of a
// launch.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace ls::probe {

/// Three bit lattices n x n on the device (a, b, c), freed with it.
struct Lattices {
  std::size_t words;
  std::uint32_t *a = nullptr, *b = nullptr, *c = nullptr;
  explicit Lattices(int n) : words(static_cast<std::size_t>(n) / 32 * n) {
    CUDA_CHECK(cudaMalloc(&a, words * 4));
    CUDA_CHECK(cudaMalloc(&b, words * 4));
    CUDA_CHECK(cudaMalloc(&c, words * 4));
  }
  Lattices(const Lattices&) = delete;
  Lattices& operator=(const Lattices&) = delete;
  ~Lattices() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
};

/// A soup of density 0.35 in a bit lattice n x n (the kernels' speed does not depend on the cells).
inline void soup(std::uint32_t* lattice, int n, std::uint64_t seed) {
  const FillThreshold t = fill_threshold(0.35);
  kernels::launch_random_fill(kernels::Layout::bit_cells, lattice, n, n, t.threshold, t.all, seed, nullptr);
}

__global__ void count_differing(const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                                unsigned long long* count) {
  unsigned long long c = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(count, c);
}

/// The words of `words` in which a and b differ.
inline unsigned long long differing_words(const std::uint32_t* a, const std::uint32_t* b, std::size_t words) {
  unsigned long long* count = nullptr;
  CUDA_CHECK(cudaMallocManaged(&count, sizeof *count));
  CUDA_CHECK(cudaDeviceSynchronize());
  *count = 0;
  count_differing<<<1024, 256>>>(a, b, words, count);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned long long wrong = *count;
  CUDA_CHECK(cudaFree(count));
  return wrong;
}

/// Two CUDA events that time the work enqueued between them.
class Events {
 public:
  Events() {
    CUDA_CHECK(cudaEventCreate(&a_));
    CUDA_CHECK(cudaEventCreate(&b_));
  }
  ~Events() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  template <class F>
  float time_ms(cudaStream_t s, F&& work) {
    CUDA_CHECK(cudaEventRecord(a_, s));
    work();
    CUDA_CHECK(cudaEventRecord(b_, s));
    CUDA_CHECK(cudaEventSynchronize(b_));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a_, b_));
    return ms;
  }

 private:
  cudaEvent_t a_, b_;
};

/// Median over `samples` of the time per call of `step`, batching calls so a sample lasts >= 2 ms.
template <class F>
double median_ms(cudaStream_t s, int samples, F&& step) {
  Events ev;
  for (int i = 0; i < 2; ++i) step();  // warm-up: module load, caches, clocks
  const float probe = ev.time_ms(s, [&] { step(); });
  const int batch = std::clamp(static_cast<int>(2.0 / std::max(probe, 1e-4f)) + 1, 1, 2000);
  std::vector<double> t;
  for (int i = 0; i < samples; ++i)
    t.push_back(ev.time_ms(s, [&] {
      for (int j = 0; j < batch; ++j) step();
    }) / batch);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Cell updates/s of launch(in, out) stepping a width x height lattice k generations on the default
/// stream, its calls going back and forth between a and b: the median of 7 samples (median_ms).
template <class F>
double rate(F launch, std::uint32_t* a, std::uint32_t* b, int width, int height, int k) {
  int i = 0;
  const double ms = median_ms(nullptr, 7, [&] {
    launch(i % 2 ? b : a, i % 2 ? a : b);
    ++i;
  });
  return static_cast<double>(width) * height * k / (ms * 1e-3);
}

}  // namespace ls::probe
