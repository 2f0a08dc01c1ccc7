// stream_probe.cu — `ls_stream_probe`: a streaming bitpacked kernel (below) against the launcher's
// block kernel, B3/S23, k = 16: whether both give the same cells, and the cell updates/s of each,
// for runs of two lengths (one and two waves of warps), median of 7 samples of at least 2 ms after a
// warm-up. Compile definitions: LEVELS (default 16), the generations a launch of the kernel steps
// (k = 16 then takes 16 / LEVELS launches); MIN_BLOCKS (default 4: 128 registers at 16 levels, the
// fastest measured) bounds its registers for that many blocks a multiprocessor. Measured, and not
// kept in the product: bench/NOTES.md "`bitpacked`: a streaming kernel".
//
// The streaming kernel: each warp streams one run of rows down a strip of 32 words and carries all
// K generations in registers, one level a generation, so that the only rows stepped twice are the
// 3K - 1 at the ends of its run (a tile of the block kernel, step_bitpacked.cuh, steps 2K of every
// 32 x kWarps rows twice), and no warp waits for another (no shared memory, no barrier).
//
// Level g (1..K) holds the horizontal sums of the two newest rows of generation g - 1 it has seen;
// when the next row of generation g - 1 arrives it gives generation g of the row above it. Each row
// of the loop feeds level 1 one row of the input and level g the row level g - 1 gave in the row
// before (the levels run from K down to 1, so no level waits for another within a row: K chains of
// logic the scheduler interleaves), so level g's output lags the input by 2g - 1 rows. The loop is
// unrolled by three so that the rows' roles rotate through registers instead of moving.
//
// Lanes 0 and 31 are the strip's halo words (garbage enters their outer bits, one cell a
// generation: K <= 32 leaves lanes 1..30 exact). The first 3K - 1 rows of a run's output and
// anything past its last input row are garbage and not written.
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

/// Warps a block of the streaming kernel holds.
inline constexpr int kStreamWarps = 4;

/// Level G of one row of the streaming loop, slot J = i % 3 (see life_stream_bits), then the
/// levels below it: o[g][j] is level g's output in the loop's row j (mod 3), o[0] the input rows;
/// s[g] level g's sums of its rows r - 1 and r (sa, ca, sb, cb). A recursion of templates, not a
/// loop, so that every index is a constant and the arrays stay in registers.
template <class Rule, int K, int J, int G>
__device__ __forceinline__ void stream_level(std::uint32_t (&o)[K + 1][3], std::uint32_t (&s)[K + 1][4],
                                             const BitRule& rule) {
  constexpr int prev = (J + 2) % 3;
  constexpr int before = (J + 1) % 3;
  // Level G's input: level G - 1's output of the row before (the input itself for G = 1, this
  // row); its cells' row r is the input of the row before that.
  const std::uint32_t v = G == 1 ? o[0][J] : o[G - 1][prev];
  const std::uint32_t alive = G == 1 ? o[0][prev] : o[G - 1][before];
  std::uint32_t sc, cc;
  hsum_lanes(v, sc, cc);
  o[G][J] = Rule::next(s[G][0], s[G][1], s[G][2], s[G][3], sc, cc, alive, rule);
  s[G][0] = s[G][2];
  s[G][1] = s[G][3];
  s[G][2] = sc;
  s[G][3] = cc;
  if constexpr (G > 1) stream_level<Rule, K, J, G - 1>(o, s, rule);
}

/// One row of the streaming loop: the input row in, levels K down to 1, level K's output out.
template <class Rule, int K, int J>
__device__ __forceinline__ std::uint32_t stream_row(std::uint32_t (&o)[K + 1][3],
                                                    std::uint32_t (&s)[K + 1][4], std::uint32_t input,
                                                    const BitRule& rule) {
  o[0][J] = input;
  stream_level<Rule, K, J, K>(o, s, rule);
  return o[K][J];
}

/// Steps rows [first_row, first_row + rows) of a words_per_row x height torus K generations: warp
/// u of the grid takes strip u % strips (30 output words) and run u / strips of `run_rows` output
/// rows (the last strip and run moved back to end at the edge, as the block kernel's tiles).
template <class Rule, int K, int kMinBlocks = 1>
__global__ void __launch_bounds__(32 * kStreamWarps, kMinBlocks)
    life_stream_bits(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, int words_per_row,
                     int height, int first_row, int rows, int strips, int runs, int run_rows, BitRule rule) {
  static_assert(K >= 1 && K <= 32, "one halo word a side holds 32 generations");
  const int lane = threadIdx.x % 32;
  const int unit = blockIdx.x * kStreamWarps + static_cast<int>(threadIdx.x / 32);
  if (unit >= strips * runs) return;  // the whole warp
  constexpr int kOutWords = 30;
  int sx = (unit % strips) * kOutWords;
  sx = words_per_row >= kOutWords ? min(sx, words_per_row - kOutWords) : 0;
  const int run_start = first_row + min((unit / strips) * run_rows, rows - run_rows);
  const int gx = wrap(static_cast<long long>(sx) + lane - 1, words_per_row);
  const std::size_t wpr = static_cast<std::size_t>(words_per_row);
  const bool writes = lane >= 1 && lane <= kOutWords && lane - 1 < words_per_row;

  std::uint32_t o[K + 1][3];
  std::uint32_t sums[K + 1][4];
#pragma unroll
  for (int g = 0; g <= K; ++g) {
    o[g][0] = o[g][1] = o[g][2] = 0u;
    sums[g][0] = sums[g][1] = sums[g][2] = sums[g][3] = 0u;
  }
  const int inputs = run_rows + 2 * K;  // rows read: K above the run, K below
  const int steps = run_rows + 3 * K - 1;
  int y = wrap(static_cast<long long>(run_start) - K, height);
  const std::uint32_t* src = in + gx;
  std::uint32_t* dst = out + static_cast<std::size_t>(run_start) * wpr + gx;
  // The row after the one being stepped is read one row ahead.
  std::uint32_t next = __ldg(src + static_cast<std::size_t>(y) * wpr);
  int read = 1;
  const auto advance = [&] {
    const std::uint32_t cur = next;
    if (read < inputs) {
      if (++y == height) y = 0;
      next = __ldg(src + static_cast<std::size_t>(y) * wpr);
      ++read;
    }
    return cur;
  };
  const auto write = [&](int i, std::uint32_t v) {
    const int r = i - (3 * K - 1);  // the output row level K gave
    if (r >= 0 && r < run_rows && writes) dst[static_cast<std::size_t>(r) * wpr] = v;
  };
  for (int i = 0; i < steps; i += 3) {
    write(i, stream_row<Rule, K, 0>(o, sums, advance(), rule));
    write(i + 1, stream_row<Rule, K, 1>(o, sums, advance(), rule));
    write(i + 2, stream_row<Rule, K, 2>(o, sums, advance(), rule));
  }
}

}  // namespace ls::kernels::detail

