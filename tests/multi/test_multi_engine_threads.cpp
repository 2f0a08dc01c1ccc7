// test_multi_engine_threads.cpp — a MultiEngine's host thread per slot, over CPU children (runs
// everywhere): each slot's frame runs on that slot's own thread, the slots step side by side, no
// child is ever used by two threads at once, the results equal one thread's and the CPU
// reference, and an exception thrown on a slot's thread reaches the caller as the same type (the
// app's one error path: DeviceError, exit 3) with the other slots' instances stepped as usual.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#include "seen.hpp"

namespace ls::multi {
namespace {

InstanceSpec random_soup(std::mt19937_64& rng) {
  InstanceSpec s;
  s.width = 32 * static_cast<int>(1 + rng() % 3);
  s.height = 32 * static_cast<int>(1 + rng() % 3);
  s.rule.birth = static_cast<std::uint16_t>(rng() & 0x1feu);  // never born on 0: no flashing
  s.rule.survive = static_cast<std::uint16_t>(rng() & 0x1ffu);
  s.variant = kAllVariants[rng() % kAllVariants.size()];
  s.generations_per_launch = 1 + static_cast<int>(rng() % 16);
  s.init = RandomInit{0.1 + 0.05 * static_cast<double>(rng() % 10), rng()};
  return s;
}

/// Where the frame calls of every slot ran: waits at the step for all slots to be stepping at once
/// (side by side), and records each call's thread and any call that overlapped another on the
/// same child.
struct Frames {
  std::mutex mutex;
  std::condition_variable arrived;
  int stepping = 0;      // slots inside step() of the present frame
  int side_by_side = 0;  // steps that met every other slot's step of their frame
  int alone = 0;         // steps that waited in vain
  int slots = 0;
  bool wait_for_all = false;

  /// Whether every slot reached step() while this one waited (up to 5 s).
  void meet() {
    std::unique_lock lock(mutex);
    ++stepping;
    arrived.notify_all();
    const bool met = arrived.wait_for(lock, std::chrono::seconds(5), [&] { return stepping >= slots; });
    ++(met ? side_by_side : alone);
  }
  /// After each frame (from the caller, all slots done).
  void next_frame() {
    std::lock_guard lock(mutex);
    stepping = 0;
  }
};

/// A CpuEngine that records the threads its calls come from and counts calls that overlap on it.
class RecordingEngine final : public Engine {
 public:
  explicit RecordingEngine(Frames* frames) : frames_(frames) {}
  std::set<std::thread::id> frame_threads;  // step, request_summaries, request_snapshots, finish
  std::set<std::thread::id> other_threads;  // every other call
  mutable std::atomic<int> overlaps{0};
  int steps = 0;
  std::chrono::microseconds step_time{0};  // each step() takes at least this long

  std::string backend() const override { return "cpu"; }
  std::string device_name() const override { return "recording"; }
  int cuda_device() const override { return -1; }
  std::size_t size() const override { return in()->size(); }
  void add(const InstanceSpec& spec) override { in()->add(spec); }
  void add_moved(const InstanceSpec& spec, std::uint64_t g, std::uint64_t o) override {
    in()->add_moved(spec, g, o);
  }
  void remove(std::size_t i) override { in()->remove(i); }
  void replace(std::size_t i, const InstanceSpec& spec) override { in()->replace(i, spec); }
  void set_variant(std::size_t i, Variant v) override { in()->set_variant(i, v); }
  void set_rule(std::size_t i, const Rule& r) override { in()->set_rule(i, r); }
  void set_generations_per_launch(std::size_t i, int k) override { in()->set_generations_per_launch(i, k); }
  void set_cell(std::size_t i, int x, int y, bool alive) override { in()->set_cell(i, x, y, alive); }
  void set_stream_mode(StreamMode m) override { in()->set_stream_mode(m); }
  StreamMode stream_mode() const override { return in()->stream_mode(); }
  void set_timing_period(int p) override { in()->set_timing_period(p); }
  int timing_period() const override { return in()->timing_period(); }
  bool frame_timed() const override { return in()->frame_timed(); }
  void step(int g) override {
    Use use(*this, frame_threads);
    ++steps;
    if (frames_ && frames_->wait_for_all) frames_->meet();
    if (step_time.count() > 0) std::this_thread::sleep_for(step_time);
    inner_.step(g);
  }
  std::uint64_t host_syncs_in_last_step() const override { return in()->host_syncs_in_last_step(); }
  void request_summaries() override {
    Use use(*this, frame_threads);
    inner_.request_summaries();
  }
  InstanceStatus status(std::size_t i) const override { return in()->status(i); }
  FrameTimings frame_timings() const override { return in()->frame_timings(); }
  std::vector<TimelineBar> timeline() const override { return in()->timeline(); }
  bool begin_display(std::size_t i) override { return in()->begin_display(i); }
  void end_display(std::size_t i) override { in()->end_display(i); }
  void request_snapshots(std::uint64_t m) override {
    Use use(*this, frame_threads);
    inner_.request_snapshots(m);
  }
  std::vector<HostSnapshot> snapshots() const override { return in()->snapshots(); }
  Lattice read(std::size_t i) override { return in()->read(i); }
  StateSummary summarize(std::size_t i) override { return in()->summarize(i); }
  void finish() override {
    Use use(*this, frame_threads);
    inner_.finish();
  }

