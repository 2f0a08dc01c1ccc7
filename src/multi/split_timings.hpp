// split_timings.hpp — the split engine's frame timings. In each timed frame (one in the timing
// period) every band of every instance records a start event before its first launch and an end
// event after its last exchange, on its own stream, from its own thread; a frame or two later they
// are read without waiting (a pending event leaves the frame for later, as sim/timing_ring.cpp
// does) into each instance's step statistics, the frame's figures and its timeline. A band's step
// that directly follows its step of the last timed frame, on a stream that ran nothing in between
// (every frame timed, nothing drawn or read: a benchmark), records no start event where that step's
// end event is still pending when the band's thread comes to it: the GPU then goes on from that
// event to this step's work without a gap, so that event is this step's start too. Each event costs
// the GPU a few microseconds between two launches (16384² over four H200s: ~3.7 us of a ~54 us
// launch, bench/NOTES.md).
//
// Events of different GPUs cannot be compared, so each GPU's bars are placed from that GPU's
// earliest band start (the GPUs start a frame within the host's hand-out of it); the frame's span
// is the longest GPU's span, its busy time the sum over all bands' steps, summaries and snapshots.
// Besides its step, a band of a timed frame brackets the frame's first halo exchange after a launch
// (on the stream it runs on; a frame of deep halos may have none), the summary and the snapshot the frame
// asks, and its part of the frame's display (the tile's counts on its rows): bars of their own kind on the
// band's row (an exchange, beside the step, is not counted busy: it mostly waits). An instance's step time is
// its longest band's (the bands run side by side). Timeline rows are grouped per GPU: the rows of the first
// listed GPU's bands (instance by instance, band by band) come first, then the next GPU's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/stats.hpp"
#include "multi/split_lattice.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::multi {

/// Timed frames of events each instance keeps: reading them late never waits, up to three timed
/// frames late (a frame whose start is its predecessor's end needs both frames' slots).
inline constexpr std::size_t kSplitTimingRing = 5;

/// One split instance's timing events and statistics (SplitEngine keeps one per instance).
class BandTimings {
 public:
  /// `devices`: each band's device, in band order.
  explicit BandTimings(std::vector<int> devices);
  ~BandTimings();  // each event destroyed with its device current
  BandTimings(const BandTimings&) = delete;
  BandTimings& operator=(const BandTimings&) = delete;

  /// Claims ring slot `timed % kSplitTimingRing` for timed frame `timed`, a step of `generations`,
  /// and gives the hooks that record its events (SplitLattice::step).
  /// `clock`: also stamp each band's start on its GPU's clock (%globaltimer), for the timeline's
  /// origin there (EngineReports::timeline_origins).
  /// `back_to_back`: the frame directly follows the last timed frame, in which this instance
  /// stepped too, and the bands' streams ran nothing since (SplitLattice::ran_nothing_since_step):
  /// unless clocked, a band whose end event of that frame is pending when its start hook runs
  /// takes that event as its start.
  void claim(std::uint64_t timed, int generations, bool clock = false, bool back_to_back = false);
  SplitLattice::BandHook start_hook();
  SplitLattice::BandHook end_hook();
  /// The frame is over (SplitEngine::step starts the next): mark() gives nothing until claim().
  void close() { open_ = false; }
  /// Whether the current frame is timed and this instance stepped in it.
  bool open() const { return open_; }
  /// A hook that records the start (`end` false) or the end of work of `kind` (exchange, summary,
  /// snapshot, or display: the band's part of drawing the instance's tile) in the claimed frame, on
  /// the stream the hook is given, with the band's device current; empty when !open().
  SplitLattice::BandHook mark(TimelineBar::Kind kind, bool end);

  StatSummary step_ms() const { return step_.summary(); }
  double mean_generations() const { return generations_.summary().mean; }
  void step_history(std::vector<float>& out) const { step_.history(out); }
  /// Band steps read so far whose start was their step before's end event.
  std::uint64_t borrowed_starts() const { return borrowed_starts_; }

