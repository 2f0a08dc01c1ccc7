// counters_section.hpp — the panel's "GPU counters" section: where the counters come from (or why
// there are none) and a strip of the last seconds per GPU and counter. It only reads.
#pragma once

#include "ui/panel_model.hpp"

namespace ls::ui {

/// Draws the section's contents at `scale` (the panel's UI scale).
void draw_counters(const PanelModel& model, float scale);

}  // namespace ls::ui
