// tile_pixels.cpp — the CPU backend's tile renderer: the same sampling and colours as
// kernels/render_tile.cu, pixel for pixel.
#include "render/tile_pixels.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <thread>

#include "core/pixel_math.hpp"

namespace ls::render {
namespace {

using pixel::age_fade;
using pixel::blend;
using pixel::kMaxSamplesPerAxis;

long long wrap(long long v, long long n) {
  const long long r = v % n;
  return r < 0 ? r + n : r;
}

bool alive(const Lattice& l, long long x, long long y) {
  return (l.row(static_cast<int>(y))[x >> 5] >> (x & 31)) & 1u;
}

int count_run(const Lattice& l, long long x0, int n, long long y) {
  const std::uint32_t* words = l.row(static_cast<int>(y));
  int count = 0;
  long long x = x0;
  int left = n;
  while (left > 0) {
    const int bit = static_cast<int>(x & 31);
    const int take = std::min(left, 32 - bit);
    const std::uint32_t mask = take == 32 ? 0xffffffffu : (((1u << take) - 1u) << bit);
    count += std::popcount(words[x >> 5] & mask);
    left -= take;
    x += take;
    if (x >= l.width()) x -= l.width();
  }
  return count;
}

std::uint32_t pixel(const Lattice& l, int px, int py, const Sampling& s, const Palette& pal,
                    std::uint32_t previous) {
  const long long width = l.width();
  const long long height = l.height();
  const double cpp = s.cells_per_pixel;
  const double fx = s.origin_x + px * cpp;
  const double fy = s.origin_y + py * cpp;
  if (cpp <= 1.0) {
    const long long cx = static_cast<long long>(std::floor(fx));
    const long long cy = static_cast<long long>(std::floor(fy));
    if (s.grid_lines) {
      const bool edge_x = static_cast<long long>(std::floor(fx - cpp)) != cx;
      const bool edge_y = static_cast<long long>(std::floor(fy - cpp)) != cy;
      if (edge_x || edge_y) return pal.grid;
    }
    const std::uint32_t colour = alive(l, wrap(cx, width), wrap(cy, height)) ? pal.live : pal.dead;
    return s.age_shading && colour != pal.live ? age_fade(colour, previous, pal.dead) : colour;
  }
  const long long x0 = static_cast<long long>(std::floor(fx));
  const long long y0 = static_cast<long long>(std::floor(fy));
  const int nx = std::max(
      1, static_cast<int>(std::min<long long>(width, static_cast<long long>(std::floor(fx + cpp)) - x0)));
  const int ny = std::max(
      1, static_cast<int>(std::min<long long>(height, static_cast<long long>(std::floor(fy + cpp)) - y0)));
  int live = 0;
  int total = 0;
  if (nx <= kMaxSamplesPerAxis && ny <= kMaxSamplesPerAxis) {
    for (int j = 0; j < ny; ++j) live += count_run(l, wrap(x0, width), nx, wrap(y0 + j, height));
    total = nx * ny;
  } else {
    const int sx = std::min(nx, kMaxSamplesPerAxis);
    const int sy = std::min(ny, kMaxSamplesPerAxis);
    for (int j = 0; j < sy; ++j) {
      const long long y = wrap(y0 + static_cast<long long>(j) * ny / sy, height);
      for (int i = 0; i < sx; ++i) live += alive(l, wrap(x0 + static_cast<long long>(i) * nx / sx, width), y);
    }
    total = sx * sy;
  }
  const std::uint32_t colour = live == 0       ? pal.dead
                               : live == total ? pal.live
                                               : blend(pal.dead, pal.live, live, total);
  return s.age_shading && colour != pal.live ? age_fade(colour, previous, pal.dead) : colour;
}

}  // namespace

void render_tile_host(const Lattice& lattice, int width, int height, const Sampling& sampling,
                      const Palette& palette, std::vector<std::uint32_t>& pixels) {
  const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  Sampling s = sampling;
  s.age_shading = sampling.age_shading && pixels.size() == count;
  pixels.resize(count);
  if (lattice.width() <= 0 || lattice.height() <= 0) {
    std::fill(pixels.begin(), pixels.end(), palette.dead);
    return;
  }
  // Each pixel reads only its own previous value before writing it, so rows may share the buffer.
  auto rows = [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < width; ++x) {
        std::uint32_t& p = pixels[static_cast<std::size_t>(y) * width + x];
        p = pixel(lattice, x, y, s, palette, p);
      }
  };
  // Rows split over a few threads: a zoomed-out 1024x1024 tile reads every cell.
  const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 8);
  if (threads == 1 || static_cast<long long>(width) * height < 65536) {
    rows(0, height);
    return;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(rows, height * t / threads, height * (t + 1) / threads);
  for (auto& th : pool) th.join();
}

}  // namespace ls::render
