// timeline_layout.cpp — the frame timeline's layout (timeline.hpp), plain math with no ImGui: the
// time axis, the rows (stream rows, copy and counter lanes, GPU header lines), bar rectangles and
// hit testing, and the names of kinds and lanes; timeline.cpp draws with them.
#include "ui/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace ls::ui {

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
    case TimelineBar::Kind::tile:
      return "tile copy";
    case TimelineBar::Kind::handoff:
      return "handoff";
  }
  return "";
}

const char* timeline_lane_label(TimelineRows::Lane lane) {
  switch (lane) {
    case TimelineRows::Lane::d2h:
      return "D2H";
    case TimelineRows::Lane::h2d:
      return "H2D";
    case TimelineRows::Lane::d2d:
      return "D2D";
    case TimelineRows::Lane::peer:
      return "peer";
    default:
      return "";
  }
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

TimelineRows::Lane TimelineRows::lane_of(const TimelineBar& bar) {
  switch (bar.copy) {
    case TimelineBar::Copy::d2h:
      return Lane::d2h;
    case TimelineBar::Copy::h2d:
      return Lane::h2d;
    case TimelineBar::Copy::d2d:
      return Lane::d2d;
    case TimelineBar::Copy::peer:
      return Lane::peer;
    case TimelineBar::Copy::none:
      break;
  }
  // The split engine marks no direction: its halo exchange is a peer copy (rows to and from the
  // neighbouring bands' GPUs, over NVLink where there is one). Its snapshot bar stays on its band's
  // row: it times a conversion kernel and the copy to the host together, on the band's stream.
  return bar.kind == TimelineBar::Kind::exchange ? Lane::peer : Lane::none;
}

void TimelineRows::build(const std::vector<TimelineBar>& bars,
                         const std::vector<PanelModel::CounterLane>& counter_lanes) {
  std::vector<Row> streams;
  std::vector<Row> lanes;  // (device, lane) once each, sorted
  for (const TimelineBar& b : bars) {
    const Lane lane = lane_of(b);
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
  const Lane lane = lane_of(bar);
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

}  // namespace ls::ui
