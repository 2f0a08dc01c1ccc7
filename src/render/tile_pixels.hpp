// tile_pixels.hpp — how a tile samples its lattice, and the host-side twin of the render kernel
// (the CPU backend builds a tile's pixels with it and uploads them with glTexSubImage2D).
#pragma once

#include <cstdint>
#include <vector>

#include "core/lattice.hpp"

namespace ls::render {

/// Colours packed as 0xAABBGGRR (RGBA8 in memory order).
struct Palette {
  std::uint32_t live = 0xff9ee07au;        // (122, 224, 158)
  std::uint32_t dead = 0xff241c16u;        // (22, 28, 36)
  std::uint32_t grid = 0xff3a3028u;        // (40, 48, 58)
  std::uint32_t background = 0xff0c0a08u;  // (8, 10, 12): window behind and between tiles
};

/// Texture pixel (px, py) covers lattice cells from (origin_x + px * cells_per_pixel,
/// origin_y + py * cells_per_pixel) on, wrapping on the torus.
struct Sampling {
  double origin_x = 0;
  double origin_y = 0;
  double cells_per_pixel = 1;
  bool grid_lines = false;
  /// Phosphor-like age shading: a pixel not fully live fades from its previous colour (the
  /// `pixels` passed in) towards dead by pixel::kAgeKeep / pixel::kAgeScale a frame (core/pixel_math.hpp),
  /// unless its colour now is farther from dead; live pixels and grid lines are drawn as usual.
  bool age_shading = false;
};

/// Grid lines are drawn from this zoom on (screen pixels per cell) when the grid is on.
inline constexpr double kGridMinPixelsPerCell = 6;

/// Fills `pixels` (width x height, row 0 = top) exactly as launch_render_tile does on the device:
/// zoomed out a pixel mixes dead and live by sqrt(fraction of live cells under it) (monotonic, and
/// sparse ash stays visible); zoomed in cells
/// are crisp, with grid lines on each cell's first pixel row and column when asked. With
/// sampling.age_shading, `pixels` must hold this tile's previous pixels (same size; otherwise
/// the frame is drawn without age shading).
void render_tile_host(const Lattice& lattice, int width, int height, const Sampling& sampling,
                      const Palette& palette, std::vector<std::uint32_t>& pixels);

/// The packed colour's (r, g, b).
inline void unpack_rgb(std::uint32_t c, int& r, int& g, int& b) {
  r = static_cast<int>(c & 0xffu);
  g = static_cast<int>((c >> 8) & 0xffu);
  b = static_cast<int>((c >> 16) & 0xffu);
}

}  // namespace ls::render
