// Facts about what the panel shows where, drawn headless: at its least width the Size fields
// hold the largest side whole, the Scene and totals rows stay in their cells and the Instances
// table keeps every column (its rule column a long rule whole), scrolling sideways; nothing above
// the Patterns list moves when a load, a message or a frame's figures come and go; Tab from the
// pattern path stays in its section; a field's tooltip goes beside the field while it is edited or
// holds an error; dropdowns are opaque; refused size presets cannot be chosen; the help fits a
// small window; the totals name their two throughputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "panel_fixture.hpp"

namespace ls::ui {
namespace {

class PanelFitTest : public PanelTest {
 protected:
  /// The screen rectangle of field `id` (drawn in the panel window), read by giving it the
  /// keyboard and leaving it with Esc.
  ImRect field_rect(ImGuiID id) {
    focus_text(id);
    ImGuiWindow* window = GImGui->NavWindow;
    EXPECT_NE(window, nullptr);
    const ImRect r = ImGui::WindowRectRelToAbs(window, window->NavRectRel[0]);
    EXPECT_TRUE(press_escape().empty());
    frame();
    return r;
  }
  /// The child window of the panel that BeginChild or BeginListBox `label` opened.
  static ImGuiWindow* child_of_panel(const char* label) {
    const ImGuiID id = ImHashStr(label, 0, panel_window()->ID);
    for (ImGuiWindow* w : GImGui->Windows) {
      if (w->ParentWindow == panel_window() && w->ChildId == id) return w;
    }
    return nullptr;
  }
  static void close_popups() {
    if (GImGui->OpenPopupStack.Size > 0) ImGui::ClosePopupToLevel(0, true);
  }
  static ImGuiTable* table(const char* name) {
    return ImGui::TableFindByID(ImHashStr(name, 0, panel_window()->ID));
  }
  static ImGuiWindow* window_named(const char* name) {
    ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w != nullptr && w->Active ? w : nullptr;
  }
  /// Opens the collapsed Patterns section (on a display tall enough to show its header), then
  /// makes the display `height` high.
  void open_patterns(float height) {
    ImGui::GetIO().DisplaySize = ImVec2(1600, 2400);
    frame();
    ImGui::ActivateItem(ImHashStr("Patterns", 0, panel_window()->ID));
    EXPECT_TRUE(frame().empty());
    ImGui::GetIO().DisplaySize = ImVec2(1600, height);
    frame();
    frame();
  }
  /// The least width the panel takes: a drag of its edge far to the left.
  void narrowest() {
    panel_.set_width(1);
    frame();
    frame();
    ASSERT_FLOAT_EQ(panel_.width(), std::min(kMinWidth, ImGui::GetIO().DisplaySize.x * kMaxWidthFraction));
  }
};

TEST_F(PanelFitTest, AtItsLeastWidthTheSizeFieldsHoldTheLargestSideWhole) {
  frame();
  const float whole = ImGui::CalcTextSize("131072").x + 2 * ImGui::GetStyle().FramePadding.x;
  for (const ImVec2 display : {ImVec2(1600, 900), ImVec2(480, 320)}) {
    ImGui::GetIO().DisplaySize = display;
    narrowest();
    for (const char* side : {"##width", "##height"}) {
      const ImRect r = field_rect(scene_item(side));
      EXPECT_GE(r.GetWidth(), whole) << side << " at " << display.x << " x " << display.y;
      EXPECT_LE(r.Max.x, panel_.width()) << side << " runs past the panel";
    }
  }
}

TEST_F(PanelFitTest, AtItsLeastWidthTheSceneAndTotalsRowsStayInTheirCells) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);
  narrowest();
  for (const char* name : {"##scene", "##totals"}) {
    const ImGuiTable* t = table(name);
    ASSERT_NE(t, nullptr) << name;
    for (int c = 0; c < t->ColumnsCount; ++c) {
      const ImGuiTableColumn& col = t->Columns[c];
      EXPECT_LE(col.ContentMaxXUnfrozen, col.MaxX + 1) << name << " column " << c;
    }
  }
}

