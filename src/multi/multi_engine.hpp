// multi_engine.hpp — the Engine whose instances are spread over several devices: one child Engine
// per device slot (a CudaEngine per GPU in the app, CpuEngines in the tests), each running the
// instances placed on it. Plain C++: it only forwards to its children through the Engine contract.
//
// Placement: instance i lives in child slot s at the child's index k (places_); the global order
// is the one add() made and remove() keeps, whatever order the children hold their instances in.
// add() goes round-robin over the slots (the slot after the last add, skipping slots that run
// kMaxInstancesPerDevice instances); add_on() names the slot. move() (and set_instance_devices()
// with one device) takes an instance to another slot keeping its index and exact state: the target
// child gets the state first (Engine::add_moved: lattice, generation, rule, variant, k, origin),
// the source drops it last, so a refusal anywhere leaves everything as it was.
//
// Threads (SlotEnqueue): each slot has a host thread of its own (SlotThreads) that runs
// the slot's make_current once (the app: cudaSetDevice, which CUDA keeps per thread) and then the
// slot's part of the calls over every slot: step() (the frame), request_summaries(),
// request_snapshots() and finish() (each slot waits for its own device, side by side). These
// return when every slot's thread has run its part: for step(), once every child has enqueued its
// frame, never waiting for a GPU. Every other call (one instance's edits, moves, reads, display
// brackets; the settings; status, timings, timeline) runs on the caller's thread right after the
// slot's make_current. That is safe because the slots' threads are idle whenever the caller's
// thread runs (each hand-out returns only after its jobs have run), so no child is ever used by
// two threads at once, and the hand-out orders the caller's calls before and after the threads'.
// SlotEnqueue::calling_thread has no threads and runs everything on the caller's thread, slot after
// slot (the bench's "spread-1t" rows measure it against the threads). SlotEnqueue::measured (the
// default) has the threads but enqueues each step() the way the host measures faster
// (enqueue_choice.hpp), and that frame's request_summaries() and request_snapshots() the same way:
// where a frame is one graph launch per GPU, the hand-over to the threads costs more than it saves.
// The MultiEngine itself, like every Engine, is driven by one thread at a time.
//
// Failures in a call over every slot: every slot still runs its part (a failing slot does not
// stop the others from stepping), then the exception of the lowest slot that threw reaches the
// caller as it was thrown (a DeviceError stays a DeviceError: the app saves the host snapshots of
// all instances and exits 3). The failing slot's state is what its engine's guarantee leaves; the
// other slots' instances have stepped normally. snapshots() reads the children's host copies
// without make_current, so it still answers when a device is lost.
// Timings, merged from the children (each child's clock is its own device's):
//  * frame_timings(): span = the longest child span (the devices run side by side), busy = the sum
//    of the children's busy times, concurrency = busy / span; valid when any child's is.
//  * span_history(): the children's histories aligned at the newest frame, the longest span of
//    each frame.
//  * timeline(): every child's bars, instance numbers made global, rows of slot s placed after the
//    rows of slots 0..s-1 (a child's rows: its largest row + 1), so the rows are grouped per
//    device in slot order; each child's bars count from its own frame start. A bar one slot timed
//    for another slot's instance (TimelineBar::instance_device: a remote tile's copy into the
//    display GPU) is numbered by that slot's instances.
//  * host_enqueue_ms(): the host time of the whole step() over all children.
//  * host_syncs_in_last_step() and frame_graph_stats(): sums over the children.
//
// Split instances (an instance whose lattice is cut into bands over every slot's device): with
// enable_splits(), one more child, made on first use by the factory given there (the app: a
// multi::SplitEngine over the slots' devices, its own host thread per band), holds them. An
// instance is split over all of the engine's devices or runs on one; set_instance_devices() with
// every device splits it, with one merges it back, keeping its exact state, generation and origin
// (through host memory, as move()). A split instance counts as one instance on each GPU towards
// kMaxInstancesPerDevice. The split child steps after the slots in step() (its band threads
// enqueue; nothing waits for a GPU), its timeline rows come after the slots', its frame figures
// join theirs; its recovery snapshots join the others' in snapshots().
//
// What this does not do yet: moving state device to device without passing through host memory
// (move() reads the lattice to the host and uploads it to the target). A moved instance starts a
// fresh timing window and has no summary or recovery snapshot until the next request_summaries() /
// request_snapshots().
//
// Its work is in five files: multi_engine.cpp (the slots, their threads, the calls over every
// slot), multi_engine_placement.cpp (adding, removing, replacing), multi_engine_moves.cpp (moves,
// splits and merges), multi_engine_instance.cpp (one instance's calls forwarded) and
// multi_engine_timings.cpp (the children's figures merged).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/stats.hpp"
#include "multi/enqueue_choice.hpp"

