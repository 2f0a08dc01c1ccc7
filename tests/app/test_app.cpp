// test_app.cpp — the whole app from the outside: a script drives it headless (Mesa EGL, no X),
// in a window under Xvfb, and headless on CUDA when there is a device; its screenshots are checked
// pixel by pixel; real key presses (xdotool) change it; bad input gives the documented exit
// status and one line naming the problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "render/tile_pixels.hpp"
#include "support/app_test_util.hpp"
#include "view/view.hpp"

namespace ls::test {
namespace {

constexpr int kW = 960;
constexpr int kH = 540;

std::uint32_t rgb(std::uint32_t packed) { return packed & 0xffffffu; }

const render::Palette kPalette;

// Every tile of `count` is drawn where the layout puts it: the middle row of each tile has no
// background pixel, and the gaps around it do. Returns the layout.
std::vector<view::Rect> expect_tiles(const Png& png, std::size_t count, int cells) {
  const auto rects = view::layout_tiles(view::Rect{0, 0, png.width, png.height}, count, cells, cells);
  EXPECT_EQ(rects.size(), count);
  const std::uint32_t bg = rgb(kPalette.background);
  for (std::size_t i = 0; i < rects.size(); ++i) {
    const view::Rect& r = rects[i];
    const int mid = r.y + r.h / 2;
    int background_inside = 0;
    for (int x = r.x; x < r.x + r.w; ++x) background_inside += png.at(x, mid) == bg;
    EXPECT_EQ(background_inside, 0) << "tile " << i << " is missing or misplaced";
    EXPECT_EQ(png.at(r.x - 2, mid), bg) << "left of tile " << i;
    EXPECT_EQ(png.at(r.x + r.w + 1, mid), bg) << "right of tile " << i;
    EXPECT_EQ(png.at(r.x + r.w / 2, r.y + r.h + 1), bg) << "below tile " << i;
  }
  return rects;
}

// The glider's live cells at `generation` 0 or 4 (placed centred in 256x256: box at 126,126).
std::vector<std::pair<int, int>> glider_cells(int shift) {
  std::vector<std::pair<int, int>> c = {{127, 126}, {128, 127}, {126, 128}, {127, 128}, {128, 128}};
  for (auto& [x, y] : c) {
    x += shift;
    y += shift;
  }
  return c;
}

// Tile 1 of 2 shows the glider at 8 pixels per cell around its first box: live colour at the
// centre of each of its cells, dead colour at the centre of every other cell of the 7x7 around it.
void expect_glider(const Png& png, int shift) {
  const auto rects = expect_tiles(png, 2, 256);
  ASSERT_EQ(rects.size(), 2u);
  // `load` fitted the view to the glider's 3x3 box at (126, 126); `zoom 1 8` kept its centre.
  view::View view = view::fit_region(126, 126, 3, 3);
  view::set_zoom(view, rects[1], 256, 256, 8);
  const view::Placement p = view::place(view, rects[1], 256, 256);
  ASSERT_DOUBLE_EQ(p.pixels_per_cell, 8);
  const auto live = glider_cells(shift);
  for (int cy = 124 + shift; cy <= 130 + shift; ++cy) {
    for (int cx = 124 + shift; cx <= 130 + shift; ++cx) {
      const int px = p.quad.x + static_cast<int>(std::floor((cx + 0.5 - p.origin_x) * 8));
      const int py = p.quad.y + static_cast<int>(std::floor((cy + 0.5 - p.origin_y) * 8));
      const bool alive = std::find(live.begin(), live.end(), std::make_pair(cx, cy)) != live.end();
      EXPECT_EQ(png.at(px, py), rgb(alive ? kPalette.live : kPalette.dead))
          << "cell (" << cx << ", " << cy << ") at pixel (" << px << ", " << py << ") should be "
          << (alive ? "live" : "dead");
    }
  }
  // Grid lines: the first pixel column of a cell carries the grid colour at this zoom.
  const auto [gx, gy] = live.front();
  const double left = (gx - p.origin_x) * 8;
  const int line_x = p.quad.x + static_cast<int>(std::ceil(left - 1e-9));
  const int mid_y = p.quad.y + static_cast<int>(std::floor((gy + 0.5 - p.origin_y) * 8));
  EXPECT_EQ(png.at(line_x, mid_y), rgb(kPalette.grid));
}

void run_scene_script(const std::string& launcher, const std::string& options) {
  ScratchDir dir;
  std::filesystem::copy_file(source_dir() + "/assets/patterns/glider.rle", dir.file("glider.rle"));
  std::filesystem::copy_file(source_dir() + "/tests/app/scene_test.script", dir.file("scene.script"));
  const std::string command = launcher + " " + quoted_app() + " " + options + " --size " +
                              std::to_string(kW) + "x" + std::to_string(kH) + " --script scene.script";
  ASSERT_EQ(shell(dir, command), 0) << dir.read("out.txt");

  const Png four = load_png(dir.file("four.png"));
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four.width, kW);
  EXPECT_EQ(four.height, kH);
  expect_tiles(four, 4, 256);

