// probe_common.cuh — what the bitpacked kernel probes (stream_probe.cu, tile_probe.cu) share: a random
// soup, a count of the words two lattices differ in, and the cell updates/s of a launch.
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

/// Cell updates/s of launch(in, out) stepping a width x height lattice k generations: the median of
/// 5 repeats of 10 launches (ping-pong between a and b) after 4 to warm up, timed with CUDA events.
template <class F>
double rate(F launch, std::uint32_t* a, std::uint32_t* b, int width, int height, int k) {
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  constexpr int kLaunches = 10;
  for (int i = 0; i < 4; ++i) launch(i % 2 ? b : a, i % 2 ? a : b);
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r) {
    CUDA_CHECK(cudaEventRecord(e0));
    for (int i = 0; i < kLaunches; ++i) launch(i % 2 ? b : a, i % 2 ? a : b);
    CUDA_CHECK(cudaEventRecord(e1));
    CUDA_CHECK(cudaEventSynchronize(e1));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t / kLaunches);
  }
  std::sort(ms.begin(), ms.end());
  CUDA_CHECK(cudaEventDestroy(e0));
  CUDA_CHECK(cudaEventDestroy(e1));
  return static_cast<double>(width) * height * k / (ms[2] * 1e-3);
}

}  // namespace ls::probe
