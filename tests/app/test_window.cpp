// test_window.cpp — the window under abuse (Xvfb, CPU backend): resized to 1x1 and back, to one
// pixel wide or tall, minimised and restored, closed mid-frame or while minimised, Escape at 1x1,
// destroyed by another client (also with a --screenshot asked for, which then cannot be drawn);
// opened at the default size on a screen smaller than that, it fits the screen.
// Each run exits 0 with nothing on stderr (a GL error would end it with status 3 and a line; the
// screenshot that cannot be drawn does, on purpose), and
// its report shows the state a clean run reaches: every instance at the generation of the frames
// drawn, with the hash `lifestreams run` gives for that generation. Minimised, it waits instead
// of spinning.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "render/window.hpp"
#include "support/app_test_util.hpp"

namespace ls::test {
namespace {

struct Instance {
  long long generation = 0;
  std::string hash;
};

/// Runs tests/app/window.sh SCENARIO under Xvfb; fails the test unless the app exits with `status`,
/// its stderr is `err` and its report's instances are where a clean run would be.
/// `screen` is the Xvfb screen, WxHxDEPTH.
void run_window_scenario(const std::string& scenario, const ScratchDir& dir, int server, int status = 0,
                         const std::string& err = "", const std::string& screen = "1280x800x24") {
#if !defined(LS_FAKE_WM)
  GTEST_SKIP() << "built without X11 development files: no ls_fake_wm";
#else
  ASSERT_TRUE(have_program("xvfb-run")) << "xvfb-run is missing: run scripts/setup.sh";
  ASSERT_TRUE(have_program("xdotool")) << "xdotool is missing: run scripts/setup.sh";
  const std::string command = "XDG_CONFIG_HOME=\"$PWD/config\" LS_XVFB_SCREEN=" + screen + " " +
                              under_xvfb(server, "sh '" + source_dir() + "/tests/app/window.sh' " +
                                                     quoted_app() + " '" LS_FAKE_WM "' \"$PWD\" " + scenario);
  ASSERT_EQ(shell(dir, command), status) << dir.read("out.txt") << dir.read("app.err");
  EXPECT_EQ(dir.read("app.err"), err);

  const std::string report = dir.read("report.json");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(report, m, std::regex("\"frames\": ([0-9]+)"))) << report;
  const long long frames = std::stoll(m[1]);
  EXPECT_GT(frames, 0);
  std::vector<Instance> instances;
  const std::regex inst_re("\"generation\": ([0-9]+), \"population\": [0-9]+, \"hash\": \"(0x[0-9a-f]+)\"");
  for (auto it = std::sregex_iterator(report.begin(), report.end(), inst_re); it != std::sregex_iterator();
       ++it)
    instances.push_back(Instance{std::stoll((*it)[1]), (*it)[2]});
  ASSERT_EQ(instances.size(), 4u) << report;
  // One generation per frame drawn, and the state of the standard soup at that generation.
  ScratchDir ref;
  ASSERT_EQ(shell(ref, quoted_app() + " run --backend cpu --width 128 --height 128 --generations " +
                           std::to_string(frames)),
            0);
  for (const Instance& i : instances) {
    EXPECT_EQ(i.generation, frames) << report;
    EXPECT_NE(ref.read("out.txt").find("hash=" + i.hash), std::string::npos) << report << ref.read("out.txt");
  }
#endif
}

TEST(Window, ResizedTo1x1AndBackThenClosedMidFrame) {
  ScratchDir dir;
  run_window_scenario("resize", dir, 140);
}

TEST(Window, MinimisedRestoredAndClosedWhileMinimised) {
  ScratchDir dir;
  run_window_scenario("minimise", dir, 150);
  if (HasFatalFailure() || IsSkipped()) return;
  // One second minimised: the loop waits for events (a spinning one burns ~100 ticks).
  const std::string ticks = dir.read("idle_ticks");
  ASSERT_FALSE(ticks.empty());
  EXPECT_LT(std::stol(ticks), 30) << "CPU ticks spent in one second minimised";
}

TEST(Window, CtrlQAt1x1Quits) {
  ScratchDir dir;
  run_window_scenario("ctrl-q", dir, 160);
}

// Xlib's default error handler would print the failed request and exit 1: the app quits as if
// closed instead, with its report written and nothing on stderr.
TEST(Window, DestroyedByAnotherClientQuitsAsIfClosed) {
  ScratchDir dir;
  run_window_scenario("destroy", dir, 170);
}

// Asked for a --screenshot at the end, with no window left to draw it on: the report is still
// written, no file appears, and the exit status (3) and one line say so.
TEST(Window, DestroyedWithAScreenshotAskedForSaysItWasNotWritten) {
  ScratchDir dir;
  run_window_scenario("destroy-screenshot", dir, 190, 3,
                      "lifestreams: --screenshot shot.png was not written: at the end the window was "
                      "minimised or gone\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("shot.png")));
}

TEST(WindowSize, ShrinksToFitKeepingTheAspect) {
  using render::fit_window_size;
  using render::WindowSize;
  EXPECT_EQ(fit_window_size({1600, 900}, 1280, 720), (WindowSize{1280, 720}));
  EXPECT_EQ(fit_window_size({1600, 900}, 1280, 1024), (WindowSize{1280, 720}));  // width limits
  EXPECT_EQ(fit_window_size({1600, 900}, 1920, 650), (WindowSize{1155, 650}));   // height limits
  EXPECT_EQ(fit_window_size({900, 600}, 1280, 720), (WindowSize{900, 600}));     // fits: unchanged
  EXPECT_EQ(fit_window_size({1600, 900}, 1600, 900), (WindowSize{1600, 900}));
  EXPECT_EQ(fit_window_size({5000, 1}, 100, 100), (WindowSize{100, 1}));   // never 0
  EXPECT_EQ(fit_window_size({1600, 900}, 0, 0), (WindowSize{1600, 900}));  // no monitor known
}

// The default 1600x900 window on a 1280x720 screen (no window manager, so the work area is the
// whole screen): it opens at 1280x720, the same 16:9, wholly on the screen.
TEST(Window, DefaultSizeFitsA1280x720Screen) {
  ScratchDir dir;
  run_window_scenario("fit", dir, 200, 0, "", "1280x720x24");
  if (HasFatalFailure() || IsSkipped()) return;
  const std::string g = dir.read("geometry");
  std::smatch x, y, w, h;
  ASSERT_TRUE(std::regex_search(g, x, std::regex("X=(-?[0-9]+)")) &&
              std::regex_search(g, y, std::regex("Y=(-?[0-9]+)")) &&
              std::regex_search(g, w, std::regex("WIDTH=([0-9]+)")) &&
              std::regex_search(g, h, std::regex("HEIGHT=([0-9]+)")))
      << g;
  EXPECT_GE(std::stoi(x[1]), 0) << g;
  EXPECT_GE(std::stoi(y[1]), 0) << g;
  EXPECT_LE(std::stoi(x[1]) + std::stoi(w[1]), 1280) << g;
  EXPECT_LE(std::stoi(y[1]) + std::stoi(h[1]), 720) << g;
  EXPECT_EQ(std::stoi(w[1]), 1280) << g;
  EXPECT_EQ(std::stoi(h[1]), 720) << g;
}

}  // namespace
}  // namespace ls::test
