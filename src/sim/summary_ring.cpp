// summary_ring.cpp — implements summary_ring.hpp: summary requests into pinned memory, polled in
// order, the ring never losing the newest request; their pacing and timing.
#include "sim/summary_ring.hpp"

#include <algorithm>

#include "sim/event_reads.hpp"
#include "sim/frame_launch.hpp"
#include "sim/instance.hpp"

namespace ls::sim {

double frame_work_ms(const Instance& inst) {
  return inst.timing.step.summary().mean + inst.timing.display.summary().mean;
}

bool summary_due(Instance& inst) {
  poll_summaries(inst);  // a finished request is no longer in flight, and its cost is known
  const InstanceSummaries& sums = inst.summaries;
  const bool changed =
      !sums.asked || sums.asked_generation != inst.generation || sums.asked_origin != inst.origin;
  bool in_flight = sums.deferred;
  for (const SummarySlot& slot : sums.slots) in_flight = in_flight || slot.pending;
  return sums.pacer.due(changed, frame_work_ms(inst), in_flight);
}

bool summary_needs_measuring(const Instance& inst) {
  const InstanceSummaries& sums = inst.summaries;
  return !sums.pacer.measured() || sums.pacer.every(frame_work_ms(inst)) > 1 ||
         sums.untimed >= kSummaryRemeasure;
}

bool KnownEvents::is_done(cudaEvent_t event) const {
  for (std::size_t i = 0; i < count; ++i)
    if (events[i] == event) return done[i];
  return event_done(event);
}

void poll_summaries(const Instance& inst, const KnownEvents* known) {
  const InstanceSummaries& sums = inst.summaries;
  const auto* host = sums.results_host.as<const std::uint64_t>();
  // Oldest request first; requests finish in order (one stream, or streams ordered by the mode
  // switch), so the first pending one decides whether any later one can be done.
  for (std::size_t n = 0; n < kSummaryRing; ++n) {
    const std::size_t s = (sums.next + n) % kSummaryRing;
    auto& slot = const_cast<SummarySlot&>(sums.slots[s]);
    if (!slot.pending) continue;
    if (!(known ? known->is_done(slot.done_event()) : event_done(slot.done_event()))) break;
    slot.pending = false;
    if (slot.timed && !slot.frame_done) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, slot.start.get(), slot.end.get()));
      sums.pacer.observe_cost(ms);
    }
    if (slot.sequence > sums.newest_sequence) {
      sums.newest_sequence = slot.sequence;
      const std::uint64_t* words = slot.host_words ? slot.host_words : host + s * kSummaryWords;
      sums.newest = StateSummary{slot.generation, words[0], words[1]};
      sums.newest_frame = slot.frame;
    }
  }
}

void settle_gathered(const Instance& inst, const std::uint64_t* begin, const std::uint64_t* end,
                     const KnownEvents* known) {
  const auto in_range = [&](const SummarySlot& slot) {
    return slot.pending && slot.host_words >= begin && slot.host_words < end;
  };
  if (std::none_of(inst.summaries.slots.begin(), inst.summaries.slots.end(), in_range)) return;
  poll_summaries(inst, known);
  // Whatever the poll could not publish (an older request still pending before it: not expected,
  // the frames run in order) is dropped rather than read later with another frame's words.
  for (const SummarySlot& slot : inst.summaries.slots)
    if (in_range(slot)) const_cast<SummarySlot&>(slot).pending = false;
}

std::size_t SummaryRequests::claim_slot(Instance& inst, std::uint64_t frame, const KnownEvents* known) {
  InstanceSummaries& sums = inst.summaries;
  if (sums.frame + 1 == frame)
    ++sums.frames;
  else if (sums.frame != frame)
    sums.frames = 1;
  sums.frame = frame;
  std::size_t s = sums.next;
  if (sums.slots[s].pending) poll_summaries(inst, known);
  if (sums.slots[s].pending) {
    // The ring is full (the host is more than kSummaryRing requests ahead of the device). Reusing
    // the oldest slot would re-record the event poll_summaries waits on first, and a host that stays
    // ahead would never see a summary finish. The newest pending request is replaced instead: the
    // instance's work runs in order, so its results are written again after the first request's and
    // its event is recorded after both; the oldest requests still land and the newest request is
    // never lost.
    s = (s + kSummaryRing - 1) % kSummaryRing;
  } else {
    sums.next = (s + 1) % kSummaryRing;
  }
  return s;
}

