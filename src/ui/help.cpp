// help.cpp — the F1 help overlay listing every key and mouse action (the app implements them;
// this list is what a person reads).
#include "ui/help.hpp"

#include <imgui.h>

#include "ui/style.hpp"

namespace ls::ui {

namespace {
constexpr HelpEntry kEntries[] = {
    {"Space", "pause / run"},
    {"N", "single step (one generation)"},
    {"= or + (with or without Shift), keypad +", "add an instance"},
    {"- or keypad -", "remove an instance"},
    {"V", "cycle the variant of the tile under the mouse"},
    {"F", "fit: show the whole lattice of the tile under the mouse (all without one)"},
    {"S", "screenshot to a numbered PNG (never overwrites)"},
    {"Tab", "show / hide the panel (its width is remembered)"},
    {"F1", "show / hide this help"},
    {"Esc", "quit"},
    {"Mouse wheel", "zoom at the cursor"},
    {"Left-drag", "pan the tile's view"},
    {"Double-click", "fit the tile's view"},
    {"Ctrl + left-drag", "draw: set cells (also while running)"},
    {"Ctrl + right-drag", "draw: clear cells"},
    {"Drop a .rle / .cells (.gz) file", "load it into the tile under the mouse"},
};
}  // namespace

const HelpEntry* help_entries(std::size_t& count) {
  count = sizeof(kEntries) / sizeof(kEntries[0]);
  return kEntries;
}

void draw_help(bool* open) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  // Opaque: the panel's text showing through made the table hard to read.
  ImGui::SetNextWindowBgAlpha(1.f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Keys and mouse##help", open, kFlags)) {
    text_coloured(colour::dim, "Keys go to the tiles unless a panel field has the keyboard;");
    text_coloured(colour::dim, "mouse actions apply to the tile under the cursor.");
    ImGui::Spacing();
    constexpr ImGuiTableFlags kTable =
        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
    if (ImGui::BeginTable("##keys", 2, kTable)) {
      ImGui::TableSetupColumn("Input");
      ImGui::TableSetupColumn("Action");
      ImGui::TableHeadersRow();
      for (const HelpEntry& e : kEntries) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, colour::step);
        ImGui::TextUnformatted(e.input);
        ImGui::PopStyleColor();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(e.action);
      }
      ImGui::EndTable();
    }
    ImGui::Spacing();
    text_coloured(colour::dim, "F1 or the close button hides this window.");
  }
  ImGui::End();
}

}  // namespace ls::ui