TEST_F(PanelFitTest, ANarrowPanelScrollsTheInstancesTableSidewaysKeepingALongRuleWhole) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 900);
  // At the default width every column shows, on the CPU engine and on two GPUs.
  frame();
  frame();
  const float rule = ImGui::CalcTextSize("B3678/S34678").x;
  ImGuiWindow* box = child_of_panel("##instances_box");
  ASSERT_NE(box, nullptr);
  EXPECT_FLOAT_EQ(box->ScrollMax.x, 0) << "the table scrolls at the default width";
  with_engine_ = false;
  model_.backend = "cuda";
  model_.instance_devices = {{0}, {1}, {0, 1}, {1}};
  frame();
  frame();
  EXPECT_FLOAT_EQ(box->ScrollMax.x, 0) << "the table scrolls at the default width on GPUs";
  // At the least width the columns keep their widths side by side and the table scrolls.
  narrowest();
  frame();
  EXPECT_GT(box->ScrollMax.x, 0);
  const ImGuiTable* t = table("##instances");
  ASSERT_NE(t, nullptr);
  EXPECT_GE(t->Columns[2].WidthGiven, rule);
  for (int c = 0; c + 1 < t->ColumnsCount; ++c) {
    EXPECT_LE(t->Columns[c].MaxX, t->Columns[c + 1].MinX + 0.5f) << "columns " << c << " and " << c + 1;
    EXPECT_LE(t->Columns[c].ContentMaxXUnfrozen, t->Columns[c].MaxX + 1) << "column " << c << " overflows";
  }
}

// A load replaces an instance: for a frame it has no bar in the timeline, a message shows, and the
// frame rate may leave the vsync cap. None of that moves the Patterns list (a double-click must not
// load its neighbour).
TEST_F(PanelFitTest, ThePatternsListStaysPutWhenALoadsEffectsComeAndGo) {
  open_patterns(2400);
  ImGuiWindow* list = child_of_panel("##bundled");
  ASSERT_NE(list, nullptr);
  const float y = list->Pos.y;
  with_engine_ = false;
  model_.message = "loaded /abs/path/assets/patterns/glider.rle into instance 0";
  model_.timeline.erase(std::remove_if(model_.timeline.begin(), model_.timeline.end(),
                                       [](const TimelineBar& b) { return b.instance == 0; }),
                        model_.timeline.end());
  frame();
  EXPECT_FLOAT_EQ(list->Pos.y, y) << "a frame without the loaded instance's bars";
  model_.timeline.clear();
  frame();
  EXPECT_FLOAT_EQ(list->Pos.y, y) << "a frame without bars";
  model_.windowed = true;
  model_.vsync = true;
  model_.refresh_hz = 60;
  model_.fps = 60;
  frame();
  EXPECT_FLOAT_EQ(list->Pos.y, y) << "the vsync note";
  model_.frame.valid = false;
  model_.frame.span_history.clear();
  model_.host_enqueue_history.clear();
  frame();
  EXPECT_FLOAT_EQ(list->Pos.y, y) << "no frame figures";
  model_.error = "load: /abs/path/nothing.rle: no such file";
  frame();
  EXPECT_FLOAT_EQ(list->Pos.y, y) << "an error";
}

TEST_F(PanelFitTest, ARefusedPathKeepsTheButtonsBelowItWhereTheyWere) {
  open_patterns(2400);
  ImGuiWindow* panel = panel_window();
  const ImGuiID path = ImHashStr("##path", 0, panel->ID);
  frame();
  const float content = panel->ContentSize.y;
  focus_text(path);
  type("/no/such/pattern.rle");
  frame();
  EXPECT_TRUE(press_enter().empty());
  EXPECT_EQ(ImGui::GetActiveID(), path) << "Enter with a path that is no file left the field";
  frame();
  EXPECT_FLOAT_EQ(panel->ContentSize.y, content) << "the error line moved what is below it";
  EXPECT_TRUE(press_escape().empty());
}

