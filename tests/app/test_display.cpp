// test_display.cpp — how the tiles and the ImGui layer reach the screen: the cached ImGui layer
// shows the tile labels, the interop render kernels draw the same pixels as the
// textbook path (host copy + the CPU twin + glTexSubImage2D), age shading fades a cell that died
// on every backend, and --report gives both paths' cost. In this process, on a headless GL
// context: the host filler uploads the CPU twin's pixels, and a tile keeps its texture, and what
// its filler keeps beside it, while its size stays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>

#include "app/rates.hpp"
#include "core/cpu_engine.hpp"
#include "render/headless.hpp"
#include "render/host_filler.hpp"
#include "render/paths.hpp"
#include "render/tile_pixels.hpp"
#include "render/tiles.hpp"
#include "support/app_test_util.hpp"
#include "ui/regions.hpp"
#include "view/view.hpp"

namespace ls::test {
namespace {

bool have_cuda(const ScratchDir& dir) {
  return shell(dir, quoted_app() + " run --backend cuda --width 32 --height 32 --generations 0") == 0;
}

// Tile labels (translucent boxes, antialiased text) over a paused scene reach the screen through
// the cached ImGui layer: their light text stands on a dark box over the tile.
TEST(Display, CachedImGuiLayerShowsTheTileLabels) {
  ScratchDir dir;
  dir.write("labels.script", "pause\npanel off\nsize 256 256\ninstances 3\nstep 5\nscreenshot s.png\nquit\n");
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --size 640x360 --script labels.script"),
            0)
      << dir.read("out.txt");
  const Png cached = load_png(dir.file("s.png"));
  ASSERT_TRUE(cached.ok());
  ASSERT_EQ(cached.width, 640);
  ASSERT_EQ(cached.height, 360);
  const auto rects = view::layout_tiles(view::Rect{0, 0, 640, 360}, 3, 256, 256);
  int light = 0;
  for (int y = rects[0].y; y < rects[0].y + 30; ++y)
    for (int x = rects[0].x; x < rects[0].x + 60; ++x) light += (cached.at(x, y) & 0xff) > 180;
  EXPECT_GT(light, 20) << "no label text in tile 0";
}

// The cached layer is blended only inside these regions: each pixel ImGui may have drawn is in
// exactly one of them (twice would blend it twice), and a panel-shaped box needs one region.
TEST(Display, LayerRegionsCoverEveryBoxOnce) {
  const int w = 1000, h = 700;
  std::vector<ui::Region> boxes = {{-20, -5, 60, 40}, {990, 690, 50, 50}, {100, 100, 1, 1}};
  std::uint32_t seed = 12345;
  auto next = [&seed](int n) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 8) % static_cast<std::uint32_t>(n));
  };
  for (int i = 0; i < 60; ++i) boxes.push_back({next(w), next(h), 1 + next(200), 1 + next(60)});
  const auto regions = ui::covering_regions(boxes, w, h, 16);
  std::vector<int> count(static_cast<std::size_t>(w) * h, 0);
  for (const ui::Region& r : regions) {
    ASSERT_TRUE(r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= w && r.y + r.h <= h);
    for (int y = r.y; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) ++count[static_cast<std::size_t>(y) * w + x];
  }
  EXPECT_LE(*std::max_element(count.begin(), count.end()), 1) << "regions overlap";
  int uncovered = 0;
  for (const ui::Region& b : boxes)
    for (int y = std::max(0, b.y); y < std::min(h, b.y + b.h); ++y)
      for (int x = std::max(0, b.x); x < std::min(w, b.x + b.w); ++x)
        uncovered += count[static_cast<std::size_t>(y) * w + x] == 0;
  EXPECT_EQ(uncovered, 0);
  EXPECT_EQ(ui::covering_regions({{0, 0, 420, 700}}, w, h, 16).size(), 1u);
}

