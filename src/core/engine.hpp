// engine.hpp — the abstract simulation engine: N Life instances advanced together.
//
// Contract (shared by CpuEngine in core and CudaEngine in sim; the app, the script runner and the
// CLI drive either through this interface only):
//  * Instances are numbered 0..size()-1; add() appends, remove() shifts later ones down.
//  * step(n) advances every instance by exactly n generations, so all instances that stood at
//    the same generation still do. On CUDA it only enqueues work on the instances' streams and
//    never blocks (host_syncs_in_last_step() says how many blocking calls it made: 0 expected).
//    host_enqueue_ms() is the host time each step() took, so that a front end can say whether the
//    host (enqueueing) or the device (the frame's span) binds the frame; on the CPU the host does
//    the work itself, so it is the whole step.
//  * Stream modes: per-instance (each instance on its own stream), shared (all on one stream),
//    graph (the whole frame of all instances as one CUDA graph, launched once per frame, each
//    instance its own branch; rebuilt only when the frame's shape changes, frame_graph_stats()).
//    Results, timings and the timeline are the same in all three; the CPU engine keeps the mode
//    as a setting and times each instance on its own row outside shared mode.
//  * Every mutating call has the strong guarantee: on any error (InputError for bad input,
//    including sizes that do not fit in memory, with how much was asked and how much is free;
//    DeviceError for device failures) the engine is exactly as it was.
//  * set_variant() keeps the state exactly (same hash before and after).
//  * read()/summarize()/finish() block; they are for saving, tests and the CLI, not the frame loop.
//    request_summaries() + status().summary give the same figures without blocking.
//  * A frame is one step() of at least one generation. Its timings (span, busy time, timeline bars)
//    cover that frame's work only: its steps and the first display bracket of each instance after
//    it; redraws without a step (a paused app) are not timed, so a pause never shows as a span.
//  * request_snapshots() + snapshots() keep a host copy of every instance for recovery after a
//    fatal device error: snapshots() reads host memory only and still answers after one.
//  * cuda_device() names the CUDA device the state lives on (-1: host memory), so that a front
//    end can put its drawing on the same device without knowing the concrete engine;
//    instance_devices(i) names the GPU(s) instance i runs on (several: its lattice is split).
//  * Building beside the frame loop: prepare() makes what an add or a replace would install from
//    a spec, reading nothing of the engine's instances, so another thread may run it while the
//    frame loop steps and draws them; install() then puts a batch of prepared instances in place
//    all or nothing. Engines whose add() is quick (the GPU ones fill on the device) keep the
//    default: prepare() holds the spec and install() does the add or replace.
//  * Timings cover frames of one shape: an instance's rolling step statistics (and its cups)
//    restart when the generations of a timed step, its variant, its generations per launch or
//    its size change, and every instance's (and the frame's span) when the stream mode changes.
//  * Placement (engines over several GPUs, multi::MultiEngine): max_instances() is how many
//    instances the engine takes (kMaxInstancesPerDevice per GPU); set_instance_devices() moves an
//    instance to other GPUs keeping its state exactly (same hash, generation, rule, variant, k and
//    cross-check origin) and leaving the others undisturbed; add_moved() is how the moved state
//    enters the target engine. An engine on one device refuses both (InputError), changing nothing.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/lattice.hpp"
#include "core/rule.hpp"

