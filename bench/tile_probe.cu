// tile_probe.cu — `ls_tile_probe`: variants of the bitpacked block kernel (life_step_bits, whose design
// the kernel below repeats: edge rows' horizontal sums shared between warps, loads and stores tested
// per warp, not per row) against the launcher's, B3/S23, k = 16: whether each gives the launcher's
// cells, and the cell updates/s of each, median of 7 samples of at least 2 ms after a warm-up.
// Measured, and not kept in the product: bench/NOTES.md "`bitpacked`: edge sums shared, and what
// else was tried".
//
// The switches of life_tile_bits:
// - half: a lane's window starts half a word to the left (k <= 16 needs 16 cells of halo a side, not
//   32), so that a warp writes 31 words instead of 30;
// - pairs: neighbour warps wait for each other only (1: a named barrier per pair of warps, 15 at
//   most; 2: an mbarrier per warp and parity that its neighbours wait on, any number of warps), not
//   for the whole block;
// - split: the generation's barrier split into an arrival after a warp publishes its edge sums and a
//   wait before it reads its neighbours' (an mbarrier), with the rows that need no neighbour between;
// - mode: the left (1) or right (2) neighbour's shift, or both (3), as multiply-adds on the FMA pipe;
//   4: no loads (cells made up in registers: how long a launch takes without its load phase);
// - cluster (life_cluster_bits): C blocks stacked in a thread-block cluster share their edge sums
//   through distributed shared memory, so that a launch recomputes 2k halo rows of C tiles.
//
//   ls_tile_probe [N...]      every variant at N² (default 16384 and 65536)
//   ls_tile_probe --only I N  variant I alone at N², six launches (for a profiler)
#include <cooperative_groups.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "kernels/cuda_check.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"
#include "kernels/step_bitpacked.cuh"

namespace ls::kernels::detail {

/// An mbarrier in shared memory (sm_90: try_wait), its arrival and its wait apart: the split
/// generation barrier (arrive after a warp publishes its edges, wait before it reads its
/// neighbours', the rows between need no neighbour) and the neighbour warps' barriers (pairs == 2).
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned count) {
  asm volatile(
      "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(bar))),
      "r"(count)
      : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
  asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(bar)))
               : "memory");
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(static_cast<unsigned>(__cvta_generic_to_shared(bar))), "r"(parity)
        : "memory");
  } while (!done);
}

/// The multipliers of the shifts done as multiply-adds (the FMA pipe, which the logic leaves idle),
/// read from constant memory so that the compiler cannot turn them back into shifts.
__constant__ std::uint32_t kShiftFactor[2] = {2u, 0x80000000u};

/// hsum_lanes with its left (kMode & 1) and right (kMode & 2) neighbours shifted by multiply-adds: a
/// lane sends its top bit (w * 2, high word) or bottom bit (w * 2^31, low word) and adds it to its
/// own word times 2 (low word) or times 2^31 (high word).
template <int kMode>
__device__ __forceinline__ void hsum_m(std::uint32_t w, std::uint32_t& s, std::uint32_t& c) {
  constexpr unsigned kFull = 0xffffffffu;
  std::uint32_t l, r;
  if constexpr (kMode & 1) {
    const std::uint32_t t = __shfl_up_sync(kFull, __umulhi(w, kShiftFactor[0]), 1);
    l = w * kShiftFactor[0] + t;
  } else {
    l = __funnelshift_l(__shfl_up_sync(kFull, w, 1), w, 1);
  }
  if constexpr (kMode & 2) {
    const std::uint32_t u = __shfl_down_sync(kFull, w * kShiftFactor[1], 1);
    r = __umulhi(w, kShiftFactor[1]) + u;
  } else {
    r = __funnelshift_r(w, __shfl_down_sync(kFull, w, 1), 1);
  }
  s = l ^ w ^ r;
  c = (l & w) | (l & r) | (w & r);
}

/// hsum_m<kMode> as the Sums of step_rows.
template <int kMode>
struct ModeSums {
  __device__ __forceinline__ static void sum(std::uint32_t w, std::uint32_t& s, std::uint32_t& c) {
    hsum_m<kMode>(w, s, c);
  }
};