TEST(Display, ReportSaysHowTheFrameWasDrawn) {
  ScratchDir dir;
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --width 256 --height 256 --instances 2 --frames 6 "
                           "--size 640x360 --report r.json"),
            0)
      << dir.read("out.txt");
  const std::string r = dir.read("r.json");
  // The CPU engine's tiles are made on the host and uploaded: not interop, whatever the default says.
  for (const char* field :
       {"\"display\": {\"path\": \"host-upload\"", "\"update_ms\"", "\"map_wait_ms\": null",
        "\"loop_ms_per_tile\": null", "\"interop_ms_per_tile\"", "\"textbook_ms_per_tile\"",
        "\"textbook_over_interop\"", "\"ui\": {\"layer\": \"cached\"", "\"rebuilds\"", "\"build_ms\"",
        "\"draw_ms\"", "\"instances\"", "\"hash\""})
    EXPECT_NE(r.find(field), std::string::npos) << field << " missing in\n" << r;
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --width 64 --height 64 --frames 2 --size 320x180 "
                           "--display-path textbook --report t.json"),
            0)
      << dir.read("out.txt");
  EXPECT_NE(dir.read("t.json").find("\"display\": {\"path\": \"host-upload\""), std::string::npos)
      << dir.read("t.json");
  EXPECT_EQ(shell(dir, quoted_app() + " --headless --backend cpu --display-path pci --frames 1"), 2);
  EXPECT_NE(dir.read("out.txt").find("--display-path pci"), std::string::npos) << dir.read("out.txt");
}

// Every way a tile samples its lattice (zoomed far out by regular samples, zoomed out by counts,
// zoomed in, with grid lines) on both layouts (bytes: global, shared, iterate; bits: bitpacked):
// the render kernels write the very pixels the textbook path makes on the host.
TEST(Display, InteropDrawsTheSamePixelsAsTheTextbookPath) {
  ScratchDir dir;
  if (!have_cuda(dir)) GTEST_SKIP() << "no usable CUDA device: " << dir.read("out.txt");
  // 8 tiles of about 235 pixels show 8192 cells: about 35 cells per pixel, past the 32 samples
  // per axis where the kernel stops counting every cell.
  dir.write("views.script",
            "pause\npanel off\nsize 8192 8192\ninstances 8\nstep 3\nzoom 1 0.3\nzoom 2 4\nzoom 3 8\n"
            "screenshot views.png\nquit\n");
  for (const char* path : {"interop", "textbook"}) {
    ASSERT_EQ(shell(dir, quoted_app() + " --headless --backend cuda --size 960x540 --display-path " + path +
                             " --script views.script && mv views.png " + path + ".png"),
              0)
        << dir.read("out.txt");
  }
  const Png interop = load_png(dir.file("interop.png"));
  const Png textbook = load_png(dir.file("textbook.png"));
  ASSERT_TRUE(interop.ok() && textbook.ok());
  const auto rects = view::layout_tiles(view::Rect{0, 0, 960, 540}, 8, 8192, 8192);
  ASSERT_EQ(rects.size(), 8u);
  long long compared = 0;
  for (std::size_t t = 0; t < rects.size(); ++t) {
    const view::Rect& r = rects[t];
    int differ = 0;
    // Below the label (its population may be pending in one run and known in the other).
    for (int y = r.y + 48; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) {
        differ += interop.at(x, y) != textbook.at(x, y);
        ++compared;
      }
    EXPECT_EQ(differ, 0) << "tile " << t;
  }
  EXPECT_GT(compared, 8 * 150 * 150);
}

// Each of r, g, b of the screenshot pixel `c` (0xBBGGRR) strictly between the dead and live
// colours' (the default palette is brighter live in every channel), and of `brighter` too.
bool between(std::uint32_t c, std::uint32_t darker, std::uint32_t brighter) {
  for (int shift = 0; shift < 24; shift += 8) {
    const std::uint32_t v = (c >> shift) & 0xffu;
    if (v <= ((darker >> shift) & 0xffu) || v >= ((brighter >> shift) & 0xffu)) return false;
  }
  return true;
}

