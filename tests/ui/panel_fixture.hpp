// panel_fixture.hpp — the panel drawn in a headless ImGui context (font atlas built, no GL
// backend) over a CPU engine of four instances, with helpers that click, type and press keys as
// a person would: the set-up the panel's tests share.
#pragma once

#include <gtest/gtest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <variant>
#include <vector>

#include "core/cpu_engine.hpp"
#include "ui/engine_figures.hpp"
#include "ui/panel.hpp"

namespace ls::ui {

constexpr int kEnterKey = 257;   // our own index into io.KeysDown for ImGuiKey_Enter
constexpr int kEscapeKey = 256;  // and for ImGuiKey_Escape
constexpr int kTabKey = 258;     // and for ImGuiKey_Tab

class PanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 900);
    io.DeltaTime = 1.f / 60.f;
    io.KeyMap[ImGuiKey_Enter] = kEnterKey;
    io.KeyMap[ImGuiKey_Escape] = kEscapeKey;
    io.KeyMap[ImGuiKey_Tab] = kTabKey;
    fonts_loaded_ = load_fonts(std::string(LS_SOURCE_DIR) + "/assets", 1.f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    panel_.set_scale(1.f);

    InstanceSpec spec;
    spec.width = spec.height = 64;
    const Variant variants[] = {Variant::global, Variant::shared, Variant::iterate, Variant::bitpacked};
    for (Variant v : variants) {
      spec.variant = v;
      engine_.add(spec);
    }
    model_.bundled_patterns = {"glider.rle", "acorn.rle"};
    model_.patterns_dir = "assets/patterns";
    model_.settings.width = model_.settings.height = 64;
    // A few frames of work so that timings, summaries and the timeline exist.
    for (int i = 0; i < 3; ++i) {
      engine_.step(1);
      for (std::size_t j = 0; j < engine_.size(); ++j) {
        engine_.begin_display(j);
        engine_.end_display(j);
      }
      engine_.request_summaries();
    }
  }
  void TearDown() override { ImGui::DestroyContext(); }

  /// One frame: NewFrame, the engine's figures into the model (as the app does), the panel,
  /// Render. Returns the commands it emitted.
  std::vector<Command> frame() {
    std::vector<Command> out;
    ImGui::NewFrame();
    if (with_engine_) fill_engine_figures(engine_, model_);
    panel_.draw(model_, out);
    ImGui::Render();
    return out;
  }
  /// The ID of a widget drawn directly in the panel's "##scene" table.
  static ImGuiID scene_item(const char* label) {
    ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
    EXPECT_NE(window, nullptr);
    const ImGuiID table = ImHashStr("##scene", 0, window->ID);
    return ImHashStr(label, 0, table);
  }
  /// Gives a text field the keyboard (as Tab or a click would), its text selected. A field that
  /// still has it (a refused Enter keeps it) is left first, as a click elsewhere would.
  void focus_text(ImGuiID id) {
    if (ImGui::GetActiveID() == id) {
      ImGui::ClearActiveID();
      frame();
    }
    ImGui::ActivateItem(id);
    GImGui->NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
    frame();
    ASSERT_EQ(ImGui::GetActiveID(), id);
  }
  /// One frame with Enter down, then Enter released. Returns the commands of the Enter frame.
  std::vector<Command> press_enter() {
    ImGui::GetIO().KeysDown[kEnterKey] = true;
    std::vector<Command> out = frame();
    ImGui::GetIO().KeysDown[kEnterKey] = false;
    return out;
  }
  /// One frame with Esc down, then Esc released. Returns the commands of the Esc frame.
  std::vector<Command> press_escape() {
    ImGui::GetIO().KeysDown[kEscapeKey] = true;
    std::vector<Command> out = frame();
    ImGui::GetIO().KeysDown[kEscapeKey] = false;
    return out;
  }
  /// The ID of instance `i`'s rule field in the "##instances" table.
  static ImGuiID instance_rule_item(int i) {
    ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
    EXPECT_NE(window, nullptr);
    const ImGuiID table = ImHashStr("##instances", 0, window->ID);
    const ImGuiID row = ImHashData(&i, sizeof i, table);
    return ImHashStr("##rule", 0, row);
  }
  /// Applies the commands a frame emitted to the engine, as the app does for rules.
  void apply_rules(const std::vector<Command>& out) {
    for (const Command& c : out) {
      const auto* set = std::get_if<cmd::SetRule>(&c);
      ASSERT_NE(set, nullptr);
      if (set->target.all) {
        for (std::size_t i = 0; i < engine_.size(); ++i) engine_.set_rule(i, set->rule);
      } else {
        engine_.set_rule(set->target.index, set->rule);
      }
    }
  }
  /// One frame with Tab down, then two with it released (the field is left, and the next one
  /// takes the keyboard, a frame after the key). Returns the commands of all three.
  std::vector<Command> press_tab() {
    ImGui::GetIO().KeysDown[kTabKey] = true;
    std::vector<Command> out = frame();
    ImGui::GetIO().KeysDown[kTabKey] = false;
    for (int i = 0; i < 2; ++i) {
      for (const Command& c : frame()) out.push_back(c);
    }
    return out;
  }
  /// The text a field shows when a person enters it (for a slider: its typed-value text), read
  /// by entering it and leaving it untouched.
  std::string shown_text(ImGuiID id) {
    focus_text(id);
    const ImGuiInputTextState* state = ImGui::GetInputTextState(id);
    EXPECT_NE(state, nullptr);
    std::string text = state != nullptr && state->InitialTextA.Size > 0 ? state->InitialTextA.Data : "";
    ImGui::ClearActiveID();
    EXPECT_TRUE(frame().empty());
    return text;
  }
  /// The text one frame of the panel's window draws, emitting nothing. ImGui's log ends (and
  /// clears its buffer) at the End of the window it covers, so it is read as the clipboard text
  /// the log hands over then.
  std::string panel_text() {
    ImGuiIO& io = ImGui::GetIO();
    std::string text;
    io.ClipboardUserData = &text;
    io.SetClipboardTextFn = [](void* user, const char* t) { *static_cast<std::string*>(user) = t; };
    std::vector<Command> out;
    ImGui::NewFrame();
    if (with_engine_) fill_engine_figures(engine_, model_);
    ImGui::LogToClipboard();
    panel_.draw(model_, out);
    ImGui::LogFinish();
    ImGui::Render();
    io.SetClipboardTextFn = nullptr;
    io.ClipboardUserData = nullptr;
    EXPECT_TRUE(out.empty());
    return text;
  }
  static ImGuiWindow* panel_window() { return ImGui::FindWindowByName("lifestreams##panel"); }
  /// The ID of widget `label` in row `i` of the "##instances" table.
  static ImGuiID instance_item(int i, const char* label) {
    ImGuiWindow* window = panel_window();
    EXPECT_NE(window, nullptr);
    const ImGuiID table = ImHashStr("##instances", 0, window->ID);
    const ImGuiID row = ImHashData(&i, sizeof i, table);
    return ImHashStr(label, 0, row);
  }
  void type(const char* text) {
    for (const char* c = text; *c != '\0'; ++c) ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(*c));
  }

  bool fonts_loaded_ = false;
  bool with_engine_ = true;  // fill the model from engine_ each frame
  CpuEngine engine_{1};
  PanelModel model_;
  Panel panel_;
};

}  // namespace ls::ui
