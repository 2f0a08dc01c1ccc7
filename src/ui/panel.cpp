// panel.cpp — the panel's window (panel.hpp): its place and width, the draggable right edge,
// the header line, the sections in order, the notice over the tiles and the help overlay. The
// sections draw themselves (scene_section, instances_section, timings_section, patterns_section;
// helpers in widgets).
#include "ui/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ui/counters_section.hpp"
#include "ui/help.hpp"
#include "ui/roofline_section.hpp"
#include "ui/style.hpp"
#include "ui/timings_section.hpp"

namespace ls::ui {

namespace {

constexpr float kEdgeGrab = 6.f;  // width at scale 1 of the strip that drags the panel's right edge
constexpr const char* kWindowName = "lifestreams##panel";

}  // namespace

void Panel::set_scale(float scale) {
  scale_ = scale > 0 ? scale : 1.f;
  apply_style(scale_);
  // Text follows the scale even if the font was loaded at another size (load_fonts at this scale
  // makes the factor 1 and the text crisp). The atlas may not be built yet: read the requested size.
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's built-in font (no font loaded, or load_fonts' fallback) is drawn for 13 px.
  const bool builtin =
      io.Fonts->ConfigData.Size == 0 || std::strncmp(io.Fonts->ConfigData[0].Name, "ProggyClean", 11) == 0;
  const float loaded = io.Fonts->ConfigData.Size > 0 ? io.Fonts->ConfigData[0].SizePixels : 13.f;
  const float wanted = (builtin ? 13.f : kBaseFontPixels) * scale_;
  io.FontGlobalScale = loaded <= 0 || std::fabs(wanted - loaded) < 0.5f ? 1.f : wanted / loaded;
}

float Panel::width_for(float display_w) const {
  display_w = std::max(display_w, 0.f);  // ImGui's size is -1 until the first frame
  const float most = std::floor(display_w * kMaxWidthFraction);
  // The least width holds the panel's forms (a small window gives the panel up to its largest share
  // before its fields are cut); its tables scroll sideways below that.
  const float least = std::min(std::round(kMinWidth * scale_), most);
  if (chosen_width_ <= 0) {
    return std::clamp(
        std::min(std::round(kDefaultWidth * scale_), std::floor(display_w * kDefaultWidthFraction)), least,
        most);
  }
  return std::clamp(chosen_width_, least, most);
}

float Panel::width() const { return visible_ ? width_for(ImGui::GetIO().DisplaySize.x) : 0.f; }

void Panel::draw(const PanelModel& model, std::vector<Command>& out) {
  const ImGuiIO& io = ImGui::GetIO();
  const float panel_w = Panel::width();
  if (visible_) {
    cross_check(model.statuses, checks_);
    if (!model.statuses.empty()) {
      selected_instance_ = std::clamp(selected_instance_, 0, static_cast<int>(model.statuses.size()) - 1);
    }
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(panel_w, io.DisplaySize.y), ImGuiCond_Always);
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                        ImGuiWindowFlags_NoSavedSettings |
                                        ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin(kWindowName, nullptr, kFlags)) {
      draw_header(model);
      if (!model.has_engine) {
        ImGui::TextDisabled("No engine.");
      } else {
        if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) scene_.draw(model, out);
        if (ImGui::CollapsingHeader("Instances", ImGuiTreeNodeFlags_DefaultOpen)) {
          instances_.draw(model, checks_, selected_instance_, out);
        }
        if (ImGui::CollapsingHeader("Per-stream timings", ImGuiTreeNodeFlags_DefaultOpen))
          draw_timings(model);
        if (ImGui::CollapsingHeader("Timeline (last complete frame)", ImGuiTreeNodeFlags_DefaultOpen)) {
          timeline_.draw(model.timeline, model.statuses, scale_, timeline_lines(model), model.counter_lanes);
        }
        if (ImGui::CollapsingHeader("GPU counters", ImGuiTreeNodeFlags_DefaultOpen))
          draw_counters(model, scale_, out);
        if (ImGui::CollapsingHeader("Roofline", ImGuiTreeNodeFlags_DefaultOpen)) draw_roofline(model, scale_);
        if (ImGui::CollapsingHeader("Patterns")) patterns_.draw(model, selected_instance_, out);
      }
    }
    ImGui::End();
    draw_edge(panel_w, io.DisplaySize.y);
  }

  // Messages go over the tiles, where the person looks, whether the panel shows or not.
  Area area = model.tile_area;
  if (area.w <= 0 || area.h <= 0) area = Area{panel_w, 0, io.DisplaySize.x - panel_w, io.DisplaySize.y};
  notice_.draw(model.error, model.message, area, ImGui::GetTime());
  prompt_answers_ = draw_prompts(model);

  if (show_help_) draw_help(&show_help_);
}

void Panel::draw_header(const PanelModel& model) {
  const char* help = "Help (F1)";
  const ImGuiStyle& style = ImGui::GetStyle();
  const float help_x =
      ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(help).x - style.FramePadding.x * 2;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("lifestreams");
  if (model.has_engine) {
    // Cut short before the Help button in a narrow panel.
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float right = ImGui::GetWindowPos().x + help_x - style.ItemSpacing.x;
    ImGui::PushClipRect(p, ImVec2(std::max(p.x, right), p.y + ImGui::GetFrameHeight()), true);
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::Text("%s \xC2\xB7 %s", model.backend.c_str(), model.device.c_str());
    ImGui::PopStyleColor();
    ImGui::PopClipRect();
  }
  ImGui::SameLine(help_x);
  if (ImGui::SmallButton(help)) show_help_ = !show_help_;
}

void Panel::draw_edge(float width, float height) {
  // A window of its own, so that the grab strip lies over the panel's border and scrollbar
  // (ImGui's resizable border would also resize from the other edges and the corner grips).
  const float grab = std::round(kEdgeGrab * scale_);
  ImGui::SetNextWindowPos(ImVec2(width - grab * 0.5f, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(grab, height), ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                      ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("##panel_edge", nullptr, kFlags)) {
    ImGui::InvisibleButton("##edge", ImVec2(grab, height));
    if (ImGui::IsItemActivated()) drag_start_w_ = width;
    if (ImGui::IsItemActive()) {
      // From the width at the press, so that a drag past a limit and back does not drift.
      // Kept within the limits, so that a later, wider window does not widen the panel by itself.
      chosen_width_ = std::max(1.f, drag_start_w_ + ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0.f).x);
      chosen_width_ = width_for(ImGui::GetIO().DisplaySize.x);
    }
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) {
      ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
      const ImVec2 p = ImGui::GetItemRectMin();
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x + grab * 0.5f - 1, p.y),
                                                ImVec2(p.x + grab * 0.5f + 1, p.y + height),
                                                ImGui::GetColorU32(ImGuiCol_SeparatorActive));
    }
  }
  ImGui::End();
  ImGui::PopStyleVar(3);
}

}  // namespace ls::ui
