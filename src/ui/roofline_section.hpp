// roofline_section.hpp — the panel's "Roofline" section: each instance as a point under its GPUs'
// two walls, the memory roof (copy bandwidth x intensity) and the issue roof (ALU instructions per
// second), on log axes of ALU instructions per byte and per second; and a table of each instance's
// cell rate against both roofs, the wall that binds it and how near it is.
#pragma once

#include "ui/panel_model.hpp"

namespace ls::ui {

/// Where the plot puts a value on its log axes: [lo, hi] decades of intensity (x, instructions per
/// byte) and rate (y, instructions per second), chosen so every point and every roof's ridge shows.
struct RooflineAxes {
  double x_lo = 0.1, x_hi = 1000, y_lo = 1e10, y_hi = 1e14;
};

/// The axes that show `rows` (whole decades, at most five of rate below the highest roof).
RooflineAxes roofline_axes(const std::vector<PanelModel::RooflineRow>& rows);

/// Draws the section's contents at `scale` (the panel's UI scale).
void draw_roofline(const PanelModel& model, float scale);

}  // namespace ls::ui
