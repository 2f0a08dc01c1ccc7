// step_global.cu — the `global` variant: one byte per cell, straight from global memory, one
// generation per launch. Each thread computes a 16-cell-wide column of kRows rows with 16-byte
// loads, keeping the three rows it needs in registers as it walks down, and adds the neighbour
// counts of four cells at a time in byte lanes (SWAR). The torus is handled by wrapping the
// thread's two edge columns and its two edge rows once, not per neighbour.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

using detail::ByteRule;

constexpr int kRows = 8;                  // rows per thread
constexpr int kBlockX = 32, kBlockY = 8;  // threads: 512 cells x 64 rows per block

// [word left of the chunk, the chunk's 4 words, word right of the chunk] of one row.
__device__ __forceinline__ void load_row(const std::uint8_t* __restrict__ row, int x0, int xl, int xr,
                                         std::uint32_t (&w)[6]) {
  const uint4 c = __ldg(reinterpret_cast<const uint4*>(row + x0));
  w[0] = __ldg(reinterpret_cast<const std::uint32_t*>(row + xl));
  w[1] = c.x;
  w[2] = c.y;
  w[3] = c.z;
  w[4] = c.w;
  w[5] = __ldg(reinterpret_cast<const std::uint32_t*>(row + xr));
}

template <bool kLife>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    life_step_global(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                     int height, ByteRule rule) {
  const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * 16;
  const int y0 = (blockIdx.y * kBlockY + threadIdx.y) * kRows;
  if (x0 >= width || y0 >= height) return;  // height is a multiple of 32, so all kRows rows exist
  const int xl = (x0 == 0 ? width : x0) - 4;
  const int xr = x0 + 16 == width ? 0 : x0 + 16;
  const std::size_t w = static_cast<std::size_t>(width);
  std::uint32_t u[6], m[6], d[6];
  load_row(in + (y0 == 0 ? height - 1 : y0 - 1) * w, x0, xl, xr, u);
  load_row(in + y0 * w, x0, xl, xr, m);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int yd = y0 + r + 1 == height ? 0 : y0 + r + 1;
    load_row(in + yd * w, x0, xl, xr, d);
    detail::step_chunk_and_advance<kLife>(u, m, d, rule, [&] { return out + (y0 + r) * w + x0; });
  }
}

}  // namespace

void launch_step_global(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                        cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((width / 16 + kBlockX - 1) / kBlockX, (height / kRows + kBlockY - 1) / kBlockY);
  if (detail::is_life(rule))
    life_step_global<true><<<grid, block, 0, stream>>>(in, out, width, height, detail::make_byte_rule(rule));
  else
    life_step_global<false><<<grid, block, 0, stream>>>(in, out, width, height, detail::make_byte_rule(rule));
  CUDA_CHECK_LAUNCH();
}

}  // namespace ls::kernels
