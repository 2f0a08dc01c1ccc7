// split_timings.cpp — the split engine's frame timings (split_timings.hpp).
#include "multi/split_timings.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <utility>

#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/event_reads.hpp"

namespace ls::multi {

// ---- one instance -----------------------------------------------------------------------------

// The stamps' pinned memory is made with the instance, not in a frame (cudaMallocHost may wait for
// the device).
BandTimings::BandTimings(std::vector<int> devices)
    : devices_(std::move(devices)), stamps_(kSplitTimingRing * devices_.size() * sizeof(std::uint64_t)) {}

BandTimings::~BandTimings() {
  for (Slot& slot : slots_)
    for (std::size_t b = 0; b < slot.start.size(); ++b) {
      const auto release = [&] {
        slot.start[b] = cuda::Event();
        slot.end[b] = cuda::Event();
        for (Marked& m : slot.marks[b]) {
          m.start = cuda::Event();
          m.end = cuda::Event();
        }
      };
      try {
        const cuda::DeviceGuard on(devices_[b]);
        release();
      } catch (...) {
        release();
      }
    }
}

void BandTimings::claim(std::uint64_t timed, int generations, bool clock, bool back_to_back) {
  const Slot& previous = slots_[previous_slot(static_cast<std::size_t>(timed % kSplitTimingRing))];
  const bool borrow =
      back_to_back && !clock && timed > 0 && previous.timed == timed - 1 &&
      previous.end.size() == devices_.size() &&
      std::all_of(previous.end.begin(), previous.end.end(), [](const cuda::Event& e) { return !!e; });
  current_ = static_cast<std::size_t>(timed % kSplitTimingRing);
  Slot& slot = slots_[current_];
  slot.may_borrow = borrow;
  slot.stamps = clock ? stamps_.as<std::uint64_t>() + current_ * devices_.size() : nullptr;
  slot.timed = timed;
  slot.generations = generations;
  // Sized here, on the caller's thread: each band's thread then touches its own element only.
  slot.start.resize(devices_.size());
  slot.end.resize(devices_.size());
  slot.borrowed.assign(devices_.size(), 0);
  slot.marks.resize(devices_.size());
  for (auto& band : slot.marks)
    for (Marked& m : band) m.recorded = false;
  open_ = true;
}

SplitLattice::BandHook BandTimings::mark(TimelineBar::Kind kind, bool end) {
  if (!open_) return {};
  const auto at = std::find(kMarked.begin(), kMarked.end(), kind);
  if (at == kMarked.end()) return {};
  Slot* slot = &slots_[current_];
  const auto k = static_cast<std::size_t>(at - kMarked.begin());
  return [slot, k, end](int band, cudaStream_t stream) {
    Marked& m = slot->marks[static_cast<std::size_t>(band)][k];
    cuda::Event& e = end ? m.end : m.start;
    if (!e) e = cuda::Event(cuda::Event::Create{});  // on the band's thread: its device is current
    e.record(stream);
    if (end) m.recorded = true;
  };
}

SplitLattice::BandHook BandTimings::start_hook() {
  Slot* slot = &slots_[current_];
  const Slot* previous = slot->may_borrow ? &slots_[previous_slot(current_)] : nullptr;
  return [slot, previous](int band, cudaStream_t stream) {
    const auto b = static_cast<std::size_t>(band);
    // The GPU has not reached the band's last end event yet, and what follows it on the stream is
    // this step: no gap between them, so that event is this step's start as well.
    if (previous && !sim::event_done(previous->end[b].get())) {
      slot->borrowed[b] = 1;
      return;
    }
    cuda::Event& e = slot->start[b];
    if (!e) e = cuda::Event(cuda::Event::Create{});  // on the band's thread: its device is current
    // The stamp just before the start event, which waits for it (timing_ring.cpp says why).
    if (std::uint64_t* stamp = slot->stamps ? slot->stamps + band : nullptr) {
      *static_cast<volatile std::uint64_t*>(stamp) = 0;  // still 0 when read: no origin
      kernels::launch_stamp(stamp, stream);
    }
    e.record(stream);
  };
}

cudaEvent_t BandTimings::start_of(std::size_t s, std::size_t band) const {
  const Slot& slot = slots_[s];
  if (band >= slot.borrowed.size() || !slot.borrowed[band])
    return band < slot.start.size() ? slot.start[band].get() : nullptr;
  const Slot& previous = slots_[previous_slot(s)];
  return band < previous.end.size() ? previous.end[band].get() : nullptr;
}

SplitLattice::BandHook BandTimings::end_hook() {
  Slot* slot = &slots_[current_];
  return [slot](int band, cudaStream_t stream) {
    cuda::Event& e = slot->end[static_cast<std::size_t>(band)];
    if (!e) e = cuda::Event(cuda::Event::Create{});
    e.record(stream);
  };
}

// ---- the engine's frames ----------------------------------------------------------------------

void SplitTimings::set_period(int period) {
  period_ = period;
  frames_to_timed_ = 0;
}

std::optional<std::uint64_t> SplitTimings::start_frame() {
  previous_timed_ = current_timed_;
  current_timed_ = frames_to_timed_ == 0;
  frames_to_timed_ = current_timed_ ? period_ - 1 : frames_to_timed_ - 1;
  if (!current_timed_) return std::nullopt;
  const std::uint64_t t = timed_count_++;
  // Slots about to be overwritten lose their unread timings (the GPUs are that far behind), and so
  // does the frame after them, whose start may be their end.
  if (t + 2 > kSplitTimingRing) next_harvest_ = std::max(next_harvest_, t + 2 - kSplitTimingRing);
  return t;
}

void SplitTimings::harvest(const std::vector<BandTimings*>& instances, const std::vector<int>& devices) {
  while (next_harvest_ < timed_count_) {
    if (!read(instances, devices, next_harvest_)) return;
    ++next_harvest_;
  }
}

/// One band's step in a timed frame, and the work it marked, in ms from its GPU's reference event.
struct SplitTimings::BandMark {
  std::size_t instance = 0;
  std::size_t band = 0;
  double start = 0;
  double end = 0;
  std::uint64_t start_ns = 0;  // on the GPU's clock, where stamped
  std::array<double, BandTimings::kMarked.size()> marked_start{}, marked_end{};
};

SplitTimings::DeviceBands SplitTimings::bands_of_frame(const std::vector<BandTimings*>& instances,
                                                       const std::vector<int>& devices, std::uint64_t timed) {
  const std::size_t s = static_cast<std::size_t>(timed % kSplitTimingRing);
  std::map<int, std::vector<BandMark>> per_device;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const BandTimings::Slot& slot = instances[i]->slots_[s];
    if (slot.timed != timed) continue;
    for (std::size_t b = 0; b < slot.end.size(); ++b)
      if (instances[i]->start_of(s, b) && slot.end[b])
        per_device[instances[i]->devices_[b]].push_back(BandMark{i, b});
  }
  DeviceBands out;
  for (const int d : devices) {
    auto it = per_device.find(d);
    if (it == per_device.end()) continue;
    out.emplace_back(d, std::move(it->second));
    per_device.erase(it);  // a device listed again (several bands on it) is placed once
  }
  return out;
}

