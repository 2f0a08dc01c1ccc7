// timing_ring.cpp — implements TimingRing (timing_ring.hpp): timed frames, their events, and the
// statistics, span and timeline read from them frames late (the copies' brackets are recorded in
// timing_copies.cpp).
#include "sim/timing_ring.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "kernels/life_kernels.hpp"
#include "sim/event_reads.hpp"
#include "sim/instance.hpp"

namespace ls::sim {

namespace {

double elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
  return ms;
}

}  // namespace

void TimingRing::set_period(int period) {
  period_ = period;
  frames_to_timed_ = 0;
}

void TimingRing::set_clock(bool on) {
  // cudaMallocHost may wait for the device: never in a frame.
  if (on && !clock_stamps_) clock_stamps_ = cuda::PinnedBuffer(kTimingRing * sizeof(std::uint64_t));
  clock_ = on;
}

int TimingRing::start_frame(StreamMode mode, cudaStream_t reference_stream) {
  const std::uint64_t f = frame_count_++;
  const bool timed = frames_to_timed_ == 0;
  frames_to_timed_ = timed ? period_ - 1 : frames_to_timed_ - 1;
  if (!timed) return -1;
  // A graph frame's stamps go to memory its slot reuses; the frames of a slot are ordered on the
  // frame stream (step and display graphs alike), so a reused slot's newest frame writes last and
  // its events say when its stamps are all there.
  const std::uint64_t t = timed_count_++;
  const std::size_t s = t % kTimingRing;
  // Slots about to be overwritten lose their unread timings (the GPU is > kTimingRing timed frames
  // behind).
  if (t + 1 > kTimingRing) next_harvest_ = std::max(next_harvest_, t + 1 - kTimingRing);
  FrameRecord& record = frames_[s];
  record.frame = f;
  record.timed = t;
  record.mode = mode;
  record.display_claimed = record.display_recorded = false;
  record.foreign_used = 0;
  // The reference goes first on the engine's own stream, so every bar of the frame starts after it
  // (a graph frame's reference is the stamp its graph writes first).
  record.stamped = mode != StreamMode::graph && clock_;
  if (record.stamped) {
    // The stamp just before the reference: a stamp kernel that waits for a free SM delays the
    // reference with it, so the two stay together.
    volatile std::uint64_t* stamp = clock_stamps_.as<std::uint64_t>() + s;
    *stamp = 0;  // a frame whose stamp is still 0 when read has no origin on the GPU's clock
    kernels::launch_stamp(clock_stamps_.as<std::uint64_t>() + s, reference_stream);
  }
  if (mode != StreamMode::graph) record.reference.record(reference_stream);
  return static_cast<int>(s);
}

void TimingRing::reserve_stamps(std::size_t instances) {
  const std::size_t stride = 1 + kStampsPerInstance * instances;
  if (stride <= stamp_stride_) return;
  // Room for 128 instances at first (16 KB), twice the need after; the old memory may still be
  // written by frames in flight, so it is kept, not freed (freeing would wait for the device).
  const std::size_t grown = std::max({stride, 2 * stamp_stride_, std::size_t{1 + kStampsPerInstance * 128}});
  cuda::PinnedBuffer fresh(kTimingRing * grown * sizeof(std::uint64_t));
  if (stamps_) retired_stamps_.push_back(std::move(stamps_));
  stamps_ = std::move(fresh);
  stamp_stride_ = grown;
  // Frames timed into the old memory are not read; the current one is timed into the new.
  if (timed_count_ > 0) next_harvest_ = std::max(next_harvest_, timed_count_ - 1);
}

std::uint64_t* TimingRing::stamps_of(std::size_t s) const {
  return stamps_.as<std::uint64_t>() + s * stamp_stride_;
}

std::uint64_t* TimingRing::reference_stamp(int s) const { return stamps_of(static_cast<std::size_t>(s)); }

std::uint64_t* TimingRing::step_stamps(int s, std::size_t i) const {
  return stamps_of(static_cast<std::size_t>(s)) + 1 + kStampsPerInstance * i;
}

