// instance_status.hpp — what an engine reports of its instances and frames: summaries (generation,
// population, hash), rolling timing statistics, a frame's span and per-GPU figures, the frame
// timeline's bars, frame graph builds and recovery snapshots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/instance_spec.hpp"

namespace ls {

struct StateSummary {
  std::uint64_t generation = 0;
  std::uint64_t population = 0;
  std::uint64_t hash = 0;
};

/// Rolling statistics over the last kTimingWindow frames (milliseconds).
struct StatSummary {
  double last = 0, mean = 0, std = 0, min = 0, max = 0;
  int samples = 0;
};
inline constexpr int kTimingWindow = 120;

struct InstanceStatus {
  int width = 0;
  int height = 0;
  Rule rule;
  Variant variant = Variant::bitpacked;
  int generations_per_launch = 1;
  std::uint64_t generation = 0;  // generations enqueued so far
  /// Instances with the same origin started from one state under one rule and have not been
  /// edited since: at the same generation their hashes must agree (the cross-check).
  std::uint64_t origin = 0;
  /// The newest summary the device has finished: it may lag `generation` by a frame or two, and
  /// on a lattice whose summaries are paced by their cost (core/summary_pacing.hpp) by up to
  /// summary_every frames more. request_summaries() asks one only of a state not asked before.
  std::optional<StateSummary> summary;
  /// Frames stepped since `summary`'s state was current (0: this frame's state).
  std::uint64_t summary_frames_ago = 0;
  /// Summary pacing: the GPU time of the newest measured summary (0: none measured yet) and the
  /// frames between summaries that it gives against this instance's stream work (1: every frame).
  double summary_ms = 0;
  int summary_every = 1;
  StatSummary step_ms;
  StatSummary display_ms;
  double cups = 0;  // cell updates per second from the mean step time
  /// Step ms of the timed frames in step_ms's window (the last kTimingWindow), oldest first.
  /// status() leaves it empty: Engine::step_history fills it into a buffer the caller keeps, so
  /// the many status() calls of a frame copy no history.
  std::vector<float> step_history;
};

/// The spec that makes an instance like the one `s` describes (size, rule, variant, k) from `init`:
/// a move, a converted copy or a reload keeps the instance as it is, only its cells come anew.
InstanceSpec spec_like(const InstanceStatus& s, InitialState init);

/// Summaries finish a frame or two after they are asked (read without waiting); one older than
/// this many frames is paced or late, and the tile labels and the panel say how old it is.
inline constexpr std::uint64_t kFreshSummaryFrames = 2;
/// Whether status.summary is older than kFreshSummaryFrames frames (false without a summary).
inline bool summary_is_old(const InstanceStatus& status) {
  return status.summary && status.summary_frames_ago > kFreshSummaryFrames;
}

/// One GPU's part of a frame's figures (FrameTimings::gpus): its streams' span, busy time and
/// concurrency, on its own clock.
struct GpuFrameTimings {
  int device = -1;
  double span_ms = 0;
  double busy_ms = 0;
  double concurrency = 0;
};

struct FrameTimings {
  bool valid = false;
  double gpu_span_ms = 0;  // earliest start to latest end over all streams
  double busy_ms = 0;      // sum of the streams' busy time
  double concurrency = 0;  // busy / span
  /// gpu_span_ms of the last kTimingWindow timed frames, oldest first (left empty by
  /// frame_timings(); Engine::span_history fills it).
  std::vector<float> span_history;
  /// Per GPU (by CUDA device, each once, in the order the engine runs them); empty for the CPU.
  std::vector<GpuFrameTimings> gpus;
};

/// Stream mode `graph`: how often the frame graph was built (captured and instantiated) and the
/// host time that took. A build comes with each new frame shape (instances added, removed or
/// changed, generations per frame, a timed or untimed frame, a front buffer, a summary slot); frames
/// of a shape seen before relaunch its graph.
struct FrameGraphStats {
  std::uint64_t builds = 0;
  double build_ms = 0;  // total host time of the builds
  int chain = 1;        // instances per branch of the last frame graph (sim/frame_graph.hpp)
};

/// A host copy of an instance's state, kept for recovery after a fatal device error
/// (Engine::request_snapshots).
struct HostSnapshot {
  std::size_t instance = 0;
  std::uint64_t generation = 0;
  Rule rule;
  Lattice cells;
};

/// One bar of the frame timeline: work of one instance on one stream, in ms from the frame's start
/// (the earliest start event of that frame). A summary asked right after a timed frame's step
/// (population and hash, request_summaries) is that frame's work too, and so is a recovery snapshot
/// started in it. `exchange`: a split band's halo exchange (sending its edge rows and receiving its
/// neighbours', waits for them included), which runs beside its step. `tile`: a remote tile's
/// pixels on their way to the display GPU. `handoff`: the handoff pulse, the word a stepped frame
/// whose summary is paced out copies to pinned memory (sim/summary_ring.hpp says why).
///
/// A bar that is a copy says so (`copy`): the timeline draws it on its GPU's copy lane for that
/// direction instead of a stream's row, so that copies show beside the kernels they overlap.
struct TimelineBar {
  enum class Kind { step, display, summary, exchange, snapshot, tile, handoff };
  /// What a copy moves between: device to host, host to device, within one device, or from or to
  /// another GPU (`peer`); none: kernels, or work that is mostly kernels (a summary's 16-byte
  /// result comes with its kernel, timed together).
  enum class Copy { none, d2h, h2d, d2d, peer };
  std::size_t instance = 0;
  int stream = 0;  // row: the instance's stream, or 0 for everything in shared stream mode
  Kind kind = Kind::step;
  double start_ms = 0;
  double end_ms = 0;
  int device = -1;  // the CUDA device it ran on (-1: host); the panel groups rows per GPU
  Copy copy = Copy::none;
  /// A copy's other GPU where there is one (a peer copy's, or the GPU at the far end of a copy
  /// staged through host memory); -1: none or not known (a halo exchange pulls from two bands).
  int peer = -1;
  std::uint64_t bytes = 0;  // what a copy moved; 0: not known
  /// The GPU whose engine numbers `instance`, when that is not the engine that reports the bar: a
  /// remote tile's copy into the display GPU is timed there, for an instance of another GPU's
  /// engine (MultiEngine::timeline renumbers it by that GPU's slot); -1: the reporting engine's.
  int instance_device = -1;
};

}  // namespace ls
