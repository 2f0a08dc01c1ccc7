// timeline.cpp — draws the frame timeline (TimelineView, timeline.hpp) with ImDrawList: legend, row
// labels, ticks, bars coloured by kind, counter lanes and hover tooltips, placed by the layout in
// timeline_layout.cpp (one row per stream, a copy lane per GPU and direction, the counter lanes).
#include "ui/timeline.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "ui/format.hpp"
#include "ui/style.hpp"

namespace ls::ui {
namespace {

ImU32 kind_colour(TimelineBar::Kind kind) {
  switch (kind) {
    case TimelineBar::Kind::step:
      return colour::step;
    case TimelineBar::Kind::display:
      return colour::display;
    case TimelineBar::Kind::summary:
      return colour::summary;
    case TimelineBar::Kind::exchange:
      return colour::exchange;
    case TimelineBar::Kind::snapshot:
      return colour::snapshot;
    case TimelineBar::Kind::tile:
      return colour::tile;
    case TimelineBar::Kind::handoff:
      return colour::handoff;
  }
  return colour::step;
}

/// The frame's span, then a coloured square and name per bar kind, from the line of the freeze
/// switch on. Entries that do not fit go on the next line; the legend takes as many lines as every
/// kind would need at this width, so that a kind that comes and goes moves nothing below it.
void draw_legend(const std::vector<TimelineBar>& bars, double span, float scale) {
  constexpr TimelineBar::Kind kKinds[] = {TimelineBar::Kind::step,     TimelineBar::Kind::display,
                                          TimelineBar::Kind::summary,  TimelineBar::Kind::exchange,
                                          TimelineBar::Kind::snapshot, TimelineBar::Kind::tile,
                                          TimelineBar::Kind::handoff};
  const ImGuiStyle& style = ImGui::GetStyle();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float sw = ImGui::GetTextLineHeight() * 0.7f;
  const float gap = style.ItemSpacing.x * 2;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float left = ImGui::GetCursorScreenPos().x;
  const auto width_of = [&](TimelineBar::Kind k) {
    return sw + style.ItemInnerSpacing.x + ImGui::CalcTextSize(timeline_kind_name(k)).x;
  };
  const auto fits = [&](float x, float w) { return x + gap + w <= right; };
  // The lines every kind would take, after the widest span there can be.
  int lines_all = 1;
  float x = ImGui::GetItemRectMax().x + gap + ImGui::CalcTextSize("span 0.00000 ms").x;
  for (const TimelineBar::Kind k : kKinds) {
    if (!fits(x, width_of(k))) {
      ++lines_all;
      x = left - gap;
    }
    x += gap + width_of(k);
  }
  int lines = 1;
  auto legend = [&](TimelineBar::Kind k) {
    if (fits(ImGui::GetItemRectMax().x, width_of(k))) {
      ImGui::SameLine(0, gap);
    } else {
      ++lines;
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + style.FramePadding.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sw, y + sw), kind_colour(k), 2 * scale);
    ImGui::Dummy(ImVec2(sw, ImGui::GetFrameHeight()));
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(timeline_kind_name(k));
  };
  // The span first, where a narrow panel still shows it; the legend after it.
  char num[32];
  ImGui::SameLine(0, gap);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("span %s ms", format_ms(span, num, sizeof num));
  // Step, display and summary always; kinds only some frames have when this frame shows one.
  for (const TimelineBar::Kind k : kKinds)
    if (k == TimelineBar::Kind::step || k == TimelineBar::Kind::display || k == TimelineBar::Kind::summary ||
        std::any_of(bars.begin(), bars.end(), [k](const TimelineBar& b) { return b.kind == k; }))
      legend(k);
  if (lines < lines_all)
    ImGui::Dummy(ImVec2(
        1, static_cast<float>(lines_all - lines) * ImGui::GetFrameHeightWithSpacing() - style.ItemSpacing.y));
}

/// The plot's place and scale for `lines` lines at the cursor, after a column of row labels. The
/// rows share 200 px (at scale 1) plus a text line for each of the `lane_lines` lanes and GPU
/// headers, so that a few streams' lanes keep a text line's height (every row shrinks alike when
/// there are many streams).
TimelineGeometry plot_geometry(double span, int lines, int lane_lines, float scale) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float label_w =
      std::max(ImGui::CalcTextSize("#00").x, ImGui::CalcTextSize("PCIe~").x) + style.ItemInnerSpacing.x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  TimelineGeometry g;
  g.x0 = origin.x + label_w;
  g.y0 = origin.y + 2 * scale;
  g.width = std::max(10.f, ImGui::GetContentRegionAvail().x - label_w - 4 * scale);
  const float max_height = 200 * scale + static_cast<float>(lane_lines) * ImGui::GetTextLineHeight();
  g.row_height = timeline_row_height(lines, max_height, 3 * scale, ImGui::GetTextLineHeight());
  g.row_gap = g.row_height >= 8 * scale ? 2 * scale : 1;
  g.min_bar_width = std::max(1.f, scale);
  g.axis = timeline_axis(span, std::max(2, static_cast<int>(g.width / (60 * scale))));
  return g;
}