namespace {

using ls::kernels::detail::kStreamWarps;
constexpr int kK = 16;
using StreamKernel = void (*)(const std::uint32_t*, std::uint32_t*, int, int, int, int, int, int, int,
                              ls::kernels::detail::BitRule);
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 4
#endif
#ifndef LEVELS
#define LEVELS 16
#endif
// The streaming kernel's levels: k = 16 takes 16 / kLevels launches of it (through `scratch`).
constexpr int kLevels = LEVELS;
static_assert(kK % kLevels == 0);
constexpr StreamKernel kStream =
    ls::kernels::detail::life_stream_bits<ls::kernels::detail::RuntimeRule<true>, kLevels, MIN_BLOCKS>;
std::uint32_t* scratch = nullptr;

struct Stream {
  int strips, runs, run_rows, blocks;
};

Stream plan(int width, int height, double warps_per_sm) {
  int sms = 0, device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int words = width / 32;
  Stream s{};
  s.strips = words >= 30 ? (words + 29) / 30 : 1;
  const int warps = static_cast<int>(sms * warps_per_sm);
  s.runs = std::max(1, std::min(height / (4 * kLevels), warps / s.strips));
  s.run_rows = (height + s.runs - 1) / s.runs;
  s.runs = (height + s.run_rows - 1) / s.run_rows;
  s.blocks = (s.strips * s.runs + kStreamWarps - 1) / kStreamWarps;
  return s;
}

void launch_stream(const Stream& s, const std::uint32_t* in, std::uint32_t* out, int width, int height) {
  const ls::kernels::detail::BitRule rule =
      ls::kernels::detail::make_bit_rule({1u << 3, (1u << 2) | (1u << 3)});
  const int passes = kK / kLevels;
  for (int p = 0; p < passes; ++p) {
    const std::uint32_t* from = p == 0 ? in : (p % 2 ? scratch : out);
    std::uint32_t* to = p == passes - 1 ? out : (p % 2 ? out : scratch);
    kStream<<<s.blocks, 32 * kStreamWarps>>>(from, to, width / 32, height, 0, height, s.strips, s.runs,
                                             s.run_rows, rule);
    CUDA_CHECK(cudaGetLastError());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {16384, 32768, 65536};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  }
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kStream));
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kStream, 32 * kStreamWarps, 0));
  std::printf("stream kernel of %d levels, %d launches for k = %d: ", kLevels, kK / kLevels, kK);
  std::printf("%d registers, %d local bytes, %d blocks (%d warps) a multiprocessor\n", attr.numRegs,
              static_cast<int>(attr.localSizeBytes), per_sm, per_sm * kStreamWarps);
  const ls::kernels::RuleMasks life{1u << 3, (1u << 2) | (1u << 3)};
  for (const int n : sizes) {
    ls::probe::Lattices lattices(n);
    const std::size_t words = lattices.words;
    std::uint32_t *a = lattices.a, *b = lattices.b, *c = lattices.c;
    CUDA_CHECK(cudaMalloc(&scratch, words * 4));
    ls::probe::soup(a, n, 7 + n);
    const auto block = [&](const std::uint32_t* in, std::uint32_t* out) {
      ls::kernels::launch_step_bitpacked(in, out, n, n, life, kK, nullptr);
    };
    block(a, b);
    const double block_rate = ls::probe::rate(block, b, c, n, n, kK);
    ls::probe::soup(a, n, 7 + n);
    block(a, b);
    for (const double wps : {per_sm * kStreamWarps * 1.0, per_sm * kStreamWarps * 2.0}) {
      const Stream s = plan(n, n, wps);
      launch_stream(s, a, c, n, n);
      const unsigned long long wrong = ls::probe::differing_words(b, c, words);
      const double r = ls::probe::rate(
          [&](const std::uint32_t* in, std::uint32_t* out) { launch_stream(s, in, out, n, n); }, c, a, n, n,
          kK);
      std::printf(
          "%6d^2 k=%d block %.3e  stream %.3e (%.3fx)  warps/SM %.0f strips %d runs %d run_rows %d  "
          "words differing %llu\n",
          n, kK, block_rate, r, r / block_rate, wps, s.strips, s.runs, s.run_rows, wrong);
      ls::probe::soup(a, n, 7 + n);
      block(a, b);
    }
    CUDA_CHECK(cudaFree(scratch));
  }
  return 0;
}
