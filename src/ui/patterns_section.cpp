// patterns_section.cpp — the panel's Patterns section (patterns_section.hpp).
#include "ui/patterns_section.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // NavMoveRequestCancel, ActivateItem: Tab's next field

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "ui/validate.hpp"

namespace ls::ui {

namespace {

/// "Into instance [N]": the target instance as a field. Returns the field's id (Tab from the path
/// field comes back to it).
ImGuiID draw_target(int count, int& selected) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Into instance");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("000").x + ImGui::GetFrameHeight() * 2 +
                          ImGui::GetStyle().ItemInnerSpacing.x * 2);
  int sel = selected;
  // Not ImGui::GetID: it keeps the active id alive, and the InputInt group then loses track of it.
  const ImGuiID selected_id = ImGui::GetCurrentWindow()->GetIDNoKeepAlive("##selected");
  if (ImGui::InputInt("##selected", &sel)) selected = std::clamp(sel, 0, count - 1);
  ImGui::SameLine();
  ImGui::TextDisabled("(or click a # above, or drop a file on a tile)");
  return selected_id;
}

/// The Save and Screenshot buttons.
void draw_save_and_screenshot(int selected, std::vector<Command>& out) {
  char label[48];
  std::snprintf(label, sizeof label, "Save instance %d as RLE###save", selected);
  if (ImGui::Button(label)) out.push_back(cmd::Save{static_cast<std::size_t>(selected), ""});
  tooltip("Saved under a numbered file name; never overwrites.");
  ImGui::SameLine();
  if (ImGui::Button("Screenshot##shot")) out.push_back(cmd::Screenshot{""});
  tooltip("PNG of the whole window, numbered (S)");
}

}  // namespace

void PatternsSection::draw(const PanelModel& model, int& selected, std::vector<Command>& out) {
  const int count = static_cast<int>(model.statuses.size());
  if (count == 0) {
    ImGui::TextDisabled("No instance.");
    return;
  }
  const ImGuiID selected_id = draw_target(count, selected);
  draw_bundled(model, selected, out);
  draw_path(static_cast<std::size_t>(selected), selected_id, out);
  draw_save_and_screenshot(selected, out);
}

void PatternsSection::draw_bundled(const PanelModel& model, int selected, std::vector<Command>& out) {
  if (model.bundled_patterns.empty()) return;
  const float lines = static_cast<float>(std::min<std::size_t>(model.bundled_patterns.size(), 6));
  const ImVec2 size(-FLT_MIN,
                    lines * ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().FramePadding.y * 2);
  if (!ImGui::BeginListBox("##bundled", size)) return;
  for (const std::string& name : model.bundled_patterns) {
    // A click loads; the second click of a double-click loads nothing more.
    if (ImGui::Selectable(name.c_str(), name == loaded_, ImGuiSelectableFlags_AllowDoubleClick) &&
        !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      out.push_back(cmd::Load{static_cast<std::size_t>(selected), model.patterns_dir + "/" + name});
      loaded_ = name;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Load into instance %d (centred)", selected);
  }
  ImGui::EndListBox();
}

void PatternsSection::draw_path(std::size_t target, ImGuiID selected_id, std::vector<Command>& out) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // Enter loads the path (typed or not), Tab a typed one; a click elsewhere keeps it (the click
  // may be on Load); Esc puts back the text the field had. A path that is no file keeps the field
  // active on Enter, with its reason.
  const float load_w = ImGui::CalcTextSize("Load").x + style.FramePadding.x * 2;
  const bool tab = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab)) && !ImGui::GetIO().KeyShift &&
                   !ImGui::GetIO().KeyCtrl && !ImGui::GetIO().KeyAlt;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - load_w - style.ItemInnerSpacing.x);
  const TextEditEnd end = text_field("##path", "path to a .rle or .cells file (.gz too)", path_, nullptr);
  const bool enter = ImGui::IsItemDeactivated() && enter_pressed();
  if (end == TextEditEnd::edited) path_.error.clear();
  if (enter || (end == TextEditEnd::applied && !path_.left_by_click)) {
    if (check_pattern_path(path_.text, path_.error)) {
      out.push_back(cmd::Load{target, path_.text});
    } else if (enter) {
      keep_editing(path_.id);
    }
  }
  field_tip("A pattern file to load into the instance: Enter or Load.", path_.error, true,
            ImGui::IsItemActive());
  if (tab && ImGui::IsItemActive()) {
    // ImGui would wrap to the panel's first field (Instances, at the top) and scroll there: the
    // next field is this section's first one instead.
    ImGui::NavMoveRequestCancel();
    ImGui::ActivateItem(selected_id);
    GImGui->NavNextActivateFlags = ImGuiActivateFlags_PreferInput;
  }
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::BeginDisabled(path_.text[0] == '\0');
  if (ImGui::Button("Load##path") && check_pattern_path(path_.text, path_.error)) {
    out.push_back(cmd::Load{target, path_.text});
  }
  ImGui::EndDisabled();
  // The error's line is kept when there is none, so that the buttons below do not move.
  if (path_.error.empty()) {
    ImGui::Dummy(ImVec2(0, ImGui::GetTextLineHeight()));
  } else {
    error_text(path_.error);
  }
}

}  // namespace ls::ui