 private:
  /// Marks the engine in use by this thread for one call; a second thread inside counts an overlap.
  class Use {
   public:
    Use(const RecordingEngine& e, std::set<std::thread::id>& threads) : e_(e) {
      if (e_.inside_.fetch_add(1) != 0) ++e_.overlaps;
      const std::lock_guard lock(e_.threads_mutex_);  // overlapping calls must not race here
      threads.insert(std::this_thread::get_id());
    }
    ~Use() { e_.inside_.fetch_sub(1); }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    const RecordingEngine& e_;
  };
  /// The inner engine, marked in use until the end of the full expression that calls through it (so
  /// that a call overlapping another thread's is seen for its whole length, not just its start).
  struct Held {
    Use use;
    CpuEngine& engine;
    CpuEngine* operator->() const { return &engine; }
  };
  Held in() const { return Held{Use(*this, const_cast<RecordingEngine*>(this)->other_threads), inner_}; }
  Frames* frames_;
  mutable std::atomic<int> inside_{0};
  mutable std::mutex threads_mutex_;
  mutable CpuEngine inner_{1};
};

struct Recorded {
  std::unique_ptr<MultiEngine> multi;
  std::vector<RecordingEngine*> children;
};

Recorded recorded_slots(int n, SlotEnqueue enqueue, Frames* frames = nullptr) {
  Recorded r;
  std::vector<DeviceSlot> slots;
  for (int d = 0; d < n; ++d) {
    auto child = std::make_unique<RecordingEngine>(frames);
    r.children.push_back(child.get());
    slots.push_back(DeviceSlot{d, std::move(child)});
  }
  r.multi = std::make_unique<MultiEngine>(std::move(slots), enqueue);
  return r;
}

TEST(MultiEngineThreads, EachSlotsFrameRunsOnItsOwnThreadAndTheSlotsStepSideBySide) {
  Frames frames;
  frames.slots = 3;
  Recorded r = recorded_slots(3, SlotEnqueue::per_slot_threads, &frames);
  MultiEngine& multi = *r.multi;
  EXPECT_EQ(multi.enqueue(), SlotEnqueue::per_slot_threads);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 9; ++i) multi.add(random_soup(rng));
  frames.wait_for_all = true;
  for (int frame = 0; frame < 20; ++frame) {
    multi.step(1 + frame % 3);
    frames.next_frame();
    multi.request_summaries();
    if (frame % 5 == 0) multi.request_snapshots(1u << 20);
    // Reads and moves between frames, from the caller's thread, as the app's frame loop does.
    for (std::size_t i = 0; i < multi.size(); ++i) (void)multi.status(i);
    (void)multi.timeline();
    // A move that leaves no slot empty, so that every slot steps in every frame.
    std::vector<int> held(3, 0);
    for (std::size_t i = 0; i < multi.size(); ++i) ++held[multi.slot_of(i)];
    const std::size_t i = rng() % multi.size();
    if (held[multi.slot_of(i)] > 1) multi.move(i, rng() % 3);
  }
  multi.finish();
  EXPECT_EQ(frames.side_by_side, 60) << "every slot's step met the other slots' steps of its frame";
  EXPECT_EQ(frames.alone, 0);
  std::set<std::thread::id> seen;
  for (std::size_t s = 0; s < 3; ++s) {
    const RecordingEngine& child = *r.children[s];
    EXPECT_EQ(child.steps, 20) << "slot " << s;
    ASSERT_EQ(child.frame_threads.size(), 1u) << "slot " << s << "'s frame calls all on one thread";
    const std::thread::id t = *child.frame_threads.begin();
    EXPECT_NE(t, std::this_thread::get_id()) << "slot " << s << " stepped on the caller's thread";
    EXPECT_TRUE(seen.insert(t).second) << "slot " << s << " shares its thread with another slot";
    EXPECT_EQ(child.overlaps.load(), 0) << "slot " << s << "'s engine used by two threads at once";
    // Every other call (edits, moves, reads; size() in the step) came from the caller or the slot.
    for (const std::thread::id other : child.other_threads)
      EXPECT_TRUE(other == std::this_thread::get_id() || other == t)
          << "slot " << s << ": a call from elsewhere";
  }
}

TEST(MultiEngineThreads, OneThreadRunsEverySlotOnTheCallersThread) {
  Recorded r = recorded_slots(3, SlotEnqueue::calling_thread);
  MultiEngine& multi = *r.multi;
  EXPECT_EQ(multi.enqueue(), SlotEnqueue::calling_thread);
  std::mt19937_64 rng(6);
  for (int i = 0; i < 6; ++i) multi.add(random_soup(rng));
  multi.step(2);
  multi.request_summaries();
  multi.finish();
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(r.children[s]->frame_threads, std::set<std::thread::id>{std::this_thread::get_id()}) << s;
    EXPECT_EQ(r.children[s]->steps, 1) << s;
  }
}