void TimingRing::end_graph_step(cudaStream_t frame_stream) {
  const int s = current_timed_slot();
  if (s < 0) return;
  frames_[static_cast<std::size_t>(s)].step_done.record(frame_stream);
}

std::uint64_t* TimingRing::claim_display_stamps(Instance& inst) {
  const int s = current_timed_slot();
  if (s < 0) return nullptr;
  FrameRecord& record = frames_[static_cast<std::size_t>(s)];
  if (record.mode != StreamMode::graph) return nullptr;
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  if (slot.frame != frame_count_ - 1 || slot.display.begun) return nullptr;
  slot.display.begun = slot.display.ended = true;
  record.display_claimed = true;
  return stamps_of(static_cast<std::size_t>(s)) + 1 + kStampsPerInstance * slot.stamp_index + kDisplayStart;
}

void TimingRing::end_graph_display(cudaStream_t stream) {
  const int s = current_timed_slot();
  if (s < 0) return;
  FrameRecord& record = frames_[static_cast<std::size_t>(s)];
  if (!record.display_claimed || record.display_recorded) return;
  record.display_done.record(stream);
  record.display_recorded = true;
}

TimingSlot& TimingRing::claim(Instance& inst, int s, int generations, std::size_t index) const {
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  slot.frame = frame_count_ - 1;
  slot.generations = generations;
  slot.stamp_index = index;
  slot.display.begun = slot.display.ended = false;
  slot.snapshot.begun = slot.snapshot.ended = false;
  slot.snapshot_parts.staged_recorded = slot.snapshot_parts.copying_recorded = false;
  slot.handoff.begun = slot.handoff.ended = false;
  slot.tile.begun = slot.tile.ended = false;
  slot.graph_summary = false;
  return slot;
}

int TimingRing::current_timed_slot() const {
  if (timed_count_ == 0) return -1;
  const std::size_t s = (timed_count_ - 1) % kTimingRing;
  return frames_[s].frame == frame_count_ - 1 ? static_cast<int>(s) : -1;
}

Bracket* TimingRing::open_bracket(Instance& inst, Bracket TimingSlot::*which) const {
  const int s = current_timed_slot();
  if (s < 0) return nullptr;  // not a timed frame
  // A graph frame is timed by stamps (claim_display_stamps), not events.
  if (frames_[static_cast<std::size_t>(s)].mode == StreamMode::graph) return nullptr;
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  if (slot.frame != frame_count_ - 1) return nullptr;  // added after this frame's step
  return &(slot.*which);
}

bool TimingRing::begin_display(Instance& inst, cudaStream_t stream) const {
  Bracket* b = open_bracket(inst, &TimingSlot::display);
  // Redraws after the frame's first one (a paused app draws without stepping) are not the frame's
  // work: re-recording here would stretch the frame's span over the whole pause.
  if (!b || b->begun) return false;
  b->start.record(stream);
  b->begun = true;
  b->ended = false;
  return true;
}

void TimingRing::end_display(Instance& inst, cudaStream_t stream) const {
  Bracket* b = open_bracket(inst, &TimingSlot::display);
  if (!b || !b->begun || b->ended) return;
  b->end.record(stream);
  b->ended = true;
}

std::uint64_t* TimingRing::graph_stamps(Instance& inst) const {
  const int s = current_timed_slot();
  if (s < 0 || frames_[static_cast<std::size_t>(s)].mode != StreamMode::graph) return nullptr;
  const TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  if (slot.frame != frame_count_ - 1) return nullptr;
  return step_stamps(s, slot.stamp_index);
}

bool TimingRing::begin_snapshot(Instance& inst, cudaStream_t stream) const {
  if (std::uint64_t* stamps = graph_stamps(inst)) {
    Bracket& b = inst.timing.slots[static_cast<std::size_t>(current_timed_slot())].snapshot;
    if (b.begun) return false;
    kernels::launch_stamp(stamps + kSnapshotStart, stream);
    b.begun = true;
    return true;
  }
  Bracket* b = open_bracket(inst, &TimingSlot::snapshot);
  if (!b || b->begun) return false;
  b->start.record(stream);
  b->begun = true;
  return true;
}

