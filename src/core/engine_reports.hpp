// engine_reports.hpp — the part of the Engine contract that reports (core/engine.hpp states the
// contract): instance statuses and their summaries, timings and their histories, the frame
// timeline, and the display brackets that put the renderer's work into a frame's figures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/instance_status.hpp"

namespace ls {

class EngineReports {
 public:
  virtual ~EngineReports() = default;

  /// How many instances there are (the same count as Simulation::size).
  virtual std::size_t size() const = 0;
  virtual void request_summaries() = 0;
  virtual InstanceStatus status(std::size_t index) const = 0;

  /// Timings come from one frame in `period` (1..kMaxTimingPeriod; 1, the default, times every
  /// frame): on CUDA each timed frame records a start and an end event per instance, which cost
  /// the host about as much as the instance's graph launch (bench/NOTES.md). The rolling
  /// statistics, the frame's span and the timeline come from the timed frames only; the next frame
  /// after a change is timed. Throws InputError outside 1..kMaxTimingPeriod, changing nothing.
  virtual void set_timing_period(int period) = 0;
  virtual int timing_period() const = 0;
  /// Whether the newest frame is timed. A frame is a step() of at least one generation with at
  /// least one instance; step(0) and steps of an empty engine start none and change nothing.
  virtual bool frame_timed() const = 0;
  virtual std::uint64_t host_syncs_in_last_step() const = 0;
  /// Host time of step() (ms) over the last kTimingWindow frames, every frame counted (timed or
  /// not). An engine that does not measure it answers an empty summary.
  virtual StatSummary host_enqueue_ms() const { return {}; }
  /// Frame graph builds in stream mode `graph` (zeros for engines without graphs).
  virtual FrameGraphStats frame_graph_stats() const { return {}; }

  virtual FrameTimings frame_timings() const = 0;
  /// The step ms of instance `index`'s timed frames in its rolling window, oldest first, into
  /// `out` (replaced; its capacity is reused, so a caller that keeps `out` allocates nothing per
  /// frame). Empty where an engine keeps no timings.
  virtual void step_history(std::size_t index, std::vector<float>& out) const {
    (void)index;
    out.clear();
  }
  /// The spans of the last kTimingWindow timed frames, oldest first, into `out` (as step_history).
  virtual void span_history(std::vector<float>& out) const { out.clear(); }
  /// The host enqueue times of the last kTimingWindow stepping frames (host_enqueue_ms's window),
  /// oldest first, into `out` (as step_history).
  virtual void host_enqueue_history(std::vector<float>& out) const { out.clear(); }
  /// The bars of the newest frame whose timings are complete (read a frame or two late).
  virtual std::vector<TimelineBar> timeline() const = 0;
  /// Where the newest timeline's axis starts on each GPU's own clock (%globaltimer, ns: what CUPTI
  /// stamps its counter samples with), one entry per GPU that has bars in it and a stamped origin;
  /// while set_timeline_clock(true) (it costs one small kernel per timed frame), or in stream mode
  /// graph, whose frames are stamped anyway. Empty by default.
  struct TimelineOrigin {
    int device = -1;
    std::uint64_t gpu_ns = 0;
  };
  virtual std::vector<TimelineOrigin> timeline_origins() const { return {}; }
  virtual void set_timeline_clock(bool on) { (void)on; }

  /// The renderer brackets the display work of an instance in each timed frame (after step()):
  /// on CUDA these record events on the instance's stream; on the CPU they read the clock.
  /// begin_display returns whether it began a bracket: false on untimed frames, for an instance
  /// added after the frame's step, and once the frame has a bracket for the instance (redraws
  /// before the next step, as while paused, belong to no timed frame); end_display closes only a
  /// begun one.
  virtual bool begin_display(std::size_t index) = 0;
  virtual void end_display(std::size_t index) = 0;
};

}  // namespace ls