// One live cell, cleared: with `age on` its pixels glow between live and dead for the next frames,
// darker each time, and are dead again some 20 frames later; with age shading off (the default)
// they are dead at once. On the CPU backend, and through interop when there is a CUDA device.
TEST(Display, AgeShadingFadesACellThatDiedOverAFewFrames) {
  ScratchDir dir;
  std::vector<std::string> backends = {"cpu"};
  if (have_cuda(dir)) backends.push_back("cuda");
  const render::Palette pal;
  const std::uint32_t live = pal.live & 0xffffffu, dead = pal.dead & 0xffffffu;
  const auto rects = view::layout_tiles(view::Rect{0, 0, 640, 360}, 1, 64, 64);
  ASSERT_EQ(rects.size(), 1u);
  view::View view;
  view::set_zoom(view, rects[0], 64, 64, 8);
  const view::Placement p = view::place(view, rects[0], 64, 64);
  const int px = p.quad.x + static_cast<int>(std::floor((32.5 - p.origin_x) * 8));
  const int py = p.quad.y + static_cast<int>(std::floor((32.5 - p.origin_y) * 8));
  for (const std::string& backend : backends) {
    for (const char* age : {"on", "off"}) {
      SCOPED_TRACE(backend + ", age " + age);
      dir.write("fade.script", std::string("pause\npanel off\ndensity 0\nsize 64 64\ninstances 1\nage ") +
                                   age +
                                   "\nzoom 0 8\nset 0 32 32 1\nframes 2\nscreenshot live.png\n"
                                   "set 0 32 32 0\nscreenshot f1.png\nframes 3\nscreenshot f5.png\n"
                                   "frames 30\nscreenshot f36.png\nquit\n");
      ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() + " --headless --backend " + backend +
                               " --size 640x360 --script fade.script"),
                0)
          << dir.read("out.txt");
      const Png shot_live = load_png(dir.file("live.png")), f1 = load_png(dir.file("f1.png"));
      const Png f5 = load_png(dir.file("f5.png")), f36 = load_png(dir.file("f36.png"));
      ASSERT_TRUE(shot_live.ok() && f1.ok() && f5.ok() && f36.ok());
      EXPECT_EQ(shot_live.at(px, py), live);
      if (std::string(age) == "on") {
        EXPECT_TRUE(between(f1.at(px, py), dead, live)) << std::hex << f1.at(px, py);
        EXPECT_TRUE(between(f5.at(px, py), dead, f1.at(px, py))) << std::hex << f5.at(px, py);
      } else {
        EXPECT_EQ(f1.at(px, py), dead);
        EXPECT_EQ(f5.at(px, py), dead);
      }
      EXPECT_EQ(f36.at(px, py), dead);
      EXPECT_EQ(f1.at(px + 16, py), dead) << "a cell that was never live";
    }
  }
}

// A running soup with age shading on, zoomed out and in: the interop kernels, reading their own
// last frame from the texture, draw the very pixels the textbook path fades from its host copy.
TEST(Display, InteropAgeShadingDrawsTheSamePixelsAsTheTextbookPath) {
  ScratchDir dir;
  if (!have_cuda(dir)) GTEST_SKIP() << "no usable CUDA device: " << dir.read("out.txt");
  dir.write("age.script",
            "panel off\nsize 2048 2048\ninstances 4\nage on\nzoom 1 0.3\nzoom 2 4\nzoom 3 8\nframes 12\n"
            "screenshot age.png\nquit\n");
  for (const char* path : {"interop", "textbook"}) {
    ASSERT_EQ(shell(dir, quoted_app() + " --headless --backend cuda --size 960x540 --display-path " + path +
                             " --script age.script && mv age.png " + path + ".png"),
              0)
        << dir.read("out.txt");
  }
  const Png interop = load_png(dir.file("interop.png"));
  const Png textbook = load_png(dir.file("textbook.png"));
  ASSERT_TRUE(interop.ok() && textbook.ok());
  const auto rects = view::layout_tiles(view::Rect{0, 0, 960, 540}, 4, 2048, 2048);
  ASSERT_EQ(rects.size(), 4u);
  const render::Palette pal;
  for (std::size_t t = 0; t < rects.size(); ++t) {
    const view::Rect& r = rects[t];
    int differ = 0, fading = 0;
    for (int y = r.y + 48; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) {
        differ += interop.at(x, y) != textbook.at(x, y);
        fading += between(interop.at(x, y), pal.dead & 0xffffffu, pal.live & 0xffffffu);
      }
    EXPECT_EQ(differ, 0) << "tile " << t;
    if (t == 2) {
      EXPECT_GT(fading, 500) << "no fading cells in the zoomed-in tile";
    }
  }
}

// A tile texture's pixels as 0xAABBGGRR, row 0 first (the layout render_tile_host fills).
std::vector<std::uint32_t> texture_pixels(const render::Tile& tile) {
  std::vector<std::uint32_t> pixels(static_cast<std::size_t>(tile.width) * tile.height);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTextureImage(tile.texture.get(), 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(pixels.size() * 4),
                    pixels.data());
  return pixels;
}

