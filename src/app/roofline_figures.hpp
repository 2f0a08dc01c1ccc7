// roofline_figures.hpp — what the panel's roofline view shows: each instance's measured cell rate
// against the roofs of the GPUs it runs on (core/kernel_costs.hpp). A GPU's limits are measured
// once, on a thread of their own (the copy bandwidth waits on its own events), the first time an
// instance runs on it; the frame loop never waits for them: until they are known its instances
// have no point and the note says so.
#pragma once

#include <functional>
#include <future>
#include <map>
#include <optional>
#include <string>

#include "core/device_placement.hpp"
#include "core/kernel_costs.hpp"
#include "ui/panel_model.hpp"

namespace ls::app {

class RooflineFigures {
 public:
  /// Measures one GPU's limits (on a thread of its own); nullopt when it cannot.
  using Measure = std::function<std::optional<GpuLimits>(int device)>;
  /// `measure` null: the build's own (the CUDA one; none without CUDA).
  explicit RooflineFigures(Measure measure = nullptr);
  ~RooflineFigures();
  RooflineFigures(const RooflineFigures&) = delete;
  RooflineFigures& operator=(const RooflineFigures&) = delete;

  /// Fills model.roofline from model.statuses and where `placement` runs each instance, and
  /// model.roofline_note.
  void fill(const DevicePlacement& placement, ui::PanelModel& model);

 private:
  /// Device `device`'s measurement, started on first ask.
  const std::shared_future<std::optional<GpuLimits>>& measurement(int device);

  Measure measure_;
  std::map<int, std::shared_future<std::optional<GpuLimits>>> pending_;
};

/// The limits of several GPUs that one split lattice runs on: their SMs, ALU rates and bandwidths
/// summed (the slowest clock counted for all).
GpuLimits summed(const std::vector<GpuLimits>& gpus);

}  // namespace ls::app