namespace ls {

enum class Variant { naive, global, shared, iterate, bitpacked };
inline constexpr std::array<Variant, 5> kAllVariants = {Variant::naive, Variant::global, Variant::shared,
                                                        Variant::iterate, Variant::bitpacked};
std::string_view variant_name(Variant v);
std::optional<Variant> parse_variant(std::string_view name);
/// Variants that run several generations per launch (generations_per_launch applies).
inline bool variant_iterates(Variant v) { return v == Variant::iterate || v == Variant::bitpacked; }

enum class StreamMode { per_instance, shared, graph };
inline constexpr std::array<StreamMode, 3> kAllStreamModes = {StreamMode::per_instance, StreamMode::shared,
                                                              StreamMode::graph};
std::string_view stream_mode_name(StreamMode m);  // "per-instance" | "shared" | "graph"
std::optional<StreamMode> parse_stream_mode(std::string_view name);

inline constexpr int kMaxGenerationsPerLaunch = 64;
/// Instances one device runs at most (the panel's, the scripts' and --instances' limit on one GPU);
/// an engine over several GPUs takes this many per GPU (Engine::max_instances).
inline constexpr int kMaxInstancesPerDevice = 64;
/// The highest CUDA device ordinal the command line and scripts accept (the machine's own count is
/// checked where a device is used).
inline constexpr int kMaxDeviceOrdinal = 1023;
/// Largest timing period (Engine::set_timing_period).
inline constexpr int kMaxTimingPeriod = 1000;
/// Throws InputError naming the range when `period` is outside 1..kMaxTimingPeriod.
void check_timing_period(int period);
/// CUDA device ordinals as the command line and scripts write them: "0,1" ("" for none).
std::string device_list_text(const std::vector<int>& devices);

struct RandomInit {
  double density = 0.25;
  std::uint64_t seed = 1;
};
/// Start from another instance's current state (and generation).
struct CopyInit {
  std::size_t source = 0;
};
/// Initial state: a random soup, a given lattice (its size wins over the spec's), or a copy.
using InitialState = std::variant<RandomInit, Lattice, CopyInit>;

struct InstanceSpec {
  int width = 1024;
  int height = 1024;
  Rule rule;
  Variant variant = Variant::bitpacked;
  int generations_per_launch = 16;
  InitialState init = RandomInit{};
};

/// The cross-check origin of a random or lattice start: equal for equal starts (size, density,
/// seed or cells) under equal rules, so instances started alike can be compared. A copy takes its
/// source's origin; an edit (set_cell, set_rule, replace) gives an instance a fresh unique one.
std::uint64_t start_origin(const InstanceSpec& spec);
/// A unique origin for edited instances (never equal to a start_origin value).
std::uint64_t unique_origin();
/// The origin of an instance whose rule changed to `rule` at `generation`: instances that stood
/// in one state (one origin at one generation) and change to one rule stay one group, so that
/// `rule all` keeps them comparable. Never equal to a start_origin value.
std::uint64_t rule_change_origin(std::uint64_t origin, const Rule& rule, std::uint64_t generation);

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

/// One bar of the frame timeline: work of one instance on one stream, in ms from the frame's
/// start (the earliest start event of that frame). A summary asked right after a timed frame's
/// step (population and hash, request_summaries) is that frame's work too, and so is a recovery
/// snapshot started in it. `exchange`: a split band's halo exchange (sending its edge rows and
/// receiving its neighbours', waits for them included), which runs beside its step.
struct TimelineBar {
  enum class Kind { step, display, summary, exchange, snapshot };
  std::size_t instance = 0;
  int stream = 0;  // row: the instance's stream, or 0 for everything in shared stream mode
  Kind kind = Kind::step;
  double start_ms = 0;
  double end_ms = 0;
  int device = -1;  // the CUDA device it ran on (-1: host); the panel groups rows per GPU
};

/// The progress of Engine::prepare, read by another thread while it runs: `done` of `total` units
/// (rows of a fill); setting `cancel` makes prepare() return nullptr soon.
struct BuildProgress {
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> total{0};
  std::atomic<bool> cancel{false};
};

/// An instance made by Engine::prepare, to be installed by the same engine. The base holds only
/// the spec (the default: the engine's install does the work).
class PreparedInstance {
 public:
  explicit PreparedInstance(InstanceSpec s) : spec(std::move(s)) {}
  virtual ~PreparedInstance() = default;
  InstanceSpec spec;
};

/// One entry of Engine::install: the instance at `index` is replaced, or, at an index from
/// size() on, one is appended (in order).
struct Installation {
  std::size_t index = 0;
  std::unique_ptr<PreparedInstance> prepared;
};

class Engine {
 public:
  virtual ~Engine() = default;
  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  virtual std::string backend() const = 0;  // "cpu" | "cuda"
  virtual std::string device_name() const = 0;
  /// The CUDA device (ordinal) that holds the instances' state, or -1 when it is in host memory.
  virtual int cuda_device() const = 0;
  virtual std::size_t size() const = 0;
  /// The CUDA devices instance `index` runs on: one, or several when its lattice is split across
  /// GPUs (one per band, in band order); none when its state is in host memory. The default,
  /// for an engine whose instances all live on cuda_device(): that device, or none.
  virtual std::vector<int> instance_devices(std::size_t index) const {
    (void)index;
    const int d = cuda_device();
    return d < 0 ? std::vector<int>{} : std::vector<int>{d};
  }

