// help.cpp — the F1 help overlay listing every key and mouse action (the app implements them;
// this list is what a person reads).
#include "ui/help.hpp"

#include <imgui.h>

#include <algorithm>

#include "ui/style.hpp"

namespace ls::ui {

namespace {
constexpr float kHelpWidthEm = 40.f;  // the overlay's width where the display allows, in font sizes

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
    {"Esc",
     "close the topmost thing open: a dropdown or popup, this help, a field being edited (its edit "
     "cancelled), a running fill (cancelled); otherwise nothing"},
    {"Ctrl+Q",
     "quit; when cells were drawn or a pattern loaded since the last save it asks once first "
     "(Ctrl+Q again or Enter quits, Esc stays)"},
    {"Window close button", "quit, asking first as Ctrl+Q does"},
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
  const ImGuiStyle& style = ImGui::GetStyle();
  // As wide as it reads well, never wider or taller than the display: the Action column wraps and
  // the window scrolls in a small one.
  const float margin = ImGui::GetFontSize();
  const float most_w = std::max(ImGui::GetFontSize() * 10, io.DisplaySize.x - 2 * margin);
  const float most_h = std::max(ImGui::GetFontSize() * 6, io.DisplaySize.y - 2 * margin);
  const float width = std::min(ImGui::GetFontSize() * kHelpWidthEm, most_w);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, most_h));
  // Opaque: the panel's text showing through made the table hard to read.
  ImGui::SetNextWindowBgAlpha(1.f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("Keys and mouse##help", open, kFlags)) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::TextWrapped(
        "Keys go to the tiles unless a panel field has the keyboard; mouse actions apply to the tile "
        "under the cursor.");
    ImGui::PopStyleColor();
    ImGui::Spacing();
    constexpr ImGuiTableFlags kTable =
        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
    if (ImGui::BeginTable("##keys", 2, kTable)) {
      // The Input column as wide as its longest entry up to 40% of the table; both wrap.
      float input_w = 0;
      for (const HelpEntry& e : kEntries) input_w = std::max(input_w, ImGui::CalcTextSize(e.input).x);
      const float avail = ImGui::GetContentRegionAvail().x - 4 * style.CellPadding.x;
      ImGui::TableSetupColumn("Input", ImGuiTableColumnFlags_WidthFixed, std::min(input_w, avail * 0.4f));
      ImGui::TableSetupColumn("Action", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableHeadersRow();
      for (const HelpEntry& e : kEntries) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, colour::step);
        ImGui::TextWrapped("%s", e.input);
        ImGui::PopStyleColor();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", e.action);
      }
      ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::TextWrapped("F1, Esc or the close button hides this window.");
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

}  // namespace ls::ui
