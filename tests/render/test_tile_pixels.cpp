// test_tile_pixels.cpp — the host tile renderer draws cells where they are: zoomed in, crisp cells
// with grid lines on their first pixel; zoomed out, a pixel shaded by the square root of its live
// fraction; with age shading, cells that died fade towards the dead colour over a few frames.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/lattice.hpp"
#include "render/tile_pixels.hpp"

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
