// view.hpp — tile layout and per-tile view math (zoom, pan, fit), in framebuffer pixels with y
// growing downwards. Plain arithmetic, no GL (library ls_view, below render): the command
// executor, the renderer and the tests share it.
#pragma once

#include <cstddef>
#include <vector>

namespace ls::view {

/// A rectangle in framebuffer pixels, (x, y) its top-left corner.
struct Rect {
  int x = 0;
  int y = 0;
  int w = 0;
  int h = 0;
  bool contains(double px, double py) const { return px >= x && px < x + w && py >= y && py < y + h; }
  friend bool operator==(const Rect& a, const Rect& b) {
    return a.x == b.x && a.y == b.y && a.w == b.w && a.h == b.h;
  }
};

/// Pixels between tiles and around the grid.
inline constexpr int kTileGap = 6;
inline constexpr double kMaxPixelsPerCell = 256;

/// Lays `count` equal tiles out in a grid inside `area`: the tiles have the aspect of a
/// `cells_w` x `cells_h` lattice (so its cells stay square) and the column count is the one that
/// makes them largest. The grid is centred in the area. Empty when the area is too small.
std::vector<Rect> layout_tiles(const Rect& area, std::size_t count, int cells_w, int cells_h);

/// What one tile looks at: fitted to the whole lattice, or a zoom (screen pixels per cell) and the
/// lattice point shown at the tile's centre.
struct View {
  bool fit = true;
  double pixels_per_cell = 1;
  double centre_x = 0;
  double centre_y = 0;
};

/// Zoom at which the whole lattice fits in the tile.
double fit_pixels_per_cell(const Rect& tile, int cells_w, int cells_h);

/// Where and how a tile's texture is drawn this frame.
struct Placement {
  Rect quad;            // the drawn part of the tile (the whole tile, or less when the lattice is narrower)
  double origin_x = 0;  // lattice coordinates of the quad's top-left corner
  double origin_y = 0;
  double pixels_per_cell = 1;
};

/// The effective placement of a view in a tile (zoom clamped to [fit, kMaxPixelsPerCell]; along an
/// axis where the lattice is narrower than the tile it is centred, and panning along it is moot).
Placement place(const View& view, const Rect& tile, int cells_w, int cells_h);

/// The lattice point under framebuffer pixel position (px, py) (not wrapped).
void screen_to_cell(const Placement& p, double px, double py, double& cx, double& cy);

/// Sets an explicit zoom, keeping the lattice point at the tile's centre.
void set_zoom(View& view, const Rect& tile, int cells_w, int cells_h, double pixels_per_cell);
/// Multiplies the zoom by `factor`, keeping the lattice point under (px, py) where it is.
void zoom_at(View& view, const Rect& tile, int cells_w, int cells_h, double factor, double px, double py);
/// Moves the view by (dx, dy) lattice cells (wrapping on the torus).
void pan_cells(View& view, const Rect& tile, int cells_w, int cells_h, double dx, double dy);
/// Drags the picture by (dx, dy) framebuffer pixels.
void pan_pixels(View& view, const Rect& tile, int cells_w, int cells_h, double dx, double dy);

}  // namespace ls::view