/// A lane's half-word window of a row: the high half of word gx and the low half of gx1.
struct HalfWordAt {
  int gx, gx1;
  __device__ __forceinline__ std::uint32_t operator()(const std::uint32_t* row) const {
    return __funnelshift_r(__ldg(row + gx), __ldg(row + gx1), 16);
  }
};

/// Waits until this warp and the other warp of pair `pair` (warps pair and pair + 1) arrive.
__device__ __forceinline__ void pair_barrier(int pair) {
  asm volatile("bar.sync %0, 64;" ::"r"(pair + 1) : "memory");
}

template <class Rule, int kRowsPerWarp, int kWarps, bool kHalf, int kPairs, bool kSplit, int kMode>
__global__ void __launch_bounds__(32 * kWarps, kWarps >= 32   ? 1
                                               : kWarps >= 16 ? 2
                                                              : 32 / kWarps)
    life_tile_bits(BitsPair pair, int words_per_row, int height, int first_row, int rows, BitRule rule,
                   int k) {
  static_assert(kPairs != 1 || kWarps <= 16, "a named barrier per pair of warps: 15 at most");
  constexpr int kTileRows = kRowsPerWarp * kWarps;
  constexpr int kR = kRowsPerWarp;
  const std::uint32_t* __restrict__ in = blockIdx.z ? pair.in[1] : pair.in[0];
  std::uint32_t* __restrict__ out = blockIdx.z ? pair.out[1] : pair.out[0];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int halo_words = kHalf ? 1 : (k > 32 ? 2 : 1);
  const int out_words = kHalf ? 31 : 32 - 2 * halo_words, out_rows = kTileRows - 2 * k;
  int sx = blockIdx.x * out_words, sy = blockIdx.y * out_rows;
  sx = words_per_row >= out_words ? min(sx, words_per_row - out_words) : 0;
  sy = first_row + (rows >= out_rows ? min(sy, rows - out_rows) : 0);
  const int gx = wrap(static_cast<long long>(sx) + lane - halo_words, words_per_row);
  const int gx1 = kHalf ? (gx + 1 == words_per_row ? 0 : gx + 1) : gx;
  const std::size_t wpr = static_cast<std::size_t>(words_per_row);

  std::uint32_t c[kR];
  if constexpr (kMode == 4) {
    // No loads: cells made up in registers, for the time a launch takes without its load phase
    // (its cells are not the launcher's).
#pragma unroll
    for (int r = 0; r < kR; ++r) c[r] = (gx * 0x9e3779b9u) ^ ((sy + warp * kR + r) * 0x85ebca6bu);
  } else if constexpr (kHalf)
    load_rows(in, sy - k + warp * kR, height, wpr, HalfWordAt{gx, gx1}, c);
  else
    load_rows(in, sy - k + warp * kR, height, wpr, WordAt{gx}, c);

  // [generation parity][warp][top, bottom][sum, carry][lane]
  __shared__ std::uint32_t edge[2][kWarps][2][2][32];
  // The top and bottom warps read garbage the k halo rows absorb: the block's other end after a
  // barrier of the whole block, their own edges where only neighbours wait (no race with a warp
  // they do not wait for).
  const int up = warp > 0 ? warp - 1 : (kPairs ? 0 : kWarps - 1);
  const int down = warp < kWarps - 1 ? warp + 1 : (kPairs ? kWarps - 1 : 0);
  // kPairs == 2: an mbarrier per warp and generation parity, which its 32 lanes arrive on once they
  // published a generation's edges and its two neighbours wait on. One per parity: a warp may arrive
  // for the generation after the one a neighbour still waits for, never for two more.
  __shared__ std::uint64_t published[2][kPairs == 2 ? kWarps : 1];
  if constexpr (kPairs == 2) {
    if (lane == 0) {
      mbar_init(&published[0][warp], 32);
      mbar_init(&published[1][warp], 32);
    }
    __syncthreads();
  }
  if constexpr (kSplit) {
    static_assert(!kPairs, "split or pairs, not both");
    __shared__ std::uint64_t bar;
    if (threadIdx.x == 0) mbar_init(&bar, 32 * kWarps);
    __syncthreads();
    for (int g = 0; g < k; ++g) {
      const int p = g & 1;
      std::uint32_t s0, c0, s1, c1, sm, cm, sl, cl;
      publish_edge_sums<ModeSums<kMode>>(c, edge[p][warp], lane, s0, c0, sl, cl);
      mbar_arrive(&bar);
      hsum_m<kMode>(c[1], s1, c1);
      hsum_m<kMode>(c[kR - 2], sm, cm);
      // Rows 1..kR-2 need no neighbour warp: the warp's own rows 0 and kR-1 are above and below them.
      std::uint32_t(&inner)[kR - 2] = *reinterpret_cast<std::uint32_t(*)[kR - 2]>(&c[1]);
      step_rows<Rule, ModeSums<kMode>>(inner, s0, c0, s1, c1, sm, cm, sl, cl, rule);
      mbar_wait(&bar, p);
      const std::uint32_t su = edge[p][up][1][0][lane], cu = edge[p][up][1][1][lane];
      const std::uint32_t sd = edge[p][down][0][0][lane], cd = edge[p][down][0][1][lane];
      c[0] = Rule::next(su, cu, s0, c0, s1, c1, c[0], rule);
      c[kR - 1] = Rule::next(sm, cm, sl, cl, sd, cd, c[kR - 1], rule);
    }
  }
  for (int g = 0; g < (kSplit ? 0 : k); ++g) {
    const int p = g & 1;
    std::uint32_t sb, cb, sl, cl;
    publish_edge_sums<ModeSums<kMode>>(c, edge[p][warp], lane, sb, cb, sl, cl);
    if constexpr (kPairs == 2) {
      mbar_arrive(&published[p][warp]);
      if (warp > 0) mbar_wait(&published[p][warp - 1], (g >> 1) & 1);
      if (warp < kWarps - 1) mbar_wait(&published[p][warp + 1], (g >> 1) & 1);
    } else if constexpr (kPairs == 1) {
      // Pairs of an odd lower warp first, then of an even one: every warp's two waits are matched.
      if (warp & 1) {
        if (warp < kWarps - 1) pair_barrier(warp);
        pair_barrier(warp - 1);
      } else {
        if (warp > 0) pair_barrier(warp - 1);
        if (warp < kWarps - 1) pair_barrier(warp);
      }
    } else {
      __syncthreads();
    }
    step_rows<Rule, ModeSums<kMode>>(c, edge[p][up][1][0][lane], edge[p][up][1][1][lane], sb, cb, sl, cl,
                                     edge[p][down][0][0][lane], edge[p][down][0][1][lane], rule);
  }

  std::uint32_t v[kR];
#pragma unroll
  for (int r = 0; r < kR; ++r)
    v[r] = kHalf ? __funnelshift_r(c[r], __shfl_down_sync(~0u, c[r], 1), 16) : c[r];
  const int j = kHalf ? lane : lane - halo_words;  // the output word this lane writes
  if (j < 0 || j >= out_words || j >= words_per_row) return;
  store_rows(out + static_cast<std::size_t>(sy) * wpr + (sx + j), warp * kR - k, min(out_rows, rows), wpr, v);
}