void TimingRing::end_snapshot(Instance& inst, cudaStream_t stream) const {
  if (std::uint64_t* stamps = graph_stamps(inst)) {
    Bracket& b = inst.timing.slots[static_cast<std::size_t>(current_timed_slot())].snapshot;
    if (!b.begun || b.ended) return;
    kernels::launch_stamp(stamps + kSnapshotEnd, stream);
    b.ended = true;
    return;
  }
  Bracket* b = open_bracket(inst, &TimingSlot::snapshot);
  if (!b || !b->begun || b->ended) return;
  b->end.record(stream);
  b->ended = true;
}

void TimingRing::harvest(const InstanceList& instances, bool all) {
  const std::uint64_t limit = timed_count_ - (!all && current_timed_slot() >= 0 ? 1 : 0);
  while (next_harvest_ < limit) {
    const std::uint64_t t = next_harvest_;
    const FrameRecord& record = frames_[t % kTimingRing];
    if (record.timed != t) {  // overwritten before it finished: dropped
      ++next_harvest_;
      continue;
    }
    if (!read_frame(instances, t % kTimingRing)) return;
    ++next_harvest_;
  }
}

/// Reads the timed frame in ring slot `s`: its timings into the statistics and the newest timeline;
/// false, changing nothing, while any of its events is still pending. The elapsed-time calls double
/// as the completion tests (they answer cudaErrorNotReady), which saves a query per event.
bool TimingRing::read_frame(const InstanceList& instances, std::size_t s) {
  const FrameRecord& record = frames_[s];
  if (record.mode == StreamMode::graph) return read_graph_frame(instances, s);
  const std::uint64_t f = record.frame;
  const cudaEvent_t ref = record.reference.get();
  std::vector<TimelineBar> bars;
  bars.reserve(2 * instances.size());
  double busy = 0;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const TimingSlot& slot = instances[i]->timing.slots[s];
    if (slot.frame != f) continue;
    const int row = record.mode == StreamMode::shared ? 0 : static_cast<int>(i);
    // Start and end were recorded on one stream: the end finishing implies the start did.
    double end = 0;
    if (!try_elapsed_ms(ref, slot.step_end.get(), end)) return false;
    const double start = elapsed_ms(ref, slot.step_start.get());
    bars.push_back({i, row, TimelineBar::Kind::step, start, end});
    busy += end - start;
    if (slot.display.complete()) {
      double b1 = 0;
      if (!try_elapsed_ms(ref, slot.display.end.get(), b1)) return false;
      const double b0 = elapsed_ms(ref, slot.display.start.get());
      bars.push_back({i, row, TimelineBar::Kind::display, b0, b1});
      busy += b1 - b0;
    }
    if (!read_snapshot(ref, slot, i, row, bars, busy)) return false;
    // Copies beside the frame's work, each on its copy lane.
    for (const auto& [bracket, kind] : {std::pair{&slot.handoff, TimelineBar::Kind::handoff},
                                        std::pair{&slot.tile, TimelineBar::Kind::tile}}) {
      if (!bracket->complete()) continue;
      double c1 = 0;
      if (!try_elapsed_ms(ref, bracket->end.get(), c1)) return false;
      const double c0 = elapsed_ms(ref, bracket->start.get());
      bars.push_back({i, row, kind, c0, c1, -1, bracket->copy, bracket->peer, bracket->bytes});
      busy += c1 - c0;
    }
    // The instance's summary asked in this frame (summary_ring.hpp), if its slot still holds it.
    for (const SummarySlot& sum : instances[i]->summaries.slots) {
      if (sum.timeline_frame != f || !sum.timed) continue;
      double s1 = 0;
      if (!try_elapsed_ms(ref, sum.end.get(), s1)) return false;
      const double s0 = elapsed_ms(ref, sum.start.get());
      bars.push_back({i, row, TimelineBar::Kind::summary, s0, s1});
      busy += s1 - s0;
    }
  }
  if (!read_foreign(s, bars)) return false;
  publish(instances, s, std::move(bars), busy);
  return true;
}

