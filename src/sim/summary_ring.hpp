// summary_ring.hpp — asynchronous summaries (population, hash) of an instance: a small ring of
// requests copied into pinned host memory and polled without waiting; requests made every frame are
// replayed from cached graphs. Requests are paced by their cost (core/summary_pacing.hpp): timed
// ones carry start/end events, read when they are done, whose elapsed time is the pacer's estimate
// and, in a timed frame, the summary's bar in the timeline.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/engine.hpp"
#include "core/summary_pacing.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/event_reads.hpp"
#include "sim/timing_ring.hpp"

namespace ls::sim {

struct Instance;
struct GraphCapture;

/// Summary requests each instance can have in flight.
inline constexpr std::size_t kSummaryRing = 4;
inline constexpr std::size_t kSummaryWords = 2;  // population, hash
/// Device bytes of an instance's summary results (one slot per request in flight).
inline constexpr std::size_t kSummaryResultBytes = kSummaryRing * kSummaryWords * sizeof(std::uint64_t);
/// The bytes a handoff pulse copies (enqueue_handoff_pulse): one word.
inline constexpr std::size_t kHandoffPulseBytes = sizeof(std::uint64_t);
/// Pinned bytes of an instance: its summary results, then the word its handoff pulse lands in.
inline constexpr std::size_t kSummaryHostBytes = kSummaryResultBytes + kHandoffPulseBytes;

/// A timed summary's cost is measured again after this many untimed ones (summaries that come
/// every frame are timed only in timed frames, or this often, so that their events cost little).
inline constexpr int kSummaryRemeasure = 16;

/// One asynchronous summary request: device result -> pinned host memory, then `done`.
struct SummarySlot {
  std::uint64_t sequence = 0;  // 0: never requested
  std::uint64_t generation = 0;
  std::uint64_t frame = 0;  // frames started when its state was current
  bool pending = false;
  /// `start` and `end` were recorded around it: its cost is read when it is done, and `end` is
  /// its completion event.
  bool timed = false;
  /// The timed frame (TimingRing numbering of frames) whose timeline shows it; kNoFrame: none.
  std::uint64_t timeline_frame = kNoFrame;
  cuda::Event done{cuda::Event::Create{}, false};
  cuda::Event start{cuda::Event::Create{}};
  cuda::Event end{cuda::Event::Create{}};
  /// Stream mode `graph`: the engine's event recorded after the frame graph that made this
  /// summary (one event for all instances instead of one each); null: `done` or `end`.
  cudaEvent_t frame_done = nullptr;
  /// Stream mode `graph`: where the result lands (FrameSummaries::host); null: the instance's own
  /// pinned words of this slot.
  const std::uint64_t* host_words = nullptr;
  cudaEvent_t done_event() const { return frame_done ? frame_done : timed ? end.get() : done.get(); }
};

/// Stream mode `graph`: the results of a frame's summaries side by side, so that the frame graph
/// zeroes them with one small kernel before its branches and copies them to pinned memory with one
/// copy node after, instead of a memset and a copy node per instance (those cost the host ~5 us per
/// instance at each launch: 64 x 1024² spent ~0.45 ms a frame launching its graph, H100).
class FrameSummaries {
 public:
  /// Branches beyond this many summarize into their instance's own slot (memset, kernel, copy).
  static constexpr std::size_t kBranches = kMaxInstancesPerDevice;
  FrameSummaries();
  /// Device words of branch `i` (< kBranches).
  std::uint64_t* device(std::size_t i) const;
  /// Pinned words of branch `i` in ring slot `ring` (< kSummaryRing).
  std::uint64_t* host(std::size_t ring, std::size_t i) const;

