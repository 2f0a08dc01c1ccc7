// roofline_section.cpp — implements roofline_section.hpp.
#include "ui/roofline_section.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/format.hpp"
#include "ui/style.hpp"

namespace ls::ui {

namespace {

ImU32 variant_colour(Variant v) {
  switch (v) {
    case Variant::naive:
      return IM_COL32(150, 156, 168, 255);
    case Variant::global:
      return IM_COL32(77, 157, 240, 255);
    case Variant::shared:
      return IM_COL32(86, 211, 100, 255);
    case Variant::iterate:
      return IM_COL32(240, 165, 60, 255);
    case Variant::bitpacked:
      return IM_COL32(200, 120, 240, 255);
  }
  return IM_COL32(255, 255, 255, 255);
}

double intensity(const PanelModel::RooflineRow& r) { return r.point.alu_per_cell / r.point.bytes_per_cell; }
double instruction_rate(const PanelModel::RooflineRow& r) { return r.point.cups * r.point.alu_per_cell; }
double bandwidth(const GpuLimits& g) { return g.copy_gbps * 1e9; }

bool same_roofs(const GpuLimits& a, const GpuLimits& b) {
  return a.alu_ops_per_s() == b.alu_ops_per_s() && a.copy_gbps == b.copy_gbps;
}

/// Screen position of (intensity, rate) in the plot rectangle [p0, p1].
struct Mapping {
  RooflineAxes axes;
  ImVec2 p0, p1;
  float x(double v) const {
    const double t =
        (std::log10(v) - std::log10(axes.x_lo)) / (std::log10(axes.x_hi) - std::log10(axes.x_lo));
    return p0.x + static_cast<float>(std::clamp(t, 0.0, 1.0)) * (p1.x - p0.x);
  }
  float y(double v) const {
    const double t =
        (std::log10(v) - std::log10(axes.y_lo)) / (std::log10(axes.y_hi) - std::log10(axes.y_lo));
    return p1.y - static_cast<float>(std::clamp(t, 0.0, 1.0)) * (p1.y - p0.y);
  }
};

void draw_grid(ImDrawList* dl, const Mapping& m, float scale) {
  if (!(m.axes.x_lo > 0 && m.axes.y_lo > 0)) return;
  char buf[32];
  for (double d = m.axes.x_lo; d <= m.axes.x_hi * 1.001; d *= 10) {
    dl->AddLine(ImVec2(m.x(d), m.p0.y), ImVec2(m.x(d), m.p1.y), colour::plot_grid);
    std::snprintf(buf, sizeof buf, "%g", d);
    dl->AddText(ImVec2(m.x(d) + 2 * scale, m.p1.y - ImGui::GetTextLineHeight()), colour::dim, buf);
  }
  for (double d = m.axes.y_lo; d <= m.axes.y_hi * 1.001; d *= 10) {
    dl->AddLine(ImVec2(m.p0.x, m.y(d)), ImVec2(m.p1.x, m.y(d)), colour::plot_grid);
    std::snprintf(buf, sizeof buf, "1e%.0f", std::log10(d));
    dl->AddText(ImVec2(m.p0.x + 2 * scale, m.y(d)), colour::dim, buf);
  }
}

/// One GPU set's two walls: the slope of its bandwidth up to the ridge, then its issue rate.
void draw_roofs(ImDrawList* dl, const Mapping& m, const GpuLimits& g, float scale) {
  const double peak = g.alu_ops_per_s();
  if (!(peak > 0)) return;  // the SMs or clock unknown: no roofs
  const ImU32 line = IM_COL32(220, 224, 230, 255);
  const float w = 2.f * scale;
  char buf[64], si[24];
  if (g.copy_gbps > 0) {
    const double ridge = peak / bandwidth(g);
    const double from = std::max(m.axes.x_lo, m.axes.y_lo / bandwidth(g));
    dl->AddLine(ImVec2(m.x(from), m.y(bandwidth(g) * from)), ImVec2(m.x(ridge), m.y(peak)), line, w);
    dl->AddLine(ImVec2(m.x(ridge), m.y(peak)), ImVec2(m.p1.x, m.y(peak)), line, w);
    std::snprintf(buf, sizeof buf, "memory %sB/s", format_si(bandwidth(g), si, sizeof si));
    const double at = std::max(from * 1.5, ridge / 30);
    dl->AddText(ImVec2(m.x(at) + 4 * scale, m.y(bandwidth(g) * at) - 2 * ImGui::GetTextLineHeight()), line,
                buf);
  } else {
    dl->AddLine(ImVec2(m.p0.x, m.y(peak)), ImVec2(m.p1.x, m.y(peak)), line, w);
  }
  std::snprintf(buf, sizeof buf, "issue %s ALU/s", format_si(peak, si, sizeof si));
  const float tw = ImGui::CalcTextSize(buf).x;
  dl->AddText(ImVec2(m.p1.x - tw - 4 * scale, m.y(peak) - ImGui::GetTextLineHeight() - 2 * scale), line, buf);
}

void point_tooltip(const PanelModel::RooflineRow& r) {
  char cups[24], roof[24];
  ImGui::BeginTooltip();
  ImGui::Text("#%zu %s: %s cell updates/s", r.instance, std::string(variant_name(r.variant)).c_str(),
              format_si(r.point.cups, cups, sizeof cups));
  ImGui::Text("%.3g ALU instructions and %.3g bytes per cell and generation", r.point.alu_per_cell,
              r.point.bytes_per_cell);
  ImGui::Text("%.0f %% of its %s roof (%s cell updates/s)", 100 * r.point.fraction(), wall_name(r.point.wall),
              format_si(r.point.roof(), roof, sizeof roof));
  ImGui::EndTooltip();
}

void draw_plot(const PanelModel& model, float scale) {
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = std::min(220.f * scale, std::max(120.f * scale, width * 0.6f));
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 p1(p0.x + width, p0.y + height);
  ImGui::InvisibleButton("##roofline_plot", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, colour::plot_bg);
  const Mapping m{roofline_axes(model.roofline), p0, p1};
  dl->PushClipRect(p0, p1, true);
  draw_grid(dl, m, scale);
  std::vector<GpuLimits> drawn;
  for (const PanelModel::RooflineRow& r : model.roofline) {
    if (std::any_of(drawn.begin(), drawn.end(), [&](const GpuLimits& g) { return same_roofs(g, r.limits); }))
      continue;
    drawn.push_back(r.limits);
    draw_roofs(dl, m, r.limits, scale);
  }
  const PanelModel::RooflineRow* under_mouse = nullptr;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float radius = 4.5f * scale;
  for (const PanelModel::RooflineRow& r : model.roofline) {
    if (!(r.point.cups > 0 && r.point.bytes_per_cell > 0 && r.point.alu_per_cell > 0)) continue;
    const ImVec2 c(m.x(intensity(r)), m.y(instruction_rate(r)));
    dl->AddCircleFilled(c, radius, variant_colour(r.variant));
    char label[24];
    std::snprintf(label, sizeof label, "#%zu", r.instance);
    dl->AddText(ImVec2(c.x + radius + 2 * scale, c.y - ImGui::GetTextLineHeight() * 0.5f), colour::dim,
                label);
    const float dx = mouse.x - c.x, dy = mouse.y - c.y;
    if (hovered && dx * dx + dy * dy <= 4 * radius * radius) under_mouse = &r;
  }
  dl->PopClipRect();
  if (under_mouse) point_tooltip(*under_mouse);
}

void draw_table(const PanelModel& model) {
  // No scrolling: a scrolling table is a child window that takes the panel's remaining height.
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("##roofline_table", 7, kFlags)) return;
  for (const char* h : {"#", "variant", "GPU", "cells/s", "memory roof", "issue roof", "of wall"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  char a[24], b[24], c[24];
  for (const PanelModel::RooflineRow& r : model.roofline) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%zu", r.instance);
    ImGui::TableNextColumn();
    text_coloured(variant_colour(r.variant), std::string(variant_name(r.variant)).c_str());
    ImGui::TableNextColumn();
    std::string gpus;
    for (int d : r.devices) {
      if (!gpus.empty()) gpus += ',';
      gpus += std::to_string(d);
    }
    ImGui::TextUnformatted(gpus.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_si(r.point.cups, a, sizeof a));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.point.memory_roof > 0 ? format_si(r.point.memory_roof, b, sizeof b) : "-");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_si(r.point.issue_roof, c, sizeof c));
    ImGui::TableNextColumn();
    ImGui::Text("%3.0f %% %s", 100 * r.point.fraction(), wall_name(r.point.wall));
  }
  ImGui::EndTable();
}

}  // namespace

