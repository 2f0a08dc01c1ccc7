// step_shared.cu — the `shared` variant: one byte per cell, one generation per launch. Each block
// loads its 512 x 64 tile plus a one-cell halo (a 4-byte word each side, one row above and below)
// into shared memory once, with 16-byte loads, then each thread computes a 16-cell-wide column of
// 4 rows from shared memory, four cells at a time in byte lanes (SWAR).
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

using detail::ByteRule;

constexpr int kTileW = 512, kTileH = 64;
// One thread per 16-byte chunk and 4 rows: twice the threads of 8 rows each keep more loads in
// flight (H100, 16384²: 0.91 -> 0.95 of the copy roof, 4096² 0.77-0.81 -> 0.84; bench/NOTES.md).
constexpr int kBlockX = kTileW / 16, kBlockY = 16;
constexpr int kRows = kTileH / kBlockY;
// A tile row: 16 bytes whose last word is the left halo, the tile, 16 bytes whose first word is
// the right halo (keeps the tile 16-byte aligned).
constexpr int kStride = kTileW + 32;

template <bool kLife>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    life_step_shared(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                     int height, ByteRule rule) {
  __shared__ __align__(16) std::uint8_t tile[(kTileH + 2) * kStride];
  const int bx0 = blockIdx.x * kTileW, by0 = blockIdx.y * kTileH;
  const int tw = min(kTileW, width - bx0), th = min(kTileH, height - by0);  // multiples of 32
  const std::size_t w = static_cast<std::size_t>(width);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int xl = (bx0 == 0 ? width : bx0) - 4, xr = bx0 + tw == width ? 0 : bx0 + tw;

  for (int r = ty; r < th + 2; r += kBlockY) {
    int gy = by0 + r - 1;
    if (gy < 0) gy = height - 1;
    if (gy >= height) gy = 0;
    const std::uint8_t* src = in + gy * w;
    std::uint8_t* dst = tile + r * kStride;
    if (tx * 16 < tw)
      *reinterpret_cast<uint4*>(dst + 16 + tx * 16) =
          __ldg(reinterpret_cast<const uint4*>(src + bx0 + tx * 16));
    if (tx == 0)
      *reinterpret_cast<std::uint32_t*>(dst + 12) = __ldg(reinterpret_cast<const std::uint32_t*>(src + xl));
    if (tx == 1)
      *reinterpret_cast<std::uint32_t*>(dst + 16 + tw) =
          __ldg(reinterpret_cast<const std::uint32_t*>(src + xr));
  }
  __syncthreads();

  const int r0 = ty * kRows;
  if (tx * 16 >= tw || r0 >= th) return;
  auto load = [&](int r, std::uint32_t(&v)[6]) {
    detail::load_chunk_row(tile + r * kStride + 16 + tx * 16, v);
  };
  std::uint32_t u[6], m[6], d[6];
  load(r0, u);  // tile row r0 is lattice row by0 + r0 - 1
  load(r0 + 1, m);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    load(r0 + r + 2, d);
    detail::step_chunk_and_advance<kLife>(u, m, d, rule,
                                          [&] { return out + (by0 + r0 + r) * w + bx0 + tx * 16; });
  }
}

}  // namespace

void launch_step_shared(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                        cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((width + kTileW - 1) / kTileW, (height + kTileH - 1) / kTileH);
  if (detail::is_life(rule))
    life_step_shared<true><<<grid, block, 0, stream>>>(in, out, width, height, detail::make_byte_rule(rule));
  else
    life_step_shared<false><<<grid, block, 0, stream>>>(in, out, width, height, detail::make_byte_rule(rule));
  CUDA_CHECK_LAUNCH();
}

}  // namespace ls::kernels