 private:
  cuda::DeviceBuffer device_;  // kBranches x kSummaryWords
  cuda::PinnedBuffer host_;    // kSummaryRing x kBranches x kSummaryWords
};

/// How one request is timed (SummaryRequests::request).
struct SummaryTiming {
  bool timed = false;                       // events around it (its cost is measured)
  std::uint64_t timeline_frame = kNoFrame;  // the timed frame it belongs to, if any
};

/// An instance's requests and the newest finished summary (published by polling in const calls).
struct InstanceSummaries {
  std::array<SummarySlot, kSummaryRing> slots;
  std::size_t next = 0;
  cuda::PinnedBuffer results_host;  // kSummaryHostBytes
  mutable std::optional<StateSummary> newest;
  mutable std::uint64_t newest_sequence = 0;
  mutable std::uint64_t newest_frame = 0;   // the newest summary's SummarySlot::frame
  std::uint64_t frame = ~std::uint64_t{0};  // frame of the newest request (none yet)
  int frames = 0;                           // consecutive frames with a request
  /// Pacing: the cost estimate (fed by poll_summaries from timed requests), the state last asked
  /// for (generation and origin: an edit gives a new origin), untimed requests since a timed one.
  mutable SummaryPacer pacer;
  bool asked = false;
  std::uint64_t asked_generation = 0;
  std::uint64_t asked_origin = 0;
  int untimed = 0;
  /// Stream mode `graph`: this instance's summary rides on the next frame graph.
  bool deferred = false;
};

/// What a summary graph depends on besides the front buffer and the summary slot.
struct SummaryShape {
  kernels::Layout layout = kernels::Layout::int32_cells;
  const void* memory = nullptr;
  bool operator==(const SummaryShape&) const = default;
};

/// An instance's summary graphs, one per front buffer and slot. They use the instance's buffers,
/// so the instance destroys them before its memory.
struct SummaryGraphs {
  SummaryShape shape;
  std::array<cuda::GraphExec, 2 * kSummaryRing> graphs;
  void drop() {
    for (auto& graph : graphs) graph.reset();
  }
};

/// Whether each of a few events is done, asked once for all instances: in stream mode `graph` the
/// requests of a frame share one event, and asking it once per instance cost ~1.5 us each (64
/// instances: ~100 us of a frame's host enqueue, H100). An event not listed is asked directly.
struct KnownEvents {
  std::array<cudaEvent_t, kSummaryRing> events{};
  std::array<bool, kSummaryRing> done{};
  std::size_t count = 0;
  /// Asks each of `events` now (event_done).
  template <class EventArray>
  static KnownEvents ask(const EventArray& events);
  bool is_done(cudaEvent_t event) const;
};

/// Polls the instance's summary requests (non-blocking) and publishes the newest finished one;
/// a timed one's GPU time goes to the instance's pacer. `known`: events already asked.
void poll_summaries(const Instance& inst, const KnownEvents* known = nullptr);

/// Before a frame graph writes its gathered results over host words [begin, end) again: publishes
/// the instance's finished requests whose results are there (their frame's event is done), so that
/// none is read later with another frame's values. No CUDA call unless one is there.
void settle_gathered(const Instance& inst, const std::uint64_t* begin, const std::uint64_t* end,
                     const KnownEvents* known = nullptr);

/// Enqueues an instance's handoff pulse on `stream`: one word copied from its device summary
/// results to its pinned pulse word, never read. A stepped frame whose summary is paced out gets
/// it in the summary's place, so that every stepped frame's stream work ends with a copy to pinned
/// memory before the display's wait for the CUDA-GL map. Without one the map waited ~2.6 ms a
/// frame (H100: 16 x 4096² per-instance 428-447 frames/s, with the pulse 923-935; a device memset
/// in its place did not help): bench/NOTES.md "Summaries paced out, and the handoff pulse".
void enqueue_handoff_pulse(const Instance& inst, cudaStream_t stream);

/// The instance's stream work per frame (mean step + display ms of its timed frames), the
/// reference its summaries are paced against.
double frame_work_ms(const Instance& inst);
/// One request opportunity (Engine::request_summaries) for `inst`: whether its summary is due
/// (SummaryPacer::due on its state, its stream work and its requests in flight).
bool summary_due(Instance& inst);
/// Whether a due summary should be timed outside a timed frame: its cost is unknown, it is paced
/// (every frame counts), or kSummaryRemeasure untimed ones came since the last measurement.
bool summary_needs_measuring(const Instance& inst);

/// Numbers the requests of all instances, so that the newest finished one wins.
class SummaryRequests {
 public:
  /// Enqueues a summary of the instance's current state on `stream` in frame `frame` (frames
  /// started so far), timed as `timing` says; returns the slot used. Requested in consecutive
  /// frames (as the app does), its kernels are replayed from a graph per (front buffer, slot); the
  /// timing events stay outside the graph.
  std::size_t request(Instance& inst, cudaStream_t stream, const GraphCapture& graphs, std::uint64_t frame,
                      SummaryTiming timing = {});
  /// The parts of request() for a summary enqueued elsewhere (a frame graph): claim_slot picks the
  /// slot for a request in frame `frame`; enqueue_summary enqueues (or captures) its work on `on`;
  /// commit marks it requested at `generation` (current when `state_frame` frames had started),
  /// done when `frame_done` is (null: the slot's own event, recorded by the caller), untimed, its
  /// result at `host_words` (null: the slot's own pinned words).
  static std::size_t claim_slot(Instance& inst, std::uint64_t frame, const KnownEvents* known = nullptr);
  static void enqueue_summary(const Instance& inst, std::size_t s, cudaStream_t on);

  void commit(Instance& inst, std::size_t s, cudaEvent_t frame_done, std::uint64_t generation,
              std::uint64_t state_frame, const std::uint64_t* host_words = nullptr);
  /// The summary in slot `s` (after its request has finished).
  static StateSummary read(const Instance& inst, std::size_t s);

 private:
  std::uint64_t sequence_ = 0;
};

template <class EventArray>
KnownEvents KnownEvents::ask(const EventArray& events) {
  KnownEvents known;
  for (const auto& event : events) {
    if (known.count == known.events.size()) break;
    known.events[known.count] = event.get();
    known.done[known.count] = event_done(event.get());
    ++known.count;
  }
  return known;
}

}  // namespace ls::sim