// Tile 0 shows its whole lattice, tile 1 is zoomed in to 8 pixels per cell (grid lines on).
std::vector<view::Placement> two_tiles(int cells) {
  const auto rects = view::layout_tiles(view::Rect{0, 0, 320, 160}, 2, cells, cells);
  view::View zoomed;
  view::set_zoom(zoomed, rects[1], cells, cells, 8);
  return {view::place(view::View{}, rects[0], cells, cells), view::place(zoomed, rects[1], cells, cells)};
}

// The CPU engine's tiles, read in place (as the engine factory binds them) or copied through
// Engine::read: each texture holds exactly the pixels render_tile_host makes from the lattice, and
// each tile's upload is one display bracket of the timed frame.
TEST(Tiles, HostFillerUploadsTheCpuTwinsPixelsInOneDisplayBracketPerTile) {
  render::HeadlessContext context(-1);
  for (const bool in_place : {true, false}) {
    SCOPED_TRACE(in_place ? "in place" : "through Engine::read");
    CpuEngine engine;
    for (std::uint64_t seed : {1u, 2u}) {
      InstanceSpec spec;
      spec.width = spec.height = 64;
      spec.init = RandomInit{0.3, seed};
      engine.add(spec);
    }
    engine.step(1);
    render::LatticeView view;
    if (in_place) view = [&engine](std::size_t i) -> const Lattice& { return engine.lattice(i); };
    render::TileRenderer renderer(render::find_data_dir("shaders"),
                                  std::make_unique<render::HostTileFiller>(engine, view));
    const auto placements = two_tiles(64);
    const render::DisplayOptions options{true, false};
    const render::Palette palette;
    renderer.update(placements, options, palette);
    ASSERT_EQ(renderer.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      const render::Tile& tile = *renderer.tiles()[i];
      std::vector<std::uint32_t> expected;
      render_tile_host(engine.read(i), tile.width, tile.height, render::sampling_for(placements[i], options),
                       palette, expected);
      EXPECT_EQ(texture_pixels(tile), expected) << "tile " << i;
      EXPECT_EQ(tile.drawn, render::Tile::Drawn::host);
      EXPECT_EQ(engine.status(i).display_ms.samples, 1) << "tile " << i;
    }
  }
}

// What a filler keeps beside a texture, with the texture's name and a log of whether that texture
// still existed when it went.
struct Kept final : render::TileAttachment {
  Kept(GLuint texture, std::vector<bool>& log) : texture(texture), log(log) {}
  ~Kept() override { log.push_back(glIsTexture(texture) == GL_TRUE); }
  GLuint texture;
  std::vector<bool>& log;
};

// What the renderer asked of a filler, kept by the test: the filler goes with the renderer.
struct FillerLog {
  int attached = 0;
  int finished = 0;
  std::vector<bool> released_with_texture;
};

// Logs what the renderer asks of it; fills nothing.
struct RecordingFiller final : render::TileFiller {
  explicit RecordingFiller(FillerLog& log) : log(log) {}
  std::unique_ptr<render::TileAttachment> attach(const render::Tile& tile) override {
    ++log.attached;
    return std::make_unique<Kept>(tile.texture.get(), log.released_with_texture);
  }
  void finish_writes() override { ++log.finished; }
  void fill(render::Tiles, const std::vector<view::Placement>&, const render::DisplayOptions&,
            const render::Palette&, render::DisplayPath) override {}
  FillerLog& log;
};

// A registration with CUDA must go before its texture, and only when the texture does: the tile
// keeps its texture and attachment while its size stays, the filler's writes are finished before
// any texture goes, and every attachment is released while its texture still exists.
TEST(Tiles, ATileKeepsItsTextureWhileItsSizeStaysAndReleasesItsAttachmentFirst) {
  render::HeadlessContext context(-1);
  FillerLog log;
  {
    render::TileRenderer renderer(render::find_data_dir("shaders"), std::make_unique<RecordingFiller>(log));
    auto placements = two_tiles(64);
    renderer.sync(placements);
    EXPECT_EQ(log.attached, 2);
    const GLuint first = renderer.tiles()[0]->texture.get();
    renderer.update(placements, {}, render::Palette{});
    renderer.sync(placements);
    EXPECT_EQ(log.attached, 2) << "same sizes: nothing made again";
    const int finished = log.finished;
    placements[1].quad.w -= 10;
    renderer.sync(placements);
    EXPECT_EQ(log.attached, 3) << "only the resized tile is made again";
    EXPECT_EQ(log.finished, finished + 1) << "writes finished before a texture goes";
    EXPECT_EQ(renderer.tiles()[0]->texture.get(), first);
    EXPECT_EQ(renderer.tiles()[1]->width, placements[1].quad.w);
    EXPECT_EQ(log.released_with_texture.size(), 1u);
  }
  EXPECT_EQ(log.released_with_texture.size(), 3u) << "every attachment released";
  for (bool with_texture : log.released_with_texture) EXPECT_TRUE(with_texture);
}

