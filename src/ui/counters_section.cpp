// counters_section.cpp — implements counters_section.hpp.
#include "ui/counters_section.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace ls::ui {

namespace {

/// The strip's newest value as the panel writes it: "73 %", "1980 MHz", "312 W", "1.52e+03 GB/s".
std::string value_text(const PanelModel::CounterStrip& s) {
  char buf[48];
  if (s.fraction)
    std::snprintf(buf, sizeof buf, "%.0f %%", 100.0 * s.newest);
  else
    std::snprintf(buf, sizeof buf, "%.4g %s", s.newest, s.unit.c_str());
  return buf;
}

}  // namespace

void draw_counters(const PanelModel& model, float scale, std::vector<Command>& out) {
  bool on = model.counters_on;
  if (ImGui::Checkbox("sample", &on)) out.push_back(cmd::Counters{on});
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("read each GPU's counters on a thread of their own (counters on|off)");
  // The source, and why a part of it reads nothing, wrapped: the reason is the point of the line.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("source: %s", model.counters_source.c_str());
  ImGui::PopStyleColor();
  if (model.counter_strips.empty()) return;
  const float height = 26.f * scale;
  int gpu = -1;
  for (const PanelModel::CounterStrip& s : model.counter_strips) {
    if (s.gpu != gpu) {
      gpu = s.gpu;
      ImGui::Text("GPU %d  (last %.0f s)", gpu, model.counters_window_s);
    }
    const std::string overlay = s.name + "  " + value_text(s);
    // Fractions on 0..1; the rest from 0 to their own maximum, so a strip shows its changes.
    const float top =
        s.fraction ? 1.f : std::max(1e-6f, *std::max_element(s.values.begin(), s.values.end()) * 1.1f);
    ImGui::PushID(&s);
    ImGui::PlotLines("##counter", s.values.data(), static_cast<int>(s.values.size()), 0, overlay.c_str(), 0.f,
                     top, ImVec2(ImGui::GetContentRegionAvail().x, height));
    ImGui::PopID();
  }
}

}  // namespace ls::ui
