// view.cpp — tile grid layout and the zoom/pan/fit arithmetic of a tile's view.
#include "view/view.hpp"

#include <algorithm>
#include <cmath>

namespace ls::view {

namespace {

// A tile's shape at unit area: width sqrt(aspect), height 1/sqrt(aspect). At scale k the tile is
// k * u wide and k * v high, of area k^2.
struct Shape {
  double u = 1;
  double v = 1;
};

// Rows as the index of each row's first tile (the tiles are in order), and the scale they allow.
struct Rows {
  std::vector<std::size_t> starts;
  double scale = 0;
};

// Tiles floored to whole pixels: a scale computed as (width - gaps) / sum may land a hair below the
// integer it stands for.
constexpr double kPixelSlack = 1e-6;

// The largest scale at which tiles [starts[r], starts[r + 1]) fit as rows in `area`.
double rows_scale(const std::vector<Shape>& shapes, const std::vector<std::size_t>& starts,
                  const Rect& area) {
  const std::size_t rows = starts.size();
  double scale = (area.h - kTileGap * (static_cast<double>(rows) + 1));
  double heights = 0;
  double width_limit = 1e300;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t end = r + 1 < rows ? starts[r + 1] : shapes.size();
    double widths = 0, tallest = 0;
    for (std::size_t i = starts[r]; i < end; ++i) {
      widths += shapes[i].u;
      tallest = std::max(tallest, shapes[i].v);
    }
    heights += tallest;
    const double room = area.w - kTileGap * (static_cast<double>(end - starts[r]) + 1);
    width_limit = std::min(width_limit, room / widths);
  }
  scale /= heights;
  return std::max(0.0, std::min(scale, width_limit));
}

// Rows of `cols` tiles (the last may be shorter).
std::vector<std::size_t> grid_starts(std::size_t count, std::size_t cols) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < count; i += cols) starts.push_back(i);
  return starts;
}

// The best grid: the column count that allows the largest scale (the fewest columns on a tie).
Rows best_grid(const std::vector<Shape>& shapes, const Rect& area) {
  Rows best;
  for (std::size_t cols = 1; cols <= shapes.size(); ++cols) {
    std::vector<std::size_t> starts = grid_starts(shapes.size(), cols);
    const double scale = rows_scale(shapes, starts, area);
    if (scale > best.scale * (1 + 1e-9)) best = Rows{std::move(starts), scale};
  }
  return best;
}

// The split into rows of least total height at `scale` (each row within the area's width), by
// dynamic programming over where the last row starts; empty when no split fits the width.
std::vector<std::size_t> lowest_rows(const std::vector<Shape>& shapes, const Rect& area, double scale,
                                     double& height) {
  const std::size_t n = shapes.size();
  std::vector<double> best(n + 1, 1e300);
  std::vector<std::size_t> from(n + 1, 0);
  best[0] = kTileGap;
  for (std::size_t end = 1; end <= n; ++end) {
    double widths = kTileGap, tallest = 0;
    for (std::size_t start = end; start-- > 0;) {
      widths += scale * shapes[start].u + kTileGap;
      if (widths > area.w) break;
      tallest = std::max(tallest, scale * shapes[start].v);
      const double h = best[start] + tallest + kTileGap;
      if (h < best[end]) {
        best[end] = h;
        from[end] = start;
      }
    }
  }
  height = best[n];
  std::vector<std::size_t> starts;
  if (best[n] >= 1e300) return starts;
  for (std::size_t end = n; end > 0; end = from[end]) starts.push_back(from[end]);
  std::reverse(starts.begin(), starts.end());
  return starts;
}

// The best free split into rows: the largest scale at which the lowest split fits the area's
// height, by bisection (the fit only gets easier as the scale shrinks), then that split's exact scale.
Rows best_free_rows(const std::vector<Shape>& shapes, const Rect& area, double at_least) {
  double lo = at_least, hi = 1e300;
  for (const Shape& s : shapes)
    hi = std::min({hi, (area.w - 2.0 * kTileGap) / s.u, (area.h - 2.0 * kTileGap) / s.v});
  if (!(hi > lo)) return {};
  std::vector<std::size_t> found;
  for (int i = 0; i < 60 && hi - lo > 1e-9 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    double height = 0;
    std::vector<std::size_t> starts = lowest_rows(shapes, area, mid, height);
    if (!starts.empty() && height <= area.h) {
      lo = mid;
      found = std::move(starts);
    } else {
      hi = mid;
    }
  }
  if (found.empty()) return {};
  return Rows{found, rows_scale(shapes, found, area)};
}

}  // namespace

