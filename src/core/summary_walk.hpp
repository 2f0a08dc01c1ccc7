// summary_walk.hpp — one thread's part of the summary (population, hash) of a bit-layout lattice,
// shared by the summary kernel (kernels/layout.cu) and a CPU test that runs every thread's part.
//
// The hash adds splitmix64 of every live cell (splitmix.hpp), two 64-bit multiplies each. A thread
// that loops over the set bits of one word at a time keeps its warp for as long as the word with
// the most live cells among the 32 lanes: at 11% density that is ~8 turns for a mean of 3.5, so
// most lanes idle (524288² took ~150 ms on an H200). Here a thread walks its chunks (kWalkWords
// words, one 32-byte sector) as one stream of live cells: each turn of the loop hashes exactly
// one cell on every lane that has one left, and only the cheap step to the next word diverges.
// Over the hundreds of chunks a thread gets on a large lattice the lanes' counts differ by a few
// percent, so the warp's hashing runs nearly full. Exact: the same terms, summed mod 2^64.
// Header-only and usable from device code (LS_HOST_DEVICE).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/splitmix.hpp"

namespace ls {

/// Words of a chunk: the unit a thread loads (32 bytes: one sector).
inline constexpr int kWalkWords = 8;

struct SummaryPart {
  std::uint64_t population = 0;
  std::uint64_t hash = 0;  // the sum of the live cells' terms, without the lattice's base term
};

LS_HOST_DEVICE int walk_popcount(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __popc(v);
#else
  return __builtin_popcount(v);
#endif
}

/// The highest set bit of v (v != 0).
LS_HOST_DEVICE int walk_top_bit(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(static_cast<int>(v));
#else
  return 31 - __builtin_clz(v);
#endif
}

/// splitmix64 after its first addition: splitmix64(v) == splitmix64_mix(v + 0x9e3779b97f4a7c15).
LS_HOST_DEVICE constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Thread `thread` of `threads` summarizing `words` 32-cell words of a bit-layout lattice (row-major,
/// `words_per_row` words a row, the first word at row `first_row`, column 0): it takes chunks
/// thread, thread + threads, ... of kWalkWords words. `load(c, w)` fills w[0..kWalkWords) with
/// chunk c's words, zeros past `words`. The sum of all threads' parts is the lattice's population
/// and its hash less lattice_hash_base.
template <class Load>
LS_HOST_DEVICE SummaryPart summary_walk(const Load& load, std::size_t words, std::uint32_t words_per_row,
                                        std::uint32_t first_row, std::size_t thread, std::size_t threads) {
  SummaryPart part;
  const std::size_t chunks = (words + kWalkWords - 1) / kWalkWords;
  if (thread >= chunks) return part;
  constexpr std::uint64_t kGamma = 0x9e3779b97f4a7c15ull;
  // Where the next chunk starts (row, word column), advanced by the stride without a division.
  const std::uint64_t stride = static_cast<std::uint64_t>(threads) * kWalkWords;
  const std::uint64_t stride_rows = stride / words_per_row;
  const auto stride_cols = static_cast<std::uint32_t>(stride % words_per_row);
  const std::uint64_t first = static_cast<std::uint64_t>(thread) * kWalkWords;
  std::uint64_t chunk_row = first_row + first / words_per_row;
  auto chunk_col = static_cast<std::uint32_t>(first % words_per_row);

  std::size_t c = thread;
  std::uint32_t next[kWalkWords];
  load(c, next);
  bool more = true;  // `next` holds chunk c
  std::uint32_t w[kWalkWords] = {};
  int left = 0;           // words of w not taken yet
  std::uint64_t row = 0;  // the position of w's next word
  std::uint32_t col = 0;
  std::uint32_t cur = 0;  // the live cells of the current word not hashed yet
  std::uint64_t key = 0;  // ((row << 32) | x0) + kGamma of the current word
  for (;;) {
    while (cur == 0) {
      if (left == 0) {
        if (!more) return part;
        for (int k = 0; k < kWalkWords; ++k) w[k] = next[k];
        left = kWalkWords;
        row = chunk_row;
        col = chunk_col;
        c += threads;
        chunk_row += stride_rows;
        chunk_col += stride_cols;
        if (chunk_col >= words_per_row) {
          chunk_col -= words_per_row;
          ++chunk_row;
        }
        more = c < chunks;
        if (more) load(c, next);
      }
      cur = w[0];
      for (int k = 0; k + 1 < kWalkWords; ++k) w[k] = w[k + 1];
      w[kWalkWords - 1] = 0;
      --left;
      part.population += static_cast<std::uint64_t>(walk_popcount(cur));
      key = ((row << 32) | (static_cast<std::uint64_t>(col) * 32u)) + kGamma;
      if (++col == words_per_row) {
        col = 0;
        ++row;
      }
    }
    const int i = walk_top_bit(cur);
    cur ^= 1u << i;
    // Cell (x0 + i, row): (row << 32 | x0) + i never carries out of the low half (x0 + i < 2^32).
    part.hash += splitmix64_mix(key + static_cast<std::uint64_t>(i));
  }
}

}  // namespace ls