/// The product's design with C blocks stacked in a thread-block cluster: the blocks of a cluster
/// read each other's edge sums through distributed shared memory and wait for each other with the
/// cluster's barrier, so that the halo rows are 2k of C tiles, not of each.
template <class Rule, int kR, int kWarps, int kC>
__global__ void __launch_bounds__(32 * kWarps, 2)
    life_cluster_bits(BitsPair pair, int words_per_row, int height, int first_row, int rows, BitRule rule,
                      int k) {
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());  // == blockIdx.y % kC
  constexpr int kTileRows = kR * kWarps;
  const std::uint32_t* __restrict__ in = pair.in[0];
  std::uint32_t* __restrict__ out = pair.out[0];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int out_words = 30, out_rows = kC * kTileRows - 2 * k;
  int sx = blockIdx.x * out_words, sy = (blockIdx.y / kC) * out_rows;
  sx = words_per_row >= out_words ? min(sx, words_per_row - out_words) : 0;
  sy = first_row + (rows >= out_rows ? min(sy, rows - out_rows) : 0);
  const int gx = wrap(static_cast<long long>(sx) + lane - 1, words_per_row);
  const std::size_t wpr = static_cast<std::size_t>(words_per_row);

  std::uint32_t c[kR];
  load_rows(in, sy - k + rank * kTileRows + warp * kR, height, wpr, WordAt{gx}, c);

  __shared__ std::uint32_t edge[2][kWarps][2][2][32];
  // The warp above and below, in this block or (the block's top and bottom warps) the cluster's
  // block above and below; the cluster's ends read garbage, which the k halo rows absorb.
  const std::uint32_t* up_edge = &edge[0][warp == 0 ? kWarps - 1 : warp - 1][1][0][0];
  const std::uint32_t* down_edge = &edge[0][warp == kWarps - 1 ? 0 : warp + 1][0][0][0];
  if (warp == 0 && rank > 0) up_edge = cluster.map_shared_rank(up_edge, rank - 1);
  if (warp == kWarps - 1 && rank < kC - 1) down_edge = cluster.map_shared_rank(down_edge, rank + 1);
  constexpr int kParity = kWarps * 2 * 2 * 32;  // words from one parity's edges to the other's
  for (int g = 0; g < k; ++g) {
    const int p = g & 1;
    std::uint32_t sb, cb, sl, cl;
    publish_edge_sums<LaneSums>(c, edge[p][warp], lane, sb, cb, sl, cl);
    cluster.sync();
    step_rows<Rule, LaneSums>(c, up_edge[p * kParity + lane], up_edge[p * kParity + 32 + lane], sb, cb, sl,
                              cl, down_edge[p * kParity + lane], down_edge[p * kParity + 32 + lane], rule);
  }
  cluster.sync();  // no block leaves while another may read its edges

  if (lane < 1 || lane >= 31 || lane - 1 >= words_per_row) return;
  store_rows(out + static_cast<std::size_t>(sy) * wpr + gx, rank * kTileRows + warp * kR - k,
             min(out_rows, rows), wpr, c);
}

}  // namespace ls::kernels::detail