  const Png seven = load_png(dir.file("seven.png"));
  ASSERT_TRUE(seven.ok());
  expect_tiles(seven, 7, 256);
  // Nothing where an eighth tile would go.
  const auto eight = view::layout_tiles(view::Rect{0, 0, kW, kH}, 8, 256, 256);
  EXPECT_EQ(seven.at(eight[7].x + eight[7].w / 2, eight[7].y + eight[7].h / 2), rgb(kPalette.background));

  const Png g0 = load_png(dir.file("glider0.png"));
  ASSERT_TRUE(g0.ok());
  expect_glider(g0, 0);
  const Png g4 = load_png(dir.file("glider4.png"));
  ASSERT_TRUE(g4.ok());
  expect_glider(g4, 1);  // a glider moves (1, 1) every 4 generations
}

TEST(App, ScriptHeadlessMesaEgl) {
  run_scene_script("env -u DISPLAY -u WAYLAND_DISPLAY", "--headless --backend cpu");
}

TEST(App, ScriptInAWindowUnderXvfb) {
  ASSERT_TRUE(have_program("xvfb-run")) << "xvfb-run is missing: run scripts/setup.sh";
  run_scene_script("XDG_CONFIG_HOME=\"$PWD/config\" " + under_xvfb(100, ""), "--backend cpu --vsync off");
}

TEST(App, ScriptHeadlessCuda) {
  ScratchDir probe;
  if (shell(probe, quoted_app() + " run --backend cuda --width 32 --height 32 --generations 0") != 0)
    GTEST_SKIP() << "no usable CUDA device: " << probe.read("out.txt");
  run_scene_script("", "--headless --backend cuda");
}

// Runs tests/app/keys.sh SCENARIO under its own Xvfb display: "" when it ran to the end, else why not.
std::string run_keys(ScratchDir& dir, int display, const std::string& scenario) {
  if (!have_program("xvfb-run")) return "xvfb-run is missing: run scripts/setup.sh";
  if (!have_program("xdotool")) return "xdotool is missing: run scripts/setup.sh";
  const std::string command = "XDG_CONFIG_HOME=\"$PWD/config\" " +
                              under_xvfb(display, "sh '" + source_dir() + "/tests/app/keys.sh' " +
                                                      quoted_app() + " \"$PWD\" " + scenario);
  if (shell(dir, command) != 0)
    return "keys.sh " + scenario + ": " + dir.read("out.txt") + dir.read("app.err");
  return "";
}

/// Every value of `"field": ...` in a --report, in order (strings without their quotes).
std::vector<std::string> report_values(const std::string& report, const std::string& field) {
  std::vector<std::string> out;
  const std::regex re("\"" + field + "\": \"?([^\",}]*)");
  for (auto it = std::sregex_iterator(report.begin(), report.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

// Real key presses: Space pauses, = adds an instance, N steps one generation, Ctrl+Q quits.
TEST(App, KeysPauseAddAndStep) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 120, "keys"), "");
  const std::string report = dir.read("report.json");
  std::vector<long long> generations;
  for (const std::string& g : report_values(report, "generation")) generations.push_back(std::stoll(g));
  ASSERT_EQ(generations.size(), 5u) << "= adds a fifth instance\n" << report;
  // The added instance started at 0 while paused, so only N moved it: exactly one generation.
  EXPECT_EQ(generations[4], 1) << report;
  // The first four ran before Space and stood still after it, apart from the same single step.
  EXPECT_GT(generations[0], 1) << report;
  for (int i = 1; i < 4; ++i) EXPECT_EQ(generations[i], generations[0]) << report;
}

// Esc in a text field cancels the edit (Dear ImGui's way), it does not quit the app: the rule typed
// with Enter holds, the one cancelled with Esc never applies, and Ctrl+Q quits.
TEST(App, EscWhileEditingCancelsTheEditNotTheApp) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 180, "typing"), "");
  EXPECT_EQ(dir.read("alive"), "yes\n") << "the Esc that cancelled the edit quit the app";
  EXPECT_EQ(report_values(dir.read("report.json"), "rule"), std::vector<std::string>(4, "B36/S23"));
}

