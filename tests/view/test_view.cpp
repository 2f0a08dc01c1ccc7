// test_view.cpp — tile layout and view math: tiles keep cells square and fill the window well;
// zoom keeps the point under the cursor and pans wrap on the torus; a label lies on its own tile;
// a fitted region fills its tile with a margin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

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

// The best common scale of tiles split into rows [starts[r], starts[r + 1]) in `area`: every
// tile has its lattice's aspect and one area (a layout where some tile is larger can shrink it
// to the smallest one's area and still fit, so the smallest tile is largest at one common area).
double rows_scale(const std::vector<Extent>& lattices, const std::vector<std::size_t>& starts,
                  const Rect& area) {
  double best = 1e300, heights = 0;
  for (std::size_t r = 0; r < starts.size(); ++r) {
    const std::size_t end = r + 1 < starts.size() ? starts[r + 1] : lattices.size();
    double widths = 0, tallest = 0;
    for (std::size_t i = starts[r]; i < end; ++i) {
      const double root = std::sqrt(static_cast<double>(lattices[i].w) / lattices[i].h);
      widths += root;
      tallest = std::max(tallest, 1 / root);
    }
    heights += tallest;
    best = std::min(best, (area.w - kTileGap * (end - starts[r] + 1.0)) / widths);
  }
  return std::min(best, (area.h - kTileGap * (starts.size() + 1.0)) / heights);
}

// The best scale over every split of the tiles, in order, into rows (every grid among them).
double best_over_all_arrangements(const std::vector<Extent>& lattices, const Rect& area) {
  const std::size_t n = lattices.size();
  double best = 0;
  for (unsigned mask = 0; mask < (1u << (n - 1)); ++mask) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 1; i < n; ++i)
      if (mask & (1u << (i - 1))) starts.push_back(i);
    best = std::max(best, rows_scale(lattices, starts, area));
  }
  return best;
}

// The smallest tile's scale at common scale `k` in whole pixels, as layout_tiles floors them (a
// hair under k, so that a scale the layout reached to within rounding counts).
double floored_smallest(const std::vector<Extent>& lattices, double k) {
  k *= 1 - 1e-7;
  double least = 1e300;
  for (const Extent& e : lattices) {
    const double root = std::sqrt(static_cast<double>(e.w) / e.h);
    least = std::min(least, tile_scale(Rect{0, 0, static_cast<int>(k * root), static_cast<int>(k / root)}));
  }
  return least;
}

double smallest_scale(const std::vector<Rect>& rects) {
  double least = 1e300;
  for (const Rect& r : rects) least = std::min(least, tile_scale(r));
  return least;
}

void expect_inside_and_disjoint(const std::vector<Rect>& rects, const Rect& area) {
  for (std::size_t i = 0; i < rects.size(); ++i) {
    const Rect& r = rects[i];
    EXPECT_GE(r.x, area.x) << i;
    EXPECT_GE(r.y, area.y) << i;
    EXPECT_LE(r.x + r.w, area.x + area.w) << i;
    EXPECT_LE(r.y + r.h, area.y + area.h) << i;
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(overlap(r, rects[j])) << i << " " << j;
  }
}

TEST(Layout, AWideLatticeAmongSquaresGetsTheBestSmallestTileInEveryArrangement) {
  // A 1728x704 pattern loaded into one of four 1024^2 instances, in the tile area beside the
  // panel and in whole windows of 1280x720 and 1920x1080.
  for (std::size_t wide = 0; wide < 4; ++wide) {
    std::vector<Extent> lattices(4, Extent{1024, 1024});
    lattices[wide] = Extent{1728, 704};
    for (const Rect& area :
         {Rect{540, 0, 740, 720}, Rect{0, 0, 1280, 720}, Rect{540, 0, 1380, 1080}, Rect{0, 0, 1920, 1080}}) {
      SCOPED_TRACE("wide tile " + std::to_string(wide) + " in " + std::to_string(area.w) + "x" +
                   std::to_string(area.h));
      const auto rects = layout_tiles(area, lattices);
      ASSERT_EQ(rects.size(), 4u);
      expect_inside_and_disjoint(rects, area);
      EXPECT_GE(smallest_scale(rects),
                floored_smallest(lattices, best_over_all_arrangements(lattices, area)));
      for (std::size_t i = 0; i < 4; ++i) {
        // Each tile is its lattice's fitted picture: cells square, nothing of the tile left empty.
        const Placement p = place(View{}, rects[i], lattices[i].w, lattices[i].h);
        EXPECT_LE(std::abs(p.quad.w - rects[i].w) + std::abs(p.quad.h - rects[i].h), 1) << i;
      }
      // Every tile as large as the smallest, to a pixel: not one column of small tiles.
      for (const Rect& r : rects) EXPECT_LE(tile_scale(r), smallest_scale(rects) + 1.5);
    }
  }
}

