// timeline.cpp — the frame timeline: axis and row layout math, hit testing, and drawing with
// ImDrawList (one row per stream and a copy lane per GPU and direction; bars coloured by kind;
// hover tooltips).
#include "ui/timeline.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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
  }
  return colour::step;
}

/// The frame's span, then a coloured square and name per bar kind, on the line of the freeze switch.
void draw_legend(const std::vector<TimelineBar>& bars, double span, float scale) {
  const ImGuiStyle& style = ImGui::GetStyle();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float sw = ImGui::GetTextLineHeight() * 0.7f;
  auto legend = [&](ImU32 col, const char* name) {
    ImGui::SameLine(0, style.ItemSpacing.x * 2);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + style.FramePadding.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sw, y + sw), col, 2 * scale);
    ImGui::Dummy(ImVec2(sw, ImGui::GetFrameHeight()));
    ImGui::SameLine(0, style.ItemInnerSpacing.x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(name);
  };
  // The span first, where a narrow panel still shows it; the legend after it, on one line (a kind
  // that comes and goes adds no line).
  char num[32];
  ImGui::SameLine(0, style.ItemSpacing.x * 2);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("span %s ms", format_ms(span, num, sizeof num));
  legend(colour::step, "step");
  legend(colour::display, "display");
  legend(colour::summary, "summary");
  // Kinds only some frames have: in the legend when this frame shows one.
  for (const TimelineBar::Kind k : {TimelineBar::Kind::exchange, TimelineBar::Kind::snapshot})
    if (std::any_of(bars.begin(), bars.end(), [k](const TimelineBar& b) { return b.kind == k; }))
      legend(kind_colour(k), timeline_kind_name(k));
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

/// A copy lane's label left of the plot.
const char* lane_label(TimelineRows::Lane lane) {
  return lane == TimelineRows::Lane::halo_in ? "halo" : "D2H";
}