bool SplitTimings::read_device(const std::vector<BandTimings*>& instances, std::size_t s, int device,
                               std::vector<BandMark>& marks) {
  const cuda::DeviceGuard on(device);
  const cudaEvent_t ref = instances[marks.front().instance]->start_of(s, marks.front().band);
  for (BandMark& m : marks) {
    const BandTimings::Slot& slot = instances[m.instance]->slots_[s];
    // Start and end were recorded on one stream: the end finishing implies the start did.
    if (!sim::try_elapsed_ms(ref, slot.end[m.band].get(), m.end)) return false;
    if (!sim::try_elapsed_ms(ref, instances[m.instance]->start_of(s, m.band), m.start)) return false;
    m.start_ns = slot.stamps ? *static_cast<volatile const std::uint64_t*>(slot.stamps + m.band) : 0;
    for (std::size_t k = 0; k < BandTimings::kMarked.size(); ++k) {
      const BandTimings::Marked& w = slot.marks[m.band][k];
      if (!w.recorded) continue;
      if (!sim::try_elapsed_ms(ref, w.end.get(), m.marked_end[k])) return false;
      if (!sim::try_elapsed_ms(ref, w.start.get(), m.marked_start[k])) return false;
    }
  }
  return true;
}

GpuFrameTimings SplitTimings::place_device(const std::vector<BandTimings*>& instances, std::size_t s,
                                           int device, const std::vector<BandMark>& marks, int& row,
                                           std::vector<TimelineBar>& bars, std::vector<double>& instance_step,
                                           std::uint64_t& origin_ns) {
  double first_start = marks.front().start, last_end = marks.front().end;
  origin_ns = marks.front().start_ns;
  for (const BandMark& m : marks) {
    const auto& w = instances[m.instance]->slots_[s].marks[m.band];
    if (m.start < first_start) origin_ns = m.start_ns;  // the earliest band's start is the origin
    first_start = std::min(first_start, m.start);
    last_end = std::max(last_end, m.end);
    for (std::size_t k = 0; k < w.size(); ++k)
      if (w[k].recorded) last_end = std::max(last_end, m.marked_end[k]);
  }
  double busy = 0;
  for (const BandMark& m : marks) {
    const int band_row = row++;
    bars.push_back(
        {m.instance, band_row, TimelineBar::Kind::step, m.start - first_start, m.end - first_start, device});
    busy += m.end - m.start;
    instance_step[m.instance] = std::max(instance_step[m.instance], m.end - m.start);
    const auto& w = instances[m.instance]->slots_[s].marks[m.band];
    for (std::size_t k = 0; k < w.size(); ++k) {
      if (!w[k].recorded) continue;
      const TimelineBar::Kind kind = BandTimings::kMarked[k];
      bars.push_back({m.instance, band_row, kind, m.marked_start[k] - first_start,
                      m.marked_end[k] - first_start, device});
      if (kind != TimelineBar::Kind::exchange) busy += m.marked_end[k] - m.marked_start[k];
    }
  }
  const double span = last_end - first_start;
  return {device, span, busy, span > 0 ? busy / span : 0.0};
}

