// stamp.cu — the timestamp kernel of stream mode `graph`: one thread writes the GPU's global timer
// (%globaltimer, nanoseconds) where it is told. In a frame graph two such kernel nodes bracket an
// instance's branch instead of two event-record nodes, which cost the host ~6 us each at graph
// launch against ~0.2 us for a kernel node (bench/NOTES.md, "Frame graph shapes").
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {

namespace {

__global__ void stamp_kernel(std::uint64_t* where) {
  unsigned long long t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  *where = t;
}

__global__ void join_kernel() {}

__global__ void zero_words_kernel(std::uint64_t* words, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    words[i] = 0;
}

}  // namespace

void launch_zero_words(std::uint64_t* words, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  zero_words_kernel<<<1, 256, 0, stream>>>(words, n);
  CUDA_CHECK(cudaGetLastError());
}

void launch_join(cudaStream_t stream) {
  join_kernel<<<1, 1, 0, stream>>>();
  CUDA_CHECK(cudaGetLastError());
}

void launch_stamp(std::uint64_t* where, cudaStream_t stream) {
  stamp_kernel<<<1, 1, 0, stream>>>(where);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace ls::kernels
