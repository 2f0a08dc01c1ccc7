// test_remote_tiles.cpp — CudaTileFiller's remote and split tiles (instances on another GPU than
// the display's, or split across GPUs): rendered where they run, copied over by events, they show
// the very pixels the one-GPU path draws for the same state, frame after frame while stepping, in
// every stream mode and with age shading; the run makes no host sync per frame and the report
// names the path. On one GPU through two MultiEngine slots of device 0 (the copy is then within
// one device, with all the ordering of two); with two GPUs, also across them. Skipped without a
// CUDA device.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "app/engine_factory_gui.hpp"
#include "core/engine.hpp"
#include "core/error.hpp"
#include "interop/cuda_tile_filler.hpp"
#include "multi/multi_engine.hpp"
#include "multi/split_engine.hpp"
#include "multi/split_lattice.hpp"
#include "render/headless.hpp"
#include "render/paths.hpp"
#include "render/tiles.hpp"
#include "sim/cuda_engine.hpp"
#include "support/app_test_util.hpp"
#include "view/view.hpp"

namespace ls::test {
namespace {

/// A tile's pixels where its filler drew them last (the shared atlas at its place), row 0 first.
std::vector<std::uint32_t> shown_pixels(const render::Tile& tile) {
  std::vector<std::uint32_t> pixels(static_cast<std::size_t>(tile.width) * tile.height);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  const GLuint texture = tile.source ? tile.source : tile.texture.get();
  glGetTextureSubImage(texture, 0, tile.source_x, tile.source_y, 0, tile.width, tile.height, 1, GL_RGBA,
                       GL_UNSIGNED_BYTE, static_cast<GLsizei>(pixels.size() * 4), pixels.data());
  return pixels;
}

/// A MultiEngine over CudaEngines on `devices` (a device may repeat) and those engines.
struct Slots {
  std::unique_ptr<multi::MultiEngine> engine;
  std::vector<sim::CudaEngine*> cuda;
};
Slots cuda_slots(const std::vector<int>& devices) {
  Slots out;
  std::vector<multi::DeviceSlot> slots;
  for (const int d : devices) {
    const auto make_current = [d] {
      if (cudaSetDevice(d) != cudaSuccess)
        throw DeviceError("cudaSetDevice(" + std::to_string(d) + ") failed");
    };
    make_current();
    auto cuda = std::make_unique<sim::CudaEngine>(d);
    out.cuda.push_back(cuda.get());
    slots.push_back(multi::DeviceSlot{d, std::move(cuda), make_current});
  }
  out.engine = std::make_unique<multi::MultiEngine>(std::move(slots), multi::RepeatedDevicesForTests{});
  return out;
}

/// Instance places as the app's factory gives them (MultiEngine::local_of).
interop::InstancePlaces places_of(multi::MultiEngine& engine) {
  return [&engine](std::size_t n, std::vector<interop::InstancePlace>& out) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = {engine.slot_of(i), engine.local_of(i), {}, {}, {}};
  };
}

/// Four tiles: the whole lattice, zoomed in to 6 pixels per cell (grid lines), zoomed out past
/// 32 samples per axis, and zoomed in a little.
std::vector<view::Placement> four_tiles(int cells) {
  const auto rects = view::layout_tiles(view::Rect{0, 0, 640, 360}, 4, cells, cells);
  std::vector<view::Placement> out;
  const double zooms[4] = {0, 6, 0.02, 2};
  for (std::size_t i = 0; i < rects.size(); ++i) {
    view::View v;
    if (zooms[i] > 0) view::set_zoom(v, rects[i], cells, cells, zooms[i]);
    out.push_back(view::place(v, rects[i], cells, cells));
  }
  return out;
}

// Instances 1 and 3 run on slot 1, not the display's: their tiles, rendered there and copied into
// the display's texture, equal the one-GPU path's cell for cell at every frame while stepping,
// also after instances 0 and 1 swap slots halfway.
TEST(RemoteTiles, ShowThePixelsTheOneGpuPathDrawsWhileStepping) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no usable CUDA device: " << why;
  std::vector<std::vector<int>> layouts = {{0, 0}};
  if (cuda_device_count() >= 2) layouts.push_back({0, 1});
  render::HeadlessContext context(0);
  // A CudaEngine's calls run with its device current (MultiEngine's slots make theirs current on
  // every call); the one-GPU engine and its renderer are used between them, so each use says so.
  const auto gpu0 = [] { ASSERT_EQ(cudaSetDevice(0), cudaSuccess); };
  const int cells = 2048;
  const auto placements = four_tiles(cells);
  const render::Palette palette;
  const Variant variants[4] = {Variant::bitpacked, Variant::shared, Variant::iterate, Variant::global};
  for (const auto& devices : layouts) {
    for (const StreamMode mode : {StreamMode::per_instance, StreamMode::shared, StreamMode::graph}) {
      for (const bool age : {false, true}) {
        SCOPED_TRACE("slots on GPUs " + device_list_text(devices) + ", " +
                     std::string(stream_mode_name(mode)) + (age ? ", age shading" : ""));
        sim::CudaEngine one(0);
        Slots several = cuda_slots(devices);
        for (std::size_t i = 0; i < 4; ++i) {
          InstanceSpec spec;
          spec.width = spec.height = cells;
          spec.variant = variants[i];
          spec.generations_per_launch = 4;
          spec.init = RandomInit{0.3, 11 + i};
          several.engine->add_on(spec, i % 2);  // makes the slot's GPU current
          gpu0();
          one.add(spec);
        }
        one.set_stream_mode(mode);
        several.engine->set_stream_mode(mode);
        gpu0();
        render::TileRenderer one_renderer(render::find_data_dir("shaders"),
                                          std::make_unique<interop::CudaTileFiller>(one));
        auto filler = std::make_unique<interop::CudaTileFiller>(*several.engine, several.cuda, 0,
                                                                places_of(*several.engine));
        int peer = 1;
        if (devices[0] != devices[1]) {
          ASSERT_EQ(cudaDeviceCanAccessPeer(&peer, devices[0], devices[1]), cudaSuccess);
        }
        EXPECT_EQ(filler->remote_copy(), peer ? "peer" : "host-staged");
        render::TileRenderer several_renderer(render::find_data_dir("shaders"), std::move(filler));
        const render::DisplayOptions options{true, age};
        std::vector<std::uint32_t> last_remote;
        int remote_changes = 0;
        for (int frame = 0; frame < 8; ++frame) {
          if (frame == 4 && !age) {
            // Instances change GPUs: 0 goes remote, 1 comes to the display's slot (each is appended
            // to its new slot's engine, so a tile must follow the instance, not its old index).
            // Not with age shading: a tile that changes GPU starts its fading trail afresh.
            several.engine->move(0, 1);
            several.engine->move(1, 0);
          }
          several.engine->step(1);
          EXPECT_EQ(several.engine->host_syncs_in_last_step(), 0u);
          gpu0();
          one.step(1);
          one_renderer.update(placements, options, palette);
          several_renderer.update(placements, options, palette);
          for (std::size_t i = 0; i < 4; ++i) {
            const auto want = shown_pixels(*one_renderer.tiles()[i]);
            const auto got = shown_pixels(*several_renderer.tiles()[i]);
            EXPECT_EQ(got, want) << "frame " << frame << ", tile " << i << " (slot "
                                 << several.engine->slot_of(i) << ")";
            if (i == 1) {
              remote_changes += !last_remote.empty() && got != last_remote;
              last_remote = got;
            }
          }
        }
        EXPECT_GT(remote_changes, 4) << "the remote tile showed the soup evolving";
        several.engine->finish();
        // The remote renders were timed on their own GPU's rows like any display work.
        EXPECT_GT(several.engine->status(1).display_ms.samples, 0);
        EXPECT_GT(several.engine->status(3).display_ms.samples, 0);
      }
    }
  }
}

