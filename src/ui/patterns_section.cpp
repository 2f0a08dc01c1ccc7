// patterns_section.cpp — the panel's Patterns section (patterns_section.hpp).
#include "ui/patterns_section.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "ui/validate.hpp"

namespace ls::ui {

void PatternsSection::draw(const PanelModel& model, int& selected, std::vector<Command>& out) {
  const int count = static_cast<int>(model.statuses.size());
  const ImGuiStyle& style = ImGui::GetStyle();
  if (count == 0) {
    ImGui::TextDisabled("No instance.");
    return;
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Into instance");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("000").x + ImGui::GetFrameHeight() * 2 +
                          style.ItemInnerSpacing.x * 2);
  int sel = selected;
  if (ImGui::InputInt("##selected", &sel)) selected = std::clamp(sel, 0, count - 1);
  ImGui::SameLine();
  ImGui::TextDisabled("(or click a # above, or drop a file on a tile)");

  const std::size_t target = static_cast<std::size_t>(selected);
  if (!model.bundled_patterns.empty()) {
    const float lines = static_cast<float>(std::min<std::size_t>(model.bundled_patterns.size(), 6));
    const ImVec2 size(-FLT_MIN, lines * ImGui::GetTextLineHeightWithSpacing() + style.FramePadding.y * 2);
    if (ImGui::BeginListBox("##bundled", size)) {
      for (const std::string& name : model.bundled_patterns) {
        if (ImGui::Selectable(name.c_str(), false))
          out.push_back(cmd::Load{target, model.patterns_dir + "/" + name});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Load into instance %d (centred)", selected);
      }
      ImGui::EndListBox();
    }
  }

  // Enter loads the path (typed or not), Tab a typed one; a click elsewhere keeps it (the click
  // may be on Load); Esc puts back the text the field had.
  const float load_w = ImGui::CalcTextSize("Load").x + style.FramePadding.x * 2;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - load_w - style.ItemInnerSpacing.x);
  const TextEditEnd end = text_field("##path", "path to a .rle or .cells file (.gz too)", path_, nullptr);
  const bool enter =
      ImGui::IsItemDeactivated() && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
                                     ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false));
  if (end == TextEditEnd::edited) path_.error.clear();
  if ((enter || (end == TextEditEnd::applied && !path_.left_by_click)) &&
      check_pattern_path(path_.text, path_.error)) {
    out.push_back(cmd::Load{target, path_.text});
  }
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::BeginDisabled(path_.text[0] == '\0');
  if (ImGui::Button("Load##path") && check_pattern_path(path_.text, path_.error)) {
    out.push_back(cmd::Load{target, path_.text});
  }
  ImGui::EndDisabled();
  error_text(path_.error);

  char label[48];
  std::snprintf(label, sizeof label, "Save instance %d as RLE###save", selected);
  if (ImGui::Button(label)) out.push_back(cmd::Save{target, ""});
  tooltip("Saved under a numbered file name; never overwrites.");
  ImGui::SameLine();
  if (ImGui::Button("Screenshot##shot")) out.push_back(cmd::Screenshot{""});
  tooltip("PNG of the whole window, numbered (S)");
}

}  // namespace ls::ui
