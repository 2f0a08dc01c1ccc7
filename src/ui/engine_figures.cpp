// engine_figures.cpp — the engine's figures copied into the panel's model (engine_figures.hpp).
#include "ui/engine_figures.hpp"

namespace ls::ui {

void fill_engine_figures(const Engine& engine, PanelModel& model) {
  model.has_engine = true;
  if (model.backend.empty()) {
    model.backend = engine.backend();
    model.device = engine.device_name();
  }
  const std::size_t n = engine.size();
  model.statuses.resize(n);
  for (std::size_t i = 0; i < n; ++i) model.statuses[i] = engine.status(i);
  model.frame = engine.frame_timings();
  model.host_enqueue_ms = engine.host_enqueue_ms();
  model.timeline = engine.timeline();
  model.stream_mode = engine.stream_mode();
  model.timing_period = engine.timing_period();
}

}  // namespace ls::ui
