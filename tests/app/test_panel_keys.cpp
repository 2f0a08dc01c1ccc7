// test_panel_keys.cpp — the panel as a person keeps it: Tab hides and shows it through the same
// command as the script's `panel on|off` (but not while a text field has the keyboard), and its
// width is remembered across runs in a small settings file that, missing or bad, gives defaults.
#include <gtest/gtest.h>
#include <imgui.h>

// GLFW's key and action numbers (the input mapper speaks GLFW's events).
#include <GLFW/glfw3.h>

#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "app/app_settings.hpp"
#include "app/input.hpp"
#include "control/scene.hpp"
#include "core/cpu_engine.hpp"
#include "render/tile_pixels.hpp"
#include "support/app_test_util.hpp"
#include "ui/panel.hpp"
#include "view/view.hpp"

namespace ls::app {
namespace {

InputEvent key(int k, int mods = 0) {
  InputEvent e;
  e.kind = InputEvent::Kind::key;
  e.key = k;
  e.action = GLFW_PRESS;
  e.mods = mods;
  return e;
}

class TabKey : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    scene_.populate(2, "");
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // Presses `k` and executes what it maps to, as the app does.
  std::vector<Command> press(int k, int mods = 0) {
    std::vector<InputEvent> events{key(k, mods)};
    std::vector<Command> commands;
    mapper_.map(events, scene_, ImGui::GetIO(), 1, 1, commands);
    for (const Command& c : commands) scene_.execute(c);
    return commands;
  }

