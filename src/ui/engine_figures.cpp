// engine_figures.cpp — the engine's figures copied into the panel's model (engine_figures.hpp).
#include "ui/engine_figures.hpp"

#include <utility>
#include <vector>

namespace ls::ui {

void fill_engine_figures(const Engine& engine, PanelModel& model) {
  model.has_engine = true;
  if (model.backend.empty()) {
    model.backend = engine.backend();
    model.device = engine.device_name();
  }
  model.max_instances = static_cast<int>(engine.max_instances());
  const std::size_t n = engine.size();
  model.statuses.resize(n);
  model.instance_devices.resize(n);
  // The histories go into buffers the model keeps from frame to frame: no allocation per frame.
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<float> history = std::move(model.statuses[i].step_history);
    model.statuses[i] = engine.status(i);
    engine.step_history(i, history);
    model.statuses[i].step_history = std::move(history);
    model.instance_devices[i] = engine.instance_devices(i);
  }
  std::vector<float> spans = std::move(model.frame.span_history);
  model.frame = engine.frame_timings();
  engine.span_history(spans);
  model.frame.span_history = std::move(spans);
  model.host_enqueue_ms = engine.host_enqueue_ms();
  engine.host_enqueue_history(model.host_enqueue_history);
  model.timeline = engine.timeline();
  model.stream_mode = engine.stream_mode();
  model.timing_period = engine.timing_period();
}

}  // namespace ls::ui
