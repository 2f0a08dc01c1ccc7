// roofline_figures.cpp — implements roofline_figures.hpp.
#include "app/roofline_figures.hpp"

#include <algorithm>
#include <chrono>
#include <exception>

#if defined(LIFESTREAMS_HAVE_CUDA)
#include "sim/gpu_limits.hpp"
#endif

namespace ls::app {

namespace {

/// The copy bandwidth is measured with buffers of up to 256 MiB: past the L2 of every GPU the
/// build targets, and small beside the lattices that share the device meanwhile.
constexpr std::size_t kCopyBytes = std::size_t{256} << 20;

RooflineFigures::Measure build_measure() {
#if defined(LIFESTREAMS_HAVE_CUDA)
  return [](int device) -> std::optional<GpuLimits> {
    try {
      return sim::measure_gpu_limits(device, kCopyBytes);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
#else
  return [](int) -> std::optional<GpuLimits> { return std::nullopt; };
#endif
}

}  // namespace

RooflineFigures::RooflineFigures(Measure measure)
    : measure_(measure ? std::move(measure) : build_measure()) {}

RooflineFigures::~RooflineFigures() {
  for (auto& [device, f] : pending_) f.wait();
}

const std::shared_future<std::optional<GpuLimits>>& RooflineFigures::measurement(int device) {
  auto it = pending_.find(device);
  if (it == pending_.end()) {
    Measure measure = measure_;
    it = pending_
             .emplace(device,
                      std::async(std::launch::async, [measure, device] { return measure(device); }).share())
             .first;
  }
  return it->second;
}

GpuLimits summed(const std::vector<GpuLimits>& gpus) {
  GpuLimits all;
  for (const GpuLimits& g : gpus) {
    all.sms += g.sms;
    all.sm_clock_hz = all.sm_clock_hz > 0 ? std::min(all.sm_clock_hz, g.sm_clock_hz) : g.sm_clock_hz;
    all.copy_gbps += g.copy_gbps;
  }
  // A GPU whose bandwidth is unknown leaves the sum unknown.
  if (std::any_of(gpus.begin(), gpus.end(), [](const GpuLimits& g) { return g.copy_gbps <= 0; }))
    all.copy_gbps = 0;
  return all;
}

void RooflineFigures::fill(const DevicePlacement& placement, ui::PanelModel& model) {
  model.roofline.clear();
  model.roofline_note.clear();
  bool waiting = false, unmeasurable = false, on_host = false;
  for (std::size_t i = 0; i < model.statuses.size(); ++i) {
    const InstanceStatus& st = model.statuses[i];
    const std::vector<int> devices = placement.instance_devices(i);
    if (devices.empty()) {
      on_host = true;
      continue;
    }
    // Each GPU's measurement looked at once: it may finish while this loop runs.
    std::vector<GpuLimits> gpus;
    bool pending = false, failed = false;
    for (int d : devices) {
      const auto& m = measurement(d);
      if (m.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        pending = true;
      else if (const std::optional<GpuLimits>& g = m.get())
        gpus.push_back(*g);
      else
        failed = true;
    }
    if (pending || failed) {
      (pending ? waiting : unmeasurable) = true;
      continue;
    }
    ui::PanelModel::RooflineRow row;
    row.instance = i;
    row.variant = st.variant;
    row.devices = devices;
    row.limits = summed(gpus);
    // A frame's generations are shared among its launches of k at most (a frame of 20 at k = 16 is
    // launches of 16 and 4: 10 a launch on average).
    const int per_frame = std::max(1, model.settings.generations_per_frame);
    const int k = std::max(1, st.generations_per_launch);
    const double per_launch = static_cast<double>(per_frame) / ((per_frame + k - 1) / k);
    row.point = roofline_point(st.variant, st.rule, per_launch, st.cups, row.limits);
    model.roofline.push_back(std::move(row));
  }
  if (on_host)
    model.roofline_note = "instances in host memory have no roofline: it is drawn for the CUDA kernels";
  else if (waiting)
    model.roofline_note = "measuring the GPUs' copy bandwidth (once per GPU)...";
  else if (unmeasurable)
    model.roofline_note = "a GPU's limits could not be read: its instances have no point";
}

}  // namespace ls::app
