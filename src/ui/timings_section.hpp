// timings_section.hpp — the panel's Per-stream timings section: one row of step and display
// times per instance (per frame: a frame steps generations_per_frame generations), then the
// frame's totals (FPS, CPU frame, span, busy, concurrency, host syncs, delivered and kernel rate,
// backend). It only reads; it emits no command.
#pragma once

#include "ui/panel_model.hpp"

namespace ls::ui {

/// "GPU span" on a GPU engine, "span" on the CPU (its instances' work is timed on the host).
const char* span_label(const PanelModel& model);

/// Draws the per-instance table and the totals into the current window.
void draw_timings(const PanelModel& model);

}  // namespace ls::ui