namespace ls::multi {

class SlotThreads;

/// One device of a MultiEngine: the CUDA ordinal it stands for, the engine that runs there, and
/// what makes that device current for the calling thread. Every call into `engine` runs on a thread
/// where make_current() (when set) has run: once on the slot's own thread, or right before the
/// call on the caller's thread. The app passes one that sets the CUDA device.
struct DeviceSlot {
  int device = 0;
  std::unique_ptr<Engine> engine;
  std::function<void()> make_current = {};
};

/// Test-only: lets a MultiEngine hold several slots of one device (MultiEngine's second
/// constructor), so that moves between CUDA engines can be checked on a one-GPU machine. The
/// command line and the app never use it: a list with a repeat is refused there.
struct RepeatedDevicesForTests {};

/// Which threads enqueue the slots' parts of a frame (see the top).
enum class SlotEnqueue {
  measured,          ///< the slots' threads or the caller's, whichever enqueues faster (the app)
  per_slot_threads,  ///< one host thread per slot, its device made current once
  calling_thread,    ///< the caller's thread, slot after slot (the bench's "spread-1t" rows)
};

class MultiEngine final : public Engine {
 public:
  /// Takes at least one slot, each with an empty engine, and no device twice (InputError).
  explicit MultiEngine(std::vector<DeviceSlot> slots, SlotEnqueue enqueue = SlotEnqueue::measured);
  /// Tests only: as above, but a device may stand in several slots. Such slots are told apart by
  /// their slot number only (move(), add_on()); by device, set_instance_devices() and
  /// slot_of_device() name the first slot of that device.
  MultiEngine(std::vector<DeviceSlot> slots, RepeatedDevicesForTests,
              SlotEnqueue enqueue = SlotEnqueue::measured);
  /// Each child is released where it ran: on its slot's thread (or after make_current).
  ~MultiEngine() override;

  std::string backend() const override;
  /// "<name> x 2 (0,1)" when every slot's GPU has one name, else "0: <name>, 1: <name>".
  std::string device_name() const override;
  /// The first slot's device: where the app's display lives.
  int cuda_device() const override;
  std::size_t size() const override { return places_.size(); }
  /// The device of the slot instance `index` runs in.
  std::vector<int> instance_devices(std::size_t index) const override;
  /// kMaxInstancesPerDevice per slot (per engine when new instances are split: set_split_new()).
  std::size_t max_instances() const override;
  /// One device: move() to its slot (merging a split instance). Every device of the engine (any
  /// order): split it (enable_splits()). Anything else is refused, changing nothing.
  void set_instance_devices(std::size_t index, const std::vector<int>& devices) override;

  void add(const InstanceSpec& spec) override;
  void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) override;
  void check_room(const std::vector<InstanceSpec>& specs) const override;
  void remove(std::size_t index) override;
  void replace(std::size_t index, const InstanceSpec& spec) override;
  void set_variant(std::size_t index, Variant variant) override;
  void set_rule(std::size_t index, const Rule& rule) override;
  void set_generations_per_launch(std::size_t index, int k) override;
  void set_cell(std::size_t index, int x, int y, bool alive) override;
  void set_stream_mode(StreamMode mode) override;
  StreamMode stream_mode() const override { return mode_; }

  void set_timing_period(int period) override;
  int timing_period() const override { return timing_period_; }
  bool frame_timed() const override;
  void step(int generations) override;
  std::uint64_t host_syncs_in_last_step() const override;
  StatSummary host_enqueue_ms() const override { return host_enqueue_.summary(); }
  void host_enqueue_history(std::vector<float>& out) const override { host_enqueue_.history(out); }
  FrameGraphStats frame_graph_stats() const override;

  void request_summaries() override;
  InstanceStatus status(std::size_t index) const override;
  FrameTimings frame_timings() const override;
  void step_history(std::size_t index, std::vector<float>& out) const override;
  void span_history(std::vector<float>& out) const override;
  std::vector<TimelineBar> timeline() const override;
  std::vector<TimelineOrigin> timeline_origins() const override;
  void set_timeline_clock(bool on) override;
  bool begin_display(std::size_t index) override;
  void end_display(std::size_t index) override;

  void request_snapshots(std::uint64_t max_cells) override;
  std::vector<HostSnapshot> snapshots() const override;

  Lattice read(std::size_t index) override;
  StateSummary summarize(std::size_t index) override;
  void finish() override;

  SlotEnqueue enqueue() const { return enqueue_; }
  /// SlotEnqueue::measured: how the frames so far were enqueued (enqueue_choice.hpp).
  const EnqueueChoice& enqueue_choice() const { return choice_; }