// SlotEnqueue::measured: slots whose step takes 5 ms each enqueue a frame in ~5 ms on their threads
// and ~15 ms on the caller's, so after the first trials every frame runs on the slots' threads.
TEST(MultiEngineThreads, MeasuredEnqueueKeepsTheThreadsWhereTheyAreFaster) {
  Recorded r = recorded_slots(3, SlotEnqueue::measured);
  MultiEngine& multi = *r.multi;
  EXPECT_EQ(multi.enqueue(), SlotEnqueue::measured);
  std::mt19937_64 rng(8);
  for (int i = 0; i < 3; ++i) multi.add(random_soup(rng));
  for (RecordingEngine* child : r.children) child->step_time = std::chrono::milliseconds(5);
  const int trial = EnqueueChoice::kTrialFrames;
  const int frames = EnqueueChoice::kWarmupFrames + 2 * trial + 10;
  for (int frame = 0; frame < frames; ++frame) multi.step(1);
  EXPECT_TRUE(multi.enqueue_choice().threads());
  EXPECT_EQ(multi.enqueue_choice().frames_on_threads(), static_cast<std::uint64_t>(frames - trial));
  EXPECT_EQ(multi.enqueue_choice().frames_on_caller(), static_cast<std::uint64_t>(trial));
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(r.children[s]->steps, frames) << s;
    EXPECT_EQ(r.children[s]->frame_threads.size(), 2u) << "slot " << s << ": its thread and the caller's";
  }
}

// The same instances, soups and steps on one CpuEngine, on a MultiEngine of 2..4 slots with a
// thread per slot, on one with the caller's thread alone, and on one that measures which (past its
// first trials: it has enqueued both ways): every instance's state is the same in all of them and
// equals the CPU reference run from its soup.
TEST(MultiEngineThreads, ThreadsGiveTheStatesOfOneThreadAndOfTheCpuReference) {
  for (int n = 2; n <= 4; ++n) {
    SCOPED_TRACE(std::to_string(n) + " slots");
    std::mt19937_64 rng(40 + static_cast<unsigned>(n));
    std::vector<DeviceSlot> a, b, c;
    for (int d = 0; d < n; ++d) {
      a.push_back(DeviceSlot{d, std::make_unique<CpuEngine>(1)});
      b.push_back(DeviceSlot{d, std::make_unique<CpuEngine>(1)});
      c.push_back(DeviceSlot{d, std::make_unique<CpuEngine>(1)});
    }
    MultiEngine threads(std::move(a), SlotEnqueue::per_slot_threads);
    MultiEngine one(std::move(b), SlotEnqueue::calling_thread);
    MultiEngine measured(std::move(c), SlotEnqueue::measured);
    std::vector<Lattice> reference;
    std::vector<Rule> rules;
    for (int i = 0; i < 4 * n; ++i) {
      const InstanceSpec spec = random_soup(rng);
      threads.add(spec);
      one.add(spec);
      measured.add(spec);
      const auto& init = std::get<RandomInit>(spec.init);
      reference.push_back(Lattice::random(spec.width, spec.height, init.density, init.seed));
      rules.push_back(spec.rule);
    }
    long long generations = 0;
    // Past the measured engine's first trials, so that it enqueues both ways.
    for (int frame = 0; frame < EnqueueChoice::kWarmupFrames + 2 * EnqueueChoice::kTrialFrames + 8; ++frame) {
      const int g = 1 + static_cast<int>(rng() % 5);
      threads.step(g);
      one.step(g);
      measured.step(g);
      generations += g;
      EXPECT_EQ(threads.host_syncs_in_last_step(), 0u);
    }
    for (std::size_t i = 0; i < reference.size(); ++i) {
      cpu_run(reference[i], rules[i], generations);
      EXPECT_EQ(threads.status(i).generation, static_cast<std::uint64_t>(generations)) << i;
      EXPECT_EQ(threads.read(i), reference[i]) << "instance " << i;
      EXPECT_EQ(one.read(i), reference[i]) << "instance " << i;
      EXPECT_EQ(measured.read(i), reference[i]) << "instance " << i;
      EXPECT_EQ(threads.summarize(i).hash, reference[i].hash()) << i;
    }
  }
}

