// counters_section.hpp — the panel's "GPU counters" section: the toggle that starts and stops the
// sampling (`counters on|off`), where the counters come from (or why there are none) and a strip of
// the last seconds per GPU and counter.
#pragma once

#include <vector>

#include "core/command.hpp"
#include "ui/panel_model.hpp"

namespace ls::ui {

/// Draws the section's contents at `scale` (the panel's UI scale); the toggle's command goes to `out`.
void draw_counters(const PanelModel& model, float scale, std::vector<Command>& out);

}  // namespace ls::ui
