// view.hpp — tile layout and per-tile view math (zoom, pan, fit), in framebuffer pixels with y
// growing downwards. Plain arithmetic, no GL (library ls_view, below render): the command
// executor, the renderer and the tests share it.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
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

/// A lattice's size in cells: the shape of its tile.
struct Extent {
  int w = 0;
  int h = 0;
};

/// Lays one tile per lattice out inside `area`, in order, left to right in rows from the top.
/// Each tile has its lattice's aspect (cells stay square, and the tile is exactly the fitted
/// image, so what is drawn over a tile lies on its picture), and every tile gets the same area:
/// the largest for which the rows fit, with kTileGap around and between the tiles. So the smallest
/// tile is as large as it can be, whatever the lattices' sizes; a tile's scale, the side of a
/// square of its area (tile_scale), is the same for every tile.
///
/// Of the arrangements in rows, lattices of one shape take a grid (the column count that makes the
/// tiles largest, the fewest columns on a tie; rows aligned left), and lattices of several shapes
/// take the best grid unless a free split into rows does better (each row then centred). The block
/// of rows is centred in the area. Empty when the area is too small for any tile.
std::vector<Rect> layout_tiles(const Rect& area, const std::vector<Extent>& lattices);
/// `count` tiles of one `cells_w` x `cells_h` lattice shape: a grid.
std::vector<Rect> layout_tiles(const Rect& area, std::size_t count, int cells_w, int cells_h);

/// The side of a square with a tile's area: what layout_tiles makes as large as it can for the
/// smallest tile.
double tile_scale(const Rect& tile);

/// What one tile looks at: fitted to the whole lattice or to a region of it (a loaded pattern),
/// or a zoom (screen pixels per cell) and the lattice point shown at the tile's centre.
struct View {
  bool fit = true;
  // With `fit`: the lattice region [x, x + w) x [y, y + h) that fills the tile, or the whole
  // lattice while region_w is 0. A region keeps fitting as the tile's size changes.
  double region_x = 0;
  double region_y = 0;
  double region_w = 0;
  double region_h = 0;
  double pixels_per_cell = 1;
  double centre_x = 0;
  double centre_y = 0;
};

/// Cells of margin on each side of a fitted region, at least, and as a fraction of its larger
/// side; and the fewest cells a fitted region spans: a glider shows as a glider with room to fly
/// (at a 3-cell fit it would leave the tile within a dozen generations).
inline constexpr double kRegionMarginCells = 3;
inline constexpr double kRegionMarginFraction = 0.1;
inline constexpr double kMinRegionCells = 48;

/// A view fitted to the live cells' box [x, x + w) x [y, y + h) with a margin around it, at least
/// kMinRegionCells a side, centred on the box (never farther out than the whole lattice's fit,
/// never past kMaxPixelsPerCell). An empty box: the whole lattice.
View fit_region(double x, double y, double w, double h);

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

/// A lattice cell.
struct CellPos {
  int x = 0;
  int y = 0;
  friend bool operator==(const CellPos& a, const CellPos& b) { return a.x == b.x && a.y == b.y; }
};

/// The cell of a `cells_w` x `cells_h` torus drawn at framebuffer pixel (px, py) by `p` (wrapped
/// into the lattice), or nullopt outside the drawn quad.
std::optional<CellPos> cell_at(const Placement& p, int cells_w, int cells_h, double px, double py);

/// Sets an explicit zoom, keeping the lattice point at the tile's centre.
void set_zoom(View& view, const Rect& tile, int cells_w, int cells_h, double pixels_per_cell);
/// Multiplies the zoom by `factor`, keeping the lattice point under (px, py) where it is.
void zoom_at(View& view, const Rect& tile, int cells_w, int cells_h, double factor, double px, double py);
/// Moves the view by (dx, dy) lattice cells (wrapping on the torus).
void pan_cells(View& view, const Rect& tile, int cells_w, int cells_h, double dx, double dy);
/// Drags the picture by (dx, dy) framebuffer pixels.
void pan_pixels(View& view, const Rect& tile, int cells_w, int cells_h, double dx, double dy);

/// Where a tile's label goes and which text it shows.
struct LabelPlacement {
  std::size_t choice = 0;  // index into the texts offered, fullest first
  Rect box;                // the label's box (text and padding), inside the tile's top-left corner
};

/// A label never takes more than this fraction of its tile's height, nor of its area: at 64
/// instances a full label would hide a third of each tile.
inline constexpr double kLabelMaxHeightFraction = 0.34;
inline constexpr double kLabelMaxAreaFraction = 0.15;

/// The fullest of `text_sizes` (each text's width and height in framebuffer pixels, fullest first)
/// whose box, the text with `pad` pixels around it, lies inside `tile` within the fractions above,
/// placed at the tile's top-left corner; nullopt when none does (a tiny tile shows no label).
std::optional<LabelPlacement> place_label(const Rect& tile,
                                          const std::vector<std::pair<double, double>>& text_sizes,
                                          double pad);

}  // namespace ls::view