/// A GPU's header: a rule across the plot and its name, on the line above its rows.
void draw_group_headers(ImDrawList* dl, const TimelineRows& rows, const TimelineGeometry& g, float scale) {
  const float line = ImGui::GetTextLineHeight();
  for (const TimelineRows::Group& group : rows.groups()) {
    const float y = g.row_y(rows.line(group.first_row) - 1);
    dl->AddLine(ImVec2(g.x0, y), ImVec2(g.x0 + g.width, y), colour::plot_grid, std::max(1.f, scale));
    char header[24];
    if (group.device >= 0)
      std::snprintf(header, sizeof header, "GPU %d", group.device);
    else
      std::snprintf(header, sizeof header, "host");
    dl->AddText(ImVec2(g.x0 + 3 * scale, y + std::min(0.f, (g.row_height - line) * 0.5f)),
                ImGui::GetColorU32(ImGuiCol_Text), header);
  }
}

bool is_copy_lane(TimelineRows::Lane lane) {
  return lane != TimelineRows::Lane::none && lane != TimelineRows::Lane::counter;
}

/// Row backgrounds and labels ("#N", "all" for a shared row, "D2H", "H2D", "D2D" and "peer" for the
/// copy lanes, each counter's), the labels left of the plot at `label_x`; labels thin out when rows
/// are shorter than the text, but a copy lane, one of a few, always keeps its label. Copy lanes have
/// a tint of their own, so that they read as apart from the streams above them.
void draw_rows(ImDrawList* dl, const TimelineRows& rows, const TimelineGeometry& g, float label_x,
               const std::vector<PanelModel::CounterLane>& counter_lanes) {
  const float line = ImGui::GetTextLineHeight();
  const int label_every = std::max(1, static_cast<int>(std::ceil(line / (g.row_height + g.row_gap))));
  for (int r = 0; r < rows.count(); ++r) {
    const float y = g.row_y(rows.line(r));
    const bool copy_lane = is_copy_lane(rows.lane(r));
    if (copy_lane)
      dl->AddRectFilled(ImVec2(g.x0, y), ImVec2(g.x0 + g.width, y + g.row_height), colour::plot_lane);
    else if (r % 2 == 1)
      dl->AddRectFilled(ImVec2(g.x0, y), ImVec2(g.x0 + g.width, y + g.row_height), colour::plot_row);
    if (r % label_every == 0 || copy_lane) {
      char label[16];
      const int inst = rows.only_instance(r);
      if (rows.lane(r) == TimelineRows::Lane::counter) {
        const PanelModel::CounterLane& lane = counter_lanes[static_cast<std::size_t>(rows.counter(r))];
        std::snprintf(label, sizeof label, "%s%s", lane.label.c_str(), lane.coarse ? "~" : "");
      } else if (copy_lane) {
        std::snprintf(label, sizeof label, "%s", timeline_lane_label(rows.lane(r)));
      } else if (inst >= 0) {
        std::snprintf(label, sizeof label, "#%d", inst);
      } else {
        std::snprintf(label, sizeof label, "all");
      }
      const float ty = y + (g.row_height - line) * 0.5f;
      dl->AddText(ImVec2(label_x, std::max(ty, y - line * 0.5f)), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                  label);
    }
  }
}

