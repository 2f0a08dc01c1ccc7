// render_tile.cu — draws one tile's view of a lattice into a CUDA surface bound to its GL texture
// (implements launch_render_tile of life_kernels.hpp for all three layouts).
//
// Texture row 0 is the top row of the tile on screen (the vertex shader flips v to match).
#include <cuda_runtime.h>
#include <surface_indirect_functions.h>

#include <cmath>
#include <cstdint>

#include "core/pixel_math.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace ls::kernels {
namespace {

using pixel::age_fade;
using pixel::blend;
using pixel::kMaxSamplesPerAxis;

__device__ inline long long wrap(long long v, long long n) {
  long long r = v % n;
  return r < 0 ? r + n : r;
}

template <Layout L>
__device__ inline bool cell_alive(const void* cells, int width, long long x, long long y) {
  const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
  if constexpr (L == Layout::int32_cells) {
    return static_cast<const std::int32_t*>(cells)[row + x] != 0;
  } else if constexpr (L == Layout::byte_cells) {
    return static_cast<const std::uint8_t*>(cells)[row + x] != 0;
  } else {
    const std::uint32_t* words = static_cast<const std::uint32_t*>(cells) + row / 32;
    return (words[x >> 5] >> (x & 31)) & 1u;
  }
}

/// Live cells among [x0, x0 + n) of row y (x0 already wrapped, n <= width), for the bit layout
/// by whole words.
template <Layout L>
__device__ inline int count_run(const void* cells, int width, long long x0, int n, long long y) {
  if constexpr (L == Layout::bit_cells) {
    const std::uint32_t* words =
        static_cast<const std::uint32_t*>(cells) + static_cast<std::size_t>(y) * (width / 32);
    int count = 0;
    long long x = x0;
    int left = n;
    while (left > 0) {
      const int bit = static_cast<int>(x & 31);
      const int take = min(left, 32 - bit);
      const std::uint32_t mask = take == 32 ? 0xffffffffu : (((1u << take) - 1u) << bit);
      count += __popc(words[x >> 5] & mask);
      left -= take;
      x += take;
      if (x >= width) x -= width;
    }
    return count;
  } else {
    int count = 0;
    long long x = x0;
    for (int i = 0; i < n; ++i) {
      count += cell_alive<L>(cells, width, x, y);
      if (++x == width) x = 0;
    }
    return count;
  }
}

/// What a pixel of a tile sees: a grid line, or `live` of `total` samples (zoomed in: one sample,
/// the cell under the pixel's top-left corner). With Banded, only lattice rows in [row_lo, row_hi)
/// are read (`cells` points at row row_lo) and the samples on other rows count as dead; `total`
/// is always the whole pixel's, so the live counts of bands that cover the lattice sum to the
/// unbanded count.
struct PixelSamples {
  bool grid = false;
  int live = 0;
  int total = 0;
};

template <Layout L, bool Banded>
__device__ inline PixelSamples sample_pixel(const void* cells, int width, int height, long long row_lo,
                                            long long row_hi, int px, int py, const TileView& view) {
  PixelSamples out;
  const auto in_band = [&](long long y) { return !Banded || (y >= row_lo && y < row_hi); };
  const auto row = [&](long long y) { return Banded ? y - row_lo : y; };
  const double cpp = view.cells_per_pixel;
  const double fx = view.origin_x + px * cpp;
  const double fy = view.origin_y + py * cpp;
  if (cpp <= 1.0) {
    // Zoomed in: the cell under the pixel's top-left corner, crisp.
    const long long cx = static_cast<long long>(floor(fx));
    const long long cy = static_cast<long long>(floor(fy));
    if (view.grid_lines) {
      // The first pixel column/row of each cell carries the line.
      const bool edge_x = static_cast<long long>(floor(fx - cpp)) != cx;
      const bool edge_y = static_cast<long long>(floor(fy - cpp)) != cy;
      if (edge_x || edge_y) {
        out.grid = true;
        return out;
      }
    }
    const long long y = wrap(cy, height);
    out.total = 1;
    out.live = in_band(y) && cell_alive<L>(cells, width, wrap(cx, width), row(y)) ? 1 : 0;
    return out;
  }
  // Zoomed out: shaded by the fraction of live cells in the pixel's footprint [fx, fx + cpp).
  const long long x0 = static_cast<long long>(floor(fx));
  const long long y0 = static_cast<long long>(floor(fy));
  const int nx = max(1, min(width, static_cast<int>(floor(fx + cpp) - x0)));
  const int ny = max(1, min(height, static_cast<int>(floor(fy + cpp) - y0)));
  if (nx <= kMaxSamplesPerAxis && ny <= kMaxSamplesPerAxis) {
    const long long xw = wrap(x0, width);
    long long y = wrap(y0, height);
    for (int j = 0; j < ny; ++j) {
      if (in_band(y)) out.live += count_run<L>(cells, width, xw, nx, row(y));
      if (++y == height) y = 0;
    }
    out.total = nx * ny;
    return out;
  }
  // Sample (i, j) is cell (x0 + floor(i * nx / sx), y0 + floor(j * ny / sy)) wrapped, as on the
  // host; the offsets step by quotient and remainder and wrap by one subtraction (they are below
  // the side), since 64-bit divisions per sample made huge lattices slow to show.
  const int sx = min(nx, kMaxSamplesPerAxis);
  const int sy = min(ny, kMaxSamplesPerAxis);
  const long long xw = wrap(x0, width);
  const long long yw = wrap(y0, height);
  const int qx = nx / sx, rx = nx % sx;
  const int qy = ny / sy, ry = ny % sy;
  int dy = 0, ey = 0;
  for (int j = 0; j < sy; ++j) {
    long long y = yw + dy;
    if (y >= height) y -= height;
    if (in_band(y)) {
      int dx = 0, ex = 0;
      for (int i = 0; i < sx; ++i) {
        long long x = xw + dx;
        if (x >= width) x -= width;
        out.live += cell_alive<L>(cells, width, x, row(y));
        dx += qx;
        ex += rx;
        if (ex >= sx) {
          ex -= sx;
          ++dx;
        }
      }
    }
    dy += qy;
    ey += ry;
    if (ey >= sy) {
      ey -= sy;
      ++dy;
    }
  }
  out.total = sx * sy;
  return out;
}

/// Writes pixel (px, py) of a tile from its samples: the grid colour, or live/dead/blended by the
/// live fraction, aged against the surface's previous colour with view.age_shading.
__device__ inline void write_pixel(const PixelSamples& p, cudaSurfaceObject_t surface, int px, int py,
                                   const TileView& view) {
  const int byte_x = (px + view.surface_x) * static_cast<int>(sizeof(std::uint32_t));  // in bytes
  const int sy = py + view.surface_y;
  if (p.grid) {
    surf2Dwrite(view.grid_rgba, surface, byte_x, sy);
    return;
  }
  std::uint32_t colour = p.live == 0         ? view.dead_rgba
                         : p.live == p.total ? view.live_rgba
                                             : blend(view.dead_rgba, view.live_rgba, p.live, p.total);
  if (view.age_shading && colour != view.live_rgba) {
    // The pixel's own last colour: each thread reads and writes only its pixel.
    std::uint32_t previous = 0;
    surf2Dread(&previous, surface, byte_x, sy);
    colour = age_fade(colour, previous, view.dead_rgba);
  }
  surf2Dwrite(colour, surface, byte_x, sy);
}

template <Layout L>
__global__ void render_tile(const void* cells, int width, int height, cudaSurfaceObject_t surface,
                            int tex_width, int tex_height, TileView view) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= tex_width || py >= tex_height) return;
  write_pixel(sample_pixel<L, false>(cells, width, height, 0, height, px, py, view), surface, px, py, view);
}

