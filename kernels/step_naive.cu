// step_naive.cu — the `naive` variant: the textbook Life kernel, written the way the GPU
// programming books write it (one int32 per cell, global memory, a modulo per neighbour, 32x32
// blocks, one generation per launch). It is the baseline the other variants are measured against.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

__global__ void life_step_naive(const std::int32_t* in, std::int32_t* out, int width, int height,
                                std::uint32_t birth, std::uint32_t survive) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int neighbours = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const int nx = (x + dx + width) % width;
      const int ny = (y + dy + height) % height;
      neighbours += in[static_cast<std::size_t>(ny) * width + nx];
    }
  }
  const std::size_t i = static_cast<std::size_t>(y) * width + x;
  const std::uint32_t mask = in[i] ? survive : birth;
  out[i] = (mask >> neighbours) & 1u;
}

}  // namespace

void launch_step_naive(const std::int32_t* in, std::int32_t* out, int width, int height, RuleMasks rule,
                       cudaStream_t stream) {
  const dim3 block(32, 32);
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  life_step_naive<<<grid, block, 0, stream>>>(in, out, width, height, rule.birth, rule.survive);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ls::kernels
