// view.cpp — tile grid layout and the zoom/pan/fit arithmetic of a tile's view.
#include "view/view.hpp"

#include <algorithm>
#include <cmath>

namespace ls::view {

std::vector<Rect> layout_tiles(const Rect& area, std::size_t count, int cells_w, int cells_h) {
  std::vector<Rect> rects;
  if (count == 0 || cells_w <= 0 || cells_h <= 0) return rects;
  const double aspect = static_cast<double>(cells_w) / cells_h;
  int best_cols = 1;
  double best_w = -1;
  for (std::size_t cols = 1; cols <= count; ++cols) {
    const std::size_t rows = (count + cols - 1) / cols;
    const double cell_w = (area.w - kTileGap * (static_cast<double>(cols) + 1)) / static_cast<double>(cols);
    const double cell_h = (area.h - kTileGap * (static_cast<double>(rows) + 1)) / static_cast<double>(rows);
    const double w = std::min(cell_w, cell_h * aspect);
    if (w > best_w + 1e-9) {
      best_w = w;
      best_cols = static_cast<int>(cols);
    }
  }
  const int tile_w = static_cast<int>(std::floor(best_w));
  const int tile_h = static_cast<int>(std::floor(best_w / aspect));
  if (tile_w < 1 || tile_h < 1) return rects;
  const int cols = best_cols;
  const int rows = static_cast<int>((count + cols - 1) / cols);
  const int grid_w = cols * tile_w + (cols - 1) * kTileGap;
  const int grid_h = rows * tile_h + (rows - 1) * kTileGap;
  const int x0 = area.x + (area.w - grid_w) / 2;
  const int y0 = area.y + (area.h - grid_h) / 2;
  rects.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int c = static_cast<int>(i) % cols;
    const int r = static_cast<int>(i) / cols;
    rects.push_back(Rect{x0 + c * (tile_w + kTileGap), y0 + r * (tile_h + kTileGap), tile_w, tile_h});
  }
  return rects;
}

double fit_pixels_per_cell(const Rect& tile, int cells_w, int cells_h) {
  if (cells_w <= 0 || cells_h <= 0 || tile.w <= 0 || tile.h <= 0) return 1;
  return std::min(static_cast<double>(tile.w) / cells_w, static_cast<double>(tile.h) / cells_h);
}

namespace {

double wrap(double v, double n) {
  double r = std::fmod(v, n);
  return r < 0 ? r + n : r;
}

// One axis of place(): the quad's start and length in pixels and the lattice coordinate at its start.
void place_axis(double ppc, double centre, int tile_start, int tile_len, int cells, int& start, int& len,
                double& origin) {
  const double span = cells * ppc;
  if (span <= tile_len + 0.5) {
    len = std::max(1, static_cast<int>(std::lround(span)));
    len = std::min(len, tile_len);
    start = tile_start + (tile_len - len) / 2;
    origin = 0;
  } else {
    start = tile_start;
    len = tile_len;
    origin = centre - tile_len / (2.0 * ppc);
  }
}

// The view's zoom and centre as place() uses them (fit resolved, zoom clamped).
void effective(const View& view, const Rect& tile, int cells_w, int cells_h, double& ppc, double& cx,
               double& cy) {
  const double fit = fit_pixels_per_cell(tile, cells_w, cells_h);
  if (view.fit) {
    ppc = fit;
    cx = cells_w / 2.0;
    cy = cells_h / 2.0;
    return;
  }
  ppc = std::clamp(view.pixels_per_cell, std::min(fit, kMaxPixelsPerCell), kMaxPixelsPerCell);
  cx = cells_w * ppc <= tile.w + 0.5 ? cells_w / 2.0 : view.centre_x;
  cy = cells_h * ppc <= tile.h + 0.5 ? cells_h / 2.0 : view.centre_y;
}

void store(View& view, const Rect& tile, int cells_w, int cells_h, double ppc, double cx, double cy) {
  const double fit = fit_pixels_per_cell(tile, cells_w, cells_h);
  if (ppc <= fit * (1 + 1e-9)) {
    view = View{};  // zooming out past the whole lattice snaps back to fit
    return;
  }
  view.fit = false;
  view.pixels_per_cell = std::min(ppc, kMaxPixelsPerCell);
  view.centre_x = wrap(cx, cells_w);
  view.centre_y = wrap(cy, cells_h);
}

}  // namespace

Placement place(const View& view, const Rect& tile, int cells_w, int cells_h) {
  Placement p;
  double cx = 0, cy = 0;
  effective(view, tile, cells_w, cells_h, p.pixels_per_cell, cx, cy);
  place_axis(p.pixels_per_cell, cx, tile.x, tile.w, cells_w, p.quad.x, p.quad.w, p.origin_x);
  place_axis(p.pixels_per_cell, cy, tile.y, tile.h, cells_h, p.quad.y, p.quad.h, p.origin_y);
  return p;
}

void screen_to_cell(const Placement& p, double px, double py, double& cx, double& cy) {
  cx = p.origin_x + (px - p.quad.x) / p.pixels_per_cell;
  cy = p.origin_y + (py - p.quad.y) / p.pixels_per_cell;
}

void set_zoom(View& view, const Rect& tile, int cells_w, int cells_h, double pixels_per_cell) {
  double ppc = 0, cx = 0, cy = 0;
  effective(view, tile, cells_w, cells_h, ppc, cx, cy);
  store(view, tile, cells_w, cells_h, pixels_per_cell, cx, cy);
}

void zoom_at(View& view, const Rect& tile, int cells_w, int cells_h, double factor, double px, double py) {
  const Placement p = place(view, tile, cells_w, cells_h);
  double ux = 0, uy = 0;
  screen_to_cell(p, px, py, ux, uy);
  const double ppc = std::min(p.pixels_per_cell * factor, kMaxPixelsPerCell);
  // Keep (ux, uy) under the cursor: the tile centre then shows this point.
  const double tcx = tile.x + tile.w / 2.0;
  const double tcy = tile.y + tile.h / 2.0;
  store(view, tile, cells_w, cells_h, ppc, ux + (tcx - px) / ppc, uy + (tcy - py) / ppc);
}

void pan_cells(View& view, const Rect& tile, int cells_w, int cells_h, double dx, double dy) {
  double ppc = 0, cx = 0, cy = 0;
  effective(view, tile, cells_w, cells_h, ppc, cx, cy);
  if (view.fit) {
    // Panning a fitted view keeps its zoom but lets it move (it then shows the torus wrapping).
    view.fit = false;
    view.pixels_per_cell = ppc;
    view.centre_x = wrap(cx + dx, cells_w);
    view.centre_y = wrap(cy + dy, cells_h);
    return;
  }
  view.centre_x = wrap(cx + dx, cells_w);
  view.centre_y = wrap(cy + dy, cells_h);
}

void pan_pixels(View& view, const Rect& tile, int cells_w, int cells_h, double dx, double dy) {
  double ppc = 0, cx = 0, cy = 0;
  effective(view, tile, cells_w, cells_h, ppc, cx, cy);
  pan_cells(view, tile, cells_w, cells_h, -dx / ppc, -dy / ppc);
}

}  // namespace ls::view
