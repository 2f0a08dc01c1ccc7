// test_overlays.cpp — what is written over the tiles, in a headless ImGui context (fonts, no GL):
// tile labels go under every ImGui window (the panel, the help) and shorten as tiles shrink, down
// to nothing on a tiny tile; the readout line says the hovered cell, the zoom and generations per
// second.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>
#include <vector>

#include "app/rates.hpp"
#include "app/tile_labels.hpp"
#include "control/scene.hpp"
#include "core/cpu_engine.hpp"
#include "support/app_test_util.hpp"
#include "ui/help.hpp"
#include "ui/panel.hpp"

namespace ls::app {
namespace {

class Overlays : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 720);
    io.DeltaTime = 1.f / 60.f;
    ui::load_fonts(test::source_dir() + "/assets", 1.f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // A scene of `count` 1024^2 instances that have stepped (summaries and step times exist), its
  // tiles right of a 540 px panel.
  void make_scene(int count, const view::Rect& area = view::Rect{540, 0, 740, 720}) {
    scene_ = std::make_unique<Scene>(engine_, SceneSettings{});
    scene_->populate(count, "");
    scene_->set_area(area);
    for (int i = 0; i < 2; ++i) {
      engine_.step(1);
      engine_.request_summaries();
    }
  }

  CpuEngine engine_{2};
  std::unique_ptr<Scene> scene_;
};

TEST_F(Overlays, TileLabelsAreDrawnUnderThePanelAndTheHelp) {
  make_scene(4);
  bool help = true;
  // Two frames: ImGui sizes an auto-resizing window (the help) in its first frame, unseen.
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    // A panel-like window over the tiles' corner, and the F1 help over the middle of the tiles.
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(700, 720));
    ImGui::Begin("panel");
    ImGui::TextUnformatted("panel");
    ImGui::End();
    ui::draw_help(&help);
    draw_tile_labels(*scene_, 1, 1);
    ImGui::Render();
  }
  const ImDrawData* data = ImGui::GetDrawData();
  ASSERT_NE(data, nullptr);
  // The labels are in the background list, which ImGui draws first; nothing is drawn over the
  // windows (the foreground list, where they used to go, stays empty).
  const ImDrawList* background = ImGui::GetBackgroundDrawList();
  EXPECT_GT(background->VtxBuffer.Size, 0);
  EXPECT_EQ(ImGui::GetForegroundDrawList()->VtxBuffer.Size, 0);
  ASSERT_GE(data->CmdListsCount, 3);
  EXPECT_EQ(data->CmdLists[0], background);
  for (int i = 1; i < data->CmdListsCount; ++i) EXPECT_NE(data->CmdLists[i], background);
}

TEST_F(Overlays, FourTilesShowTheFullLabelOnTheirTile) {
  make_scene(4);
  ImGui::NewFrame();
  const auto labels = tile_labels(*scene_, 1, 1);
  const auto rects = scene_->tile_rects();
  ASSERT_EQ(labels.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(labels[i]) << i;
    EXPECT_EQ(labels[i]->text, label_texts(i, engine_.status(i), true).front());
    EXPECT_NE(labels[i]->text.find("ms/frame"), std::string::npos) << labels[i]->text;
    EXPECT_NE(labels[i]->text.find("1024x1024  gen 2  pop "), std::string::npos) << labels[i]->text;
    const view::Rect& b = labels[i]->box;
    const view::Rect& t = rects[i];
    EXPECT_TRUE(b.x >= t.x && b.y >= t.y && b.x + b.w <= t.x + t.w && b.y + b.h <= t.y + t.h) << i;
  }
  ImGui::EndFrame();
}

TEST_F(Overlays, SixtyFourSmallTilesShowOnlyTheirNumberAndTinyTilesNothing) {
  make_scene(64);
  ImGui::NewFrame();
  const auto labels = tile_labels(*scene_, 1, 1);
  const auto rects = scene_->tile_rects();
  ASSERT_EQ(labels.size(), 64u);
  for (std::size_t i = 0; i < 64; ++i) {
    ASSERT_TRUE(labels[i]) << i;
    std::string number = "#";
    number += std::to_string(i);
    EXPECT_EQ(labels[i]->text, number);
    // Far from the third of the tile a two-line label took.
    EXPECT_LE(labels[i]->box.h, rects[i].h * view::kLabelMaxHeightFraction);
  }
  scene_->set_area(view::Rect{0, 0, 240, 160});  // tiles of about 20 px
  for (const auto& label : tile_labels(*scene_, 1, 1)) EXPECT_FALSE(label);
  ImGui::EndFrame();
}

TEST_F(Overlays, MiddlingTilesDropTheTimingFirst) {
  const InstanceStatus s = [] {
    InstanceStatus st;
    st.width = st.height = 1024;
    st.variant = Variant::shared;
    st.generation = 40;
    st.step_ms.samples = 3;
    st.step_ms.mean = 0.25;
    return st;
  }();
  const auto texts = label_texts(3, s, false);
  ASSERT_EQ(texts.size(), 4u);
  EXPECT_EQ(texts[0], "#3 shared  0.25 ms/frame\n1024x1024  gen 40  pop ...");
  EXPECT_EQ(texts[1], "#3 shared\n1024x1024  gen 40  pop ...");
  EXPECT_EQ(texts[2], "#3  gen 40");
  EXPECT_EQ(texts[3], "#3");
}

TEST(Readout, SaysTheHoveredCellTheZoomAndGenerationsPerSecond) {
  Readout r;
  r.generations_per_second = 1234.4;
  EXPECT_EQ(readout_text(r), "1234 gen/s");
  r.instance = 2;
  r.cell = view::CellPos{512, 300};
  r.pixels_per_cell = 2.5;
  EXPECT_EQ(readout_text(r), "#2  cell 512, 300  \xC2\xB7  2.5 px/cell  \xC2\xB7  1234 gen/s");
  r.pixels_per_cell = 0.3333;
  r.cell.reset();
  r.generations_per_second = 7.25;
  EXPECT_EQ(readout_text(r), "#2  \xC2\xB7  0.33 px/cell  \xC2\xB7  7.2 gen/s");
  r.paused = true;
  EXPECT_EQ(readout_text(r), "#2  \xC2\xB7  0.33 px/cell  \xC2\xB7  paused");
}

TEST(Readout, GenerationsPerSecondAreMeasuredOverHalfASecondAndRestartAfterAReset) {
  GenerationRate rate;
  EXPECT_LT(rate.per_second(), 0);
  rate.add(10.0, 100);
  rate.add(10.25, 115);
  EXPECT_LT(rate.per_second(), 0);  // not a whole window yet
  rate.add(10.5, 130);
  EXPECT_DOUBLE_EQ(rate.per_second(), 60);
  rate.add(11.0, 130 + 240);
  EXPECT_DOUBLE_EQ(rate.per_second(), 480);
  rate.add(11.1, 0);  // reset or loaded: starts again, keeps the last rate meanwhile
  EXPECT_DOUBLE_EQ(rate.per_second(), 480);
  rate.add(11.6, 30);
  EXPECT_DOUBLE_EQ(rate.per_second(), 60);
}

}  // namespace
}  // namespace ls::app