// Esc closes the topmost open thing and otherwise does nothing: with a dropdown open, with the help
// open and with nothing open the app keeps running; Ctrl+Q, with nothing unsaved, quits at once.
TEST(App, EscClosesWhatIsOpenAndNeverQuits) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 181, "escape"), "");
  EXPECT_EQ(dir.read("alive-popup"), "yes\n") << "Esc with a dropdown open quit the app";
  EXPECT_EQ(dir.read("alive-help"), "yes\n") << "Esc with the help open quit the app";
  EXPECT_EQ(dir.read("alive-nothing"), "yes\n") << "Esc with nothing open quit the app";
  EXPECT_EQ(report_values(dir.read("report.json"), "rule").size(), 4u) << "Ctrl+Q did not end the run";
}

// A drawn cell is unsaved work: Ctrl+Q asks first (the app keeps running), Esc answers "stay", and
// Ctrl+Q then Enter quits with status 0.
TEST(App, CtrlQAsksFirstAfterADrawnCell) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 182, "unsaved"), "");
  EXPECT_EQ(dir.read("alive-asked"), "yes\n") << "Ctrl+Q after a drawn cell quit without asking";
  EXPECT_EQ(dir.read("alive-stayed"), "yes\n") << "Esc on the question quit the app";
  EXPECT_EQ(report_values(dir.read("report.json"), "rule").size(), 4u) << "Enter did not confirm the quit";
}

// A refused Enter keeps the keys in the field: the S and Tab typed next are the field's (no
// screenshot), and after the corrected rule's Enter the keys go back to the tiles (S saves one).
TEST(App, ARefusedEnterKeepsTheKeysInTheField) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 183, "refused-rule"), "");
  EXPECT_EQ(dir.read("shots-refused"), "0\n") << "S after a refused Enter reached the tiles";
  EXPECT_EQ(dir.read("shots-applied"), "1\n") << "S after a good Enter did not reach the tiles";
  EXPECT_EQ(report_values(dir.read("report.json"), "rule"), std::vector<std::string>(4, "B36/S23"));
}

TEST(App, ARefusedInstanceCountKeepsTheKeysInTheField) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 184, "refused-count"), "");
  EXPECT_EQ(dir.read("shots-refused"), "0\n") << "S after a refused Enter reached the tiles";
}

// Enter in Seed makes new soups at once (every instance back at generation 0), as Reset all does.
TEST(App, EnterInSeedMakesNewSoupsAtOnce) {
  ScratchDir dir;
  ASSERT_EQ(run_keys(dir, 185, "seed"), "");
  EXPECT_EQ(report_values(dir.read("report.json"), "generation"), std::vector<std::string>(4, "0"));
}

