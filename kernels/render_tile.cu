// render_tile.cu — draws one tile's view of a lattice into a CUDA surface bound to its GL texture
// (implements launch_render_tile of life_kernels.hpp for all three layouts).
//
// Texture row 0 is the top row of the tile on screen (the vertex shader flips v to match).
#include <cuda_runtime.h>
#include <surface_indirect_functions.h>

#include <cmath>
#include <cstdint>

#include "core/pixel_math.hpp"
#include "cuda_check.hpp"
#include "life_kernels.hpp"

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

template <Layout L>
__global__ void render_tile(const void* cells, int width, int height, cudaSurfaceObject_t surface,
                            int tex_width, int tex_height, TileView view) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= tex_width || py >= tex_height) return;

  const double cpp = view.cells_per_pixel;
  const double fx = view.origin_x + px * cpp;
  const double fy = view.origin_y + py * cpp;
  const int byte_x = (px + view.surface_x) * static_cast<int>(sizeof(std::uint32_t));  // in bytes
  const int sy = py + view.surface_y;
  std::uint32_t colour;
  if (cpp <= 1.0) {
    // Zoomed in: the cell under the pixel's top-left corner, crisp.
    const long long cx = static_cast<long long>(floor(fx));
    const long long cy = static_cast<long long>(floor(fy));
    if (view.grid_lines) {
      // The first pixel column/row of each cell carries the line.
      const bool edge_x = static_cast<long long>(floor(fx - cpp)) != cx;
      const bool edge_y = static_cast<long long>(floor(fy - cpp)) != cy;
      if (edge_x || edge_y) {
        surf2Dwrite(view.grid_rgba, surface, byte_x, sy);
        return;
      }
    }
    const bool alive = cell_alive<L>(cells, width, wrap(cx, width), wrap(cy, height));
    colour = alive ? view.live_rgba : view.dead_rgba;
  } else {
    // Zoomed out: shaded by the fraction of live cells in the pixel's footprint [fx, fx + cpp).
    const long long x0 = static_cast<long long>(floor(fx));
    const long long y0 = static_cast<long long>(floor(fy));
    const int nx = max(1, min(width, static_cast<int>(floor(fx + cpp) - x0)));
    const int ny = max(1, min(height, static_cast<int>(floor(fy + cpp) - y0)));
    int live = 0;
    int total = 0;
    if (nx <= kMaxSamplesPerAxis && ny <= kMaxSamplesPerAxis) {
      const long long xw = wrap(x0, width);
      long long y = wrap(y0, height);
      for (int j = 0; j < ny; ++j) {
        live += count_run<L>(cells, width, xw, nx, y);
        if (++y == height) y = 0;
      }
      total = nx * ny;
    } else {
      // Sample (i, j) is cell (x0 + floor(i * nx / sx), y0 + floor(j * ny / sy)) wrapped, as on
      // the host; the offsets step by quotient and remainder and wrap by one subtraction (they
      // are below the side), since 64-bit divisions per sample made huge lattices slow to show.
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
        int dx = 0, ex = 0;
        for (int i = 0; i < sx; ++i) {
          long long x = xw + dx;
          if (x >= width) x -= width;
          live += cell_alive<L>(cells, width, x, y);
          dx += qx;
          ex += rx;
          if (ex >= sx) {
            ex -= sx;
            ++dx;
          }
        }
        dy += qy;
        ey += ry;
        if (ey >= sy) {
          ey -= sy;
          ++dy;
        }
      }
      total = sx * sy;
    }
    colour = live == 0       ? view.dead_rgba
             : live == total ? view.live_rgba
                             : blend(view.dead_rgba, view.live_rgba, live, total);
  }
  if (view.age_shading && colour != view.live_rgba) {
    // The pixel's own last colour: each thread reads and writes only its pixel.
    std::uint32_t previous = 0;
    surf2Dread(&previous, surface, byte_x, sy);
    colour = age_fade(colour, previous, view.dead_rgba);
  }
  surf2Dwrite(colour, surface, byte_x, sy);
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

}  // namespace ls::kernels