/// "" when equal, else how many pixels differ and the first of them.
std::string pixel_difference(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  if (got.size() != want.size()) return "sizes differ";
  std::size_t n = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && n++ == 0) first = i;
  if (n == 0) return "";
  char buf[128];
  std::snprintf(buf, sizeof buf, "%zu of %zu pixels differ; first %zu: 0x%08x, want 0x%08x", n, got.size(),
                first, got[first], want[first]);
  return buf;
}

// A split instance's tile, drawn band by band (each band counts its rows' live
// samples on its GPU, the display GPU sums and shades), equals the one-GPU path's pixels at every
// frame while stepping: zoomed in with grid lines, zoomed out past 32 samples per axis, with and
// without age shading, for bands of unequal height (a 2080-row lattice), in every layout.
TEST(RemoteTiles, SplitInstancesShowThePixelsTheOneGpuPathDraws) {
  std::string why;
  if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no usable CUDA device: " << why;
  std::vector<std::vector<int>> layouts = {{0, 0}};
  if (cuda_device_count() >= 2) layouts.push_back({0, 1});
  render::HeadlessContext context(0);
  const auto gpu0 = [] { ASSERT_EQ(cudaSetDevice(0), cudaSuccess); };
  const int cells = 2048;
  const auto placements = four_tiles(cells);
  const render::Palette palette;
  const Variant variants[4] = {Variant::bitpacked, Variant::naive, Variant::iterate, Variant::global};
  for (const auto& devices : layouts) {
    for (const bool age : {false, true}) {
      SCOPED_TRACE("bands on GPUs " + device_list_text(devices) + (age ? ", age shading" : ""));
      sim::CudaEngine one(0);
      Slots several = cuda_slots(devices);
      several.engine->enable_splits([devices] { return std::make_unique<multi::SplitEngine>(devices); });
      for (std::size_t i = 0; i < 4; ++i) {
        InstanceSpec spec;
        spec.width = cells;
        spec.height = cells + 32;  // bands of 1056 and 1024 rows
        spec.variant = variants[i];
        spec.generations_per_launch = 3;
        spec.init = RandomInit{0.3, 21 + i};
        several.engine->add_on(spec, 0);
        if (i > 0) several.engine->set_instance_devices(i, devices);  // instance 0 stays whole
        gpu0();
        one.add(spec);
      }
      ASSERT_TRUE(several.engine->is_split(1) && !several.engine->is_split(0));
      gpu0();
      render::TileRenderer one_renderer(render::find_data_dir("shaders"),
                                        std::make_unique<interop::CudaTileFiller>(one));
      render::TileRenderer several_renderer(
          render::find_data_dir("shaders"),
          std::make_unique<interop::CudaTileFiller>(*several.engine, several.cuda, 0,
                                                    instance_places(*several.engine)));
      const render::DisplayOptions options{true, age};
      // The views as four_tiles gives them for a square lattice; the split lattices are 32 rows
      // taller, which the views' wrap covers.
      std::vector<std::uint32_t> last;
      int changes = 0;
      for (int frame = 0; frame < 6; ++frame) {
        several.engine->step(1);
        EXPECT_EQ(several.engine->host_syncs_in_last_step(), 0u);
        gpu0();
        one.step(1);
        one_renderer.update(placements, options, palette);
        several_renderer.update(placements, options, palette);
        for (std::size_t i = 0; i < 4; ++i) {
          const auto want = shown_pixels(*one_renderer.tiles()[i]);
          const auto got = shown_pixels(*several_renderer.tiles()[i]);
          EXPECT_EQ(pixel_difference(got, want), "") << "frame " << frame << ", tile " << i;
          if (i == 1) {
            changes += !last.empty() && got != last;
            last = got;
          }
        }
      }
      EXPECT_GT(changes, 3) << "the split tile showed the soup evolving";
      several.engine->finish();
      // Each band's part of drawing a split tile is in the timeline (every frame is timed): a
      // display bar on every band's row of each split instance, on the band's GPU.
      int split_display = 0;
      for (const TimelineBar& b : several.engine->timeline())
        if (b.kind == TimelineBar::Kind::display && several.engine->is_split(b.instance)) {
          ++split_display;
          EXPECT_GT(b.end_ms, b.start_ms);
        }
      EXPECT_EQ(split_display, 3 * static_cast<int>(devices.size()));
    }
  }
}