// Bad input anywhere: exit status 2 (1 for a failed expectation, 3 without a display) and one line
// on stderr that names the problem.
struct Failure {
  const char* script;
  const char* options;
  int status;
  const char* message;
};

TEST(App, BadInputExitsWithOneLineNamingIt) {
  const Failure cases[] = {
      {"pause\nvariant 0 turbo\n", "", 2, "bad.script:2:11: unknown variant 'turbo'"},
      {"pause\ninstances 2\nvariant 5 global\n", "", 2, "bad.script:3:1: instance 5 does not exist"},
      {"pause\nload 0 missing.rle\n", "", 2, "bad.script:2:1: "},
      {"pause\nexpect-hash 0 0x0000000000000001\n", "", 1,
       "bad.script:2:1: expect-hash 0: the hash at generation 0 is"},
      {"pause\nscreenshot .\n", "", 2, "bad.script:2:1: screenshot .: is a directory"},
      {nullptr, "--instances 0", 2, "--instances 0: expected a whole number 1..64"},
      {nullptr, "--size 12", 2, "--size 12: expected WxH"},
      {nullptr, "--vsync maybe", 2, "--vsync maybe: expected on or off"},
      {nullptr, "--rule B9/S", 2, "--rule B9/S"},
      {nullptr, "--width 100", 2, "100"},
      {nullptr, "--backend quantum", 2, "quantum"},
      {nullptr, "--no-such-option", 2, "--no-such-option"},
  };
  for (const Failure& f : cases) {
    ScratchDir dir;
    std::string options = std::string("--headless ") + f.options;
    if (f.script) {
      dir.write("bad.script", f.script);
      options += " --backend cpu --width 64 --height 64 --instances 1 --script bad.script";
    }
    EXPECT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() + " " + options), f.status) << options << "\n"
                                                                                      << dir.read("out.txt");
    const std::string out = dir.read("out.txt");
    EXPECT_NE(out.find(f.message), std::string::npos) << "expected '" << f.message << "' in: " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  }
}

TEST(App, WithoutADisplaySaysSoAndSuggestsHeadless) {
  ScratchDir dir;
  EXPECT_EQ(shell(dir, "env -u DISPLAY -u WAYLAND_DISPLAY " + quoted_app() + " --backend cpu"), 3);
  const std::string out = dir.read("out.txt");
  EXPECT_NE(out.find("no display"), std::string::npos) << out;
  EXPECT_NE(out.find("--headless"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

TEST(App, ReportHasEveryFieldAndTheFinalState) {
  ScratchDir dir;
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --width 256 --height 256 --instances 3 --frames 8 "
                           "--size 640x360 --report r.json --screenshot last.png"),
            0)
      << dir.read("out.txt");
  const std::string r = dir.read("r.json");
  for (const char* field : {"\"device\"",
                            "\"backend\": \"cpu\"",
                            "\"frames\": 8",
                            "\"fps\"",
                            "\"frame_ms\"",
                            "\"p50\"",
                            "\"p95\"",
                            "\"p99\"",
                            "\"gpu_span_ms\"",
                            "\"busy_ms\"",
                            "\"concurrency\"",
                            "\"host_syncs_per_frame\": 0",
                            "\"timing_period\": 1",
                            "\"instances\"",
                            "\"index\": 2",
                            "\"variant\": \"iterate\"",
                            "\"rule\": \"B3/S23\"",
                            "\"width\": 256",
                            "\"height\": 256",
                            "\"population\"",
                            "\"step_ms\"",
                            "\"display_ms\"",
                            "\"cups\"",
                            "\"last\"",
                            "\"mean\"",
                            "\"std\"",
                            "\"min\"",
                            "\"max\""})
    EXPECT_NE(r.find(field), std::string::npos) << field << " missing in\n" << r;
  // 8 frames at one generation per frame from the standard soup:
  ScratchDir ref;
  ASSERT_EQ(shell(ref, quoted_app() + " run --backend cpu --width 256 --height 256 --generations 8"), 0);
  const std::string run_out = ref.read("out.txt");
  const auto h = run_out.rfind("hash=");
  ASSERT_NE(h, std::string::npos);
  EXPECT_NE(r.find("\"generation\": 8, \"population\""), std::string::npos) << r;
  EXPECT_NE(r.find("\"hash\": \"" + run_out.substr(h + 5, 18) + "\""), std::string::npos) << r << run_out;
  const Png last = load_png(dir.file("last.png"));
  EXPECT_EQ(last.width, 640);
  EXPECT_EQ(last.height, 360);
  // Timing one frame in 4 is reported and changes nothing else.
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --width 256 --height 256 --instances 3 --frames 8 "
                           "--timing-period 4 --size 640x360 --report r4.json"),
            0)
      << dir.read("out.txt");
  const std::string r4 = dir.read("r4.json");
  EXPECT_NE(r4.find("\"timing_period\": 4"), std::string::npos) << r4;
  EXPECT_NE(r4.find("\"hash\": \"" + run_out.substr(h + 5, 18) + "\""), std::string::npos) << r4;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The value of the first `"key": value` at or after `from` in `r`, as written.
