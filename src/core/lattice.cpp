// lattice.cpp — the host lattice: bit storage, torus coordinates, population, hash, random fill.
#include "core/lattice.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "core/splitmix.hpp"

namespace ls {

void check_lattice_size(long long w, long long h) {
  auto bad = [](long long v) { return v < kLatticeAlign || v % kLatticeAlign != 0 || v > kMaxLatticeSide; };
  if (bad(w) || bad(h)) {
    throw InputError("lattice size " + std::to_string(w) + "x" + std::to_string(h) +
                     " is not allowed: width and height must be multiples of 32 from 32 to " +
                     std::to_string(kMaxLatticeSide));
  }
}

std::uint64_t host_memory_available() {
  std::uint64_t avail = 0;
  {
    std::ifstream f("/proc/meminfo");
    std::string key;
    std::uint64_t kb = 0;
    std::string unit;
    while (f >> key >> kb >> unit) {
      if (key == "MemAvailable:") {
        avail = kb * 1024;
        break;
      }
    }
  }
  // Under `ulimit -v` the address space left is the tighter bound.
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    if (statm >> pages) {
      const std::uint64_t used = pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
      const std::uint64_t left = limit.rlim_cur > used ? limit.rlim_cur - used : 1;
      avail = avail == 0 ? left : std::min(avail, left);
    }
  }
  return avail;
}

void check_host_bytes(std::uint64_t bytes, const std::string& what, bool plural) {
  const std::uint64_t avail = host_memory_available();
  if (avail != 0 && bytes > avail) {
    throw InputError(what + (plural ? " need " : " needs ") + std::to_string(bytes >> 20) +
                     " MiB of host memory; " + std::to_string(avail >> 20) + " MiB free");
  }
}

void check_host_memory(long long w, long long h, int copies) {
  const std::uint64_t need =
      static_cast<std::uint64_t>(copies) * static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) / 8;
  check_host_bytes(need, "lattice " + std::to_string(w) + "x" + std::to_string(h));
}

Lattice::Lattice(int width, int height) : width_(width), height_(height) {
  check_lattice_size(width, height);
  words_.assign(static_cast<std::size_t>(width / 32) * static_cast<std::size_t>(height), 0u);
}

namespace {
long long wrap(long long v, long long n) {
  v %= n;
  return v < 0 ? v + n : v;
}
}  // namespace

bool Lattice::get(long long x, long long y) const {
  x = wrap(x, width_);
  y = wrap(y, height_);
  return (row(static_cast<int>(y))[x >> 5] >> (x & 31)) & 1u;
}

void Lattice::set(long long x, long long y, bool alive) {
  x = wrap(x, width_);
  y = wrap(y, height_);
  std::uint32_t& w = row(static_cast<int>(y))[x >> 5];
  const std::uint32_t bit = 1u << (x & 31);
  w = alive ? (w | bit) : (w & ~bit);
}

void Lattice::clear() { std::fill(words_.begin(), words_.end(), 0u); }

std::uint64_t Lattice::population() const {
  std::uint64_t n = 0;
  for (std::uint32_t w : words_) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

std::uint64_t Lattice::hash() const {
  std::uint64_t h =
      lattice_hash_base(static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_));
  const int wpr = words_per_row();
  for (int y = 0; y < height_; ++y) {
    const std::uint32_t* r = row(y);
    for (int j = 0; j < wpr; ++j) {
      for (std::uint32_t w = r[j]; w != 0; w &= w - 1) {
        const auto x = static_cast<std::uint32_t>(j * 32 + std::countr_zero(w));
        h += cell_hash(x, static_cast<std::uint32_t>(y));
      }
    }
  }
  return h;
}

void Lattice::place(const Pattern& pattern, long long x, long long y) {
  for (const Cell& c : pattern.cells) set(x + c.x, y + c.y, true);
}

void Lattice::place_centred(const Pattern& pattern) {
  if (pattern.width > width_ || pattern.height > height_) {
    throw InputError("pattern box " + std::to_string(pattern.width) + "x" + std::to_string(pattern.height) +
                     " is larger than the lattice " + std::to_string(width_) + "x" + std::to_string(height_));
  }
  place(pattern, (width_ - pattern.width) / 2, (height_ - pattern.height) / 2);
}

Lattice Lattice::random(int width, int height, double density, std::uint64_t seed) {
  if (!(density >= 0.0 && density <= 1.0)) {
    throw InputError("density " + std::to_string(density) + " is outside 0..1");
  }
  Lattice l(width, height);
  l.fill_random_rows(density, seed, 0, height);
  return l;
}

void Lattice::fill_random_rows(double density, std::uint64_t seed, int y_begin, int y_end) {
  const FillThreshold t = fill_threshold(density);
  const int wpr = words_per_row();
  for (int y = y_begin; y < y_end; ++y) {
    std::uint32_t* r = row(y);
    for (int j = 0; j < wpr; ++j) {
      std::uint32_t w = 0;
      for (int i = 0; i < 32; ++i) {
        const auto x = static_cast<std::uint32_t>(j * 32 + i);
        if (random_cell_live(seed, x, static_cast<std::uint32_t>(y), t.threshold, t.all)) w |= 1u << i;
      }
      r[j] = w;
    }
  }
}

Pattern Lattice::to_pattern() const {
  Pattern p;
  int x0 = width_, y0 = height_, x1 = -1, y1 = -1;
  const int wpr = words_per_row();
  for (int y = 0; y < height_; ++y) {
    const std::uint32_t* r = row(y);
    for (int j = 0; j < wpr; ++j) {
      if (r[j] == 0) continue;
      const int lo = j * 32 + std::countr_zero(r[j]);
      const int hi = j * 32 + 31 - std::countl_zero(r[j]);
      x0 = std::min(x0, lo);
      x1 = std::max(x1, hi);
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  }
  if (x1 < 0) {
    p.pos = Cell{0, 0};
    return p;
  }
  p.width = x1 - x0 + 1;
  p.height = y1 - y0 + 1;
  p.pos = Cell{x0, y0};
  for (int y = y0; y <= y1; ++y) {
    const std::uint32_t* r = row(y);
    for (int j = x0 / 32; j <= x1 / 32; ++j) {
      for (std::uint32_t w = r[j]; w != 0; w &= w - 1) {
        p.cells.push_back(Cell{j * 32 + std::countr_zero(w) - x0, y - y0});
      }
    }
  }
  return p;
}

}  // namespace ls