TEST(Layout, MixedLatticesBeatOneGridOfTheFirstLatticesShape) {
  // Before: every tile took instance 0's shape and the wide lattice was fitted inside its square,
  // about 200 px wide at 1920x1080; its picture is now several times the area.
  const std::vector<Extent> lattices{{1024, 1024}, {1728, 704}, {1024, 1024}, {1024, 1024}};
  const Rect area{540, 0, 1380, 1080};
  const auto old_grid = layout_tiles(area, 4, 1024, 1024);
  const Placement old_wide = place(View{}, old_grid[1], 1728, 704);
  const auto rects = layout_tiles(area, lattices);
  EXPECT_GT(static_cast<double>(rects[1].w) * rects[1].h, 1.5 * old_wide.quad.w * old_wide.quad.h);
}

TEST(Layout, TilesOfManyShapesStayInsideTheAreaAndApart) {
  const std::vector<Extent> shapes{{1024, 1024}, {1728, 704}, {64, 2048}, {4096, 96}, {256, 512}, {96, 96}};
  for (std::size_t n = 1; n <= 24; ++n) {
    std::vector<Extent> lattices;
    for (std::size_t i = 0; i < n; ++i) lattices.push_back(shapes[(i * 7) % shapes.size()]);
    for (const Rect& area : {Rect{0, 0, 1280, 720}, Rect{300, 10, 500, 900}, Rect{0, 0, 1920, 1080}}) {
      const auto rects = layout_tiles(area, lattices);
      ASSERT_EQ(rects.size(), n);
      expect_inside_and_disjoint(rects, area);
      if (n > 12) continue;  // the arrangements to try double with each tile
      EXPECT_GE(smallest_scale(rects), floored_smallest(lattices, best_over_all_arrangements(lattices, area)))
          << n;
    }
  }
}

TEST(Labels, ALabelLiesInsideItsTileAndShortensAsTheTileShrinks) {
  // Text sizes of a label's forms, fullest first (two lines of 15 px text, then one line).
  const std::vector<std::pair<double, double>> texts{{300, 34}, {230, 34}, {90, 17}, {24, 17}};
  const double pad = 3;
  struct Case {
    int side;
    int choice;  // -1: no label
  };
  for (const Case c : {Case{700, 0}, Case{280, 1}, Case{130, 2}, Case{80, 3}, Case{60, -1}}) {
    const Rect tile{100, 40, c.side, c.side};
    const auto label = place_label(tile, texts, pad);
    if (c.choice < 0) {
      EXPECT_FALSE(label) << c.side;
      continue;
    }
    ASSERT_TRUE(label) << c.side;
    EXPECT_EQ(label->choice, static_cast<std::size_t>(c.choice)) << c.side;
    const Rect& b = label->box;
    EXPECT_TRUE(b.x >= tile.x && b.y >= tile.y && b.x + b.w <= tile.x + tile.w &&
                b.y + b.h <= tile.y + tile.h);
    EXPECT_LE(b.h, kLabelMaxHeightFraction * tile.h);
    EXPECT_LE(static_cast<double>(b.w) * b.h, kLabelMaxAreaFraction * tile.w * tile.h);
  }
}