/// A CpuEngine whose step() throws when armed, before changing anything (as a device refuses a
/// launch): `what` names the error's type.
class ThrowingEngine final : public Engine {
 public:
  enum class Throws { nothing, device_error, input_error };
  Throws throws = Throws::nothing;
  std::string message;

  std::string backend() const override { return "cpu"; }
  std::string device_name() const override { return "throwing"; }
  int cuda_device() const override { return -1; }
  std::size_t size() const override { return in_.size(); }
  void add(const InstanceSpec& spec) override { in_.add(spec); }
  void add_moved(const InstanceSpec& spec, std::uint64_t g, std::uint64_t o) override {
    in_.add_moved(spec, g, o);
  }
  void remove(std::size_t i) override { in_.remove(i); }
  void replace(std::size_t i, const InstanceSpec& spec) override { in_.replace(i, spec); }
  void set_variant(std::size_t i, Variant v) override { in_.set_variant(i, v); }
  void set_rule(std::size_t i, const Rule& r) override { in_.set_rule(i, r); }
  void set_generations_per_launch(std::size_t i, int k) override { in_.set_generations_per_launch(i, k); }
  void set_cell(std::size_t i, int x, int y, bool alive) override { in_.set_cell(i, x, y, alive); }
  void set_stream_mode(StreamMode m) override { in_.set_stream_mode(m); }
  StreamMode stream_mode() const override { return in_.stream_mode(); }
  void set_timing_period(int p) override { in_.set_timing_period(p); }
  int timing_period() const override { return in_.timing_period(); }
  bool frame_timed() const override { return in_.frame_timed(); }
  void step(int g) override {
    if (throws == Throws::device_error) throw DeviceError(message);
    if (throws == Throws::input_error) throw InputError(message);
    in_.step(g);
  }
  std::uint64_t host_syncs_in_last_step() const override { return 0; }
  void request_summaries() override { in_.request_summaries(); }
  InstanceStatus status(std::size_t i) const override { return in_.status(i); }
  FrameTimings frame_timings() const override { return in_.frame_timings(); }
  std::vector<TimelineBar> timeline() const override { return in_.timeline(); }
  bool begin_display(std::size_t i) override { return in_.begin_display(i); }
  void end_display(std::size_t i) override { in_.end_display(i); }
  void request_snapshots(std::uint64_t m) override { in_.request_snapshots(m); }
  std::vector<HostSnapshot> snapshots() const override { return in_.snapshots(); }
  Lattice read(std::size_t i) override { return in_.read(i); }
  StateSummary summarize(std::size_t i) override { return in_.summarize(i); }
  void finish() override { in_.finish(); }

 private:
  CpuEngine in_{1};
};

class MultiEngineFailure : public ::testing::TestWithParam<SlotEnqueue> {};

INSTANTIATE_TEST_SUITE_P(EveryWay, MultiEngineFailure,
                         ::testing::Values(SlotEnqueue::per_slot_threads, SlotEnqueue::calling_thread,
                                           SlotEnqueue::measured),
                         [](const ::testing::TestParamInfo<SlotEnqueue>& info) {
                           return enqueue_name(info.param);
                         });

