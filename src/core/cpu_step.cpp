// cpu_step.cpp — the CPU reference step: bit-sliced Life-like steps on 32-cell words, rows split
// across threads.
#include "core/cpu_step.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <utility>
#include <vector>

namespace ls {

namespace {

// Adds one bit plane to a bit-sliced counter (c0 = 1s, c1 = 2s, c2 = 4s, c3 = 8s). Counts never
// exceed 8, so the 8s plane needs no carry out.
inline void add_plane(std::uint32_t x, std::uint32_t& c0, std::uint32_t& c1, std::uint32_t& c2,
                      std::uint32_t& c3) {
  std::uint32_t k = c0 & x;
  c0 ^= x;
  const std::uint32_t k1 = c1 & k;
  c1 ^= k;
  const std::uint32_t k2 = c2 & k1;
  c2 ^= k1;
  c3 |= k2;
}

// One row of words: above/here/below are whole rows (wpr words), out receives the next state.
void step_row(const std::uint32_t* above, const std::uint32_t* here, const std::uint32_t* below,
              std::uint32_t* out, int wpr, const Rule& rule) {
  // The masks for "count == n" are combined per rule: precompute which n matter for each state.
  for (int j = 0; j < wpr; ++j) {
    const int jl = j == 0 ? wpr - 1 : j - 1;
    const int jr = j == wpr - 1 ? 0 : j + 1;
    const std::uint32_t* rows[3] = {above, here, below};
    std::uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (int r = 0; r < 3; ++r) {
      const std::uint32_t m = rows[r][j];
      // West neighbour of bit i is bit i-1 (bit 31 of the word to the left for i = 0).
      const std::uint32_t west = (m << 1) | (rows[r][jl] >> 31);
      const std::uint32_t east = (m >> 1) | (rows[r][jr] << 31);
      add_plane(west, c0, c1, c2, c3);
      add_plane(east, c0, c1, c2, c3);
      if (r != 1) add_plane(m, c0, c1, c2, c3);
    }
    const std::uint32_t alive = here[j];
    std::uint32_t next = 0;
    for (int n = 0; n <= 8; ++n) {
      const bool born = (rule.birth >> n) & 1u;
      const bool stays = (rule.survive >> n) & 1u;
      if (!born && !stays) continue;
      const std::uint32_t eq =
          ((n & 1) ? c0 : ~c0) & ((n & 2) ? c1 : ~c1) & ((n & 4) ? c2 : ~c2) & ((n & 8) ? c3 : ~c3);
      if (born) next |= eq & ~alive;
      if (stays) next |= eq & alive;
    }
    out[j] = next;
  }
}

int thread_count(int requested, int rows) {
  int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
  n = std::max(1, n);
  // Below a few thousand words a thread costs more than it saves.
  return std::min(n, std::max(1, rows / 64));
}

}  // namespace

void cpu_step(const Lattice& in, Lattice& out, const Rule& rule, int threads) {
  if (out.width() != in.width() || out.height() != in.height()) out = Lattice(in.width(), in.height());
  const int h = in.height();
  const int wpr = in.words_per_row();
  auto work = [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      step_row(in.row((y + h - 1) % h), in.row(y), in.row((y + 1) % h), out.row(y), wpr, rule);
    }
  };
  const int n = thread_count(threads, h);
  if (n == 1) {
    work(0, h);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(n - 1));
  for (int t = 1; t < n; ++t) pool.emplace_back(work, h * t / n, h * (t + 1) / n);
  work(0, h / n);
  for (auto& th : pool) th.join();
}

void cpu_run(Lattice& lattice, const Rule& rule, long long generations, int threads) {
  Lattice tmp(lattice.width(), lattice.height());
  for (long long g = 0; g < generations; ++g) {
    cpu_step(lattice, tmp, rule, threads);
    std::swap(lattice, tmp);
  }
}

}  // namespace ls
