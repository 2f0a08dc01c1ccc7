// step_global.cu — the `global` variant: one byte per cell, straight from global memory, one
// generation per launch. Each thread computes a 16-cell-wide column of kRows rows with 16-byte
// loads, keeping the three rows it needs in registers as it walks down, and adds the neighbour
// counts of four cells at a time in byte lanes (SWAR). The torus is handled by wrapping the
// thread's two edge columns and its two edge rows once, not per neighbour.
//
// Each thread reads kRows + 2 rows for its kRows. A lattice whose two buffers fit in L2 is served
// from there, where those extra reads cost: 8 rows a thread. A larger one streams from DRAM, where
// the reads in flight set the pace: 4 rows a thread, twice the threads (H100, 16384²: 0.87 -> 0.97
// of the copy roof; 4096²: 0.86 -> 0.79, so there it keeps 8; bench/NOTES.md).
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>

#include "kernels/cuda_check.hpp"
#include "kernels/device_slot.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

using detail::ByteRule;

constexpr int kBlockX = 32;  // threads across: 512 cells

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

/// kRows rows per thread, kBlockY threads down: 64 rows per block in both shapes.
template <bool kLife, int kRows, int kBlockY>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    life_step_global(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                     int height, ByteRule rule) {
  const int x0 = (blockIdx.x * kBlockX + threadIdx.x) * 16;
  const int y0 = (blockIdx.y * kBlockY + threadIdx.y) * kRows;
  if (x0 >= width || y0 >= height) return;  // height is a multiple of 32, so all kRows rows exist
  static_assert(32 % kRows == 0);
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

/// Whether both buffers of a width x height byte lattice fit in the current device's L2 (read
/// once per device).
bool fits_in_l2(int width, int height) {
  static std::once_flag once[detail::kMaxDevices];
  static int l2_bytes[detail::kMaxDevices];
  const int slot = detail::current_device_slot();
  std::call_once(once[slot], [slot] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes[slot], cudaDevAttrL2CacheSize, device));
  });
  return 2.0 * width * height <= static_cast<double>(l2_bytes[slot]);
}

template <int kRows, int kBlockY>
void launch_shape(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                  cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((width / 16 + kBlockX - 1) / kBlockX, (height / kRows + kBlockY - 1) / kBlockY);
  const ByteRule r = detail::make_byte_rule(rule);
  if (detail::is_life(rule))
    life_step_global<true, kRows, kBlockY><<<grid, block, 0, stream>>>(in, out, width, height, r);
  else
    life_step_global<false, kRows, kBlockY><<<grid, block, 0, stream>>>(in, out, width, height, r);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_step_global(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                        cudaStream_t stream) {
  if (fits_in_l2(width, height))
    launch_shape<8, 8>(in, out, width, height, rule, stream);
  else
    launch_shape<4, 16>(in, out, width, height, rule, stream);
}

}  // namespace ls::kernels
