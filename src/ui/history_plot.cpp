// history_plot.cpp — the timing history plots (history_plot.hpp), on ImGui's PlotLines.
#include "ui/history_plot.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "ui/format.hpp"
#include "ui/style.hpp"
#include "ui/timings_section.hpp"

namespace ls::ui {

namespace {

/// Headroom over the window's maximum, so the highest sample does not touch the frame's top.
constexpr float kHeadroom = 1.1f;
/// The frame plots' height in text lines.
constexpr float kFramePlotLines = 2.5f;

/// The scale's top: the window's maximum plus headroom (0 to it: a flat line means steady times,
/// not noise blown up to the full height).
float scale_top(const std::vector<float>& samples) {
  const float most = samples.empty() ? 0.f : *std::max_element(samples.begin(), samples.end());
  return most > 0 ? most * kHeadroom : 1.f;
}

}  // namespace

void draw_history_cell(int index, const std::vector<float>& samples) {
  ImGui::TableNextColumn();
  if (samples.size() < 2) {
    ImGui::TextDisabled("-");
    return;
  }
  // Fits the row the other cells draw: one text line high, the cell's width.
  ImGui::PushID(index);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(1, 1));
  ImGui::PushStyleColor(ImGuiCol_FrameBg, colour::plot_bg);
  ImGui::PushStyleColor(ImGuiCol_PlotLines, colour::step);
  const ImVec2 size(ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight());
  ImGui::PlotLines("##history", samples.data(), static_cast<int>(samples.size()), 0, nullptr, 0.f,
                   scale_top(samples), size);
  ImGui::PopStyleColor(2);
  ImGui::PopStyleVar();
  ImGui::PopID();
}

std::vector<FrameSeries> frame_series(const PanelModel& model) {
  std::vector<FrameSeries> series;
  series.push_back({span_label(model), &model.frame.span_history});
  // Beside the span, what the host took to enqueue each frame: which of the two binds the frame
  // (the totals say host-bound / GPU-bound) over time, not only now.
  series.push_back({"host enqueue", &model.host_enqueue_history});
  return series;
}

void draw_frame_history(const PanelModel& model) {
  char label[64];
  char num[32];
  for (const FrameSeries& s : frame_series(model)) {
    // Drawn (empty) before two samples exist, so that nothing below it moves when they come.
    const std::vector<float>& v = *s.samples;
    if (v.empty()) {
      std::snprintf(label, sizeof label, "%s \xE2\x80\x94", s.label);
    } else {
      std::snprintf(label, sizeof label, "%s %s ms", s.label, format_ms(v.back(), num, sizeof num));
    }
    ImGui::PushID(s.label);
    ImGui::PushStyleColor(ImGuiCol_FrameBg, colour::plot_bg);
    ImGui::PushStyleColor(ImGuiCol_PlotLines, colour::step);
    // The label goes over the plot (its overlay): the whole width is the plot's.
    ImGui::PlotLines("##frame_history", v.data(), static_cast<int>(v.size()), 0, label, 0.f, scale_top(v),
                     ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight() * kFramePlotLines));
    ImGui::PopStyleColor(2);
    ImGui::PopID();
  }
}

}  // namespace ls::ui