bool TimingRing::read_snapshot(cudaEvent_t ref, const TimingSlot& slot, std::size_t i, int row,
                               std::vector<TimelineBar>& bars, double& busy) {
  if (!slot.snapshot.complete()) return true;
  // The end is on the snapshot stream, after every other event of the snapshot.
  double end = 0;
  if (!try_elapsed_ms(ref, slot.snapshot.end.get(), end)) return false;
  const double start = elapsed_ms(ref, slot.snapshot.start.get());
  const SnapshotParts& parts = slot.snapshot_parts;
  if (!parts.staged_recorded || !parts.copying_recorded) {
    bars.push_back({i, row, TimelineBar::Kind::snapshot, start, end});
    busy += end - start;
    return true;
  }
  const double staged = elapsed_ms(ref, parts.staged.get());
  const double copying = elapsed_ms(ref, parts.copying.get());
  const std::uint64_t staged_bytes = parts.staging == TimelineBar::Copy::none ? 0 : parts.bytes;
  bars.push_back({i, row, TimelineBar::Kind::snapshot, start, staged, -1, parts.staging, -1, staged_bytes});
  bars.push_back(
      {i, row, TimelineBar::Kind::snapshot, copying, end, -1, TimelineBar::Copy::d2h, -1, parts.bytes});
  busy += (staged - start) + (end - copying);
  return true;
}

bool TimingRing::read_foreign(std::size_t s, std::vector<TimelineBar>& bars) const {
  const FrameRecord& record = frames_[s];
  const cudaEvent_t ref = record.reference.get();
  for (std::size_t k = 0; k < record.foreign_used; ++k) {
    const ForeignCopy& c = *record.foreign[k];
    if (!c.ended) continue;
    double c1 = 0;
    if (!try_elapsed_ms(ref, c.end.get(), c1)) return false;
    const double c0 = elapsed_ms(ref, c.start.get());
    // Stream row 0: a copy goes on its lane, not on a stream's row. Not busy time of this
    // engine's streams: it is another engine's instance's work.
    bars.push_back({c.index, 0, c.kind, c0, c1, -1, c.what.copy, c.what.peer, c.what.bytes, c.device});
  }
  return true;
}

bool TimingRing::read_graph_frame(const InstanceList& instances, std::size_t s) {
  const FrameRecord& record = frames_[s];
  if (!event_done(record.step_done.get())) return false;
  // A display claimed but not yet enqueued waits while its frame is the current one; later it is
  // taken as absent (its stamps are never written).
  if (record.display_claimed && !record.display_recorded && record.frame + 1 >= frame_count_) return false;
  const bool display = record.display_recorded;
  if (display && !event_done(record.display_done.get())) return false;
  const std::uint64_t* stamps = stamps_of(s);
  const double ref = static_cast<double>(stamps[0]);
  const auto ms = [&](std::size_t at) { return (static_cast<double>(stamps[at]) - ref) * 1e-6; };
  std::vector<TimelineBar> bars;
  bars.reserve(2 * instances.size());
  double busy = 0;
  double snapshot_copy_end = -1e300;  // the end of the last snapshot copy read, on the snapshot stream
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const TimingSlot& slot = instances[i]->timing.slots[s];
    if (slot.frame != record.frame) continue;
    const std::size_t at = 1 + kStampsPerInstance * slot.stamp_index;
    bars.push_back({i, static_cast<int>(i), TimelineBar::Kind::step, ms(at + kStepStart), ms(at + kStepEnd)});
    busy += ms(at + kStepEnd) - ms(at + kStepStart);
    // The summary in the instance's branch ends where its step starts (step_stamps).
    if (slot.graph_summary) {
      bars.push_back(
          {i, static_cast<int>(i), TimelineBar::Kind::summary, ms(at + kSummaryStart), ms(at + kStepStart)});
      busy += ms(at + kStepStart) - ms(at + kSummaryStart);
    }
    // A snapshot runs outside the frame's graphs: its stamps are written once its copy is done.
    // Its copy to the host starts when its staging has ended and the snapshot stream has copied
    // the instances before it (their copies queue there in instance order).
    if (slot.snapshot.complete()) {
      if (!event_done(instances[i]->snapshot.copied.get())) return false;
      const SnapshotParts& parts = slot.snapshot_parts;
      if (parts.staged_recorded) {
        const double copying = std::max(ms(at + kSnapshotStaged), snapshot_copy_end);
        const std::uint64_t staged_bytes = parts.staging == TimelineBar::Copy::none ? 0 : parts.bytes;
        bars.push_back({i, static_cast<int>(i), TimelineBar::Kind::snapshot, ms(at + kSnapshotStart),
                        ms(at + kSnapshotStaged), -1, parts.staging, -1, staged_bytes});
        bars.push_back({i, static_cast<int>(i), TimelineBar::Kind::snapshot, copying, ms(at + kSnapshotEnd),
                        -1, TimelineBar::Copy::d2h, -1, parts.bytes});
        busy += (ms(at + kSnapshotStaged) - ms(at + kSnapshotStart)) + (ms(at + kSnapshotEnd) - copying);
      } else {
        bars.push_back({i, static_cast<int>(i), TimelineBar::Kind::snapshot, ms(at + kSnapshotStart),
                        ms(at + kSnapshotEnd)});
        busy += ms(at + kSnapshotEnd) - ms(at + kSnapshotStart);
      }
      snapshot_copy_end = ms(at + kSnapshotEnd);
    }
    if (display && slot.display.complete()) {
      bars.push_back(
          {i, static_cast<int>(i), TimelineBar::Kind::display, ms(at + kDisplayStart), ms(at + kDisplayEnd)});
      busy += ms(at + kDisplayEnd) - ms(at + kDisplayStart);
    }
  }
  publish(instances, s, std::move(bars), busy);
  return true;
}