TEST(Labels, EveryLabelOfAMixedLayoutLiesOnItsOwnTile) {
  const std::vector<Extent> lattices{{1024, 1024}, {1728, 704}, {1024, 1024}, {1024, 1024}};
  for (const Rect& area : {Rect{540, 0, 740, 720}, Rect{540, 0, 1380, 1080}}) {
    const auto rects = layout_tiles(area, lattices);
    for (std::size_t i = 0; i < rects.size(); ++i) {
      const auto label = place_label(rects[i], {{230, 34}, {24, 17}}, 3);
      ASSERT_TRUE(label) << i;
      const Rect& b = label->box;
      EXPECT_TRUE(b.x >= rects[i].x && b.y >= rects[i].y && b.x + b.w <= rects[i].x + rects[i].w &&
                  b.y + b.h <= rects[i].y + rects[i].h)
          << i;
      for (std::size_t j = 0; j < rects.size(); ++j) {
        if (j == i) continue;
        EXPECT_FALSE(overlap(b, rects[j])) << i << " over " << j;
      }
    }
  }
}

TEST(View, TheCellUnderTheCursorFollowsTheZoomAndWrapsOnTheTorus) {
  const Rect tile{100, 50, 400, 400};
  // Fitted: 400 px for 100 cells, 4 px a cell from the tile's corner.
  const Placement fit = place(View{}, tile, 100, 100);
  EXPECT_EQ(cell_at(fit, 100, 100, 100, 50), (CellPos{0, 0}));
  EXPECT_EQ(cell_at(fit, 100, 100, 100 + 4 * 37 + 3.9, 50 + 4 * 12), (CellPos{37, 12}));
  EXPECT_EQ(cell_at(fit, 100, 100, 499.9, 449.9), (CellPos{99, 99}));
  EXPECT_FALSE(cell_at(fit, 100, 100, 99, 60));   // left of the tile
  EXPECT_FALSE(cell_at(fit, 100, 100, 500, 60));  // right of it
  // Zoomed to 10 px a cell and panned past the lattice's edge: the torus wraps.
  View v;
  set_zoom(v, tile, 100, 100, 10);
  pan_cells(v, tile, 100, 100, 50, 50);  // the tile's centre shows (0, 0) = (100, 100)
  const Placement p = place(v, tile, 100, 100);
  EXPECT_EQ(cell_at(p, 100, 100, 300, 250), (CellPos{0, 0}));
  EXPECT_EQ(cell_at(p, 100, 100, 300 - 5, 250 - 25), (CellPos{99, 97}));
}

TEST(View, AFittedRegionFillsTheTileWithAMarginAndKeepsFittingAsTheTileChanges) {
  // A glider's 3x3 box at (510, 510) in 1024^2: at the whole lattice's fit it is 2 pixels.
  const View v = fit_region(510, 510, 3, 3);
  EXPECT_TRUE(v.fit);
  for (const Rect& tile : {Rect{0, 0, 400, 400}, Rect{10, 20, 900, 500}}) {
    const Placement p = place(v, tile, 1024, 1024);
    // The glider with room to fly: the fewest cells a region spans.
    const double margin = (kMinRegionCells - 3) / 2;
    EXPECT_NEAR(p.pixels_per_cell, std::min(tile.w, tile.h) / kMinRegionCells, 1e-9);
    // The box and its margin are on screen, centred.
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    screen_to_cell(p, tile.x, tile.y, x0, y0);
    screen_to_cell(p, tile.x + tile.w, tile.y + tile.h, x1, y1);
    EXPECT_LE(x0, 510 - margin + 1e-9);
    EXPECT_LE(y0, 510 - margin + 1e-9);
    EXPECT_GE(x1, 513 + margin - 1e-9);
    EXPECT_GE(y1, 513 + margin - 1e-9);
    EXPECT_NEAR((x0 + x1) / 2, 511.5, 1e-9);
  }
  // A larger pattern gets a margin of a tenth of its side.
  const Placement big = place(fit_region(100, 200, 400, 100), Rect{0, 0, 960, 960}, 1024, 1024);
  EXPECT_NEAR(big.pixels_per_cell, 960 / (400 + 2 * 40.0), 1e-9);
  // A region larger than the lattice shows the whole lattice; a point zooms in no further than a
  // person can.
  EXPECT_DOUBLE_EQ(place(fit_region(0, 0, 1024, 1024), Rect{0, 0, 512, 512}, 1024, 1024).pixels_per_cell,
                   0.5);
  EXPECT_DOUBLE_EQ(place(fit_region(5, 5, 1, 1), Rect{0, 0, 20000, 20000}, 64, 64).pixels_per_cell,
                   kMaxPixelsPerCell);
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