 private:
  friend class SplitTimings;
  /// The kinds mark() brackets, in their order in Slot::marks.
  static constexpr std::array<TimelineBar::Kind, 4> kMarked = {
      TimelineBar::Kind::exchange, TimelineBar::Kind::summary, TimelineBar::Kind::snapshot,
      TimelineBar::Kind::display};
  struct Marked {
    cuda::Event start, end;  // made on the band's thread at first use
    bool recorded = false;   // in the slot's frame
  };
  struct Slot {
    std::uint64_t timed = std::numeric_limits<std::uint64_t>::max();
    int generations = 0;
    std::vector<cuda::Event> start, end;  // per band, made on the band's thread at first use
    bool may_borrow = false;              // claimed back to back (claim)
    std::vector<char> borrowed;           // per band: its start is the previous slot's end
    std::vector<std::array<Marked, kMarked.size()>> marks;  // per band
    std::uint64_t* stamps = nullptr;  // per band: its start on its GPU's clock (claimed with clock)
  };
  /// The ring slot of the timed frame before slot `s`'s.
  static std::size_t previous_slot(std::size_t s) { return (s + kSplitTimingRing - 1) % kSplitTimingRing; }
  /// Band `band`'s start event in slot `s`: its own, or the previous slot's end; null if not recorded.
  cudaEvent_t start_of(std::size_t s, std::size_t band) const;

  std::vector<int> devices_;
  std::array<Slot, kSplitTimingRing> slots_;
  cuda::PinnedBuffer stamps_;  // kSplitTimingRing x bands start stamps (used by clocked claims)
  std::size_t current_ = 0;    // the slot the hooks record into
  bool open_ = false;
  RollingStats step_;
  RollingStats generations_;
  std::uint64_t borrowed_starts_ = 0;
};

class SplitTimings {
 public:
  void set_period(int period);  // check_timing_period first
  int period() const { return period_; }
  /// Starts a frame (a step of at least one generation with at least one instance): the timed
  /// frame's number if it is timed, else none.
  std::optional<std::uint64_t> start_frame();
  bool frame_timed() const { return current_timed_; }
  /// Whether the frame start_frame() began directly follows a timed frame.
  bool follows_timed_frame() const { return previous_timed_; }

  /// Reads the finished timed frames, oldest first, stopping at the first with a pending event
  /// (never waiting; a split frame has no display bracket to wait for, so the newest frame is read
  /// as soon as it is done). `instances` in the engine's order; `devices` the engine's band
  /// devices, whose order groups the timeline rows.
  void harvest(const std::vector<BandTimings*>& instances, const std::vector<int>& devices);

  const FrameTimings& newest_frame() const { return newest_frame_; }
  const std::vector<TimelineBar>& newest_timeline() const { return newest_timeline_; }
  /// Each GPU's origin of the newest timeline on its own clock, where its bands were stamped.
  const std::vector<EngineReports::TimelineOrigin>& newest_origins() const { return newest_origins_; }
  void span_history(std::vector<float>& out) const { span_ms_.history(out); }
  /// Instance `index` is gone: its bars leave the newest timeline, later instances move up.
  void forget(std::size_t index);

 private:
  bool read(const std::vector<BandTimings*>& instances, const std::vector<int>& devices, std::uint64_t timed);
  // read()'s steps, for ring slot `s` of the frame.
  struct BandMark;
  using DeviceBands = std::vector<std::pair<int, std::vector<BandMark>>>;
  /// The bands that stepped in timed frame `timed`, grouped per device in the order of `devices`
  /// (devices without one left out), instance by instance, band by band.
  static DeviceBands bands_of_frame(const std::vector<BandTimings*>& instances,
                                    const std::vector<int>& devices, std::uint64_t timed);
  /// Reads the events of `device`'s bands, from its first band's start: false while any is pending.
  static bool read_device(const std::vector<BandTimings*>& instances, std::size_t s, int device,
                          std::vector<BandMark>& marks);
  /// `device`'s bars (its bands on rows from `row` on, placed from its earliest start), its figures,
  /// and each instance's longest band step so far in `instance_step`.
  static GpuFrameTimings place_device(const std::vector<BandTimings*>& instances, std::size_t s, int device,
                                      const std::vector<BandMark>& marks, int& row,
                                      std::vector<TimelineBar>& bars, std::vector<double>& instance_step,
                                      std::uint64_t& origin_ns);
  /// Each instance that stepped (instance_step >= 0): its step statistics.
  static void add_steps(const std::vector<BandTimings*>& instances, std::size_t s,
                        const std::vector<double>& instance_step);

  int period_ = 1;
  int frames_to_timed_ = 0;  // frames before the next timed one
  bool current_timed_ = false;
  bool previous_timed_ = false;     // the frame before the current one was timed
  std::uint64_t timed_count_ = 0;   // timed frames started
  std::uint64_t next_harvest_ = 0;  // the oldest timed frame not read yet
  FrameTimings newest_frame_;
  std::vector<TimelineBar> newest_timeline_;
  std::vector<EngineReports::TimelineOrigin> newest_origins_;
  RollingStats span_ms_;
};

}  // namespace ls::multi
