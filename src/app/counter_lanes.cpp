// counter_lanes.cpp — implements counter_lanes.hpp.
#include "app/counter_lanes.hpp"

#include <algorithm>

namespace ls::app {

namespace {

/// The counters that get a lane, in lane order, with the label beside it.
struct LaneCounter {
  counters::Counter counter;
  const char* label;
};
constexpr LaneCounter kLaneCounters[] = {{counters::Counter::sm_active, "SM"},
                                         {counters::Counter::occupancy, "occ"},
                                         {counters::Counter::dram_throughput, "DRAM"},
                                         {counters::Counter::nvlink_gbps, "NVL"},
                                         {counters::Counter::pcie_gbps, "PCIe"},
                                         {counters::Counter::sm_clock_mhz, "MHz"},
                                         {counters::Counter::power_w, "W"}};

/// The span of a GPU's bars on the timeline's axis (ms); 0 without bars.
double span_of(const std::vector<TimelineBar>& bars, int device) {
  double span = 0;
  for (const TimelineBar& b : bars)
    if (b.device == device) span = std::max(span, b.end_ms);
  return span;
}

std::uint64_t end_ns(std::uint64_t origin_ns, double span_ms) {
  return origin_ns + static_cast<std::uint64_t>(span_ms * 1e6);
}

/// One origin per GPU. A GPU whose bars come from several engines with different origins (slots
/// sharing it, or a slot beside a split band) has no single axis to put its samples on: no lanes.
std::vector<EngineReports::TimelineOrigin> one_per_gpu(const std::vector<EngineReports::TimelineOrigin>& in) {
  std::vector<EngineReports::TimelineOrigin> out;
  std::vector<int> mixed;
  for (const auto& o : in) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& x) { return x.device == o.device; });
    if (it == out.end())
      out.push_back(o);
    else if (it->gpu_ns != o.gpu_ns)
      mixed.push_back(o.device);
  }
  std::erase_if(
      out, [&](const auto& o) { return std::find(mixed.begin(), mixed.end(), o.device) != mixed.end(); });
  return out;
}

}  // namespace

std::vector<ui::PanelModel::CounterLane> lanes_of(const std::vector<TimelineBar>& bars,
                                                  const std::vector<EngineReports::TimelineOrigin>& origins,
                                                  const std::vector<counters::Sample>& samples) {
  std::vector<ui::PanelModel::CounterLane> out;
  for (const auto& o : one_per_gpu(origins)) {
    const double span = span_of(bars, o.device);
    if (span <= 0) continue;
    const std::uint64_t to = end_ns(o.gpu_ns, span);
    for (const LaneCounter& c : kLaneCounters) {
      ui::PanelModel::CounterLane lane;
      lane.gpu = o.device;
      lane.name = std::string(counters::counter_name(c.counter));
      lane.label = c.label;
      lane.fraction = counters::is_fraction(c.counter);
      bool covers = false;  // a sample that begins before the frame and ends after it
      for (const counters::Sample& s : samples) {
        if (s.gpu != o.device || s.counter != c.counter || s.gpu_end_ns <= o.gpu_ns || s.gpu_start_ns >= to)
          continue;
        const double a = (static_cast<double>(s.gpu_start_ns) - static_cast<double>(o.gpu_ns)) * 1e-6;
        const double b = (static_cast<double>(s.gpu_end_ns) - static_cast<double>(o.gpu_ns)) * 1e-6;
        lane.segments.push_back({std::max(0.0, a), std::min(span, b), s.value});
        covers = covers || (a <= 0 && b >= span);
        if (!lane.fraction) lane.top = std::max(lane.top, s.value);
      }
      if (lane.segments.empty()) continue;
      lane.coarse = covers && lane.segments.size() == 1;
      out.push_back(std::move(lane));
    }
  }
  return out;
}

void CounterLanes::fill(const EngineReports& engine, const counters::CounterSampler* sampler,
                        ui::PanelModel& model) {
  model.counter_lanes.clear();
  Frame current{model.timeline, engine.timeline_origins(), {}};
  if (!sampler || current.origins.empty()) {
    pending_.reset();
    shown_.reset();
    return;
  }
  // A frame whose every GPU has a sample ending after it: its samples are all in. A GPU with no
  // sample on its clock (no PM sampling there) waits for nothing and gets no lanes.
  const auto complete = [&](const Frame& f) {
    for (const auto& o : f.origins) {
      const std::uint64_t newest = sampler->newest_gpu_end_ns(o.device);
      if (newest != 0 && newest < end_ns(o.gpu_ns, span_of(f.bars, o.device))) return false;
    }
    return true;
  };
  const auto show = [&](Frame f) {
    std::vector<counters::Sample> samples;
    for (const auto& o : one_per_gpu(f.origins)) {
      const std::vector<counters::Sample> s =
          sampler->on_gpu_clock(o.device, o.gpu_ns, end_ns(o.gpu_ns, span_of(f.bars, o.device)));
      samples.insert(samples.end(), s.begin(), s.end());
    }
    f.lanes = lanes_of(f.bars, f.origins, samples);
    shown_ = std::move(f);
  };
  // The frame waiting for its samples is kept until they are in (the panel may rebuild every
  // frame, far faster than samples come); meanwhile the last frame shown stays.
  if (complete(current)) {
    show(std::move(current));
    pending_.reset();
  } else if (pending_ && complete(*pending_)) {
    show(std::move(*pending_));
    pending_ = std::move(current);
  } else if (!pending_) {
    pending_ = std::move(current);
  }
  if (!shown_) return;
  model.timeline = shown_->bars;
  model.counter_lanes = shown_->lanes;
  // A rate (GB/s) is drawn against the largest of its last seconds, as its strip is, so a steady
  // rate does not fill its lane.
  for (ui::PanelModel::CounterLane& lane : model.counter_lanes) {
    if (lane.fraction) continue;
    for (const ui::PanelModel::CounterStrip& strip : model.counter_strips)
      if (strip.gpu == lane.gpu && strip.name == lane.name && !strip.values.empty())
        lane.top = std::max(lane.top, 1.1 * *std::max_element(strip.values.begin(), strip.values.end()));
  }
}

}  // namespace ls::app