// Ticks, labelled with the tick's precision. Labels go right to left so that the last one (with
// the unit) is always shown; a label that would overlap the one to its right is left out.
void draw_ticks(ImDrawList* dl, const TimelineGeometry& g, float plot_y1, float scale) {
  const int ticks = static_cast<int>(std::lround(g.axis.end_ms / g.axis.tick_ms));
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(g.axis.tick_ms) + 1e-9)));
  float next_label_x = 1e30f;
  for (int t = ticks; t >= 0; --t) {
    const double ms = t * g.axis.tick_ms;
    const float x = g.x_of(ms);
    dl->AddLine(ImVec2(x, g.y0 - 2 * scale), ImVec2(x, plot_y1 + 4 * scale), colour::plot_grid, 1);
    char label[32];
    std::snprintf(label, sizeof label, t == ticks ? "%.*f ms" : "%.*f", decimals, ms);
    const float tw = ImGui::CalcTextSize(label).x;
    const float tx = std::clamp(x - tw * 0.5f, g.x0, g.x0 + g.width - tw);
    if (tx + tw + 6 * scale > next_label_x) continue;
    dl->AddText(ImVec2(tx, plot_y1 + 4 * scale), ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
    next_label_x = tx;
  }
}

float bar_rounding(const TimelineGeometry& g, float scale) {
  return g.row_height >= 6 * scale ? 2 * scale : 0;
}

void draw_bars(ImDrawList* dl, const std::vector<TimelineBar>& bars, const TimelineRows& rows,
               const TimelineGeometry& g, float scale) {
  const float line = ImGui::GetTextLineHeight();
  const float rounding = bar_rounding(g, scale);
  for (const TimelineBar& b : bars) {
    const int row = rows.row_of(b);
    if (row < 0) continue;
    const Rect r = g.bar_rect(b, rows.line(row));
    dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kind_colour(b.kind), rounding);
    const bool on_lane = TimelineRows::lane_of(b) != TimelineRows::Lane::none;
    // The copies of many instances share a lane: a dark edge keeps copies that touch or overlap
    // apart where there is room for it.
    if (on_lane && r.x1 - r.x0 >= 4 * scale)
      dl->AddRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), IM_COL32(10, 20, 35, 150), rounding, 0,
                  std::max(1.f, scale));
    // Name the instance inside bars wide and tall enough for it (shared mode puts all on one row);
    // a peer copy names the GPU at its other end instead.
    if ((b.kind == TimelineBar::Kind::step || on_lane) && g.row_height >= line && r.x1 - r.x0 > 4 * line) {
      char label[16];
      if (on_lane && TimelineRows::lane_of(b) == TimelineRows::Lane::peer && b.peer >= 0)
        std::snprintf(label, sizeof label, "GPU %d", b.peer);
      else
        std::snprintf(label, sizeof label, "#%zu", b.instance);
      dl->AddText(ImVec2(r.x0 + 3 * scale, r.y0 + (g.row_height - line) * 0.5f), IM_COL32(10, 20, 35, 255),
                  label);
    }
  }
}

/// A counter lane: each sample's value as a bar from the lane's foot (fractions of its height;
/// counters in GB/s against the lane's top), paler where one sample covers the whole frame.
void draw_counter_lanes(ImDrawList* dl, const TimelineRows& rows, const TimelineGeometry& g,
                        const std::vector<PanelModel::CounterLane>& counter_lanes) {
  for (int r = 0; r < rows.count(); ++r) {
    if (rows.lane(r) != TimelineRows::Lane::counter) continue;
    const PanelModel::CounterLane& lane = counter_lanes[static_cast<std::size_t>(rows.counter(r))];
    const float y1 = g.row_y(rows.line(r)) + g.row_height;
    const ImU32 col = lane.coarse ? IM_COL32(86, 211, 100, 110) : colour::good;
    for (const PanelModel::CounterLane::Segment& s : lane.segments) {
      const double v = std::clamp(lane.top > 0 ? s.value / lane.top : 0.0, 0.0, 1.0);
      const float h = std::max(1.f, static_cast<float>(v) * g.row_height);
      dl->AddRectFilled(ImVec2(g.x_of(s.start_ms), y1 - h),
                        ImVec2(std::max(g.x_of(s.end_ms), g.x_of(s.start_ms) + g.min_bar_width), y1), col);
    }
  }
}