std::vector<Rect> layout_tiles(const Rect& area, const std::vector<Extent>& lattices) {
  std::vector<Rect> rects;
  if (lattices.empty()) return rects;
  std::vector<Shape> shapes;
  shapes.reserve(lattices.size());
  bool one_shape = true;
  for (const Extent& e : lattices) {
    if (e.w <= 0 || e.h <= 0) return rects;
    const double root = std::sqrt(static_cast<double>(e.w) / e.h);
    shapes.push_back(Shape{root, 1 / root});
    one_shape = one_shape &&
                static_cast<long long>(e.w) * lattices[0].h == static_cast<long long>(e.h) * lattices[0].w;
  }
  // One shape: the best grid is the best split into rows (a row of c tiles needs c columns' width,
  // and a grid of c columns has the fewest rows any split with rows of at most c tiles has).
  Rows rows = best_grid(shapes, area);
  if (!one_shape) {
    Rows free = best_free_rows(shapes, area, rows.scale);
    if (free.scale > rows.scale * (1 + 1e-9)) rows = std::move(free);
  }
  const double k = rows.scale;
  std::vector<int> ws, hs;
  for (const Shape& s : shapes) {
    ws.push_back(static_cast<int>(std::floor(k * s.u + kPixelSlack)));
    hs.push_back(static_cast<int>(std::floor(k * s.v + kPixelSlack)));
    if (ws.back() < 1 || hs.back() < 1) return rects;
  }
  // Row sizes, then the block of rows centred in the area.
  const std::size_t nrows = rows.starts.size();
  std::vector<int> row_w(nrows, 0), row_h(nrows, 0);
  for (std::size_t r = 0; r < nrows; ++r) {
    const std::size_t end = r + 1 < nrows ? rows.starts[r + 1] : shapes.size();
    for (std::size_t i = rows.starts[r]; i < end; ++i) {
      row_w[r] += ws[i] + (i > rows.starts[r] ? kTileGap : 0);
      row_h[r] = std::max(row_h[r], hs[i]);
    }
  }
  const int block_w = *std::max_element(row_w.begin(), row_w.end());
  int block_h = kTileGap * static_cast<int>(nrows - 1);
  for (int h : row_h) block_h += h;
  const int x0 = area.x + (area.w - block_w) / 2;
  int y = area.y + (area.h - block_h) / 2;
  rects.reserve(shapes.size());
  for (std::size_t r = 0; r < nrows; ++r) {
    const std::size_t end = r + 1 < nrows ? rows.starts[r + 1] : shapes.size();
    // One shape: a grid, its last row aligned left; several: each row centred, each tile centred
    // in its row's height.
    int x = one_shape ? x0 : x0 + (block_w - row_w[r]) / 2;
    for (std::size_t i = rows.starts[r]; i < end; ++i) {
      rects.push_back(Rect{x, y + (row_h[r] - hs[i]) / 2, ws[i], hs[i]});
      x += ws[i] + kTileGap;
    }
    y += row_h[r] + kTileGap;
  }
  return rects;
}

std::vector<Rect> layout_tiles(const Rect& area, std::size_t count, int cells_w, int cells_h) {
  return layout_tiles(area, std::vector<Extent>(count, Extent{cells_w, cells_h}));
}

double tile_scale(const Rect& tile) { return std::sqrt(static_cast<double>(tile.w) * tile.h); }

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
  if (view.fit && view.region_w > 0 && view.region_h > 0) {
    // A region: as close as fills the tile with it, within the limits a person's zoom has.
    ppc = std::min(tile.w / view.region_w, tile.h / view.region_h);
    ppc = std::clamp(ppc, std::min(fit, kMaxPixelsPerCell), kMaxPixelsPerCell);
    cx = cells_w * ppc <= tile.w + 0.5 ? cells_w / 2.0 : view.region_x + view.region_w / 2;
    cy = cells_h * ppc <= tile.h + 0.5 ? cells_h / 2.0 : view.region_y + view.region_h / 2;
    return;
  }
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

std::optional<CellPos> cell_at(const Placement& p, int cells_w, int cells_h, double px, double py) {
  if (cells_w <= 0 || cells_h <= 0 || !p.quad.contains(px, py)) return std::nullopt;
  double cx = 0, cy = 0;
  screen_to_cell(p, px, py, cx, cy);
  long long x = static_cast<long long>(std::floor(cx)) % cells_w;
  long long y = static_cast<long long>(std::floor(cy)) % cells_h;
  if (x < 0) x += cells_w;
  if (y < 0) y += cells_h;
  return CellPos{static_cast<int>(x), static_cast<int>(y)};
}

View fit_region(double x, double y, double w, double h) {
  View view;
  if (!(w > 0 && h > 0)) return view;
  const double margin = std::max(kRegionMarginCells, kRegionMarginFraction * std::max(w, h));
  view.region_w = std::max(w + 2 * margin, kMinRegionCells);
  view.region_h = std::max(h + 2 * margin, kMinRegionCells);
  view.region_x = x + w / 2 - view.region_w / 2;
  view.region_y = y + h / 2 - view.region_h / 2;
  return view;
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

std::optional<LabelPlacement> place_label(const Rect& tile,
                                          const std::vector<std::pair<double, double>>& text_sizes,
                                          double pad) {
  const double tile_area = static_cast<double>(tile.w) * tile.h;
  for (std::size_t i = 0; i < text_sizes.size(); ++i) {
    const int w = static_cast<int>(std::ceil(text_sizes[i].first + 2 * pad));
    const int h = static_cast<int>(std::ceil(text_sizes[i].second + 2 * pad));
    if (w > tile.w || h > tile.h || h > kLabelMaxHeightFraction * tile.h ||
        static_cast<double>(w) * h > kLabelMaxAreaFraction * tile_area)
      continue;
    return LabelPlacement{i, Rect{tile.x, tile.y, w, h}};
  }
  return std::nullopt;
}

}  // namespace ls::view
