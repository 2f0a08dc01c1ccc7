// cpu_band.cpp — a band with halos on the CPU (cpu_band.hpp).
#include "dist/cpu_band.hpp"

#include <algorithm>
#include <bit>

#include "core/cpu_engine.hpp"
#include "core/splitmix.hpp"

namespace ls::dist {

CpuBand::CpuBand(int width, int height, multi::Band band, const Rule& rule, int threads)
    : lattice_height_(height), band_(band), rule_(rule), threads_(threads) {
  check_host_memory(width, band.rows + 2 * kHalo, 2);
  buffer_ = Lattice(width, band.rows + 2 * kHalo);
  scratch_ = Lattice(width, band.rows + 2 * kHalo);
}

void CpuBand::fill_random(const RandomInit& init) {
  const FillThreshold t = fill_threshold(init.density);
  const int wpr = words_per_row();
  for (int i = 0; i < band_.rows; ++i) {
    std::uint32_t* r = buffer_.row(kHalo + i);
    const auto y = static_cast<std::uint32_t>(band_.first_row + i);
    for (int j = 0; j < wpr; ++j) {
      std::uint32_t w = 0;
      for (int b = 0; b < 32; ++b) {
        const auto x = static_cast<std::uint32_t>(j * 32 + b);
        if (random_cell_live(init.seed, x, y, t.threshold, t.all)) w |= 1u << b;
      }
      r[j] = w;
    }
  }
  fresh_ = 0;
}

void CpuBand::place_centred(const Pattern& pattern) {
  const long long x0 = (width() - pattern.width) / 2;
  const long long y0 = (lattice_height_ - pattern.height) / 2;
  for (const Cell& c : pattern.cells) {
    const long long y = y0 + c.y - band_.first_row;
    if (y < 0 || y >= band_.rows) continue;
    buffer_.set(x0 + c.x, kHalo + y, true);
  }
  fresh_ = 0;
}

void CpuBand::step(long long generations, const std::function<void(CpuBand&)>& refresh_halos) {
  while (generations > 0) {
    if (fresh_ == 0) {
      refresh_halos(*this);
      fresh_ = kHalo;
    }
    const int run = static_cast<int>(std::min<long long>(generations, fresh_));
    for (int g = 0; g < run; ++g) {
      cpu_step(buffer_, scratch_, rule_, threads_);
      std::swap(buffer_, scratch_);
    }
    fresh_ -= run;
    generations -= run;
  }
}

std::uint64_t CpuBand::population() const {
  std::uint64_t n = 0;
  const int wpr = words_per_row();
  for (int i = 0; i < band_.rows; ++i) {
    const std::uint32_t* r = own_row(i);
    for (int j = 0; j < wpr; ++j) n += static_cast<std::uint64_t>(std::popcount(r[j]));
  }
  return n;
}

std::uint64_t CpuBand::hash_terms() const {
  std::uint64_t h = 0;
  const int wpr = words_per_row();
  for (int i = 0; i < band_.rows; ++i) {
    const std::uint32_t* r = own_row(i);
    const auto y = static_cast<std::uint32_t>(band_.first_row + i);
    for (int j = 0; j < wpr; ++j) {
      for (std::uint32_t w = r[j]; w != 0; w &= w - 1)
        h += cell_hash(static_cast<std::uint32_t>(j * 32 + std::countr_zero(w)), y);
    }
  }
  return h;
}

}  // namespace ls::dist