RooflineAxes roofline_axes(const std::vector<PanelModel::RooflineRow>& rows) {
  RooflineAxes a;
  double x_min = 1e300, x_max = 0, y_max = 0, y_min = 1e300;
  for (const PanelModel::RooflineRow& r : rows) {
    const double peak = r.limits.alu_ops_per_s();
    y_max = std::max(y_max, peak);
    if (r.limits.copy_gbps > 0 && peak > 0) {
      const double ridge = peak / bandwidth(r.limits);
      x_min = std::min(x_min, ridge);
      x_max = std::max(x_max, ridge);
    }
    if (r.point.cups > 0 && r.point.bytes_per_cell > 0 && r.point.alu_per_cell > 0) {
      x_min = std::min(x_min, intensity(r));
      x_max = std::max(x_max, intensity(r));
      y_max = std::max(y_max, instruction_rate(r));
      y_min = std::min(y_min, instruction_rate(r));
    }
  }
  if (y_max <= 0) return a;
  if (x_max > 0) {
    a.x_lo = std::pow(10.0, std::floor(std::log10(x_min / 2)));
    a.x_hi = std::pow(10.0, std::ceil(std::log10(x_max * 2)));
  }
  a.y_hi = std::pow(10.0, std::ceil(std::log10(y_max * 1.5)));
  const double lowest = std::min(y_min, y_max) / 2;
  a.y_lo = std::max(a.y_hi / 1e5, std::pow(10.0, std::floor(std::log10(lowest))));
  return a;
}

void draw_roofline(const PanelModel& model, float scale) {
  if (!model.roofline_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", model.roofline_note.c_str());
    ImGui::PopStyleColor();
  }
  if (model.roofline.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "x: ALU instructions per byte moved, y: ALU instructions/s. Left of a roof's ridge the memory wall "
      "binds, right of it the issue wall.");
  ImGui::PopStyleColor();
  draw_plot(model, scale);
  draw_table(model);
}

}  // namespace ls::ui