  CpuEngine engine_{1};
  Scene scene_{engine_, SceneSettings{}};
  InputMapper mapper_;
};

TEST_F(TabKey, TabHidesAndShowsThePanelWithTheScriptsCommand) {
  ASSERT_TRUE(scene_.panel_visible());
  const auto commands = press(GLFW_KEY_TAB);
  ASSERT_EQ(commands.size(), 1u);
  EXPECT_EQ(format_command(commands[0]), "panel off");
  EXPECT_FALSE(scene_.panel_visible());
  press(GLFW_KEY_TAB);
  EXPECT_TRUE(scene_.panel_visible());
  // The script's line and the key change one flag.
  scene_.execute(parse_command("panel off").value());
  press(GLFW_KEY_TAB);
  EXPECT_TRUE(scene_.panel_visible());
}

TEST_F(TabKey, TabBelongsToImGuiWhileItWantsTheKeyboardAndCtrlTabAlways) {
  ImGui::GetIO().WantCaptureKeyboard = true;  // a text field is being edited: Tab goes to the next
  EXPECT_TRUE(press(GLFW_KEY_TAB).empty());
  EXPECT_TRUE(scene_.panel_visible());
  ImGui::GetIO().WantCaptureKeyboard = false;
  EXPECT_TRUE(press(GLFW_KEY_TAB, GLFW_MOD_CONTROL).empty());
  EXPECT_TRUE(scene_.panel_visible());
}

TEST(Settings, ThePanelWidthSavedIsThePanelWidthLoaded) {
  test::ScratchDir dir;
  const std::string path = dir.file("config/lifestreams/settings.ini");
  EXPECT_TRUE(save_settings(path, AppSettings{612}));
  EXPECT_EQ(load_settings(path).panel_width, 612.f);
  EXPECT_TRUE(save_settings(path, AppSettings{0}));  // back to the default
  EXPECT_EQ(load_settings(path).panel_width, 0.f);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(Settings, AMissingOrBadFileGivesTheDefaults) {
  test::ScratchDir dir;
  EXPECT_EQ(load_settings(dir.file("missing.ini")), AppSettings{});
  EXPECT_EQ(load_settings(dir.path().string()), AppSettings{});  // a directory
  EXPECT_EQ(load_settings(""), AppSettings{});
  for (const std::string& bad : std::vector<std::string>{
           "panel_width = wide\n", "panel_width = -40\n", "panel_width = nan\n", "panel_width = 1e30\n",
           "panel_width = 500px\n", std::string("\x01\x02\xff", 3), std::string(100 * 1024, 'x')}) {
    dir.write("bad.ini", bad);
    EXPECT_EQ(load_settings(dir.file("bad.ini")), AppSettings{}) << bad.substr(0, 40);
  }
  // Unknown keys and comments are passed over; the good line still counts.
  dir.write("mixed.ini", "# a comment\ncolour = blue\n  panel_width =  480 \n");
  EXPECT_EQ(load_settings(dir.file("mixed.ini")).panel_width, 480.f);
  // Nowhere to write: false, and nothing thrown.
  dir.write("file", "x");
  EXPECT_FALSE(save_settings(dir.file("file/settings.ini"), AppSettings{500}));
}

// The whole app in a window under Xvfb with `settings` as its settings file: where its four
// 256^2 tiles are in a 1280x720 screenshot is the left edge of the tile area, the panel's width.
void expect_panel_width(const std::string& settings, int width) {
  ASSERT_TRUE(test::have_program("xvfb-run")) << "xvfb-run is missing: run scripts/setup.sh";
  test::ScratchDir dir;
  std::filesystem::create_directories(dir.file("config/lifestreams"));
  dir.write("config/lifestreams/settings.ini", settings);
  const std::string command =
      "XDG_CONFIG_HOME=\"$PWD/config\" " +
      test::under_xvfb(220, test::quoted_app() +
                                " --backend cpu --vsync off --size 1280x720 --width 256 "
                                "--height 256 --frames 5 --screenshot shot.png");
  ASSERT_EQ(test::shell(dir, command), 0) << dir.read("out.txt");
  const test::Png png = test::load_png(dir.file("shot.png"));
  ASSERT_TRUE(png.ok());
  ASSERT_EQ(png.width, 1280);
  const std::uint32_t bg = render::Palette{}.background & 0xffffffu;
  const auto rects = view::layout_tiles(view::Rect{width, 0, png.width - width, png.height}, 4, 256, 256);
  ASSERT_EQ(rects.size(), 4u);
  for (std::size_t i = 0; i < rects.size(); ++i) {
    const view::Rect& r = rects[i];
    const int mid = r.y + r.h / 2;
    int background_inside = 0;
    for (int x = r.x; x < r.x + r.w; ++x) background_inside += png.at(x, mid) == bg;
    EXPECT_EQ(background_inside, 0) << "tile " << i << " is not where a " << width << " px panel leaves it";
    EXPECT_EQ(png.at(r.x - 2, mid), bg) << "left of tile " << i;
  }
  // Only the person's drag changes the file: a run that did not drag leaves it as it was.
  EXPECT_EQ(dir.read("config/lifestreams/settings.ini"), settings);
}

TEST(Settings, TheAppOpensThePanelAtTheRememberedWidth) { expect_panel_width("panel_width = 700\n", 700); }

TEST(Settings, TheAppOpensThePanelAtItsDefaultWidthWhenTheFileIsBad) {
  // The default: ui::kDefaultWidth, at most 45% of the window.
  expect_panel_width("panel_width = seven hundred\n", static_cast<int>(ui::kDefaultWidth));
}

}  // namespace
}  // namespace ls::app

namespace ls::app {
namespace {

// Dear ImGui 1.86 reads key state once a frame: a key pressed and released between two frames
// (End in a text field at 5 frames a second) must still reach it, one transition a frame.
TEST(KeyDelivery, APressAndReleaseWithinOneFrameReachImGuiInTwoFrames) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  InputQueue queue;
  queue.imgui_keys = {{GLFW_KEY_END, true}, {GLFW_KEY_END, false}, {GLFW_KEY_A, true}, {GLFW_KEY_A, false}};
  queue.deliver_keys(io);
  EXPECT_TRUE(io.KeysDown[GLFW_KEY_END]);
  EXPECT_FALSE(io.KeysDown[GLFW_KEY_A]) << "A's press came after End's release: the next frame";
  queue.deliver_keys(io);
  EXPECT_FALSE(io.KeysDown[GLFW_KEY_END]);
  EXPECT_TRUE(io.KeysDown[GLFW_KEY_A]);
  queue.deliver_keys(io);
  EXPECT_FALSE(io.KeysDown[GLFW_KEY_A]);
  EXPECT_TRUE(queue.imgui_keys.empty());
  // Modifiers follow the keys as ImGui's own backend sets them.
  queue.imgui_keys = {{GLFW_KEY_LEFT_CONTROL, true}};
  queue.deliver_keys(io);
  EXPECT_TRUE(io.KeyCtrl);
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace ls::app