TEST(Display, ReportGivesBothDisplayPathsCostInOneRun) {
  ScratchDir dir;
  if (!have_cuda(dir)) GTEST_SKIP() << "no usable CUDA device: " << dir.read("out.txt");
  ASSERT_EQ(shell(dir, quoted_app() + " --headless --backend cuda --instances 4 --frames 30 --report r.json"),
            0)
      << dir.read("out.txt");
  const std::string r = dir.read("r.json");
  const std::regex cost("\"interop_ms_per_tile\": ([0-9.e+-]+), \"textbook_ms_per_tile\": ([0-9.e+-]+)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r, m, cost)) << r;
  const double interop = std::stod(m[1]), textbook = std::stod(m[2]);
  EXPECT_GT(interop, 0);
  // Copying to the host and back can never be the cheaper way.
  EXPECT_GT(textbook, interop) << r;
  EXPECT_NE(r.find("\"tiles\": 4"), std::string::npos) << r;
  EXPECT_EQ(r.find("\"map_wait_ms\": null"), std::string::npos) << r;
  // Inside the frame loop: the render work and the map and unmap calls, per tile.
  const std::regex loop("\"loop_ms_per_tile\": ([0-9.e+-]+)");
  ASSERT_TRUE(std::regex_search(r, m, loop)) << r;
  const double in_loop = std::stod(m[1]);
  EXPECT_GT(in_loop, 0);
  EXPECT_GT(textbook, in_loop) << r;
}

}  // namespace
}  // namespace ls::test

namespace ls::test {
namespace {

using app::DeliveredRate;

double json_number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return -1;
  return std::stod(json.substr(at + key.size() + 4));
}

// Delivered counts what the app advanced per wall-clock second: for N instances of W x H at G
// generations a frame, delivered / fps is N * W * H * G, whatever the kernels' own rate. The kernel
// rate is the engine's step rate, a different figure (here the CPU's steps are a part of each
// frame, so it is higher).
TEST(Display, ReportDeliveredIsCellsTimesGenerationsPerWallSecond) {
  ScratchDir dir;
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --width 256 --height 128 --instances 3 "
                           "--generations-per-frame 4 --frames 120 --size 640x360 --report r.json"),
            0)
      << dir.read("out.txt");
  const std::string r = dir.read("r.json");
  const double fps = json_number(r, "fps");
  const double delivered = json_number(r, "delivered_cups");
  const double kernel = json_number(r, "kernel_cups");
  ASSERT_GT(fps, 0) << r;
  EXPECT_NEAR(delivered / fps, 3.0 * 256 * 128 * 4, 3.0 * 256 * 128 * 4 * 0.01) << r;
  EXPECT_GT(kernel, delivered) << r;
  EXPECT_GE(json_number(r, "span_ms"), 0) << r;
  EXPECT_EQ(json_number(r, "span_ms"), json_number(r, "gpu_span_ms")) << r;
}

TEST(Display, DeliveredRateIsOverTheLastSecond) {
  DeliveredRate rate;
  rate.add(0.0, 0);
  rate.add(0.5, 2 * 100 * 100 * 10);
  rate.add(1.0, 2 * 100 * 100 * 10);
  EXPECT_DOUBLE_EQ(rate.per_second(), 2 * 100 * 100 * 20 / 1.0);
  // Only the last second counts: a burst long ago does not lift today's figure.
  rate.add(1.5, 0);
  rate.add(2.6, 0);
  rate.add(2.7, 0);
  EXPECT_DOUBLE_EQ(rate.per_second(), 0);
  EXPECT_DOUBLE_EQ(rate.total(), 2 * 100 * 100 * 20.0);
}

}  // namespace
}  // namespace ls::test