TEST_F(PanelFitTest, TabFromThePatternPathGoesToItsSectionsFirstFieldWithoutScrolling) {
  open_patterns(900);
  ImGuiWindow* panel = panel_window();
  ImGui::SetScrollY(panel, panel->ScrollMax.y);  // the Patterns section in view
  frame();
  frame();
  const float scroll = panel->Scroll.y;
  ASSERT_GT(scroll, 0);
  const ImGuiID path = ImHashStr("##path", 0, panel->ID);
  focus_text(path);
  std::vector<Command> out = press_tab();
  EXPECT_TRUE(out.empty());  // an empty path loads nothing
  EXPECT_EQ(ImGui::GetActiveID(), ImHashStr("##selected", 0, panel->ID));
  EXPECT_FLOAT_EQ(panel->Scroll.y, scroll);
}

// While Rule (all) holds bad text its tooltip (the error over the rule's help) stands right of the
// panel, level with the field; in a window with no room there it stands under the error line.
TEST_F(PanelFitTest, AFieldsTooltipGoesBesideItWhileItIsEditedOrHoldsAnError) {
  for (const ImVec2 display : {ImVec2(1600, 900), ImVec2(480, 320), ImVec2(400, 300)}) {
    SCOPED_TRACE(display.x);
    ImGui::GetIO().DisplaySize = display;
    frame();
    const ImRect field = field_rect(scene_item("##rule_all"));
    focus_text(scene_item("##rule_all"));
    type("B3/S2x");
    frame();
    frame();
    ImGuiWindow* tip = window_named("##Tooltip_00");
    ASSERT_NE(tip, nullptr) << "no tooltip while editing";
    const ImRect tip_rect(tip->Pos, ImVec2(tip->Pos.x + tip->Size.x, tip->Pos.y + tip->Size.y));
    EXPECT_FALSE(tip_rect.Overlaps(field)) << "the tooltip covers the field";
    if (display.x >= 480) {
      EXPECT_GE(tip->Pos.x, panel_.width());
      EXPECT_FLOAT_EQ(tip->Pos.y, field.Min.y);
    } else {
      // Under the field and its error line (at least one text line below the field).
      EXPECT_GE(tip->Pos.y, field.Max.y + ImGui::GetTextLineHeight());
    }
    EXPECT_TRUE(press_escape().empty());
    frame();
  }
}

// On the CPU engine the variant combos are faded; their lists are not (a faded popup let the table
// show through its items).
TEST_F(PanelFitTest, TheVariantListsAreOpaqueOverAFadedCombo) {
  frame();
  ASSERT_EQ(model_.backend, "cpu");
  for (const ImGuiID combo : {scene_item("##variant_all"), instance_item(1, "##variant")}) {
    ImGui::ActivateItem(combo);
    frame();
    frame();
    ImGuiWindow* popup = window_named("##Combo_00");
    ASSERT_NE(popup, nullptr) << "the list did not open";
    int most = 0;
    for (const ImDrawVert& v : popup->DrawList->VtxBuffer)
      most = std::max(most, static_cast<int>((v.col >> IM_COL32_A_SHIFT) & 0xFF));
    EXPECT_EQ(most, 255) << "the list is drawn see-through";
    EXPECT_TRUE(press_escape().empty());
    close_popups();
    frame();
  }
}

TEST_F(PanelFitTest, ASizePresetTheEngineRefusesCannotBeChosen) {
  frame();
  with_engine_ = false;
  model_.size_preset_refusals.assign(std::size(kSizePresets), "");
  model_.size_preset_refusals[8] = "65536 x 65536 for 4 instances needs 2 GiB; 1 GiB is free";
  auto pick = [&](const char* label) {
    ImGui::ActivateItem(scene_item("##size_presets"));
    frame();
    frame();
    ImGuiWindow* popup = window_named("##Combo_00");
    EXPECT_NE(popup, nullptr);
    if (popup == nullptr) return std::vector<Command>{};
    ImGui::ActivateItem(ImHashStr(label, 0, popup->ID));
    std::vector<Command> out = frame();
    for (const Command& c : frame()) out.push_back(c);
    close_popups();
    frame();
    return out;
  };
  EXPECT_TRUE(pick("65536 \xC3\x97 65536").empty());
  const std::vector<Command> out = pick("512 \xC3\x97 512");
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<cmd::Size>(out[0]));
  EXPECT_EQ(std::get<cmd::Size>(out[0]).width, 512);
}