std::string field(const std::string& r, const std::string& key, std::size_t from = 0) {
  const std::regex pattern("\"" + key + "\": (\"[^\"]*\"|[^,}\\]\n]+)");
  std::smatch m;
  const std::string tail = r.substr(from);
  return std::regex_search(tail, m, pattern) ? m[1].str() : std::string("(missing)");
}

// The report names the GPU(s) each instance runs on and, per GPU, its frame figures and memory:
// the CPU engine runs on none; the one-GPU CUDA engine's instances all run on its device, whose
// figures are the frame's.
TEST(App, ReportNamesEachInstancesGpusAndEachGpusFigures) {
  ScratchDir dir;
  ASSERT_EQ(shell(dir, "env -u DISPLAY " + quoted_app() +
                           " --headless --backend cpu --width 64 --height 64 --instances 3 --frames 4 "
                           "--size 320x180 --report cpu.json"),
            0)
      << dir.read("out.txt");
  const std::string cpu = dir.read("cpu.json");
  EXPECT_NE(cpu.find("\"gpus\": []"), std::string::npos) << cpu;
  EXPECT_EQ(occurrences(cpu, "\"devices\": []"), 3u) << cpu;

  if (shell(dir, quoted_app() + " run --backend cuda --width 32 --height 32 --generations 0") != 0)
    GTEST_SKIP() << "no usable CUDA device: " << dir.read("out.txt");
  ASSERT_EQ(
      shell(dir, quoted_app() + " --headless --backend cuda --instances 4 --frames 20 --report cuda.json"), 0)
      << dir.read("out.txt");
  const std::string r = dir.read("cuda.json");
  EXPECT_EQ(occurrences(r, "\"devices\": [0]"), 4u) << r;
  const std::size_t gpus = r.find("\"gpus\": [");
  ASSERT_NE(gpus, std::string::npos) << r;
  const std::size_t instances = r.find("\"instances\": [");
  const std::string list = r.substr(gpus, instances - gpus);
  EXPECT_EQ(occurrences(list, "\"index\": "), 1u) << list;
  EXPECT_EQ(field(list, "index"), "0") << list;
  EXPECT_EQ(field(list, "name"), field(r, "device")) << r;
  EXPECT_EQ(field(list, "span_ms"), field(r, "gpu_span_ms")) << r;
  EXPECT_EQ(field(list, "busy_ms"), field(r, "busy_ms")) << r;
  EXPECT_EQ(field(list, "concurrency"), field(r, "concurrency")) << r;
  EXPECT_GT(std::stod(field(list, "span_ms")), 0) << r;
  // The context and the lattices take memory; the rest is free.
  EXPECT_GT(std::stod(field(list, "memory_used_bytes")), 4.0 * 1024 * 1024 / 8) << r;
  EXPECT_GT(std::stod(field(list, "memory_free_bytes")), 0) << r;
}

}  // namespace
}  // namespace ls::test
