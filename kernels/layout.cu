// layout.cu — lattice layouts on the device: sizes, the random fill, conversion between layouts,
// single-cell edits and the population/hash summary. Every kernel here works on 32-cell words:
// since rows are multiples of 32 cells, word j of any layout is cells 32j..32j+31 in row-major
// order, so one thread reads or writes one word's worth of cells in any layout.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/splitmix.hpp"
#include "core/summary_walk.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

constexpr int kThreads = 256;
// Grid-stride kernels use at most this many blocks (enough to fill any current GPU).
constexpr long long kMaxBlocks = 8192;

int blocks_for(long long items) {
  const long long b = (items + kThreads - 1) / kThreads;
  return static_cast<int>(b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b));
}

/// Reads 32 cells starting at cell 32j (row-major) as a bit mask; any non-zero cell is live.
template <Layout L>
__device__ __forceinline__ std::uint32_t load_word(const void* cells, std::size_t j) {
  if constexpr (L == Layout::bit_cells) {
    return static_cast<const std::uint32_t*>(cells)[j];
  } else if constexpr (L == Layout::byte_cells) {
    const uint4* p = reinterpret_cast<const uint4*>(static_cast<const std::uint8_t*>(cells) + 32 * j);
    std::uint32_t mask = 0;
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const uint4 v = p[q];
      const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int b = 0; b < 4; ++b)
          if ((w[i] >> (8 * b)) & 0xffu) mask |= 1u << (16 * q + 4 * i + b);
    }
    return mask;
  } else {
    const int4* p = reinterpret_cast<const int4*>(static_cast<const std::int32_t*>(cells) + 32 * j);
    std::uint32_t mask = 0;
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const int4 v = p[q];
      mask |= (v.x != 0 ? 1u : 0u) << (4 * q);
      mask |= (v.y != 0 ? 1u : 0u) << (4 * q + 1);
      mask |= (v.z != 0 ? 1u : 0u) << (4 * q + 2);
      mask |= (v.w != 0 ? 1u : 0u) << (4 * q + 3);
    }
    return mask;
  }
}

/// Writes the 32 cells of a bit mask starting at cell 32j (row-major).
template <Layout L>
__device__ __forceinline__ void store_word(void* cells, std::size_t j, std::uint32_t mask) {
  if constexpr (L == Layout::bit_cells) {
    static_cast<std::uint32_t*>(cells)[j] = mask;
  } else if constexpr (L == Layout::byte_cells) {
    uint4* p = reinterpret_cast<uint4*>(static_cast<std::uint8_t*>(cells) + 32 * j);
    std::uint32_t w[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) w[i] = (((mask >> (4 * i)) & 0xfu) * 0x00204081u) & 0x01010101u;
    p[0] = make_uint4(w[0], w[1], w[2], w[3]);
    p[1] = make_uint4(w[4], w[5], w[6], w[7]);
  } else {
    int4* p = reinterpret_cast<int4*>(static_cast<std::int32_t*>(cells) + 32 * j);
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const std::uint32_t b = mask >> (4 * q);
      p[q] = make_int4(b & 1, (b >> 1) & 1, (b >> 2) & 1, (b >> 3) & 1);
    }
  }
}

template <Layout L>
__global__ void random_fill_kernel(void* dst, int width, std::size_t words, std::uint32_t first_row,
                                   std::uint64_t threshold, bool all, std::uint64_t seed) {
  const int words_per_row = width / 32;
  for (std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; j < words;
       j += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const auto y = first_row + static_cast<std::uint32_t>(j / words_per_row);
    const auto x0 = static_cast<std::uint32_t>(j % words_per_row) * 32u;
    std::uint32_t mask = 0;
    for (int i = 0; i < 32; ++i)
      if (random_cell_live(seed, x0 + i, y, threshold, all)) mask |= 1u << i;
    store_word<L>(dst, j, mask);
  }
}