namespace {

using ls::kernels::detail::BitRule;
using ls::kernels::detail::BitsPair;
constexpr int kK = 16;
using Kernel = void (*)(BitsPair, int, int, int, int, BitRule, int);

struct Variant {
  const char* name;
  bool half;
  int rows_per_warp, warps;
  Kernel kernel;
  int cluster = 1;  // blocks stacked in a cluster (life_cluster_bits)
};

template <int R, int W, int C>
Variant clustered(const char* name) {
  using ls::kernels::detail::life_cluster_bits;
  using ls::kernels::detail::RuntimeRule;
  return {name, false, R, W, life_cluster_bits<RuntimeRule<true>, R, W, C>, C};
}

template <bool kHalf, int kPairs, bool kSplit, int kMode, int R, int W>
Variant make(const char* name) {
  return {name, kHalf, R, W,
          ls::kernels::detail::life_tile_bits<ls::kernels::detail::RuntimeRule<true>, R, W, kHalf, kPairs,
                                              kSplit, kMode>};
}

std::vector<Variant> variants() {
  return {make<false, 0, false, 0, 32, 16>("as the product"),
          make<false, 0, false, 0, 26, 16>("as the product"),
          make<true, 0, false, 0, 32, 16>("half"),
          make<true, 0, false, 0, 30, 16>("half"),
          make<false, 1, false, 0, 32, 16>("pairs"),
          make<false, 2, false, 0, 32, 16>("neighbours"),
          make<false, 2, false, 0, 32, 32>("neighbours"),
          make<false, 2, false, 0, 30, 32>("neighbours"),
          make<true, 2, false, 0, 32, 32>("neighbours+half"),
          make<false, 0, false, 4, 32, 16>("no loads"),
          make<false, 2, false, 4, 32, 32>("neighbours, no loads"),
          make<false, 0, true, 0, 32, 16>("split"),
          make<false, 0, true, 0, 32, 32>("split"),
          make<false, 0, false, 1, 32, 16>("imad-left"),
          make<false, 0, false, 2, 32, 16>("imad-right"),
          make<false, 0, false, 3, 32, 16>("imad-both"),
          clustered<32, 16, 2>("cluster of 2"),
          clustered<32, 16, 4>("cluster of 4"),
          clustered<26, 16, 2>("cluster of 2"),
          clustered<24, 16, 4>("cluster of 4")};
}

void launch(const Variant& v, const std::uint32_t* in, std::uint32_t* out, int n) {
  const int words = n / 32;
  const int out_words = v.half ? 31 : 30;
  const int out_rows = v.cluster * v.rows_per_warp * v.warps - 2 * kK;
  const dim3 grid((words + out_words - 1) / out_words, (n + out_rows - 1) / out_rows * v.cluster, 1);
  const BitRule rule = ls::kernels::detail::make_bit_rule({1u << 3, (1u << 2) | (1u << 3)});
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(32 * v.warps);
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 1;
  cluster.val.clusterDim.y = static_cast<unsigned>(v.cluster);
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  CUDA_CHECK(cudaLaunchKernelEx(&config, v.kernel, BitsPair{{in, in}, {out, out}}, words, n, 0, n, rule, kK));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {16384, 65536};
  int only = -1;
  if (argc == 4 && std::string(argv[1]) == "--only") {
    only = std::atoi(argv[2]);
    sizes = {std::atoi(argv[3])};
  } else if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  }
  const std::vector<Variant> all = variants();
  for (const Variant& v : all) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, v.kernel));
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.kernel, 32 * v.warps, 0));
    std::printf("%2d %-20s %2dx%-2d %3d registers %3d local bytes %d blocks a multiprocessor\n",
                static_cast<int>(&v - all.data()), v.name, v.rows_per_warp, v.warps, attr.numRegs,
                static_cast<int>(attr.localSizeBytes), per_sm);
  }
  const ls::kernels::RuleMasks life{1u << 3, (1u << 2) | (1u << 3)};
  for (const int n : sizes) {
    ls::probe::Lattices lattices(n);
    const std::size_t words = lattices.words;
    std::uint32_t *a = lattices.a, *b = lattices.b, *c = lattices.c;
    ls::probe::soup(a, n, 7 + n);
    if (only >= 0) {
      for (int i = 0; i < 6; ++i) launch(all.at(only), i % 2 ? b : a, i % 2 ? a : b, n);
      CUDA_CHECK(cudaDeviceSynchronize());
      return 0;
    }
    const auto block = [&](const std::uint32_t* in, std::uint32_t* out) {
      ls::kernels::launch_step_bitpacked(in, out, n, n, life, kK, nullptr);
    };
    const double base = ls::probe::rate(block, b, c, n, n, kK);
    std::printf("%6d^2 k=%d launcher %.3e\n", n, kK, base);
    for (const Variant& v : all) {
      ls::probe::soup(a, n, 7 + n);
      block(a, b);
      launch(v, a, c, n);
      const unsigned long long wrong = ls::probe::differing_words(b, c, words);
      const double r = ls::probe::rate(
          [&](const std::uint32_t* in, std::uint32_t* out) { launch(v, in, out, n); }, b, c, n, n, kK);
      std::printf("%6d^2 %-20s %2dx%-2d %.3e (%.3fx)  words differing %llu\n", n, v.name, v.rows_per_warp,
                  v.warps, r, r / base, wrong);
    }
    std::printf("%6d^2 k=%d launcher again %.3e\n", n, kK, ls::probe::rate(block, b, c, n, n, kK));
  }
  return 0;
}
