// test_view.cpp — tile layout and view math: tiles keep cells square and fill the window well;
// zoom keeps the point under the cursor; the host tile renderer draws cells where they are, and
// with age shading fades cells that died towards the dead colour over a few frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/lattice.hpp"
#include "render/tile_pixels.hpp"
#include "view/view.hpp"

namespace ls::view {
namespace {

bool overlap(const Rect& a, const Rect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

TEST(Layout, TilesAreDisjointInsideTheAreaAndKeepTheLatticeAspect) {
  const Rect area{420, 0, 1180, 900};
  for (std::size_t n = 1; n <= 64; ++n) {
    const auto rects = layout_tiles(area, n, 2048, 1024);
    ASSERT_EQ(rects.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const Rect& r = rects[i];
      EXPECT_GE(r.x, area.x);
      EXPECT_GE(r.y, area.y);
      EXPECT_LE(r.x + r.w, area.x + area.w);
      EXPECT_LE(r.y + r.h, area.y + area.h);
      EXPECT_NEAR(static_cast<double>(r.w) / r.h, 2.0, 2.0 / r.h + 1e-9) << n;  // square cells
      for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(overlap(r, rects[j])) << n << ": " << i << " " << j;
    }
  }
}

TEST(Layout, FourSquareTilesInAWideWindowUseTheBestGrid) {
  // 960x540 holds 4 square tiles best as 2x2 (261 px), not 4x1 (232 px).
  const auto rects = layout_tiles(Rect{0, 0, 960, 540}, 4, 256, 256);
  ASSERT_EQ(rects.size(), 4u);
  EXPECT_EQ(rects[0].w, 261);
  EXPECT_EQ(rects[0].y, rects[1].y);
  EXPECT_GT(rects[2].y, rects[0].y);
  EXPECT_EQ(rects[2].x, rects[0].x);
}

TEST(View, FitShowsTheWholeLatticeCentred) {
  const Rect tile{100, 50, 400, 300};
  const Placement p = place(View{}, tile, 512, 256);
  EXPECT_DOUBLE_EQ(p.pixels_per_cell, 400.0 / 512);
  EXPECT_EQ(p.quad.w, 400);
  EXPECT_EQ(p.quad.h, 200);
  EXPECT_EQ(p.quad.y, 50 + 50);
  EXPECT_DOUBLE_EQ(p.origin_x, 0);
  EXPECT_DOUBLE_EQ(p.origin_y, 0);
}

TEST(View, ZoomAtKeepsTheCellUnderTheCursor) {
  const Rect tile{0, 0, 500, 500};
  View v;
  const double px = 123, py = 321;
  double before_x = 0, before_y = 0, after_x = 0, after_y = 0;
  set_zoom(v, tile, 1024, 1024, 2);
  screen_to_cell(place(v, tile, 1024, 1024), px, py, before_x, before_y);
  zoom_at(v, tile, 1024, 1024, 3.0, px, py);
  const Placement p = place(v, tile, 1024, 1024);
  EXPECT_DOUBLE_EQ(p.pixels_per_cell, 6);
  screen_to_cell(p, px, py, after_x, after_y);
  EXPECT_NEAR(after_x, before_x, 1e-9);
  EXPECT_NEAR(after_y, before_y, 1e-9);
}

TEST(View, ZoomingOutPastTheWholeLatticeSnapsToFit) {
  const Rect tile{0, 0, 256, 256};
  View v;
  set_zoom(v, tile, 1024, 1024, 4);
  EXPECT_FALSE(v.fit);
  zoom_at(v, tile, 1024, 1024, 1.0 / 64, 10, 10);
  EXPECT_TRUE(v.fit);
}

TEST(View, PanMovesByCellsAndWrapsOnTheTorus) {
  const Rect tile{0, 0, 200, 200};
  View v;
  set_zoom(v, tile, 64, 64, 10);
  pan_cells(v, tile, 64, 64, 40, -40);
  EXPECT_DOUBLE_EQ(v.centre_x, 8);      // 32 + 40 wraps to 8
  EXPECT_DOUBLE_EQ(v.centre_y, 56);     // 32 - 40 wraps to 56
  pan_pixels(v, tile, 64, 64, -20, 0);  // dragging left by 2 cells moves the view right
  EXPECT_DOUBLE_EQ(v.centre_x, 10);
}

}  // namespace
}  // namespace ls::view

namespace ls::render {
namespace {

TEST(TilePixels, ZoomedInCellsAreCrispWithGridLinesOnTheirFirstPixel) {
  Lattice l(32, 32);
  l.set(3, 2, true);
  const Palette pal;
  Sampling s;
  s.cells_per_pixel = 1.0 / 8;  // 8 pixels per cell
  s.grid_lines = true;
  std::vector<std::uint32_t> px;
  render_tile_host(l, 64, 64, s, pal, px);
  auto at = [&](int x, int y) { return px[static_cast<std::size_t>(y) * 64 + x]; };
  EXPECT_EQ(at(3 * 8 + 4, 2 * 8 + 4), pal.live);
  EXPECT_EQ(at(3 * 8 + 7, 2 * 8 + 7), pal.live);
  EXPECT_EQ(at(3 * 8, 2 * 8 + 4), pal.grid);
  EXPECT_EQ(at(4 * 8 + 4, 2 * 8 + 4), pal.dead);
  EXPECT_EQ(at(2 * 8 + 4, 2 * 8 + 4), pal.dead);
}

TEST(TilePixels, ZoomedOutAPixelShadesBySqrtOfTheFractionOfLiveCells) {
  Lattice l(32, 32);
  // Pixel (0, 0) covers cells 0..3 x 0..3 at 4 cells per pixel: 8 of 16 live.
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 2; ++x) l.set(x, y, true);
  for (int y = 0; y < 4; ++y)
    for (int x = 4; x < 8; ++x) l.set(x, y, true);  // pixel (1, 0): all live
  Palette pal;
  pal.dead = 0xff000000u;
  pal.live = 0xffc8c8c8u;  // 200
  Sampling s;
  s.cells_per_pixel = 4;
  std::vector<std::uint32_t> px;
  render_tile_host(l, 8, 8, s, pal, px);
  // sqrt(8/16) * 200 = 141.4: the shade is sqrt of the live fraction.
  EXPECT_EQ(px[0], 0xff8d8d8du);
  EXPECT_EQ(px[1], pal.live);
  EXPECT_EQ(px[2], pal.dead);
}

// Each of r, g, b of `c` strictly between dead's and live's (the default palette is brighter
// live in every channel).
bool between_dead_and_live(std::uint32_t c, const Palette& pal) {
  int r, g, b, dr, dg, db, lr, lg, lb;
  unpack_rgb(c, r, g, b);
  unpack_rgb(pal.dead, dr, dg, db);
  unpack_rgb(pal.live, lr, lg, lb);
  return dr < r && r < lr && dg < g && g < lg && db < b && b < lb;
}

TEST(TilePixels, WithAgeShadingACellThatDiedFadesToDeadOverAFewFrames) {
  Lattice l(32, 32);
  l.set(3, 2, true);
  const Palette pal;
  Sampling s;
  s.cells_per_pixel = 1.0 / 8;
  s.grid_lines = true;
  s.age_shading = true;
  std::vector<std::uint32_t> px;  // no last frame yet: drawn as without age shading
  render_tile_host(l, 64, 64, s, pal, px);
  const std::size_t centre = (2 * 8 + 4) * 64 + 3 * 8 + 4;  // of cell (3, 2)
  const std::size_t line = (2 * 8 + 4) * 64 + 3 * 8;        // its grid line
  const std::size_t other = (6 * 8 + 4) * 64 + 6 * 8 + 4;   // a cell dead all along
  EXPECT_EQ(px[centre], pal.live);
  EXPECT_EQ(px[other], pal.dead);
  l.set(3, 2, false);
  std::uint32_t last = pal.live;
  int frames_to_dead = 0;
  for (int frame = 1; frame <= 40 && frames_to_dead == 0; ++frame) {
    render_tile_host(l, 64, 64, s, pal, px);
    const std::uint32_t c = px[centre];
    if (frame <= 10) {
      EXPECT_TRUE(between_dead_and_live(c, pal)) << "frame " << frame << ": " << std::hex << c;
    }
    // Darker every frame until dead.
    int r, g, b, lr, lg, lb;
    unpack_rgb(c, r, g, b);
    unpack_rgb(last, lr, lg, lb);
    EXPECT_TRUE(r <= lr && g <= lg && b <= lb && c != last) << "frame " << frame;
    last = c;
    if (c == pal.dead) frames_to_dead = frame;
    EXPECT_EQ(px[line], pal.grid);
    EXPECT_EQ(px[other], pal.dead);
  }
  // 13/16 of the distance kept per frame: the greenest channel (196 levels) is gone in 20 frames.
  EXPECT_EQ(frames_to_dead, 20);
  // Born again: live at once.
  l.set(3, 2, true);
  render_tile_host(l, 64, 64, s, pal, px);
  EXPECT_EQ(px[centre], pal.live);
}

TEST(TilePixels, WithoutAgeShadingTheLastFrameIsIgnored) {
  Lattice l(32, 32);
  const Palette pal;
  Sampling s;
  s.cells_per_pixel = 1.0 / 8;
  std::vector<std::uint32_t> px(64 * 64, pal.live);
  render_tile_host(l, 64, 64, s, pal, px);
  EXPECT_TRUE(std::all_of(px.begin(), px.end(), [&](std::uint32_t c) { return c == pal.dead; }));
}

TEST(TilePixels, ZoomedOutAgeShadingFadesDownToTheShadeOfTheCellsLeft) {
  Lattice l(32, 32);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) l.set(x, y, true);  // pixel (0, 0) at 4 cells per pixel: all live
  Palette pal;
  pal.dead = 0xff000000u;
  pal.live = 0xffc8c8c8u;
  Sampling s;
  s.cells_per_pixel = 4;
  s.age_shading = true;
  std::vector<std::uint32_t> px;
  render_tile_host(l, 8, 8, s, pal, px);
  EXPECT_EQ(px[0], pal.live);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 2; ++x) l.set(x, y, false);  // 8 of 16 left: shade 141 (0x8d)
  render_tile_host(l, 8, 8, s, pal, px);
  EXPECT_EQ(px[0], 0xffa2a2a2u);  // 200 * 13 / 16 = 162: still brighter than the shade now
  for (int frame = 0; frame < 10; ++frame) render_tile_host(l, 8, 8, s, pal, px);
  EXPECT_EQ(px[0], 0xff8d8d8du);  // and not below it
}

}  // namespace
}  // namespace ls::render
