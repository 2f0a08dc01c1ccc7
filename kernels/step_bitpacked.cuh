// step_bitpacked.cuh — the `bitpacked` kernel, life_step_bits (private to kernels/ and the bench
// probes, which reuse its warp helpers): compiled by nvcc into step_bitpacked.cu for B3/S23 and for
// a rule read at run time, and by NVRTC at run time for one rule whose masks are compile-time
// constants (rule_kernels.cpp), whose logic is then that rule's own network. It includes nothing
// but <cstddef>, <cstdint> and life_device.cuh: NVRTC sees no CUDA runtime header.
//
// One bit per cell (32-bit words, the host Lattice's layout), k generations per launch (1..64) by
// temporal blocking in registers. A block is kWarps warps stacked vertically; each lane holds one
// word column of kRowsPerWarp rows in registers, so a warp spans 32 words and the block
// kWarps * kRowsPerWarp rows. The horizontal neighbours come from the lanes beside (warp shuffles,
// then funnel shifts), the horizontal sums of the rows above and below a warp's band from its
// neighbour warps through a small shared-memory exchange (one __syncthreads() per generation).
// Neighbour counts are bit-sliced: each row's horizontal 3-sum is two bit planes computed once and
// shared by the three rows that use it; then full adders and the rule as logic (a fixed expression
// for B3/S23, a mux tree over the masks of a rule read at run time, the rule's own network for a
// rule compiled in). Garbage enters at the block's edges and moves one cell per generation, so
// after k generations the interior (lanes hl..31-hl, hl = 1 or 2 words, and all but k rows at the
// top and bottom) is exact; only that is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/life_device.cuh"