bool have_cuda(const ScratchDir& dir) {
  return shell(dir, quoted_app() + " run --backend cuda --width 32 --height 32 --generations 0") == 0;
}

// The whole app with two slots on one GPU (the test hook): the screenshot equals a one-GPU run's
// below the labels, the report names the path "interop+peer" and counts no host sync per frame.
TEST(RemoteTiles, AppOnTwoSlotsShowsWhatOneGpuShowsWithoutHostSyncs) {
  ScratchDir dir;
  if (!have_cuda(dir)) GTEST_SKIP() << "no usable CUDA device: " << dir.read("out.txt");
  dir.write("views.script",
            "panel off\nsize 2048 2048\ninstances 4\nzoom 1 4\nzoom 3 0.3\nframes 6\nscreenshot views.png\n"
            "quit\n");
  for (const char* slots : {"1", "2"}) {
    // One slot is the app's own one-GPU engine; two put two engines on the one GPU (a test option).
    const std::string option = std::string(slots) == "1" ? "" : std::string(" --test-slots-per-gpu ") + slots;
    ASSERT_EQ(shell(dir, quoted_app() + option +
                             " --headless --backend cuda --size 960x540 --script views.script --report r" +
                             slots + ".json && mv views.png slots" + slots + ".png"),
              0)
        << dir.read("out.txt");
  }
  const Png one = load_png(dir.file("slots1.png"));
  const Png two = load_png(dir.file("slots2.png"));
  ASSERT_TRUE(one.ok() && two.ok());
  const auto rects = view::layout_tiles(view::Rect{0, 0, 960, 540}, 4, 2048, 2048);
  ASSERT_EQ(rects.size(), 4u);
  for (std::size_t t = 0; t < rects.size(); ++t) {
    const view::Rect& r = rects[t];
    int differ = 0;
    for (int y = r.y + 48; y < r.y + r.h; ++y)
      for (int x = r.x; x < r.x + r.w; ++x) differ += one.at(x, y) != two.at(x, y);
    EXPECT_EQ(differ, 0) << "tile " << t;
  }
  const std::string r1 = dir.read("r1.json"), r2 = dir.read("r2.json");
  EXPECT_NE(r1.find("\"display\": {\"path\": \"interop\""), std::string::npos) << r1;
  EXPECT_NE(r2.find("\"display\": {\"path\": \"interop+peer\""), std::string::npos) << r2;
  EXPECT_NE(r2.find("\"host_syncs_per_frame\": 0,"), std::string::npos) << r2;
  // The GPU's part of the frame figures: numbers, not null.
  EXPECT_TRUE(std::regex_search(r2, std::regex("\"index\": 0, \"name\": \"[^\"]*\", \"span_ms\": [0-9]")))
      << r2;
  const std::regex loop("\"loop_ms_per_tile\": ([0-9.e+-]+)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r2, m, loop)) << r2;
  EXPECT_GT(std::stod(m[1]), 0);
}

}  // namespace
}  // namespace ls::test