/// The bars of timed frame slot `s`, read: into the statistics, the span and the newest timeline.
void TimingRing::publish(const InstanceList& instances, std::size_t s, std::vector<TimelineBar> bars,
                         double busy) {
  for (const auto& bar : bars) {
    if (bar.kind != TimelineBar::Kind::step && bar.kind != TimelineBar::Kind::display) continue;
    InstanceTimings& timing = instances[bar.instance]->timing;
    if (bar.kind == TimelineBar::Kind::step) {
      // Frames of another length are another workload: the statistics start again (read here, in
      // frame order, so that frames still in flight at the change do not mix into the new ones).
      if (timing.generations.count() > 0 &&
          timing.generations.summary().last != timing.slots[s].generations) {
        timing.clear_stats();
        span_ms_.clear();
      }
      timing.step.add(bar.end_ms - bar.start_ms);
      timing.generations.add(timing.slots[s].generations);
    } else if (bar.kind == TimelineBar::Kind::display) {
      timing.display.add(bar.end_ms - bar.start_ms);
    }
  }
  if (bars.empty()) return;
  double first = bars.front().start_ms, last = bars.front().end_ms;
  for (const auto& bar : bars) {
    first = std::min(first, bar.start_ms);
    last = std::max(last, bar.end_ms);
  }
  for (auto& bar : bars) {
    bar.start_ms -= first;
    bar.end_ms -= first;
  }
  const double span = last - first;
  span_ms_.add(span);
  // The reference's stamp (graph frames' first stamp; the others' when clock_ is on), moved to the
  // first bar's start as the bars were.
  std::uint64_t reference_ns = 0;
  if (frames_[s].mode == StreamMode::graph)
    reference_ns = *static_cast<volatile const std::uint64_t*>(stamps_of(s));
  else if (frames_[s].stamped)
    reference_ns = *static_cast<volatile const std::uint64_t*>(clock_stamps_.as<std::uint64_t>() + s);
  newest_origin_ns_ =
      reference_ns
          ? static_cast<std::uint64_t>(static_cast<std::int64_t>(reference_ns) + std::llround(first * 1e6))
          : 0;
  newest_frame_ = FrameTimings{true, span, busy, span > 0 ? busy / span : 0.0, {}, {}};
  newest_timeline_ = std::move(bars);
}

}  // namespace ls::sim
