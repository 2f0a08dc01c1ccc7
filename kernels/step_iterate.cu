// step_iterate.cu — the `iterate` variant: one byte per cell, k generations per launch (1..64) by
// temporal blocking. Each block loads a tile with a halo k rows deep above and below and kx >= k
// columns deep left and right (kx rounded up to 16 for aligned 16-byte loads) into shared
// memory, runs k generations there (double-buffered, __syncthreads() between generations), and
// writes back only the interior, which is exact: after g generations a cell depends only on
// cells within g of it, so the garbage at the tile's edge has not reached the interior. Each
// generation computes only the rows still needed for the interior (the valid band shrinks by one
// row per generation), so warps that finish early leave the multiprocessor to other blocks.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "kernels/cuda_check.hpp"
#include "kernels/device_slot.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

using detail::ByteRule;

constexpr int kThreads = 256;

template <int kTileW, int kTileH>
struct IterateTile {
  static constexpr int kChunks = kTileW / 16;             // 16-byte chunks per tile row (threads in x)
  static constexpr int kThreadRows = kThreads / kChunks;  // threads in y
  static constexpr int kRows = kTileH / kThreadRows;      // rows per thread
  // A row: 16 zero bytes, the tile, 16 zero bytes (the zeros stand in for the cells beyond the
  // tile, which are garbage either way, and keep every byte 0/1 so the byte lanes never carry).
  static constexpr int kStride = kTileW + 32;
  static constexpr int kSmemBytes = 2 * kTileH * kStride;
  static_assert(kThreads % kChunks == 0 && kTileH % kThreadRows == 0);
};

template <bool kLife, int kTileW, int kTileH>
__global__ void __launch_bounds__(kThreads)
    life_step_iterate(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, int width,
                      int height, ByteRule rule, int k, int kx) {
  using T = IterateTile<kTileW, kTileH>;
  extern __shared__ uint4 smem[];
  std::uint8_t* const buf0 = reinterpret_cast<std::uint8_t*>(smem);
  std::uint8_t* const buf1 = buf0 + kTileH * T::kStride;
  const int ow = kTileW - 2 * kx, oh = kTileH - 2 * k;  // the interior this block writes
  const long long ox = static_cast<long long>(blockIdx.x) * ow, oy = static_cast<long long>(blockIdx.y) * oh;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t w = static_cast<std::size_t>(width);

  for (int i = ty * T::kChunks + tx; i < 2 * kTileH; i += kThreads) {
    std::uint8_t* row = buf0 + i * T::kStride;  // both buffers: rows 0..2*kTileH-1
    *reinterpret_cast<uint4*>(row) = make_uint4(0, 0, 0, 0);
    *reinterpret_cast<uint4*>(row + 16 + kTileW) = make_uint4(0, 0, 0, 0);
  }
  // The tile's columns start kx left of the interior, wrapped onto the torus once per chunk
  // (chunks never straddle the wrap: width and kx are multiples of 16).
  const int gx = detail::wrap(ox - kx + 16 * tx, width);
  for (int r = ty; r < kTileH; r += T::kThreadRows) {
    const int gy = detail::wrap(oy - k + r, height);
    *reinterpret_cast<uint4*>(buf0 + r * T::kStride + 16 + 16 * tx) =
        __ldg(reinterpret_cast<const uint4*>(in + gy * w + gx));
  }
  __syncthreads();

  const int r0 = ty * T::kRows;
  auto load = [&](const std::uint8_t* buf, int r, std::uint32_t(&v)[6]) {
    detail::load_chunk_row(buf + r * T::kStride + 16 + 16 * tx, v);
  };
  for (int g = 1; g <= k; ++g) {
    const std::uint8_t* src = (g & 1) ? buf0 : buf1;
    std::uint8_t* dst = (g & 1) ? buf1 : buf0;
    // Rows still needed after generation g: [g, kTileH - g).
    const int rb = max(r0, g), re = min(r0 + T::kRows, kTileH - g);
    if (rb < re) {
      std::uint32_t u[6], m[6], d[6];
      load(src, rb - 1, u);
      load(src, rb, m);
      for (int r = rb; r < re; ++r) {
        load(src, r + 1, d);
        detail::step_chunk_and_advance<kLife>(u, m, d, rule,
                                              [&] { return dst + r * T::kStride + 16 + 16 * tx; });
      }
    }
    __syncthreads();
  }

  const std::uint8_t* result = (k & 1) ? buf1 : buf0;
  const int cx = 16 * tx - kx;  // this thread's column in the interior
  if (cx < 0 || cx >= ow || ox + cx >= width) return;
  const int rb = max(r0, k), re = min(r0 + T::kRows, k + oh);
  for (int r = rb; r < re; ++r) {
    const long long gy = oy + r - k;
    if (gy >= height) break;
    *reinterpret_cast<uint4*>(out + gy * w + ox + cx) =
        *reinterpret_cast<const uint4*>(result + r * T::kStride + 16 + 16 * tx);
  }
}

using detail::current_device_slot;
using detail::kMaxDevices;