  // Placement.
  std::size_t slots() const { return slots_.size(); }
  int slot_device(std::size_t slot) const;
  /// The slot that runs CUDA device `device`; InputError naming the devices when none does.
  std::size_t slot_of_device(int device) const;
  /// The slot instance `index` runs in (not a slot for a split instance: ask is_split() first).
  std::size_t slot_of(std::size_t index) const;
  /// Instance `index`'s index in its slot's engine (a move appends it to its new slot's engine).
  std::size_t local_of(std::size_t index) const;
  /// The engine of slot `slot`, its device made current (tests, and the app's per-device display).
  Engine& slot_engine(std::size_t slot) const;
  /// Appends an instance on slot `slot`; the next add() goes to the slot after it.
  void add_on(const InstanceSpec& spec, std::size_t slot);
  /// Moves instance `index` to slot `slot` keeping its index and exact state (see the top).
  void move(std::size_t index, std::size_t slot);

  // Split instances (see the top).
  /// Lets instances be split over every slot's device; `make` builds the child that runs them
  /// (empty, over the slots' devices in slot order), once, when the first one is split.
  void enable_splits(std::function<std::unique_ptr<Engine>()> make);
  bool splits_enabled() const { return static_cast<bool>(make_split_); }
  /// With `on` (and splits enabled), add() and add_moved() split every new instance (`--split`).
  void set_split_new(bool on);
  bool split_new() const { return split_new_; }
  /// Whether instance `index` is split; then local_of() is its index in split_engine().
  bool is_split(std::size_t index) const;
  /// The child that runs the split instances (InputError before the first split).
  Engine& split_engine() const;

 private:
  /// Place::slot of a split instance (its local index is in split_).
  static constexpr std::size_t kSplit = static_cast<std::size_t>(-1);
  /// Instances one slot (one GPU) runs at most; a split instance counts on every slot.
  static constexpr std::size_t kPerSlot = static_cast<std::size_t>(kMaxInstancesPerDevice);
  struct Place {
    std::size_t slot = 0;   // or kSplit
    std::size_t local = 0;  // the instance's index in its slot's engine (or split_)
  };
  /// The engine that runs place `p` (its slot's, device made current; or the split child).
  Engine& engine_of(const Place& p) const;
  /// "GPU 1" or "GPUs 0,1" (a split place), for messages.
  std::string where(const Place& p) const;
  /// Runs `body`; an InputError from a child comes out naming where it refused ("GPU 1: ...").
  static void on_device(const std::string& where, const std::function<void()>& body);
  /// The split child, made on first use; InputError when splits are not enabled.
  Engine& split_child();
  /// Appends `spec` (a Lattice init) as a split instance; refuses when a slot is full.
  void add_split(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin);
  /// The devices of every slot, in slot order (a split instance's device list).
  std::vector<int> all_devices() const;
  const Place& place(std::size_t index) const;
  /// Slot `slot`'s engine with its device made current on the caller's thread: every call into a
  /// slot from the caller's thread goes through it.
  Engine& use(std::size_t slot) const;
  /// Runs job(engine, slot) for every slot: on the slots' threads side by side (when there are
  /// threads and `on_threads`), or slot after slot on the caller's thread after make_current. Every
  /// slot runs; then the lowest failing slot's exception is rethrown as it was thrown.
  void on_every_slot(const std::function<void(Engine& engine, std::size_t slot)>& job,
                     bool on_threads = true);
  void check_slot(std::size_t slot) const;
  /// The slot add() uses next given the instances each slot runs, or slots() when all are full.
  std::size_t next_free_slot(const std::vector<std::size_t>& counts, std::size_t from) const;
  /// "free: GPU 0: 3, GPU 1: 0 of 64 each" for `counts` instances per slot.
  std::string room_text(const std::vector<std::size_t>& counts) const;
  std::vector<std::size_t> counts() const;
  /// Adds `spec` (its CopyInit source a global index) to the end of slot `slot`'s engine.
  void add_to_slot(const InstanceSpec& spec, std::size_t slot);
  /// Drops the instance at `local` in slot `slot` from the bookkeeping (after the child removed it).
  void forget_local(std::size_t slot, std::size_t local);

  MultiEngine(std::vector<DeviceSlot> slots, bool allow_repeats, SlotEnqueue enqueue);

  std::vector<DeviceSlot> slots_;
  std::vector<Place> places_;
  std::size_t next_slot_ = 0;
  StreamMode mode_ = StreamMode::per_instance;
  int timing_period_ = 1;
  bool timeline_clock_ = false;
  RollingStats host_enqueue_;
  mutable std::vector<float> child_history_;  // span_history()'s scratch
  SlotEnqueue enqueue_ = SlotEnqueue::measured;
  EnqueueChoice choice_;                  // SlotEnqueue::measured: who enqueues step()
  bool step_on_threads_ = true;           // the last step()'s way, which its frame's requests follow
  std::unique_ptr<SlotThreads> threads_;  // null: SlotEnqueue::calling_thread
  std::function<std::unique_ptr<Engine>()> make_split_;
  std::unique_ptr<Engine> split_;  // the split instances' child, once made
  bool split_new_ = false;
};

}  // namespace ls::multi