void SplitTimings::add_steps(const std::vector<BandTimings*>& instances, std::size_t s,
                             const std::vector<double>& instance_step) {
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (instance_step[i] < 0) continue;
    BandTimings& t = *instances[i];
    // Frames of another length are another workload: the statistics start again.
    if (t.generations_.count() > 0 && t.generations_.summary().last != t.slots_[s].generations) {
      t.step_.clear();
      t.generations_.clear();
    }
    t.step_.add(instance_step[i]);
    t.generations_.add(t.slots_[s].generations);
    const auto& borrowed = t.slots_[s].borrowed;
    t.borrowed_starts_ += static_cast<std::uint64_t>(std::count(borrowed.begin(), borrowed.end(), 1));
  }
}

/// Reads timed frame `timed`: false, changing nothing, while any of its events is pending.
bool SplitTimings::read(const std::vector<BandTimings*>& instances, const std::vector<int>& devices,
                        std::uint64_t timed) {
  const std::size_t s = static_cast<std::size_t>(timed % kSplitTimingRing);
  DeviceBands per_device = bands_of_frame(instances, devices, timed);
  for (auto& [device, marks] : per_device)
    if (!read_device(instances, s, device, marks)) return false;
  double span = 0, busy = 0;
  std::vector<GpuFrameTimings> gpus;
  std::vector<TimelineBar> bars;
  std::vector<double> instance_step(instances.size(), -1);
  int row = 0;  // rows grouped per GPU, in the order the engine lists its devices
  std::vector<EngineReports::TimelineOrigin> origins;
  for (const auto& [device, marks] : per_device) {
    std::uint64_t origin_ns = 0;
    gpus.push_back(place_device(instances, s, device, marks, row, bars, instance_step, origin_ns));
    if (origin_ns != 0) origins.push_back({device, origin_ns});
    span = std::max(span, gpus.back().span_ms);
    busy += gpus.back().busy_ms;
  }
  add_steps(instances, s, instance_step);
  if (bars.empty()) return true;
  span_ms_.add(span);
  newest_frame_ = FrameTimings{true, span, busy, span > 0 ? busy / span : 0.0, {}, std::move(gpus)};
  newest_timeline_ = std::move(bars);
  newest_origins_ = std::move(origins);
  return true;
}

void SplitTimings::forget(std::size_t index) {
  std::erase_if(newest_timeline_, [&](const TimelineBar& b) { return b.instance == index; });
  for (TimelineBar& b : newest_timeline_)
    if (b.instance > index) --b.instance;
}

}  // namespace ls::multi
