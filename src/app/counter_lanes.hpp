// counter_lanes.hpp — the GPUs' counters on the timeline's axis. The engines stamp each timed
// frame's origin on the GPU's own clock (%globaltimer), and CUPTI's PM sampling stamps its samples
// on the same clock, so a frame's samples are placed exactly under its bars. The samples arrive in
// batches every 10 ms: the panel shows the newest frame whose samples are all in, bars and lanes
// alike, and keeps showing it until a later one's are.
#pragma once

#include <optional>
#include <vector>

#include "core/engine.hpp"
#include "counters/sampler.hpp"
#include "ui/panel_model.hpp"

namespace ls::app {

class CounterLanes {
 public:
  /// Replaces model.timeline with the newest frame whose samples are in and fills
  /// model.counter_lanes for it (rates scaled as model.counter_strips, filled first); with no
  /// sampler or no stamped origins, clears the lanes and leaves
  /// the timeline as it is.
  void fill(const EngineReports& engine, const counters::CounterSampler* sampler, ui::PanelModel& model);

 private:
  struct Frame {
    std::vector<TimelineBar> bars;
    std::vector<EngineReports::TimelineOrigin> origins;
    std::vector<ui::PanelModel::CounterLane> lanes;  // once shown
  };
  std::optional<Frame> pending_;  // the frame waiting for its samples
  std::optional<Frame> shown_;    // the newest frame shown, with its lanes
};

/// The lanes of one frame: for each origin's GPU, a lane per counter that has samples overlapping
/// [origin, origin + that GPU's span), segments clipped to the frame, on the bars' axis (ms).
std::vector<ui::PanelModel::CounterLane> lanes_of(const std::vector<TimelineBar>& bars,
                                                  const std::vector<EngineReports::TimelineOrigin>& origins,
                                                  const std::vector<counters::Sample>& samples);

}  // namespace ls::app
