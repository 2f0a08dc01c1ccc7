// timing_ring.hpp — the CUDA engine's frame timings: which frames are timed (one in the timing
// period), the events each instance records in them, and reading those events a frame or two late
// into rolling statistics, the frame's span and its timeline, without ever waiting.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "core/stats.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::sim {

struct Instance;

/// Frames of timing events each instance keeps: reading them a frame or two late never waits.
inline constexpr std::size_t kTimingRing = 4;
/// Stream mode graph: where each of an instance's stamps in a timed frame goes: step start and
/// end, display start and end, summary start (its end is the step's start: the branch summarises,
/// then steps), snapshot start and end, and the end of the snapshot's staging (its copy to the
/// host follows).
enum StampAt : std::size_t {
  kStepStart,
  kStepEnd,
  kDisplayStart,
  kDisplayEnd,
  kSummaryStart,
  kSnapshotStart,
  kSnapshotEnd,
  kSnapshotStaged,
  kStampsPerInstance
};
inline constexpr std::uint64_t kNoFrame = std::numeric_limits<std::uint64_t>::max();

/// Work besides the step that an instance may do once in a timed frame (its display, a snapshot):
/// begun and ended by a pair of events, shown when both were recorded.
struct Bracket {
  bool begun = false;
  bool ended = false;
  cuda::Event start{cuda::Event::Create{}};
  cuda::Event end{cuda::Event::Create{}};
  bool complete() const { return begun && ended; }
};

/// A copy an instance makes once in a timed frame (its handoff pulse, its remote tile's pixels
/// out of their array): what it moves and the events around it, made at first use (its device
/// current), so that an instance that never makes such a copy holds none.
struct CopyBracket {
  bool begun = false;
  bool ended = false;
  TimelineBar::Copy copy = TimelineBar::Copy::none;
  int peer = -1;
  std::uint64_t bytes = 0;
  cuda::Event start;
  cuda::Event end;
  bool complete() const { return begun && ended; }
};

/// What a copy moves, for its bar (TimelineBar::copy, peer, bytes).
struct CopyWhat {
  TimelineBar::Copy copy = TimelineBar::Copy::none;
  int peer = -1;
  std::uint64_t bytes = 0;
};

/// A recovery snapshot's parts: its staging on the instance's stream (a copy within the device, or
/// a conversion kernel) ends at `staged`; its copy to the host on the snapshot stream starts at
/// `copying` (after the staging, and after the copies of instances before it on that stream) and
/// ends at the snapshot bracket's end. Events made at first use; stream mode graph: stamps.
struct SnapshotParts {
  bool staged_recorded = false;
  bool copying_recorded = false;
  TimelineBar::Copy staging = TimelineBar::Copy::none;  // d2d: a copy; none: a kernel
  std::uint64_t bytes = 0;                              // of the staged bits, and of the copy
  cuda::Event staged;
  cuda::Event copying;
};

/// Timing events of one instance in one timed frame.
struct TimingSlot {
  std::uint64_t frame = kNoFrame;
  int generations = 0;
  std::size_t stamp_index = 0;  // stream mode graph: the instance's place in the frame's stamps
  bool graph_summary = false;   // stream mode graph: its branch summarised it first (stamp 4)
  cuda::Event step_start{cuda::Event::Create{}};
  cuda::Event step_end{cuda::Event::Create{}};
  Bracket display;   // stream mode graph: begun/ended only (its times are stamps)
  Bracket snapshot;  // likewise; from its staging's start to its copy's end
  SnapshotParts snapshot_parts;
  CopyBracket handoff;  // its handoff pulse (summary_ring.hpp), in stream modes but graph
  CopyBracket tile;     // its tile's pixels out of their array, when the display is on another GPU
};

/// An instance's part of the ring and the statistics read from it.
struct InstanceTimings {
  std::array<TimingSlot, kTimingRing> slots;
  RollingStats step;
  RollingStats display;
  RollingStats generations;
  void clear_stats() {
    step.clear();
    display.clear();
    generations.clear();
  }
};

class TimingRing {
 public:
  using InstanceList = std::vector<std::unique_ptr<Instance>>;

  void set_period(int period);  // check_timing_period first
  int period() const { return period_; }
  /// Frames started by start_frame().
  std::uint64_t frame_count() const { return frame_count_; }

  /// Starts a frame: when it is timed, records its reference event on `reference_stream` (before
  /// any of its work) and returns its ring slot, else -1.
  int start_frame(StreamMode mode, cudaStream_t reference_stream);
  /// Instance's slot `s` of the frame just started, claimed for a step of `generations`; in
  /// stream mode graph `index` is its place in the frame's stamps (its place in the list).
  TimingSlot& claim(Instance& inst, int s, int generations, std::size_t index = 0) const;
  /// The ring slot of the current frame (the last one started) if that frame is timed, else -1.
  int current_timed_slot() const;

