// Facts about the panel's place on screen and what it says: its width follows a drag of its right
// edge within limits relative to the window, and is 0 when hidden; at its least width its fields
// show their numbers whole and its tables keep their columns (scrolling sideways); on the CPU
// engine the span is not called a GPU span and vsync is blamed only near the display's refresh
// rate; messages show over the tiles for a few seconds without moving the panel's layout.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "panel_fixture.hpp"

namespace ls::ui {
namespace {

class PanelLayoutTest : public PanelTest {
 protected:
  /// Presses the left button at x, moves to `to_x` and releases, a frame per step.
  void drag(float from_x, float to_x) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(from_x, 300);
    EXPECT_TRUE(frame().empty());
    io.MouseDown[0] = true;
    EXPECT_TRUE(frame().empty());
    io.MousePos = ImVec2((from_x + to_x) / 2, 300);
    EXPECT_TRUE(frame().empty());
    io.MousePos = ImVec2(to_x, 300);
    EXPECT_TRUE(frame().empty());
    io.MouseDown[0] = false;
    EXPECT_TRUE(frame().empty());
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    EXPECT_TRUE(frame().empty());
  }
  /// Top-left corner of the Scene section's table (its first widget's row).
  ImVec2 scene_origin() {
    ImGuiWindow* window = panel_window();
    EXPECT_NE(window, nullptr);
    const ImGuiTable* table = ImGui::TableFindByID(ImHashStr("##scene", 0, window->ID));
    EXPECT_NE(table, nullptr);
    return table != nullptr ? table->OuterRect.Min : ImVec2(-1, -1);
  }
  static bool notice_window_active() {
    ImGuiWindow* window = ImGui::FindWindowByName("##notice");
    return window != nullptr && window->Active;
  }
};

TEST_F(PanelLayoutTest, WidthFollowsADragOfTheRightEdgeWithinTheWindow) {
  frame();
  const float start = panel_.width();
  EXPECT_FLOAT_EQ(start, kDefaultWidth);  // 560 < 45% of 1600
  drag(start, start + 160);
  EXPECT_FLOAT_EQ(panel_.width(), start + 160);
  EXPECT_FLOAT_EQ(panel_.chosen_width(), start + 160);
  EXPECT_FLOAT_EQ(panel_window()->Size.x, start + 160);
  // Past the limits it stops at them: 60% of the window, and the least usable width.
  drag(panel_.width(), 1500);
  EXPECT_FLOAT_EQ(panel_.width(), 1600 * kMaxWidthFraction);
  drag(panel_.width(), 10);
  EXPECT_FLOAT_EQ(panel_.width(), kMinWidth);
  // The setter (what the app remembers) is held within the same limits.
  panel_.set_width(700);
  EXPECT_FLOAT_EQ(panel_.width(), 700);
  panel_.set_width(5000);
  EXPECT_FLOAT_EQ(panel_.width(), 960);
  // A narrower window narrows a chosen width to 60% of it.
  panel_.set_width(700);
  ImGui::GetIO().DisplaySize = ImVec2(800, 600);
  frame();
  EXPECT_FLOAT_EQ(panel_.width(), 480);
  EXPECT_FLOAT_EQ(panel_window()->Size.x, 480);
}

// A small window gives the panel what its forms need (kMinWidth) up to its largest share (60%),
// more than its default share (45%) would.
TEST_F(PanelLayoutTest, ASmallWindowGivesThePanelItsLeastWidthUpToItsLargestShare) {
  ImGui::GetIO().DisplaySize = ImVec2(480, 320);
  frame();
  EXPECT_FLOAT_EQ(panel_.width(), 480 * kMaxWidthFraction);
  ImGui::GetIO().DisplaySize = ImVec2(720, 480);
  frame();
  EXPECT_FLOAT_EQ(panel_.width(), kMinWidth);  // 45% would be 324
  ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
  frame();
  EXPECT_FLOAT_EQ(panel_.width(), kDefaultWidth);
}

TEST_F(PanelLayoutTest, HiddenPanelDrawsNothingAndTakesNoWidth) {
  frame();
  EXPECT_TRUE(panel_.visible());
  panel_.toggle_visible();
  EXPECT_FALSE(panel_.visible());
  EXPECT_TRUE(frame().empty());
  EXPECT_FLOAT_EQ(panel_.width(), 0);
  EXPECT_FALSE(panel_window()->Active);
  panel_.toggle_visible();
  EXPECT_TRUE(frame().empty());
  EXPECT_FLOAT_EQ(panel_.width(), kDefaultWidth);
  EXPECT_TRUE(panel_window()->Active);
}

TEST_F(PanelLayoutTest, OnTheCpuEngineTheSpanIsNotAGpuSpan) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);  // every section unclipped
  const std::string text = panel_text();
  EXPECT_EQ(model_.backend, "cpu");
  EXPECT_NE(text.find("span"), std::string::npos);
  EXPECT_EQ(text.find("GPU span"), std::string::npos);
  model_.backend = "cuda";  // as a CUDA engine's figures would say
  EXPECT_NE(panel_text().find("GPU span"), std::string::npos);
}