// Slot 1 of 3 fails its step with a DeviceError: the caller gets that DeviceError, with its
// message (the app's one error path maps it to exit 3), slot 1's instances are as they were, the
// other slots' instances stepped as a clean run's did, and the host snapshots of every instance
// are still there to save.
TEST_P(MultiEngineFailure, ADeviceErrorOnOneSlotReachesTheCallerAsADeviceError) {
  std::vector<DeviceSlot> slots;
  std::vector<ThrowingEngine*> children;
  for (int d = 0; d < 3; ++d) {
    auto child = std::make_unique<ThrowingEngine>();
    children.push_back(child.get());
    slots.push_back(DeviceSlot{d, std::move(child)});
  }
  MultiEngine multi(std::move(slots), GetParam());
  CpuEngine clean(1);
  std::mt19937_64 rng(77);
  for (int i = 0; i < 9; ++i) {
    const InstanceSpec spec = random_soup(rng);
    multi.add(spec);
    clean.add(spec);
  }
  multi.step(4);
  clean.step(4);
  multi.request_snapshots(1u << 20);
  std::vector<StateSummary> before;
  for (std::size_t i = 0; i < multi.size(); ++i) before.push_back(multi.summarize(i));

  children[1]->throws = ThrowingEngine::Throws::device_error;
  children[1]->message = "GPU 1: an illegal memory access was encountered";
  try {
    multi.step(3);
    FAIL() << "the slot's DeviceError did not reach the caller";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "GPU 1: an illegal memory access was encountered");
  }
  clean.step(3);
  for (std::size_t i = 0; i < multi.size(); ++i) {
    const StateSummary got = multi.summarize(i);
    if (multi.slot_of(i) == 1) {
      EXPECT_EQ(got.generation, before[i].generation) << i;
      EXPECT_EQ(got.hash, before[i].hash) << i;
    } else {
      EXPECT_EQ(got.generation, 7u) << i;
      EXPECT_EQ(got.hash, clean.summarize(i).hash) << "instance " << i << " on slot " << multi.slot_of(i);
    }
  }
  const auto snaps = multi.snapshots();
  ASSERT_EQ(snaps.size(), 9u) << "every instance has its host copy to save";
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(snaps[i].generation, 4u) << i;
  EXPECT_EQ(exit_status_of("lifestreams",
                           [&] {
                             multi.step(1);
                             return 0;
                           }),
            3)
      << "the app's one error path: a device failure exits 3";

  // Two slots failing: the lowest slot's exception, as thrown (an InputError stays one).
  children[0]->throws = ThrowingEngine::Throws::input_error;
  children[0]->message = "slot 0 refuses";
  try {
    multi.step(1);
    FAIL() << "no exception reached the caller";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "slot 0 refuses");
  }
  children[0]->throws = children[1]->throws = ThrowingEngine::Throws::nothing;
  multi.step(1);
  EXPECT_EQ(multi.status(2).generation, 7u + 1 + 1 + 1) << "slot 2 stepped in every frame";
}

// A slot whose device cannot be made current any more (lost): the calls that make it current on
// the caller's thread fail with its DeviceError (and, on the caller's thread alone, the frame),
// while snapshots() still answers for every instance: it reads host copies without make_current.
TEST_P(MultiEngineFailure, SnapshotsStillAnswerWhenADeviceCannotBeMadeCurrent) {
  auto lost = std::make_shared<std::atomic<bool>>(false);
  std::vector<DeviceSlot> slots;
  slots.push_back(DeviceSlot{0, std::make_unique<CpuEngine>(1)});
  slots.push_back(DeviceSlot{1, std::make_unique<CpuEngine>(1), [lost] {
                               if (*lost) throw DeviceError("cudaSetDevice(1): device lost");
                             }});
  MultiEngine multi(std::move(slots), GetParam());
  std::mt19937_64 rng(3);
  for (int i = 0; i < 4; ++i) multi.add(random_soup(rng));
  multi.step(2);
  multi.request_snapshots(1u << 20);
  *lost = true;
  ASSERT_EQ(multi.slot_of(1), 1u);
  EXPECT_THROW((void)multi.status(1), DeviceError);
  // A slot's own thread made its device current once, when it started; the caller's thread does
  // it before every call.
  if (GetParam() == SlotEnqueue::calling_thread) {
    EXPECT_THROW(multi.step(1), DeviceError);
  }
  const auto snaps = multi.snapshots();
  ASSERT_EQ(snaps.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(snaps[i].instance, i);
    EXPECT_EQ(snaps[i].generation, 2u);
  }
}

}  // namespace
}  // namespace ls::multi