void SummaryRequests::enqueue_summary(const Instance& inst, std::size_t s, cudaStream_t on) {
  // Three nodes in a graph (memset, kernel, copy). A kernel that wrote its result straight to
  // pinned memory (one node) cost the host less but the app more: 851 -> 460 frames/s, the
  // CUDA-GL map waiting ~2 ms a frame (H200, bench/NOTES.md "The display as one texture").
  std::uint64_t* device_result = inst.results_device + s * kSummaryWords;
  kernels::launch_summary(inst.layout(), inst.front, inst.width, inst.height, device_result, on);
  CUDA_CHECK(cudaMemcpyAsync(inst.summaries.results_host.as<std::uint64_t>() + s * kSummaryWords,
                             device_result, kSummaryWords * sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                             on));
}

void enqueue_handoff_pulse(const Instance& inst, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(inst.summaries.results_host.as<std::uint64_t>() + kSummaryRing * kSummaryWords,
                             inst.results_device, kHandoffPulseBytes, cudaMemcpyDeviceToHost, stream));
}

FrameSummaries::FrameSummaries()
    : device_(kBranches * kSummaryWords * sizeof(std::uint64_t)),
      host_(kSummaryRing * kBranches * kSummaryWords * sizeof(std::uint64_t)) {}

std::uint64_t* FrameSummaries::device(std::size_t i) const {
  return static_cast<std::uint64_t*>(device_.get()) + i * kSummaryWords;
}

std::uint64_t* FrameSummaries::host(std::size_t ring, std::size_t i) const {
  return static_cast<std::uint64_t*>(host_.get()) + (ring * kBranches + i) * kSummaryWords;
}

void SummaryRequests::commit(Instance& inst, std::size_t s, cudaEvent_t frame_done, std::uint64_t generation,
                             std::uint64_t state_frame, const std::uint64_t* host_words) {
  InstanceSummaries& sums = inst.summaries;
  SummarySlot& slot = sums.slots[s];
  slot.frame_done = frame_done;
  slot.host_words = host_words;
  slot.sequence = ++sequence_;
  slot.generation = generation;
  slot.frame = state_frame;
  slot.pending = true;
  slot.timed = false;
  slot.timeline_frame = kNoFrame;
  sums.asked = true;
  sums.asked_generation = generation;
  sums.asked_origin = inst.origin;
  ++sums.untimed;
}

std::size_t SummaryRequests::request(Instance& inst, cudaStream_t stream, const GraphCapture& graphs,
                                     std::uint64_t frame, SummaryTiming timing) {
  const std::size_t s = claim_slot(inst, frame);
  SummarySlot& slot = inst.summaries.slots[s];
  if (timing.timed) slot.start.record(stream);
  const SummaryShape shape{inst.layout(), inst.memory.get()};
  if (!(shape == inst.summary_graphs.shape)) {
    inst.summary_graphs.shape = shape;
    inst.summary_graphs.drop();
  }
  const auto enqueue = [&inst, s](cudaStream_t on) { enqueue_summary(inst, s, on); };
  if (graphs.on && inst.summaries.frames >= kFramesBeforeGraph) {
    const std::size_t buffer = inst.front == inst.memory.get() ? 0 : 1;
    cuda::GraphExec& graph = inst.summary_graphs.graphs[buffer * kSummaryRing + s];
    if (!graph) graph = cuda::capture(graphs.stream.get(), enqueue);
    graph.launch(stream);
  } else {
    enqueue(stream);
  }
  commit(inst, s, nullptr, inst.generation, frame);
  if (timing.timed) {
    slot.end.record(stream);
    slot.timed = true;
    slot.timeline_frame = timing.timeline_frame;
    inst.summaries.untimed = 0;
  } else {
    slot.done.record(stream);
  }
  return s;
}

StateSummary SummaryRequests::read(const Instance& inst, std::size_t s) {
  const SummarySlot& slot = inst.summaries.slots[s];
  const std::uint64_t* words =
      slot.host_words ? slot.host_words
                      : inst.summaries.results_host.as<const std::uint64_t>() + s * kSummaryWords;
  return StateSummary{slot.generation, words[0], words[1]};
}

}  // namespace ls::sim