  /// How many instances this engine takes at most: kMaxInstancesPerDevice per device it runs on.
  virtual std::size_t max_instances() const { return kMaxInstancesPerDevice; }
  /// Moves instance `index` to run on `devices` (CUDA ordinals, as instance_devices() names them),
  /// keeping its index, state, generation, settings and origin; the other instances are undisturbed.
  /// Devices equal to instance_devices(index) change nothing. Throws InputError, changing nothing,
  /// when the move cannot be done; the default (an engine on one device) refuses every other set.
  virtual void set_instance_devices(std::size_t index, const std::vector<int>& devices);

  virtual void add(const InstanceSpec& spec) = 0;
  /// Appends an instance holding exactly spec.init's lattice (a Lattice is required) at
  /// `generation`, with cross-check origin `origin`: an instance moved here from another engine
  /// (set_instance_devices) goes on as if it had never moved. The default refuses (InputError).
  virtual void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin);
  /// Throws InputError (what is asked, what is free) when instances made from `specs`, added
  /// after the present ones, would not fit together; call before adding several, so that a
  /// request far beyond memory is refused at once rather than after building the first few. An
  /// engine whose add() is quick to fail and undo may leave it to add().
  virtual void check_room(const std::vector<InstanceSpec>& specs) const { (void)specs; }
  virtual void remove(std::size_t index) = 0;
  /// Makes what add(spec) or replace(i, spec) would install without touching the instances (see
  /// the contract above). Returns nullptr when `progress.cancel` was set; throws InputError as
  /// add() would.
  virtual std::unique_ptr<PreparedInstance> prepare(const InstanceSpec& spec, BuildProgress& progress) const;
  /// Installs prepared instances (from this engine's prepare), all or nothing: on an error the
  /// engine is as it was. Replaced instances start at generation 0.
  virtual void install(std::vector<Installation> batch);
  /// Rebuilds instance `index` from `spec` (new size, new soup, loaded pattern); generation 0.
  virtual void replace(std::size_t index, const InstanceSpec& spec) = 0;
  virtual void set_variant(std::size_t index, Variant variant) = 0;
  virtual void set_rule(std::size_t index, const Rule& rule) = 0;
  virtual void set_generations_per_launch(std::size_t index, int k) = 0;  // 1..64
  virtual void set_cell(std::size_t index, int x, int y, bool alive) = 0;
  virtual void set_stream_mode(StreamMode mode) = 0;
  virtual StreamMode stream_mode() const = 0;

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
  virtual void step(int generations) = 0;
  virtual std::uint64_t host_syncs_in_last_step() const = 0;
  /// Host time of step() (ms) over the last kTimingWindow frames, every frame counted (timed or
  /// not). An engine that does not measure it answers an empty summary.
  virtual StatSummary host_enqueue_ms() const { return {}; }
  /// Frame graph builds in stream mode `graph` (zeros for engines without graphs).
  virtual FrameGraphStats frame_graph_stats() const { return {}; }

  virtual void request_summaries() = 0;
  virtual InstanceStatus status(std::size_t index) const = 0;
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

  /// The renderer brackets the display work of an instance in each timed frame (after step()):
  /// on CUDA these record events on the instance's stream; on the CPU they read the clock.
  /// begin_display returns whether it began a bracket: false on untimed frames, for an instance
  /// added after the frame's step, and once the frame has a bracket for the instance (redraws
  /// before the next step, as while paused, belong to no timed frame); end_display closes only a
  /// begun one.
  virtual bool begin_display(std::size_t index) = 0;
  virtual void end_display(std::size_t index) = 0;

  /// Starts a host copy of every instance of at most `max_cells` cells and never blocks: on CUDA
  /// the state goes to pinned memory asynchronously (an instance whose previous copy is still in
  /// flight, or whose staging buffer does not fit, is skipped); on the CPU the lattices are copied
  /// at once (an instance whose copy does not fit in host memory is skipped).
  virtual void request_snapshots(std::uint64_t max_cells) = 0;
  /// The newest finished copy of each instance that has one, `instance` being its present index.
  /// Reads host memory only, so it still answers after a fatal device error (never a DeviceError).
  virtual std::vector<HostSnapshot> snapshots() const = 0;

  virtual Lattice read(std::size_t index) = 0;
  virtual StateSummary summarize(std::size_t index) = 0;
  virtual void finish() = 0;
};

}  // namespace ls