// Host enqueue time shows beside the span, with which one binds the frame: host-bound when the host
// takes at least the GPU span to enqueue a frame, GPU-bound otherwise.
TEST_F(PanelLayoutTest, HostEnqueueShowsBesideTheSpanAndSaysWhatBindsTheFrame) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);
  panel_text();  // the engine's figures once, then the model as a CUDA engine's would be
  with_engine_ = false;
  model_.backend = "cuda";
  model_.frame = FrameTimings{true, 0.5, 4.0, 8.0, {}, {}};
  model_.timeline.clear();  // no bars: the span stands for the GPU's work
  model_.host_enqueue_ms.samples = 120;
  model_.host_enqueue_ms.mean = 0.8;
  std::string text = panel_text();
  EXPECT_NE(text.find("host enqueue"), std::string::npos) << text;
  EXPECT_NE(text.find("host-bound"), std::string::npos);
  EXPECT_EQ(frame_bound(model_), FrameBound::host);
  model_.host_enqueue_ms.mean = 0.04;
  text = panel_text();
  EXPECT_NE(text.find("GPU-bound"), std::string::npos);
  EXPECT_EQ(text.find("host-bound"), std::string::npos);
  model_.frame.valid = false;
  EXPECT_EQ(frame_bound(model_), FrameBound::unknown);
  EXPECT_EQ(panel_text().find("-bound"), std::string::npos);
}

// The GPU's side of that comparison is the time its streams work, not the span: a 2.6 ms span that
// holds 0.13 ms of bars (streams waiting on the display handoff) is host-bound at 0.24 ms of
// enqueue. Overlapping bars count once.
TEST_F(PanelLayoutTest, TheFrameIsBoundByTheHostWhenTheGpuWorksLessThanItEnqueues) {
  model_.backend = "cuda";
  model_.frame = FrameTimings{true, 2.6, 0.13, 0.05, {}, {}};
  model_.host_enqueue_ms.samples = 120;
  model_.host_enqueue_ms.mean = 0.24;
  using K = TimelineBar::Kind;
  model_.timeline = {
      {0, 0, K::step, 0.00, 0.05}, {1, 1, K::step, 0.02, 0.06}, {0, 0, K::display, 2.53, 2.60}};
  EXPECT_NEAR(busy_union_ms(model_.timeline), 0.06 + 0.07, 1e-12);
  EXPECT_EQ(frame_bound(model_), FrameBound::host);
  model_.host_enqueue_ms.mean = 0.1;
  EXPECT_EQ(frame_bound(model_), FrameBound::gpu);
  model_.timeline.clear();  // no timeline yet: the span stands for the work
  model_.host_enqueue_ms.mean = 0.24;
  EXPECT_EQ(frame_bound(model_), FrameBound::gpu);
}

TEST_F(PanelLayoutTest, VsyncIsBlamedOnlyNearTheRefreshRate) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);
  model_.windowed = true;
  model_.vsync = true;
  model_.refresh_hz = 60;
  model_.fps = 38;  // the CPU engine is the limit
  std::string text = panel_text();
  EXPECT_EQ(text.find("vsync cap"), std::string::npos);
  EXPECT_EQ(text.find("timings capped"), std::string::npos);
  model_.fps = 59.5;  // held at the display's rate
  text = panel_text();
  EXPECT_NE(text.find("vsync cap"), std::string::npos);
  EXPECT_NE(text.find("timings capped"), std::string::npos);
  model_.vsync = false;
  EXPECT_EQ(panel_text().find("vsync cap"), std::string::npos);
}

TEST_F(PanelLayoutTest, AMessageShowsOverTheTilesForAFewSecondsWithoutMovingThePanel) {
  frame();
  const ImVec2 before = scene_origin();
  EXPECT_FALSE(notice_window_active());
  model_.message = "screenshot saved to lifestreams-0001.png";
  frame();
  const ImVec2 after = scene_origin();
  EXPECT_FLOAT_EQ(after.x, before.x);
  EXPECT_FLOAT_EQ(after.y, before.y);
  EXPECT_TRUE(notice_window_active());
  EXPECT_TRUE(panel_.notice_shown());
  // Over the tiles: right of the panel (from the second frame: ImGui sizes an auto-resized
  // window in a first, hidden frame).
  frame();
  EXPECT_GE(ImGui::FindWindowByName("##notice")->Pos.x, panel_.width());
  // Gone after its time (the message itself stays in the model).
  ImGui::GetIO().DeltaTime = 1.f;
  for (int i = 0; i < 3; ++i) frame();
  EXPECT_TRUE(notice_window_active());  // about 3 s: fading
  for (int i = 0; i < 2; ++i) frame();
  EXPECT_FALSE(notice_window_active());
  EXPECT_FALSE(panel_.notice_shown());
}

TEST_F(PanelLayoutTest, AnErrorStaysUntilClearedWithoutMovingThePanel) {
  frame();
  const ImVec2 before = scene_origin();
  model_.error = "rule: column 2: expected a digit";
  ImGui::GetIO().DeltaTime = 1.f;
  for (int i = 0; i < 10; ++i) frame();
  EXPECT_TRUE(notice_window_active());
  EXPECT_FLOAT_EQ(scene_origin().y, before.y);
  model_.error.clear();
  frame();
  EXPECT_FALSE(notice_window_active());
}

}  // namespace
}  // namespace ls::ui