namespace ls::kernels::detail {

__device__ __forceinline__ void hsum_lanes(std::uint32_t w, std::uint32_t& s, std::uint32_t& c) {
  constexpr unsigned kFull = 0xffffffffu;
  const std::uint32_t left = __shfl_up_sync(kFull, w, 1);     // lane 0 gets its own word: garbage
  const std::uint32_t right = __shfl_down_sync(kFull, w, 1);  // lane 31 likewise
  hsum3(w, left, right, s, c);
}

/// What one launch steps: a lattice `in` -> `out`, and for blockIdx.z == 1 a second one of the same
/// size (a split band's two edge windows in one launch).
struct BitsPair {
  const std::uint32_t* in[2];
  std::uint32_t* out[2];
};

/// The rule of a kernel compiled by nvcc: the masks of its BitRule argument, or with kLife B3/S23's
/// fixed expression (which reads no masks).
template <bool kLife>
struct RuntimeRule {
  __device__ __forceinline__ static std::uint32_t next(std::uint32_t sa, std::uint32_t ca, std::uint32_t sb,
                                                       std::uint32_t cb, std::uint32_t sc, std::uint32_t cc,
                                                       std::uint32_t alive, const BitRule& rule) {
    return bit_rule<kLife>(sa, ca, sb, cb, sc, cc, alive, rule);
  }
};

/// The rule of a kernel compiled for one rule (birth and survival masks as in RuleMasks): the
/// BitRule argument is ignored, the masks are constants, and the rule is its own logic network.
template <unsigned kBirth, unsigned kSurvive>
struct FixedRule {
  __device__ __forceinline__ static std::uint32_t next(std::uint32_t sa, std::uint32_t ca, std::uint32_t sb,
                                                       std::uint32_t cb, std::uint32_t sc, std::uint32_t cc,
                                                       std::uint32_t alive, const BitRule&) {
    return bit_rule_fixed<kBirth & 0x1ffu, (kSurvive & 0x1ffu) << 1>(sa, ca, sb, cb, sc, cc, alive);
  }
};

/// The horizontal sums of a lane's word with its neighbour lanes' (shuffles and funnel shifts).
struct LaneSums {
  __device__ __forceinline__ static void sum(std::uint32_t w, std::uint32_t& s, std::uint32_t& c) {
    hsum_lanes(w, s, c);
  }
};

/// A lane's word of a row: word column gx.
struct WordAt {
  int gx;
  __device__ __forceinline__ std::uint32_t operator()(const std::uint32_t* row) const {
    return __ldg(row + gx);
  }
};

/// Loads a warp's kR rows from row y0 on, each row's word as `word` takes it from the row. A warp
/// whose rows cross the torus's top or bottom edge (y0 < 0 or past height) wraps each row index.
template <int kR, class Word>
__device__ __forceinline__ void load_rows(const std::uint32_t* __restrict__ in, int y0, int height,
                                          std::size_t wpr, Word word, std::uint32_t (&c)[kR]) {
  if (y0 >= 0 && y0 + kR <= height) {
    const std::uint32_t* p = in + static_cast<std::size_t>(y0) * wpr;
#pragma unroll
    for (int r = 0; r < kR; ++r) c[r] = word(p + r * wpr);
  } else {
    int y = wrap(y0, height);
#pragma unroll
    for (int r = 0; r < kR; ++r) {
      c[r] = word(in + y * wpr);
      if (++y == height) y = 0;
    }
  }
}

/// Sums a warp's top and bottom rows horizontally, (sb, cb) and (sl, cl), and publishes both in its
/// slot of the block's edge exchange ([top, bottom][sum, carry][lane]) for its neighbour warps.
template <class Sums, int kR>
__device__ __forceinline__ void publish_edge_sums(const std::uint32_t (&c)[kR],
                                                  std::uint32_t (&slot)[2][2][32], int lane,
                                                  std::uint32_t& sb, std::uint32_t& cb, std::uint32_t& sl,
                                                  std::uint32_t& cl) {
  Sums::sum(c[0], sb, cb);
  Sums::sum(c[kR - 1], sl, cl);
  slot[0][0][lane] = sb;
  slot[0][1][lane] = cb;
  slot[1][0][lane] = sl;
  slot[1][1][lane] = cl;
}

/// Steps a warp's kR rows one generation: (sa, ca) are the horizontal sums of the row above them,
/// (sb, cb) of their first row, (sl, cl) of their last and (sd, cd) of the row below.
template <class Rule, class Sums, int kR>
__device__ __forceinline__ void step_rows(std::uint32_t (&c)[kR], std::uint32_t sa, std::uint32_t ca,
                                          std::uint32_t sb, std::uint32_t cb, std::uint32_t sl,
                                          std::uint32_t cl, std::uint32_t sd, std::uint32_t cd,
                                          const BitRule& rule) {
  static_assert(kR >= 3, "a warp's top and bottom rows and one between");
#pragma unroll
  for (int r = 0; r < kR; ++r) {
    std::uint32_t sc, cc;
    if (r + 2 < kR) {
      Sums::sum(c[r + 1], sc, cc);
    } else if (r + 2 == kR) {
      sc = sl;
      cc = cl;
    } else {
      sc = sd;
      cc = cd;
    }
    c[r] = Rule::next(sa, ca, sb, cb, sc, cc, c[r], rule);
    sa = sb;
    ca = cb;
    sb = sc;
    cb = cc;
  }
}

/// Writes a warp's rows to q (row 0 of its band, its word column), c[r] as the band's row t0 + r,
/// only those in 0..written-1.
template <int kR>
__device__ __forceinline__ void store_rows(std::uint32_t* __restrict__ q, int t0, int written,
                                           std::size_t wpr, const std::uint32_t (&c)[kR]) {
  if (t0 >= 0 && t0 + kR <= written) {
#pragma unroll
    for (int r = 0; r < kR; ++r) q[(t0 + r) * wpr] = c[r];
  } else {
#pragma unroll
    for (int r = 0; r < kR; ++r)
      if (t0 + r >= 0 && t0 + r < written) q[(t0 + r) * wpr] = c[r];
  }
}

/// Steps the rows [first_row, first_row + rows) of a words_per_row x height torus k generations by
/// `Rule` (RuntimeRule or FixedRule): every variant of this kernel takes the same arguments, so one
/// launcher runs those compiled by nvcc and by NVRTC alike.
template <class Rule, int kRowsPerWarp, int kWarps>
__global__ void __launch_bounds__(32 * kWarps, kWarps >= 16 ? 2 : 32 / kWarps)
    life_step_bits(BitsPair pair, int words_per_row, int height, int first_row, int rows, BitRule rule, int k,
                   int halo_words) {
  constexpr int kTileRows = kRowsPerWarp * kWarps;
  // Selected, not indexed: a parameter array indexed by blockIdx.z would be copied to the stack.
  const std::uint32_t* __restrict__ in = blockIdx.z ? pair.in[1] : pair.in[0];
  std::uint32_t* __restrict__ out = blockIdx.z ? pair.out[1] : pair.out[0];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int out_words = 32 - 2 * halo_words, out_rows = kTileRows - 2 * k;
  // Strips and bands cover the output rows [first_row, first_row + rows) of the torus; the last
  // ones are moved back to end at its edge (they overlap their neighbours and write the same
  // values there) so every block does full work.
  int sx = blockIdx.x * out_words, sy = blockIdx.y * out_rows;
  sx = words_per_row >= out_words ? min(sx, words_per_row - out_words) : 0;
  sy = first_row + (rows >= out_rows ? min(sy, rows - out_rows) : 0);
  const int gx = wrap(static_cast<long long>(sx) + lane - halo_words, words_per_row);
  const std::size_t wpr = static_cast<std::size_t>(words_per_row);

  constexpr int kR = kRowsPerWarp;
  std::uint32_t c[kR];
  load_rows(in, sy - k + warp * kR, height, wpr, WordAt{gx}, c);

  // Each warp shares the horizontal sums (sum and carry planes) of its top and bottom rows, which
  // it needs itself, so that no warp sums its neighbours' edge rows again.
  // [generation parity][warp][top, bottom][sum, carry][lane]
  __shared__ std::uint32_t edge[2][kWarps][2][2][32];
  // The top and bottom warps read the block's other end: garbage, which the k halo rows absorb.
  const int up = warp == 0 ? kWarps - 1 : warp - 1, down = warp == kWarps - 1 ? 0 : warp + 1;
  for (int g = 0; g < k; ++g) {
    const int p = g & 1;
    std::uint32_t sb, cb, sl, cl;
    publish_edge_sums<LaneSums>(c, edge[p][warp], lane, sb, cb, sl, cl);
    __syncthreads();
    step_rows<Rule, LaneSums>(c, edge[p][up][1][0][lane], edge[p][up][1][1][lane], sb, cb, sl, cl,
                              edge[p][down][0][0][lane], edge[p][down][0][1][lane], rule);
  }

  if (lane < halo_words || lane >= 32 - halo_words || lane - halo_words >= words_per_row) return;
  store_rows(out + static_cast<std::size_t>(sy) * wpr + gx, warp * kR - k, min(out_rows, rows), wpr, c);
}

}  // namespace ls::kernels::detail