/// Row backgrounds and labels ("#N", "all" for a shared row, "halo" and "D2H" for the copy lanes), the labels
/// left of the plot at `label_x`; labels thin out when rows are shorter than the text.
void draw_rows(ImDrawList* dl, const TimelineRows& rows, const TimelineGeometry& g, float label_x,
               const std::vector<PanelModel::CounterLane>& counter_lanes) {
  const float line = ImGui::GetTextLineHeight();
  const int label_every = std::max(1, static_cast<int>(std::ceil(line / (g.row_height + g.row_gap))));
  for (int r = 0; r < rows.count(); ++r) {
    const float y = g.row_y(rows.line(r));
    if (r % 2 == 1)
      dl->AddRectFilled(ImVec2(g.x0, y), ImVec2(g.x0 + g.width, y + g.row_height), colour::plot_row);
    if (r % label_every == 0) {
      char label[16];
      const int inst = rows.only_instance(r);
      if (rows.lane(r) == TimelineRows::Lane::counter) {
        const PanelModel::CounterLane& lane = counter_lanes[static_cast<std::size_t>(rows.counter(r))];
        std::snprintf(label, sizeof label, "%s%s", lane.label.c_str(), lane.coarse ? "~" : "");
      } else if (rows.lane(r) != TimelineRows::Lane::none) {
        std::snprintf(label, sizeof label, "%s", lane_label(rows.lane(r)));
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
  for (const TimelineBar& b : bars) {
    const int row = rows.row_of(b);
    if (row < 0) continue;
    const Rect r = g.bar_rect(b, rows.line(row));
    dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kind_colour(b.kind), bar_rounding(g, scale));
    // Name the instance inside bars wide and tall enough for it (shared mode puts all on one row).
    if (b.kind == TimelineBar::Kind::step && g.row_height >= line && r.x1 - r.x0 > 4 * line) {
      char label[16];
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

/// The hovered bar outlined, and its instance, kind, start, end and duration in a tooltip.
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
  if (TimelineRows::lane_of(b.kind) == TimelineRows::Lane::halo_in)
    ImGui::TextDisabled("copy lane: halo rows into GPU %d from its neighbouring bands", b.device);
  else if (TimelineRows::lane_of(b.kind) == TimelineRows::Lane::to_host)
    ImGui::TextDisabled("copy lane: GPU %d to host memory", b.device);
  if (b.device >= 0)
    ImGui::TextDisabled("GPU %d, stream row %d, from that GPU's first start", b.device, b.stream);
  else
    ImGui::TextDisabled("stream row %d, from the frame's first start", b.stream);
  ImGui::EndTooltip();
}

}  // namespace

const char* timeline_kind_name(TimelineBar::Kind kind) {
  switch (kind) {
    case TimelineBar::Kind::step:
      return "step";
    case TimelineBar::Kind::display:
      return "display";
    case TimelineBar::Kind::summary:
      return "summary";
    case TimelineBar::Kind::exchange:
      return "exchange";
    case TimelineBar::Kind::snapshot:
      return "snapshot";
  }
  return "";
}

TimelineAxis timeline_axis(double span_ms, int max_ticks) {
  if (!(span_ms > 0) || !std::isfinite(span_ms)) return TimelineAxis{1, 0.2};
  max_ticks = std::max(1, max_ticks);
  const double raw = span_ms / max_ticks;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double tick = decade * 10;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= raw * (1 - 1e-9)) {
      tick = m * decade;
      break;
    }
  }
  double ticks = std::ceil(span_ms / tick - 1e-9);
  if (ticks < 1) ticks = 1;
  return TimelineAxis{ticks * tick, tick};
}

TimelineRows::Lane TimelineRows::lane_of(TimelineBar::Kind kind) {
  switch (kind) {
    case TimelineBar::Kind::exchange:
      return Lane::halo_in;
    case TimelineBar::Kind::snapshot:
      return Lane::to_host;
    default:
      return Lane::none;
  }
}

void TimelineRows::build(const std::vector<TimelineBar>& bars,
                         const std::vector<PanelModel::CounterLane>& counter_lanes) {
  std::vector<Row> streams;
  std::vector<Row> lanes;  // (device, lane) once each, sorted
  for (const TimelineBar& b : bars) {
    const Lane lane = lane_of(b.kind);
    const int instance = static_cast<int>(b.instance);
    if (lane != Lane::none) {
      const Row r{-1, -1, b.device, lane};
      auto it = std::lower_bound(lanes.begin(), lanes.end(), r, [](const Row& a, const Row& c) {
        return std::pair(a.device, a.lane) < std::pair(c.device, c.lane);
      });
      if (it == lanes.end() || it->device != r.device || it->lane != r.lane) lanes.insert(it, r);
      continue;
    }
    auto it = std::lower_bound(streams.begin(), streams.end(), b.stream,
                               [](const Row& r, int stream) { return r.stream < stream; });
    if (it != streams.end() && it->stream == b.stream) {
      if (it->instance != instance) it->instance = -1;
    } else {
      streams.insert(it, Row{b.stream, instance, b.device});
    }
  }
  // Each GPU's lanes after its last stream row; lanes of a GPU without stream rows at the end.
  rows_.clear();
  std::vector<bool> placed(lanes.size(), false);
  std::vector<bool> counters_placed(counter_lanes.size(), false);
  const auto place_lanes_of = [&](int device) {
    for (std::size_t l = 0; l < lanes.size(); ++l)
      if (!placed[l] && lanes[l].device == device) {
        rows_.push_back(lanes[l]);
        placed[l] = true;
      }
    for (std::size_t c = 0; c < counter_lanes.size(); ++c)
      if (!counters_placed[c] && counter_lanes[c].gpu == device) {
        rows_.push_back(Row{-1, -1, device, Lane::counter, static_cast<int>(c)});
        counters_placed[c] = true;
      }
  };
  for (std::size_t i = 0; i < streams.size(); ++i) {
    rows_.push_back(streams[i]);
    if (i + 1 == streams.size() || streams[i + 1].device != streams[i].device)
      place_lanes_of(streams[i].device);
  }
  for (std::size_t l = 0; l < lanes.size(); ++l)
    if (!placed[l]) place_lanes_of(lanes[l].device);
  for (std::size_t c = 0; c < counter_lanes.size(); ++c)
    if (!counters_placed[c]) place_lanes_of(counter_lanes[c].gpu);
  stream_rows_.clear();
  for (int r = 0; r < count(); ++r)
    if (rows_[static_cast<std::size_t>(r)].lane == Lane::none)
      stream_rows_.emplace_back(rows_[static_cast<std::size_t>(r)].stream, r);
  std::sort(stream_rows_.begin(), stream_rows_.end());
  groups_.clear();
  for (int r = 0; r < count(); ++r) {
    const int d = rows_[static_cast<std::size_t>(r)].device;
    if (groups_.empty() || groups_.back().device != d) groups_.push_back(Group{r, d});
  }
  if (groups_.size() < 2) groups_.clear();  // one GPU (or the host): no headers
}

int TimelineRows::line(int row) const {
  int headers = 0;
  for (const Group& g : groups_) headers += g.first_row <= row ? 1 : 0;
  return row + headers;
}

int TimelineRows::row_of(int stream) const {
  auto it = std::lower_bound(stream_rows_.begin(), stream_rows_.end(), std::pair(stream, -1));
  return it != stream_rows_.end() && it->first == stream ? it->second : -1;
}

int TimelineRows::row_of(const TimelineBar& bar) const {
  const Lane lane = lane_of(bar.kind);
  if (lane == Lane::none) return row_of(bar.stream);
  for (int r = 0; r < count(); ++r) {
    const Row& row = rows_[static_cast<std::size_t>(r)];
    if (row.lane == lane && row.device == bar.device) return r;
  }
  return -1;
}

Rect TimelineGeometry::bar_rect(const TimelineBar& bar, int row) const {
  Rect r;
  r.x0 = x_of(std::max(0.0, bar.start_ms));
  r.x1 = std::max(x_of(std::max(bar.start_ms, bar.end_ms)), r.x0 + min_bar_width);
  r.y0 = row_y(row);
  r.y1 = r.y0 + row_height;
  return r;
}

float timeline_row_height(int rows, float max_height, float min_row, float max_row) {
  if (rows <= 0) return max_row;
  return std::clamp(max_height / static_cast<float>(rows), min_row, max_row);
}

int timeline_lines(const PanelModel& model) {
  std::vector<int> devices;
  for (const std::vector<int>& d : model.instance_devices) devices.insert(devices.end(), d.begin(), d.end());
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  const int gpus = static_cast<int>(devices.size());
  const int rows =
      model.stream_mode == StreamMode::shared ? std::max(1, gpus) : static_cast<int>(model.statuses.size());
  return rows + (gpus > 1 ? gpus : 0) + static_cast<int>(model.counter_lanes.size());
}

int bar_at(const std::vector<TimelineBar>& bars, const TimelineRows& rows, const TimelineGeometry& g, float x,
           float y) {
  for (std::size_t i = bars.size(); i-- > 0;) {
    const int row = rows.row_of(bars[i]);
    if (row >= 0 && g.bar_rect(bars[i], rows.line(row)).contains(x, y)) return static_cast<int>(i);
  }
  return -1;
}

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
