// engine_figures.hpp — copies what the panel shows of an engine into its PanelModel, so that
// the panel draws from plain data and never holds the engine.
#pragma once

#include "core/engine.hpp"
#include "ui/panel_model.hpp"

namespace ls::ui {

/// Fills model.statuses, frame, timeline, stream_mode, timing_period and has_engine from
/// `engine` (call once per UI frame, before Panel::draw). The backend and device names do not
/// change and may be slow to read (the CPU engine reads /proc/cpuinfo): they are read only while
/// model.backend is empty. Reuses the model's vectors, so a steady frame allocates little.
void fill_engine_figures(const Engine& engine, PanelModel& model);

}  // namespace ls::ui