/// The counter under the mouse: its sample's value and interval, and whether it covers the frame.
bool counter_tooltip(const TimelineRows& rows, const TimelineGeometry& g,
                     const std::vector<PanelModel::CounterLane>& counter_lanes, float x, float y) {
  for (int r = 0; r < rows.count(); ++r) {
    if (rows.lane(r) != TimelineRows::Lane::counter) continue;
    const float y0 = g.row_y(rows.line(r));
    if (y < y0 || y >= y0 + g.row_height) continue;
    const PanelModel::CounterLane& lane = counter_lanes[static_cast<std::size_t>(rows.counter(r))];
    const double ms = (x - g.x0) / g.width * g.axis.end_ms;
    for (const PanelModel::CounterLane::Segment& s : lane.segments) {
      if (ms < s.start_ms || ms > s.end_ms) continue;
      char a[32], b[32];
      ImGui::BeginTooltip();
      if (lane.fraction)
        ImGui::Text("GPU %d  %s  %.0f %%", lane.gpu, lane.name.c_str(), 100 * s.value);
      else
        ImGui::Text("GPU %d  %s  %.4g", lane.gpu, lane.name.c_str(), s.value);
      ImGui::TextDisabled("the sample's mean, %s to %s ms of this frame", format_ms(s.start_ms, a, sizeof a),
                          format_ms(s.end_ms, b, sizeof b));
      if (lane.coarse)
        ImGui::TextDisabled(
            "the frame is shorter than a sample: this is the mean over a sample that covers it");
      ImGui::EndTooltip();
      return true;
    }
  }
  return false;
}

/// What a copy on lane `lane` moved, in words, by its kind and direction.
void copy_text(const TimelineBar& b, TimelineRows::Lane lane, char* out, std::size_t size) {
  char other[16] = "another GPU";
  if (b.peer >= 0) std::snprintf(other, sizeof other, "GPU %d", b.peer);
  switch (b.kind) {
    case TimelineBar::Kind::exchange:
      std::snprintf(out, size, "halo rows between GPU %d and its neighbouring bands' GPUs", b.device);
      return;
    case TimelineBar::Kind::snapshot:
      std::snprintf(out, size,
                    lane == TimelineRows::Lane::d2h ? "recovery snapshot: GPU %d to pinned host memory"
                                                    : "recovery snapshot: staged in bits on GPU %d",
                    b.device);
      return;
    case TimelineBar::Kind::handoff:
      std::snprintf(out, size, "handoff pulse: one word from GPU %d to pinned host memory", b.device);
      return;
    case TimelineBar::Kind::tile:
      if (lane == TimelineRows::Lane::peer)
        std::snprintf(out, size, "tile pixels from %s into GPU %d", other, b.device);
      else if (lane == TimelineRows::Lane::h2d)
        std::snprintf(out, size, "tile pixels from pinned memory (from %s) into GPU %d", other, b.device);
      else if (lane == TimelineRows::Lane::d2h)
        std::snprintf(out, size, "tile pixels from GPU %d to pinned memory (for %s)", b.device, other);
      else
        std::snprintf(out, size, "tile pixels within GPU %d (between it and %s)", b.device, other);
      return;
    default:
      std::snprintf(out, size, "copy lane %s of GPU %d", timeline_lane_label(lane), b.device);
      return;
  }
}