  /// Records the start of the instance's display in the current timed frame, once per frame
  /// (Engine::begin_display); end_display closes a begun one.
  bool begin_display(Instance& inst, cudaStream_t stream) const;
  void end_display(Instance& inst, cudaStream_t stream) const;
  /// As begin_display/end_display, for a recovery snapshot started in the current timed frame (its
  /// device-side copy on the instance's stream, then the copy to the host on the snapshot stream).
  /// Stream mode graph times by stamps: there begin_snapshot writes the start stamp and
  /// end_snapshot the end stamp (kernels::launch_stamp on the stream given).
  bool begin_snapshot(Instance& inst, cudaStream_t stream) const;
  void end_snapshot(Instance& inst, cudaStream_t stream) const;
  /// Between them, for the snapshot's two parts: its staging ended on the instance's `stream`
  /// (`what`: a copy within the device or a kernel, and the bytes staged), and its copy to the
  /// host about to start on the snapshot stream (copying_snapshot; graph mode has no event there:
  /// its copy starts at its staging's end, or at the end of the copy before it on that stream).
  void staged_snapshot(Instance& inst, const CopyWhat& what, cudaStream_t stream) const;
  void copying_snapshot(Instance& inst, cudaStream_t stream) const;

  /// A copy an instance makes in the current timed frame beside its frame's work, on `stream`:
  /// begin_copy records its start (once per frame: a redraw while paused adds nothing) and what it
  /// moves, end_copy its end. `which`: &TimingSlot::handoff or &TimingSlot::tile. False, recording
  /// nothing: an untimed frame, stream mode graph (timed by stamps, where there are no such
  /// copies), or an instance added after the frame's step.
  bool begin_copy(Instance& inst, CopyBracket TimingSlot::*which, const CopyWhat& what,
                  cudaStream_t stream) const;
  void end_copy(Instance& inst, CopyBracket TimingSlot::*which, cudaStream_t stream) const;

  /// A copy this device makes for instance `index` of another GPU's engine (`device`) in the current
  /// timed frame, on `stream`: a remote tile's pixels into the display's atlas. Its bar is this
  /// frame's, numbered in that engine (TimelineBar::instance_device). Returns the handle
  /// end_copy_for takes, or -1 (untimed frame, stream mode graph). The caller asks once a frame
  /// per copy (the remote render it follows was bracketed in its own engine's timed frame).
  int begin_copy_for(int device, std::size_t index, TimelineBar::Kind kind, const CopyWhat& what,
                     cudaStream_t stream);
  void end_copy_for(int handle, cudaStream_t stream);

  // Stream mode `graph`: a timed frame is timed by %globaltimer stamps that its graphs' kernel
  // nodes write straight into pinned memory (kernels::launch_stamp), not by event-record nodes,
  // which cost the host ~6 us each at graph launch (bench/NOTES.md, "Frame graph shapes"). The
  // frame's reference stamp goes first on the frame stream, then each branch's step start and end;
  // the display's graph writes each tile's display start and end. One event per frame after the
  // step graph and one after the display's say when the stamps can be read.

  /// Makes room for the stamps of `instances` instances (before a timed graph frame is enqueued).
  void reserve_stamps(std::size_t instances);
  /// Where timed slot `s`'s reference stamp goes, and instance place `i`'s kStampsPerInstance
  /// stamps (step start and end first; [4]: the summary's start when its branch summarises it).
  std::uint64_t* reference_stamp(int s) const;
  std::uint64_t* step_stamps(int s, std::size_t i) const;
  /// After a timed graph frame's work was enqueued on `frame_stream`.
  void end_graph_step(cudaStream_t frame_stream);
  /// Claims the instance's display bracket in the current timed frame as stamps [start, end] for
  /// the display's graph, or null (untimed frame, added after the step, already bracketed).
  std::uint64_t* claim_display_stamps(Instance& inst);
  /// After the display work carrying the claimed stamps was enqueued on `stream`.
  void end_graph_display(cudaStream_t stream);

  /// Reads the timings of finished timed frames (oldest first, never waiting). `all`: also the
  /// current frame (after a synchronisation), else only frames older than the current one, whose
  /// display brackets are recorded already.
  void harvest(const InstanceList& instances, bool all);