template <Layout From, Layout To>
__global__ void convert_kernel(const void* src, void* dst, std::size_t words) {
  for (std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; j < words;
       j += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    store_word<To>(dst, j, load_word<From>(src, j));
}

__global__ void set_cell_kernel(Layout layout, void* cells, std::size_t index, bool alive) {
  switch (layout) {
    case Layout::int32_cells:
      static_cast<std::int32_t*>(cells)[index] = alive ? 1 : 0;
      break;
    case Layout::byte_cells:
      static_cast<std::uint8_t*>(cells)[index] = alive ? 1 : 0;
      break;
    case Layout::bit_cells: {
      std::uint32_t& w = static_cast<std::uint32_t*>(cells)[index / 32];
      const std::uint32_t bit = 1u << (index % 32);
      w = alive ? (w | bit) : (w & ~bit);
      break;
    }
  }
}

/// Adds the block's population and hash (each thread's part) to result[0], result[1]; block 0
/// adds `base` to the hash. Warp, then block reduction; one atomic per block and quantity (sums
/// mod 2^64 commute).
__device__ __forceinline__ void add_summary(unsigned long long population, unsigned long long hash,
                                            std::uint64_t base, unsigned long long* result) {
#pragma unroll
  for (int off = 16; off > 0; off /= 2) {
    population += __shfl_down_sync(0xffffffffu, population, off);
    hash += __shfl_down_sync(0xffffffffu, hash, off);
  }
  __shared__ unsigned long long part[2][kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) {
    part[0][warp] = population;
    part[1][warp] = hash;
  }
  __syncthreads();
  if (warp == 0) {
    population = lane < kThreads / 32 ? part[0][lane] : 0;
    hash = lane < kThreads / 32 ? part[1][lane] : 0;
#pragma unroll
    for (int off = 16; off > 0; off /= 2) {
      population += __shfl_down_sync(0xffffffffu, population, off);
      hash += __shfl_down_sync(0xffffffffu, hash, off);
    }
    if (lane == 0) {
      if (blockIdx.x == 0) hash += base;
      atomicAdd(&result[0], population);
      atomicAdd(&result[1], hash);
    }
  }
}

template <Layout L>
__global__ void summary_kernel(const void* cells, int width, std::uint32_t first_row, std::uint64_t base,
                               std::size_t words, unsigned long long* result) {
  const int words_per_row = width / 32;
  unsigned long long population = 0, hash = 0;
  for (std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; j < words;
       j += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    std::uint32_t mask = load_word<L>(cells, j);
    population += __popc(mask);
    const auto y = first_row + static_cast<std::uint32_t>(j / words_per_row);
    const auto x0 = static_cast<std::uint32_t>(j % words_per_row) * 32u;
    while (mask) {
      const int i = __ffs(mask) - 1;
      mask &= mask - 1;
      hash += cell_hash(x0 + i, y);
    }
  }
  add_summary(population, hash, base, result);
}

/// Chunk c of a bit-layout lattice (summary_walk's loader): two 16-byte loads where the words are
/// 16-byte aligned and all there, else one word at a time with zeros past the end.
template <bool Aligned>
struct ChunkLoad {
  const std::uint32_t* words;
  std::size_t count;
  __device__ __forceinline__ void operator()(std::size_t c, std::uint32_t (&w)[kWalkWords]) const {
    const std::size_t j0 = c * kWalkWords;
    if (Aligned && j0 + kWalkWords <= count) {
      const uint4* p = reinterpret_cast<const uint4*>(words + j0);
      const uint4 a = __ldg(p), b = __ldg(p + 1);
      const std::uint32_t got[kWalkWords] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
      for (int k = 0; k < kWalkWords; ++k) w[k] = got[k];
      return;
    }
#pragma unroll
    for (int k = 0; k < kWalkWords; ++k) w[k] = j0 + k < count ? __ldg(words + j0 + k) : 0u;
  }
};

/// The bit layout's summary: each thread walks its chunks as one stream of live cells
/// (core/summary_walk.hpp), so that its warp's lanes hash side by side instead of waiting for the
/// lane whose word has the most live cells.
template <bool Aligned>
__global__ void summary_bits_kernel(const std::uint32_t* cells, std::uint32_t words_per_row,
                                    std::uint32_t first_row, std::uint64_t base, std::size_t words,
                                    unsigned long long* result) {
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const SummaryPart part =
      summary_walk(ChunkLoad<Aligned>{cells, words}, words, words_per_row, first_row, thread, threads);
  add_summary(part.population, part.hash, base, result);
}

// Chunks a thread of the bit summary walks at least (where the lattice is large enough for the
// grid to fill the GPU even so): the more, the closer its lanes' live-cell counts (4 chunks of 8
// words at 11% density: ~113 cells a lane, the warp's slowest lane ~15% above the mean; a
// 524288² lattice on the capped grid gives each thread ~500 chunks, ~1% apart).
constexpr long long kChunksPerThread = 4;
/// Below this many words the bit summary takes a word per thread (summary_launch).
constexpr std::size_t kWalkMinWords = std::size_t{1} << 22;

std::size_t cell_count(int width, int height) {
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
}

template <Layout From>
void convert_from(const void* src, Layout to, void* dst, std::size_t words, cudaStream_t stream) {
  const int blocks = blocks_for(static_cast<long long>(words));
  switch (to) {
    case Layout::int32_cells:
      convert_kernel<From, Layout::int32_cells><<<blocks, kThreads, 0, stream>>>(src, dst, words);
      break;
    case Layout::byte_cells:
      convert_kernel<From, Layout::byte_cells><<<blocks, kThreads, 0, stream>>>(src, dst, words);
      break;
    case Layout::bit_cells:
      convert_kernel<From, Layout::bit_cells><<<blocks, kThreads, 0, stream>>>(src, dst, words);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

std::size_t layout_bytes(Layout layout, int width, int height) {
  const std::size_t cells = cell_count(width, height);
  switch (layout) {
    case Layout::int32_cells:
      return cells * sizeof(std::int32_t);
    case Layout::byte_cells:
      return cells;
    case Layout::bit_cells:
      return cells / 8;
  }
  return 0;
}

void launch_random_fill(Layout layout, void* dst, int width, int height, std::uint64_t threshold, bool all,
                        std::uint64_t seed, cudaStream_t stream) {
  launch_random_fill_rows(layout, dst, width, height, 0, threshold, all, seed, stream);
}

void launch_random_fill_rows(Layout layout, void* dst, int width, int rows, int first_row,
                             std::uint64_t threshold, bool all, std::uint64_t seed, cudaStream_t stream) {
  const std::size_t words = cell_count(width, rows) / 32;
  const int blocks = blocks_for(static_cast<long long>(words));
  const auto y0 = static_cast<std::uint32_t>(first_row);
  switch (layout) {
    case Layout::int32_cells:
      random_fill_kernel<Layout::int32_cells>
          <<<blocks, kThreads, 0, stream>>>(dst, width, words, y0, threshold, all, seed);
      break;
    case Layout::byte_cells:
      random_fill_kernel<Layout::byte_cells>
          <<<blocks, kThreads, 0, stream>>>(dst, width, words, y0, threshold, all, seed);
      break;
    case Layout::bit_cells:
      random_fill_kernel<Layout::bit_cells>
          <<<blocks, kThreads, 0, stream>>>(dst, width, words, y0, threshold, all, seed);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

void launch_convert(Layout from, const void* src, Layout to, void* dst, int width, int height,
                    cudaStream_t stream) {
  const std::size_t words = cell_count(width, height) / 32;
  if (from == to) {
    CUDA_CHECK(
        cudaMemcpyAsync(dst, src, layout_bytes(from, width, height), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  switch (from) {
    case Layout::int32_cells:
      convert_from<Layout::int32_cells>(src, to, dst, words, stream);
      break;
    case Layout::byte_cells:
      convert_from<Layout::byte_cells>(src, to, dst, words, stream);
      break;
    case Layout::bit_cells:
      convert_from<Layout::bit_cells>(src, to, dst, words, stream);
      break;
  }
}

void launch_set_cell(Layout layout, void* cells, int width, int /*height*/, int x, int y, bool alive,
                     cudaStream_t stream) {
  const std::size_t index = static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x;
  set_cell_kernel<<<1, 1, 0, stream>>>(layout, cells, index, alive);
  CUDA_CHECK_LAUNCH();
}

void launch_summary(Layout layout, const void* cells, int width, int height, std::uint64_t* result,
                    cudaStream_t stream) {
  launch_summary_rows(
      layout, cells, width, height, 0,
      lattice_hash_base(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)), result,
      stream);
}

namespace {

/// The summary kernels' launch: the sums go to result[0..1] (zeroed first here unless the caller
/// did).
void summary_launch(Layout layout, const void* cells, int width, int rows, int first_row, std::uint64_t base,
                    std::uint64_t* result, cudaStream_t stream, bool zero_first = true) {
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  if (zero_first) CUDA_CHECK(cudaMemsetAsync(result, 0, 2 * sizeof(std::uint64_t), stream));
  const std::size_t words = cell_count(width, rows) / 32;
  const int blocks = blocks_for(static_cast<long long>(words));
  auto* out = reinterpret_cast<unsigned long long*>(result);
  const auto y0 = static_cast<std::uint32_t>(first_row);
  switch (layout) {
    case Layout::int32_cells:
      summary_kernel<Layout::int32_cells>
          <<<blocks, kThreads, 0, stream>>>(cells, width, y0, base, words, out);
      break;
    case Layout::byte_cells:
      summary_kernel<Layout::byte_cells><<<blocks, kThreads, 0, stream>>>(cells, width, y0, base, words, out);
      break;
    case Layout::bit_cells: {
      // A lattice of a few million words or fewer: one word per thread, the widest grid (the walk
      // below gives a 1024² lattice 4 blocks, and each summary ~40 us instead of a few: 16 x 1024²
      // in the app fell from 1139 to 579 frames/s, H200). Larger ones walk their chunks.
      if (words < kWalkMinWords) {
        summary_kernel<Layout::bit_cells>
            <<<blocks, kThreads, 0, stream>>>(cells, width, y0, base, words, out);
        break;
      }
      const auto* bits = static_cast<const std::uint32_t*>(cells);
      const auto words_per_row = static_cast<std::uint32_t>(width / 32);
      const long long chunks = static_cast<long long>((words + kWalkWords - 1) / kWalkWords);
      const int walkers = blocks_for((chunks + kChunksPerThread - 1) / kChunksPerThread);
      // A band of a split lattice starts after its halo rows: 16-byte aligned only where they are.
      if (reinterpret_cast<std::uintptr_t>(bits) % alignof(uint4) == 0)
        summary_bits_kernel<true>
            <<<walkers, kThreads, 0, stream>>>(bits, words_per_row, y0, base, words, out);
      else
        summary_bits_kernel<false>
            <<<walkers, kThreads, 0, stream>>>(bits, words_per_row, y0, base, words, out);
      break;
    }
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_summary_rows(Layout layout, const void* cells, int width, int rows, int first_row,
                         std::uint64_t base, std::uint64_t* result, cudaStream_t stream) {
  summary_launch(layout, cells, width, rows, first_row, base, result, stream);
}

void launch_summary_onto(Layout layout, const void* cells, int width, int height, std::uint64_t* result,
                         cudaStream_t stream) {
  summary_launch(layout, cells, width, height, 0,
                 lattice_hash_base(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)),
                 result, stream, false);
}

}  // namespace ls::kernels