/// The hovered bar outlined, and its instance, kind, start, end and duration in a tooltip; a copy's
/// size and rate and what it moved.
void draw_bar_tooltip(ImDrawList* dl, const TimelineBar& b, const Rect& r,
                      const std::vector<InstanceStatus>& statuses, float rounding, float scale) {
  dl->AddRect(ImVec2(r.x0 - 1, r.y0 - 1), ImVec2(r.x1 + 1, r.y1 + 1), IM_COL32(255, 255, 255, 220), rounding,
              0, std::max(1.f, scale));
  const std::string_view variant =
      b.instance < statuses.size() ? variant_name(statuses[b.instance].variant) : "";
  char s0[32], s1[32], d[32];
  ImGui::BeginTooltip();
  ImGui::Text("instance %zu  %.*s", b.instance, static_cast<int>(variant.size()), variant.data());
  ImGui::PushStyleColor(ImGuiCol_Text, kind_colour(b.kind));
  ImGui::TextUnformatted(timeline_kind_name(b.kind));
  ImGui::PopStyleColor();
  ImGui::Text("start     %s ms", format_ms(b.start_ms, s0, sizeof s0));
  ImGui::Text("end       %s ms", format_ms(b.end_ms, s1, sizeof s1));
  ImGui::Text("duration  %s ms", format_ms(b.end_ms - b.start_ms, d, sizeof d));
  if (b.bytes > 0) {
    char size[32], rate[32];
    const double seconds = (b.end_ms - b.start_ms) * 1e-3;
    if (seconds > 0)
      ImGui::Text("bytes     %sB  (%sB/s)", format_si(static_cast<double>(b.bytes), size, sizeof size),
                  format_si(static_cast<double>(b.bytes) / seconds, rate, sizeof rate));
    else
      ImGui::Text("bytes     %sB", format_si(static_cast<double>(b.bytes), size, sizeof size));
  }
  const TimelineRows::Lane lane = TimelineRows::lane_of(b);
  if (lane != TimelineRows::Lane::none) {
    char what[96];
    copy_text(b, lane, what, sizeof what);
    ImGui::TextDisabled("%s", what);
  }
  if (lane != TimelineRows::Lane::none)
    ImGui::TextDisabled("GPU %d's %s lane, from that GPU's first start", b.device, timeline_lane_label(lane));
  else if (b.device >= 0)
    ImGui::TextDisabled("GPU %d, stream row %d, from that GPU's first start", b.device, b.stream);
  else
    ImGui::TextDisabled("stream row %d, from the frame's first start", b.stream);
  ImGui::EndTooltip();
}

}  // namespace

void TimelineView::draw(const std::vector<TimelineBar>& bars_in, const std::vector<InstanceStatus>& statuses,
                        float scale, int reserved_lines,
                        const std::vector<PanelModel::CounterLane>& lanes_in) {
  if (ImGui::Checkbox("freeze", &frozen_) && frozen_) {
    held_ = bars_in;
    held_lanes_ = lanes_in;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hold this frame's timeline to inspect it");
  const std::vector<TimelineBar>& bars = frozen_ ? held_ : bars_in;
  const std::vector<PanelModel::CounterLane>& lanes = frozen_ ? held_lanes_ : lanes_in;

  double span = 0;
  for (const TimelineBar& b : bars) span = std::max(span, b.end_ms);
  draw_legend(bars, span, scale);

  rows_.build(bars, lanes);
  if (reserved_lines != reserved_) {
    reserved_ = reserved_lines;
    most_lines_ = 0;
  }
  most_lines_ = std::max(most_lines_, rows_.lines());
  const int nlines = std::max({1, most_lines_, reserved_lines});

  const float origin_x = ImGui::GetCursorScreenPos().x;
  int lane_lines = static_cast<int>(rows_.groups().size());
  for (int r = 0; r < rows_.count(); ++r) lane_lines += rows_.lane(r) != TimelineRows::Lane::none ? 1 : 0;
  const TimelineGeometry g = plot_geometry(span, nlines, lane_lines, scale);
  const float plot_h = g.height(nlines);
  const float total_h = plot_h + 4 * scale + ImGui::GetTextLineHeight() + 2 * scale;
  ImGui::InvisibleButton("##timeline", ImVec2(ImGui::GetContentRegionAvail().x, total_h));
  const bool hovered = ImGui::IsItemHovered();

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float plot_y1 = g.y0 + plot_h;
  dl->AddRectFilled(ImVec2(g.x0, g.y0 - 2 * scale), ImVec2(g.x0 + g.width, plot_y1 + 2 * scale),
                    colour::plot_bg, 3 * scale);
  if (bars.empty()) {
    dl->AddText(ImVec2(g.x0 + 3 * scale, g.y0), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                "No complete frame yet.");
    return;
  }
  draw_group_headers(dl, rows_, g, scale);
  draw_rows(dl, rows_, g, origin_x, lanes);
  draw_ticks(dl, g, plot_y1, scale);
  draw_bars(dl, bars, rows_, g, scale);
  draw_counter_lanes(dl, rows_, g, lanes);

  if (!hovered) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const int hit = bar_at(bars, rows_, g, mouse.x, mouse.y);
  if (hit < 0) {
    counter_tooltip(rows_, g, lanes, mouse.x, mouse.y);
    return;
  }
  const TimelineBar& b = bars[static_cast<std::size_t>(hit)];
  draw_bar_tooltip(dl, b, g.bar_rect(b, rows_.line(rows_.row_of(b))), statuses, bar_rounding(g, scale),
                   scale);
}

}  // namespace ls::ui