  const FrameTimings& newest_frame() const { return newest_frame_; }
  /// The spans of the timed frames read so far (the rolling window).
  const RollingStats& span_ms() const { return span_ms_; }
  /// The frame span's statistics start again (a new stream mode: another workload).
  void clear_span() { span_ms_.clear(); }
  const std::vector<TimelineBar>& newest_timeline() const { return newest_timeline_; }
  /// Stamp each timed frame's reference on the GPU's clock (%globaltimer, ns; one small kernel after
  /// the reference, stream mode graph has its own): the newest timeline then knows its origin there.
  void set_clock(bool on);  // makes the stamps' pinned memory the first time, outside any frame
  bool clock() const { return clock_; }
  /// The newest timeline's origin (its first bar's start) on the GPU's clock (ns), 0 when not stamped.
  std::uint64_t newest_timeline_origin_ns() const { return newest_origin_ns_; }

 private:
  /// A copy for another engine's instance (begin_copy_for).
  struct ForeignCopy {
    int device = -1;
    std::size_t index = 0;
    TimelineBar::Kind kind = TimelineBar::Kind::tile;
    CopyWhat what;
    bool ended = false;
    cuda::Event start{cuda::Event::Create{}};
    cuda::Event end{cuda::Event::Create{}};
  };
  /// The reference event recorded first in each timed frame, so that bars on all streams share an
  /// origin. Timed frames are numbered apart from frames (`timed`): the ring holds the newest
  /// kTimingRing timed frames whatever the timing period.
  struct FrameRecord {
    std::uint64_t frame = kNoFrame;
    std::uint64_t timed = kNoFrame;
    StreamMode mode = StreamMode::per_instance;
    cuda::Event reference{cuda::Event::Create{}};
    // Stream mode graph: the events after the frame's step graph and its display work.
    cuda::Event step_done{cuda::Event::Create{}, false};
    cuda::Event display_done{cuda::Event::Create{}, false};
    bool stamped = false;  // its reference has a stamp on the GPU's clock (clock_stamps_)
    bool display_claimed = false;
    bool display_recorded = false;
    /// begin_copy_for's copies: the first `foreign_used` are this frame's (kept, events and all,
    /// for the frames that reuse the slot).
    std::vector<std::unique_ptr<ForeignCopy>> foreign;
    std::size_t foreign_used = 0;
  };

  /// The bracket `which` of the instance's slot in the current timed frame, unless the frame is
  /// untimed, of stream mode graph, or the instance was added after its step.
  Bracket* open_bracket(Instance& inst, Bracket TimingSlot::*which) const;
  /// Stream mode graph: the current timed frame's stamps of the instance (step_stamps), or null
  /// (untimed, another mode, or added after the frame's step).
  std::uint64_t* graph_stamps(Instance& inst) const;
  /// The instance's slot in the current timed frame when it is timed by events (not stream mode
  /// graph) and the instance was stepped in it; else null.
  TimingSlot* event_slot(Instance& inst) const;
  /// Appends the bars of a slot's snapshot, in two parts where they were recorded.
  static bool read_snapshot(cudaEvent_t ref, const TimingSlot& slot, std::size_t i, int row,
                            std::vector<TimelineBar>& bars, double& busy);
  /// Appends the bars of begin_copy_for's copies of timed frame slot `s`; false while any is pending.
  bool read_foreign(std::size_t s, std::vector<TimelineBar>& bars) const;
  bool read_frame(const InstanceList& instances, std::size_t s);
  bool read_graph_frame(const InstanceList& instances, std::size_t s);
  void publish(const InstanceList& instances, std::size_t s, std::vector<TimelineBar> bars, double busy);
  std::uint64_t* stamps_of(std::size_t s) const;

  std::array<FrameRecord, kTimingRing> frames_;  // by timed frame number
  std::uint64_t frame_count_ = 0;                // frames started
  std::uint64_t timed_count_ = 0;                // timed frames started
  std::uint64_t next_harvest_ = 0;               // oldest timed frame whose timings are not read yet
  int period_ = 1;                               // set_period
  int frames_to_timed_ = 0;                      // frames before the next timed one
  FrameTimings newest_frame_;
  RollingStats span_ms_;  // span_ms()
  std::vector<TimelineBar> newest_timeline_;
  bool clock_ = false;
  cuda::PinnedBuffer clock_stamps_;  // kTimingRing reference stamps (stream modes but graph)
  std::uint64_t newest_origin_ns_ = 0;
  cuda::PinnedBuffer stamps_;     // stream mode graph: kTimingRing slots of stamp_stride_ stamps
  std::size_t stamp_stride_ = 0;  // 1 + kStampsPerInstance per instance
  std::vector<cuda::PinnedBuffer> retired_stamps_;  // outgrown, maybe still written by the device
};

}  // namespace ls::sim