template <Layout L>
__global__ void count_tile_band(const void* band_rows, int width, int height, int first_row, int rows,
                                std::uint32_t* counts, int tex_width, int tex_height, TileView view) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= tex_width || py >= tex_height) return;
  const PixelSamples p = sample_pixel<L, true>(band_rows, width, height, first_row,
                                               static_cast<long long>(first_row) + rows, px, py, view);
  counts[static_cast<std::size_t>(py) * tex_width + px] = static_cast<std::uint32_t>(p.live);
}

__global__ void shade_tile(const std::uint32_t* counts, int bands, int width, int height,
                           cudaSurfaceObject_t surface, int tex_width, int tex_height, TileView view) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= tex_width || py >= tex_height) return;
  // The pixel's geometry (grid, total) without reading a cell: an empty band.
  PixelSamples p = sample_pixel<Layout::bit_cells, true>(nullptr, width, height, 0, 0, px, py, view);
  if (!p.grid) {
    const std::size_t pixels = static_cast<std::size_t>(tex_width) * tex_height;
    const std::size_t at = static_cast<std::size_t>(py) * tex_width + px;
    for (int b = 0; b < bands; ++b) p.live += static_cast<int>(counts[b * pixels + at]);
  }
  write_pixel(p, surface, px, py, view);
}

}  // namespace

void launch_render_tile(Layout layout, const void* cells, int width, int height, cudaSurfaceObject_t surface,
                        int tex_width, int tex_height, const TileView& view, cudaStream_t stream) {
  if (tex_width <= 0 || tex_height <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((tex_width + block.x - 1) / block.x, (tex_height + block.y - 1) / block.y);
  switch (layout) {
    case Layout::int32_cells:
      render_tile<Layout::int32_cells>
          <<<grid, block, 0, stream>>>(cells, width, height, surface, tex_width, tex_height, view);
      break;
    case Layout::byte_cells:
      render_tile<Layout::byte_cells>
          <<<grid, block, 0, stream>>>(cells, width, height, surface, tex_width, tex_height, view);
      break;
    case Layout::bit_cells:
      render_tile<Layout::bit_cells>
          <<<grid, block, 0, stream>>>(cells, width, height, surface, tex_width, tex_height, view);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

void launch_count_tile_band(Layout layout, const void* band_rows, int width, int height, int first_row,
                            int rows, std::uint32_t* counts, int tex_width, int tex_height,
                            const TileView& view, cudaStream_t stream) {
  if (tex_width <= 0 || tex_height <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((tex_width + block.x - 1) / block.x, (tex_height + block.y - 1) / block.y);
  switch (layout) {
    case Layout::int32_cells:
      count_tile_band<Layout::int32_cells><<<grid, block, 0, stream>>>(
          band_rows, width, height, first_row, rows, counts, tex_width, tex_height, view);
      break;
    case Layout::byte_cells:
      count_tile_band<Layout::byte_cells><<<grid, block, 0, stream>>>(
          band_rows, width, height, first_row, rows, counts, tex_width, tex_height, view);
      break;
    case Layout::bit_cells:
      count_tile_band<Layout::bit_cells><<<grid, block, 0, stream>>>(
          band_rows, width, height, first_row, rows, counts, tex_width, tex_height, view);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

void launch_shade_tile(const std::uint32_t* counts, int bands, int width, int height,
                       cudaSurfaceObject_t surface, int tex_width, int tex_height, const TileView& view,
                       cudaStream_t stream) {
  if (tex_width <= 0 || tex_height <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((tex_width + block.x - 1) / block.x, (tex_height + block.y - 1) / block.y);
  shade_tile<<<grid, block, 0, stream>>>(counts, bands, width, height, surface, tex_width, tex_height, view);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ls::kernels
