// timing_ring.cpp — implements TimingRing (timing_ring.hpp): timed frames, their events, and the
// statistics, span and timeline read from them frames late.
#include "sim/timing_ring.hpp"

#include <algorithm>

#include "sim/instance.hpp"

namespace ls::sim {

namespace {

/// Milliseconds from `from` to `to`, or false while either is pending; a real error throws.
bool try_elapsed_ms(cudaEvent_t from, cudaEvent_t to, double& ms) {
  float t = 0;
  const cudaError_t err = cudaEventElapsedTime(&t, from, to);
  if (err == cudaSuccess) {
    ms = t;
    return true;
  }
  if (err == cudaErrorNotReady) {
    // Not an error: make sure a later cudaGetLastError() check after a launch does not see it.
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();
    return false;
  }
  throw_cuda_error(err, "cudaEventElapsedTime(&t, from, to)", __FILE__, __LINE__);
}

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

int TimingRing::start_frame(StreamMode mode, cudaStream_t reference_stream) {
  const std::uint64_t f = frame_count_++;
  const bool timed = frames_to_timed_ == 0;
  frames_to_timed_ = timed ? period_ - 1 : frames_to_timed_ - 1;
  if (!timed) return -1;
  const std::uint64_t t = timed_count_++;
  const std::size_t s = t % kTimingRing;
  // Slots about to be overwritten lose their unread timings (the GPU is > kTimingRing timed frames
  // behind).
  if (t + 1 > kTimingRing) next_harvest_ = std::max(next_harvest_, t + 1 - kTimingRing);
  FrameRecord& record = frames_[s];
  record.frame = f;
  record.timed = t;
  record.mode = mode;
  // The reference goes first on the engine's own stream, so every bar of the frame starts after it.
  record.reference.record(reference_stream);
  return static_cast<int>(s);
}

TimingSlot& TimingRing::claim(Instance& inst, int s, int generations) const {
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  slot.frame = frame_count_ - 1;
  slot.generations = generations;
  slot.display_begun = slot.display_ended = false;
  return slot;
}

int TimingRing::current_timed_slot() const {
  if (timed_count_ == 0) return -1;
  const std::size_t s = (timed_count_ - 1) % kTimingRing;
  return frames_[s].frame == frame_count_ - 1 ? static_cast<int>(s) : -1;
}

bool TimingRing::begin_display(Instance& inst, cudaStream_t stream) const {
  const int s = current_timed_slot();
  if (s < 0) return false;  // not a timed frame
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  if (slot.frame != frame_count_ - 1) return false;  // added after this frame's step
  // Redraws after the frame's first one (a paused app draws without stepping) are not the frame's
  // work: re-recording here stretched the frame's span over the whole pause (issue 10).
  if (slot.display_begun) return false;
  slot.display_start.record(stream);
  slot.display_begun = true;
  slot.display_ended = false;
  return true;
}

void TimingRing::end_display(Instance& inst, cudaStream_t stream) const {
  const int s = current_timed_slot();
  if (s < 0) return;
  TimingSlot& slot = inst.timing.slots[static_cast<std::size_t>(s)];
  if (slot.frame != frame_count_ - 1 || !slot.display_begun || slot.display_ended) return;
  slot.display_end.record(stream);
  slot.display_ended = true;
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
    if (slot.display_begun && slot.display_ended) {
      double d1 = 0;
      if (!try_elapsed_ms(ref, slot.display_end.get(), d1)) return false;
      const double d0 = elapsed_ms(ref, slot.display_start.get());
      bars.push_back({i, row, TimelineBar::Kind::display, d0, d1});
      busy += d1 - d0;
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
  for (const auto& bar : bars) {
    InstanceTimings& timing = instances[bar.instance]->timing;
    if (bar.kind == TimelineBar::Kind::step) {
      timing.step.add(bar.end_ms - bar.start_ms);
      timing.generations.add(timing.slots[s].generations);
    } else if (bar.kind == TimelineBar::Kind::display) {
      timing.display.add(bar.end_ms - bar.start_ms);
    }
  }
  if (bars.empty()) return true;
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
  newest_frame_ = FrameTimings{true, span, busy, span > 0 ? busy / span : 0.0, {}};
  newest_timeline_ = std::move(bars);
  return true;
}

}  // namespace ls::sim
