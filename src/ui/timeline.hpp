// timeline.hpp — the frame timeline (one row per stream, step and display bars placed in time from
// the frame's start, like Nsight Systems; a copy lane per GPU and direction; the GPU's counter
// lanes): layout math as plain functions, drawing in TimelineView.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "ui/panel_model.hpp"

namespace ls::ui {

/// The time axis: ticks every `tick_ms` from 0 to `end_ms` (a whole number of ticks >= the span).
struct TimelineAxis {
  double end_ms = 1;
  double tick_ms = 1;
};

/// A "nice" axis (tick 1, 2 or 5 x 10^k) with at most `max_ticks` ticks covering [0, span_ms].
/// A span <= 0 gives a 1 ms axis.
TimelineAxis timeline_axis(double span_ms, int max_ticks);

/// The streams that appear in a frame's bars, in ascending stream number: row r shows stream
/// stream(r). Copies (TimelineBar::copy) go on a copy lane of their own per GPU and direction,
/// after that GPU's stream rows and before its counter lanes, in the order D2H, H2D, D2D, peer, so
/// a copy shows beside the kernels it overlaps (or not); a direction with no copy in the frame has
/// no lane. When the bars come from more than one GPU (TimelineBar::device), a header line goes
/// before each GPU's rows (engines over several GPUs number their rows GPU by GPU): row r is then
/// drawn at line(r), and there are lines() lines in all. Rebuilding reuses the storage.
class TimelineRows {
 public:
  /// The copy lanes, one per direction (TimelineBar::Copy), and the GPU's counters on the frame's
  /// axis (PanelModel::counter_lanes) after them.
  enum class Lane { none = -1, d2h = 0, h2d = 1, d2d = 2, peer = 3, counter = 4 };
  /// The lane a bar goes on (none: its stream's row): by its copy direction, and a halo exchange,
  /// which the split engine records with none, on the peer lane.
  static Lane lane_of(const TimelineBar& bar);

  void build(const std::vector<TimelineBar>& bars,
             const std::vector<PanelModel::CounterLane>& counter_lanes = {});
  int count() const { return static_cast<int>(rows_.size()); }
  /// Rows plus GPU header lines.
  int lines() const { return count() + static_cast<int>(groups_.size()); }
  /// The line row r is drawn on (after the headers of its GPU and the GPUs before it).
  int line(int row) const;
  struct Group {
    int first_row;  // the first row of this GPU's group
    int device;
  };
  /// One per GPU when there are several (each header on line(first_row) - 1); else none.
  const std::vector<Group>& groups() const { return groups_; }
  /// The row of a stream, or -1 if no bar is on it.
  int row_of(int stream) const;
  /// The row a bar is drawn on: its copy lane, or its stream's row; -1 if it is not in the rows.
  int row_of(const TimelineBar& bar) const;
  int stream(int row) const { return rows_[static_cast<std::size_t>(row)].stream; }
  /// The one instance whose work is on this row, or -1 when several share it (shared mode, lanes).
  int only_instance(int row) const { return rows_[static_cast<std::size_t>(row)].instance; }
  /// The lane row r is, or none for a stream's row.
  Lane lane(int row) const { return rows_[static_cast<std::size_t>(row)].lane; }
  /// The GPU row r belongs to (-1: the host).
  int device(int row) const { return rows_[static_cast<std::size_t>(row)].device; }
  /// A counter lane's index in the counter lanes given to build(), or -1.
  int counter(int row) const { return rows_[static_cast<std::size_t>(row)].counter; }

 private:
  struct Row {
    int stream;
    int instance;  // -1: several
    int device;    // of the row's first bar
    Lane lane = Lane::none;
    int counter = -1;
  };
  std::vector<Row> rows_;
  std::vector<std::pair<int, int>> stream_rows_;  // (stream, row), by stream
  std::vector<Group> groups_;
};

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool contains(float x, float y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

/// Where the bars go: the plot area starts at (x0, y0), is `width` wide, and has `rows` rows of
/// `row_height` separated by `row_gap`.
struct TimelineGeometry {
  float x0 = 0, y0 = 0, width = 1;
  float row_height = 10, row_gap = 2;
  float min_bar_width = 1;  // bars shorter than a pixel stay visible
  TimelineAxis axis;

  float x_of(double ms) const { return x0 + static_cast<float>(ms / axis.end_ms) * width; }
  float row_y(int row) const { return y0 + static_cast<float>(row) * (row_height + row_gap); }
  float height(int rows) const {
    return rows <= 0 ? 0.f : static_cast<float>(rows) * (row_height + row_gap) - row_gap;
  }
  /// A bar's rectangle on line `row`: the line's height, from its start to its end in time.
  Rect bar_rect(const TimelineBar& bar, int row) const;
};

/// Row height for `rows` rows: `max_row` while they fit in `max_height`, shrinking to `min_row`.
float timeline_row_height(int rows, float max_height, float min_row, float max_row);

/// The name a bar's kind has in the legend and tooltips: "step", "display", "summary", "exchange",
/// "snapshot", "tile copy", "handoff".
const char* timeline_kind_name(TimelineBar::Kind kind);

/// A copy lane's label left of the plot: "D2H", "H2D", "D2D", "peer" (empty for other rows).
const char* timeline_lane_label(TimelineRows::Lane lane);

/// The bar under (x, y), or -1; where drawn bars overlap, the later one (drawn on top) wins.
int bar_at(const std::vector<TimelineBar>& bars, const TimelineRows& rows, const TimelineGeometry& g, float x,
           float y);

/// Draws the timeline of `bars` into the current ImGui window (scale: the UI scale), with a hover
/// tooltip per bar and a "freeze" switch that holds the shown frame for inspection. Its height
/// holds at least `reserved_lines` lines (the rows the scene's streams give) and, while that stays
/// the same, the most lines a frame has shown: a frame with fewer bars (an instance just loaded or
/// reset, no frame yet) moves nothing below it.
class TimelineView {
 public:
  /// `bars` is the engine's newest complete frame; `statuses` names the instances' variants.
  /// `counter_lanes` go under their GPU's rows (none: no lanes).
  void draw(const std::vector<TimelineBar>& bars, const std::vector<InstanceStatus>& statuses, float scale,
            int reserved_lines, const std::vector<PanelModel::CounterLane>& counter_lanes = {});

 private:
  bool frozen_ = false;
  std::vector<TimelineBar> held_;  // the frame shown while frozen
  std::vector<PanelModel::CounterLane> held_lanes_;
  TimelineRows rows_;
  int reserved_ = -1;   // reserved_lines of the last draw
  int most_lines_ = 0;  // the most lines shown since it last changed
};

/// The timeline lines the model's scene gives: a row per instance (one per GPU in stream mode
/// shared), a header line per GPU when there are several, and the counter lanes.
int timeline_lines(const PanelModel& model);

}  // namespace ls::ui
