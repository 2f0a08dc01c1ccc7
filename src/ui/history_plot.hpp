// history_plot.hpp — timing history plots for the Per-stream timings section: a small line plot of
// an instance's step times in its table row, and plots of the frame's figures over the last timed
// frames under the totals. They only read; they emit no command.
#pragma once

#include <vector>

#include "ui/panel_model.hpp"

namespace ls::ui {

/// The table's last column: its header, tooltip and width at scale 1 in number columns' widths.
inline constexpr const char* kHistoryColumn = "history";
inline constexpr const char* kHistoryTip =
    "step ms over the last 120 timed frames, oldest left; from 0 to the window's maximum (hover for "
    "a frame's value)";
inline constexpr float kHistoryColumnNumbers = 2.f;

/// Draws instance `index`'s step history into the current table cell (row height, cell width).
void draw_history_cell(int index, const std::vector<float>& samples);

/// One plotted frame figure: its label and samples (oldest first, ms).
struct FrameSeries {
  const char* label;
  const std::vector<float>* samples;
};

/// The frame figures plotted under the totals: the span and the host enqueue time.
std::vector<FrameSeries> frame_series(const PanelModel& model);

/// Draws each of frame_series(model) as a plot labelled with its name and newest value (hover for a
/// frame's value).
void draw_frame_history(const PanelModel& model);

}  // namespace ls::ui
