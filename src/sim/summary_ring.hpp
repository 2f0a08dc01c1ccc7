// summary_ring.hpp — asynchronous summaries (population, hash) of an instance: a small ring of
// requests copied into pinned host memory and polled without waiting; requests made every frame are
// replayed from cached graphs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/engine.hpp"
#include "life_kernels.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::sim {

struct Instance;
struct GraphCapture;

/// Summary requests each instance can have in flight.
inline constexpr std::size_t kSummaryRing = 4;
inline constexpr std::size_t kSummaryWords = 2;  // population, hash
/// Device bytes of an instance's summary results (one slot per request in flight).
inline constexpr std::size_t kSummaryResultBytes = kSummaryRing * kSummaryWords * sizeof(std::uint64_t);

/// One asynchronous summary request: device result -> pinned host memory, then `done`.
struct SummarySlot {
  std::uint64_t sequence = 0;  // 0: never requested
  std::uint64_t generation = 0;
  bool pending = false;
  cuda::Event done{cuda::Event::Create{}, false};
  /// Stream mode `graph`: the engine's event recorded after the frame graph that made this
  /// summary (one event for all instances instead of one each); null: `done`.
  cudaEvent_t frame_done = nullptr;
  cudaEvent_t done_event() const { return frame_done ? frame_done : done.get(); }
};

/// An instance's requests and the newest finished summary (published by polling in const calls).
struct InstanceSummaries {
  std::array<SummarySlot, kSummaryRing> slots;
  std::size_t next = 0;
  cuda::PinnedBuffer results_host;  // kSummaryResultBytes
  mutable std::optional<StateSummary> newest;
  mutable std::uint64_t newest_sequence = 0;
  std::uint64_t frame = ~std::uint64_t{0};  // frame of the newest request (none yet)
  int frames = 0;                           // consecutive frames with a request
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

/// Polls the instance's summary requests (non-blocking) and publishes the newest finished one.
void poll_summaries(const Instance& inst);

/// Numbers the requests of all instances, so that the newest finished one wins.
class SummaryRequests {
 public:
  /// Enqueues a summary of the instance's current state on `stream` in frame `frame`; returns the
  /// slot used. Requested in consecutive frames (as the app does), it is replayed from a graph per
  /// (front buffer, slot).
  std::size_t request(Instance& inst, cudaStream_t stream, const GraphCapture& graphs, std::uint64_t frame);
  /// The parts of request() for a summary enqueued elsewhere (a frame graph): claim_slot picks the
  /// slot for a request in frame `frame`; enqueue_summary enqueues (or captures) its work on `on`;
  /// commit marks it requested at `generation`, done when `frame_done` is (null: the slot's own
  /// event, recorded by the caller).
  static std::size_t claim_slot(Instance& inst, std::uint64_t frame);
  static void enqueue_summary(const Instance& inst, std::size_t s, cudaStream_t on);
  void commit(Instance& inst, std::size_t s, cudaEvent_t frame_done, std::uint64_t generation);
  /// The summary in slot `s` (after its request has finished).
  static StateSummary read(const Instance& inst, std::size_t s);

 private:
  std::uint64_t sequence_ = 0;
};

}  // namespace ls::sim