/// Shared memory per block the device gives on request (cudaDevAttrMaxSharedMemoryPerBlockOptin),
/// per device, read once; or the limit set for tests.
int g_smem_limit_override = 0;
int smem_limit() {
  if (g_smem_limit_override > 0) return g_smem_limit_override;
  // Atomic: the threads that drive a split lattice's bands (one per GPU) launch concurrently.
  static std::atomic<int> cached[kMaxDevices] = {};
  const int device = current_device_slot();
  if (cached[device] == 0) {
    int bytes = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    cached[device] = bytes;
  }
  return cached[device];
}

/// A tile shape and the deepest k it serves. Tried in order, the first that serves k and fits the
/// device is taken. At most 16 generations: 256 x 128 (72 KB, three blocks per SM on Hopper), then
/// smaller tiles for GPUs with less shared memory per block (54 and 45 KB). Deeper halos need
/// taller tiles: 256 x 256 (144 KB) leaves a 128 x 128 interior at k = 64; 256 x 160 (90 KB, for
/// Ampere and Ada desktop cards) a 128 x 32 one; 256 x 112 (63 KB, Turing) serves k <= 48.
template <int kTileW, int kTileH, int kDeepest>
struct Shape {
  static constexpr int kMaxK = kDeepest;
  static constexpr int kBytes = IterateTile<kTileW, kTileH>::kSmemBytes;
  static_assert(kTileH - 2 * kDeepest >= 16 && kTileW - 2 * ((kDeepest + 15) / 16 * 16) >= 16,
                "the interior must keep at least 16 rows and columns at the deepest k");
};

template <bool kLife, int kTileW, int kTileH>
void launch_tile(const std::uint8_t* in, std::uint8_t* out, int width, int height, ByteRule rule, int k,
                 cudaStream_t stream) {
  using T = IterateTile<kTileW, kTileH>;
  // The attribute belongs to the kernel in one device's context: set it once per device (a lattice
  // split across GPUs launches this kernel on each).
  static std::once_flag once[kMaxDevices];
  std::call_once(once[current_device_slot()], [] {
    CUDA_CHECK(cudaFuncSetAttribute(life_step_iterate<kLife, kTileW, kTileH>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmemBytes));
  });
  const int kx = (k + 15) / 16 * 16;
  const int ow = kTileW - 2 * kx, oh = kTileH - 2 * k;
  const dim3 block(T::kChunks, T::kThreadRows);
  const dim3 grid((width + ow - 1) / ow, (height + oh - 1) / oh);
  life_step_iterate<kLife, kTileW, kTileH>
      <<<grid, block, T::kSmemBytes, stream>>>(in, out, width, height, rule, k, kx);
  CUDA_CHECK_LAUNCH();
}

template <int kTileW, int kTileH, int kDeepest>
struct Tile : Shape<kTileW, kTileH, kDeepest> {
  template <bool kLife>
  static void launch(const std::uint8_t* in, std::uint8_t* out, int width, int height, ByteRule rule, int k,
                     cudaStream_t stream) {
    launch_tile<kLife, kTileW, kTileH>(in, out, width, height, rule, k, stream);
  }
};

template <class... S>
struct Shapes {
  /// Launches the first shape that serves k within `limit` bytes; false if none does.
  template <bool kLife>
  static bool launch(const std::uint8_t* in, std::uint8_t* out, int width, int height, ByteRule rule, int k,
                     cudaStream_t stream, int limit) {
    bool done = false;
    auto tried = [&](auto shape) {
      using T = decltype(shape);
      if (done || k > T::kMaxK || T::kBytes > limit) return;
      T::template launch<kLife>(in, out, width, height, rule, k, stream);
      done = true;
    };
    (tried(S{}), ...);
    return done;
  }
  /// The deepest k some shape serves within `limit` bytes.
  static int depth(int limit) {
    int deepest = 0;
    ((deepest = S::kBytes <= limit && S::kMaxK > deepest ? S::kMaxK : deepest), ...);
    return deepest;
  }
};

// In order of preference (see Shape).
using IterateShapes = Shapes<Tile<256, 128, 16>, Tile<256, 96, 16>, Tile<256, 80, 16>, Tile<256, 256, 64>,
                             Tile<256, 160, 64>, Tile<256, 112, 48>>;

}  // namespace

int iterate_max_depth() { return IterateShapes::depth(smem_limit()); }

void set_iterate_smem_limit_for_testing(int bytes) { g_smem_limit_override = bytes > 0 ? bytes : 0; }

void launch_step_iterate(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                         int k, cudaStream_t stream) {
  if (k < 1 || k > 64) throw InputError("generations per launch must be 1..64, got " + std::to_string(k));
  const int limit = smem_limit();
  const bool launched = detail::is_life(rule)
                            ? IterateShapes::launch<true>(in, out, width, height,
                                                          detail::make_byte_rule(rule), k, stream, limit)
                            : IterateShapes::launch<false>(in, out, width, height,
                                                           detail::make_byte_rule(rule), k, stream, limit);
  if (!launched) {
    throw InputError("iterate: " + std::to_string(k) +
                     " generations per launch need more shared memory per block than this GPU's " +
                     std::to_string(limit / 1024) + " KB; at most " +
                     std::to_string(IterateShapes::depth(limit)) + " here");
  }
}

}  // namespace ls::kernels