// Releasing the density slider after a drag makes new soups at once: the densities of the drag,
// then Reset all's command.
TEST_F(PanelFitTest, ReleasingTheDensitySliderMakesNewSoups) {
  frame();
  const ImRect r = field_rect(scene_item("##density"));
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(r.Min.x + r.GetWidth() * 0.25f, r.GetCenter().y);
  frame();
  io.MouseDown[0] = true;
  std::vector<Command> out = frame();
  io.MousePos.x = r.Min.x + r.GetWidth() * 0.75f;
  for (const Command& c : frame()) out.push_back(c);
  io.MouseDown[0] = false;
  for (const Command& c : frame()) out.push_back(c);
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  for (const Command& c : frame()) out.push_back(c);
  ASSERT_GE(out.size(), 2u);
  for (std::size_t i = 0; i + 1 < out.size(); ++i) EXPECT_TRUE(std::holds_alternative<cmd::Density>(out[i]));
  ASSERT_TRUE(std::holds_alternative<cmd::Reset>(out.back()));
  EXPECT_TRUE(std::get<cmd::Reset>(out.back()).target.all);
  EXPECT_EQ(std::count_if(out.begin(), out.end(),
                          [](const Command& c) { return std::holds_alternative<cmd::Reset>(c); }),
            1);
}

TEST_F(PanelFitTest, TheHelpFitsASmallWindowAndWrapsItsActions) {
  ImGui::GetIO().DisplaySize = ImVec2(480, 320);
  panel_.toggle_help();
  for (int i = 0; i < 3; ++i) frame();
  ImGuiWindow* help = window_named("Keys and mouse##help");
  ASSERT_NE(help, nullptr);
  EXPECT_GE(help->Pos.x, 0);
  EXPECT_GE(help->Pos.y, 0);
  EXPECT_LE(help->Pos.x + help->Size.x, 480);
  EXPECT_LE(help->Pos.y + help->Size.y, 320);
  EXPECT_GT(help->ScrollMax.y, 0) << "the keys that do not fit do not scroll into view";
  const ImGuiTable* keys = ImGui::TableFindByID(ImHashStr("##keys", 0, help->ID));
  ASSERT_NE(keys, nullptr);
  EXPECT_LE(keys->Columns[1].MaxX, help->Pos.x + help->Size.x) << "the Action column is cut";
}

// The panel names two throughputs: delivered (what the app advanced) and kernel rate (the sum of the
// instances' rates).
TEST_F(PanelFitTest, TheTotalsShowDeliveredAndKernelRatesNotOneSum) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);
  frame();
  with_engine_ = false;
  model_.delivered_cups = 1.5e9;
  model_.kernel_cups = 4.0e9;
  const std::string text = panel_text();
  EXPECT_NE(text.find("delivered"), std::string::npos) << text;
  EXPECT_NE(text.find("1.50 G cells/s"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel rate"), std::string::npos);
  EXPECT_NE(text.find("4.00 G cells/s"), std::string::npos);
  // The step times say what they time: a frame of generations_per_frame generations.
  EXPECT_NE(text.find("ms per frame (1 generation)"), std::string::npos);
  model_.settings.generations_per_frame = 8;
  EXPECT_NE(panel_text().find("ms per frame (8 generations)"), std::string::npos);
}

// On the CPU engine the CUDA-only settings say so where they are.
TEST_F(PanelFitTest, OnTheCpuEngineTheStreamSettingsSayTheyApplyOnAGpu) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2000);
  std::string text = panel_text();
  EXPECT_NE(text.find("Applies on a GPU"), std::string::npos) << text;
  EXPECT_EQ(text.find("watch host enqueue fall below the GPU span"), std::string::npos);
  model_.backend = "cuda";
  engine_.set_stream_mode(StreamMode::graph);
  text = panel_text();
  EXPECT_EQ(text.find("Applies on a GPU"), std::string::npos);
  EXPECT_NE(text.find("watch host enqueue fall below the GPU span"), std::string::npos);
}

}  // namespace
}  // namespace ls::ui
