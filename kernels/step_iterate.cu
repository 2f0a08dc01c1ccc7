// step_iterate.cu — the `iterate` variant: one byte per cell, k generations per launch (1..64) by
// temporal blocking. Each block loads a 256-byte-wide tile with a halo k rows deep above and below
// and kx >= k columns deep left and right (kx rounded up to 16 for aligned 16-byte loads), runs k
// generations on chip, and writes back only the interior, which is exact: after g generations a
// cell depends only on cells within g of it, so the garbage at the tile's edge has not reached the
// interior.
//
// The tile lives in registers: a block is 16 threads across (one 16-byte chunk each) and kThreadRows
// down, each thread holding kRows rows of its chunk. A generation takes the words beside a chunk
// from the neighbouring lanes (warp shuffles; zero past the tile's sides) and the rows above and
// below a thread's rows from the threads above and below through a small shared-memory exchange
// (one __syncthreads() a generation, double-buffered by parity), then adds the neighbour counts of
// four cells at a time in byte lanes (SWAR). Keeping the tile in shared memory instead (each row
// loaded and stored there every generation) made the shared-memory pipe the bound (H100: 87.6% busy,
// 4.2e12 cell updates/s at k = 16); in registers it runs at 5.7e12 (bench/NOTES.md).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

using detail::ByteRule;

constexpr int kTileW = 256;              // bytes across: 16 threads of one 16-byte chunk
constexpr int kChunks = kTileW / 16;     // threads across
constexpr unsigned kFull = 0xffffffffu;  // a warp is two rows of 16 threads: every lane shuffles

/// [word left of the chunk, its 4 words, word right of it] of the chunk lane `tx` of a 16-thread
/// row holds; the words past the tile's sides (tx 0's left, tx 15's right) are zero, as garbage.
__device__ __forceinline__ void widen(const uint4& v, int tx, std::uint32_t (&w)[6]) {
  const std::uint32_t left = __shfl_up_sync(kFull, v.w, 1, kChunks);
  const std::uint32_t right = __shfl_down_sync(kFull, v.x, 1, kChunks);
  w[0] = tx == 0 ? 0u : left;
  w[1] = v.x;
  w[2] = v.y;
  w[3] = v.z;
  w[4] = v.w;
  w[5] = tx == kChunks - 1 ? 0u : right;
}

template <bool kLife, int kRows, int kThreadRows>
__global__ void __launch_bounds__(kChunks* kThreadRows)
    life_step_iterate(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                      int height, ByteRule rule, int k, int kx) {
  constexpr int kTileH = kRows * kThreadRows;
  __shared__ uint4 edge[2][kThreadRows][2][kChunks];    // [parity][thread row][first, last row][tx]
  const int ow = kTileW - 2 * kx, oh = kTileH - 2 * k;  // the interior this block writes
  const long long ox = static_cast<long long>(blockIdx.x) * ow, oy = static_cast<long long>(blockIdx.y) * oh;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t w = static_cast<std::size_t>(width);

  // The tile's columns start kx left of the interior, wrapped onto the torus once per chunk
  // (chunks never straddle the wrap: width and kx are multiples of 16).
  const int gx = detail::wrap(ox - kx + 16 * tx, width);
  uint4 c[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int gy = detail::wrap(oy - k + ty * kRows + r, height);
    c[r] = __ldg(reinterpret_cast<const uint4*>(in + gy * w + gx));
  }

  const uint4 zero = make_uint4(0, 0, 0, 0);  // above the first thread row, below the last: garbage
  for (int g = 0; g < k; ++g) {
    const int p = g & 1;
    edge[p][ty][0][tx] = c[0];
    edge[p][ty][1][tx] = c[kRows - 1];
    __syncthreads();
    const uint4 above = ty > 0 ? edge[p][ty - 1][1][tx] : zero;
    const uint4 below = ty < kThreadRows - 1 ? edge[p][ty + 1][0][tx] : zero;
    std::uint32_t u[6], m[6], d[6];
    widen(above, tx, u);
    widen(c[0], tx, m);
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      widen(r + 1 < kRows ? c[r + 1] : below, tx, d);  // row r + 1 as it was, before it is stepped
      std::uint32_t o[4];
      detail::byte_step16<kLife>(u, m, d, rule, o);
      c[r] = make_uint4(o[0], o[1], o[2], o[3]);
#pragma unroll
      for (int i = 0; i < 6; ++i) {
        u[i] = m[i];
        m[i] = d[i];
      }
    }
  }

  const int cx = 16 * tx - kx;  // this thread's column in the interior
  if (cx < 0 || cx >= ow || ox + cx >= width) return;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int t = ty * kRows + r - k;  // row in the interior
    if (t >= 0 && t < oh && oy + t < height) *reinterpret_cast<uint4*>(out + (oy + t) * w + ox + cx) = c[r];
  }
}

template <bool kLife, int kRows, int kThreadRows>
void launch_tile(const std::uint8_t* in, std::uint8_t* out, int width, int height, ByteRule rule, int k,
                 cudaStream_t stream) {
  const int kx = (k + 15) / 16 * 16;
  const int ow = kTileW - 2 * kx, oh = kRows * kThreadRows - 2 * k;
  const dim3 block(kChunks, kThreadRows);
  const dim3 grid((width + ow - 1) / ow, (height + oh - 1) / oh);
  life_step_iterate<kLife, kRows, kThreadRows>
      <<<grid, block, 0, stream>>>(in, out, width, height, rule, k, kx);
  CUDA_CHECK_LAUNCH();
}

/// Taller tiles waste fewer rows on the 2k halo rows but hold more registers a thread: 128 rows up
/// to k = 8, 192 to k = 24, 256 beyond (H100, the fastest of 128, 192 and 256 rows at k = 8, 16 and
/// 32; bench/NOTES.md). At k = 64 a 256-row tile keeps a 128 x 128 interior.
template <bool kLife>
void launch_iterate(const std::uint8_t* in, std::uint8_t* out, int width, int height, ByteRule rule, int k,
                    cudaStream_t stream) {
  if (k <= 8)
    launch_tile<kLife, 8, 16>(in, out, width, height, rule, k, stream);
  else if (k <= 24)
    launch_tile<kLife, 12, 16>(in, out, width, height, rule, k, stream);
  else
    launch_tile<kLife, 16, 16>(in, out, width, height, rule, k, stream);
}

}  // namespace

void launch_step_iterate(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                         int k, cudaStream_t stream) {
  if (k < 1 || k > 64) throw InputError("generations per launch must be 1..64, got " + std::to_string(k));
  if (detail::is_life(rule))
    launch_iterate<true>(in, out, width, height, detail::make_byte_rule(rule), k, stream);
  else
    launch_iterate<false>(in, out, width, height, detail::make_byte_rule(rule), k, stream);
}

}  // namespace ls::kernels
