// test_multi_engine.cpp — instances spread over device slots (MultiEngine over CpuEngines, so it
// runs everywhere): round-robin placement, the same results as one engine running the same
// instances, moves that keep an instance's state and leave the others alone, refusals that change
// nothing, the limit of 64 instances per device, and merged timings.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#include "seen.hpp"

namespace ls::multi {
namespace {

std::vector<DeviceSlot> cpu_slots(int n) {
  std::vector<DeviceSlot> slots;
  for (int d = 0; d < n; ++d) slots.push_back(DeviceSlot{d, std::make_unique<CpuEngine>(1)});
  return slots;
}

InstanceSpec soup(int w, int h, std::uint64_t seed, Rule rule = Rule{}, double density = 0.3) {
  InstanceSpec s;
  s.width = w;
  s.height = h;
  s.rule = rule;
  s.variant = kAllVariants[seed % kAllVariants.size()];
  s.generations_per_launch = 1 + static_cast<int>(seed % 16);
  s.init = RandomInit{density, seed};
  return s;
}

/// A random Life-like rule (birth never on 0 neighbours, so soups do not flash).
Rule random_rule(std::mt19937_64& rng) {
  Rule r;
  r.birth = static_cast<std::uint16_t>(rng() & 0x1feu);
  r.survive = static_cast<std::uint16_t>(rng() & 0x1ffu);
  return r;
}

InstanceSpec random_soup(std::mt19937_64& rng) {
  const int w = 32 * static_cast<int>(1 + rng() % 3);
  const int h = 32 * static_cast<int>(1 + rng() % 3);
  return soup(w, h, rng(), random_rule(rng), 0.1 + 0.5 * static_cast<double>(rng() % 100) / 100.0);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MultiEngine, AddsGoRoundRobinOverTheSlotsUnlessASlotIsNamed) {
  MultiEngine e(cpu_slots(3));
  for (std::uint64_t i = 0; i < 10; ++i) e.add(soup(32, 32, i + 1));
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(e.slot_of(i), i % 3) << i;
    EXPECT_EQ(e.instance_devices(i), std::vector<int>{static_cast<int>(i % 3)}) << i;
  }
  EXPECT_EQ(e.slot_engine(0).size(), 4u);
  EXPECT_EQ(e.slot_engine(1).size(), 3u);
  EXPECT_EQ(e.slot_engine(2).size(), 3u);
  // The last add went to slot 0; a named slot moves the cursor past it.
  e.add_on(soup(32, 32, 11), 0);
  EXPECT_EQ(e.slot_of(10), 0u);
  e.add(soup(32, 32, 12));
  EXPECT_EQ(e.slot_of(11), 1u);
  EXPECT_EQ(e.max_instances(), 3u * 64u);
  EXPECT_EQ(e.cuda_device(), -1) << "CPU slots hold host memory";
}

TEST(MultiEngine, SlotsAreNamedByTheirDeviceOrdinals) {
  std::vector<DeviceSlot> slots;
  slots.push_back(DeviceSlot{2, std::make_unique<CpuEngine>(1)});
  slots.push_back(DeviceSlot{5, std::make_unique<CpuEngine>(1)});
  MultiEngine e(std::move(slots));
  e.add(soup(32, 32, 1));
  e.add(soup(32, 32, 2));
  EXPECT_EQ(e.instance_devices(0), std::vector<int>{2});
  EXPECT_EQ(e.instance_devices(1), std::vector<int>{5});
  EXPECT_EQ(e.slot_of_device(5), 1u);
  EXPECT_EQ(message_of([&] { e.slot_of_device(0); }), "GPU 0 is not one of this run's devices (2,5)");
  e.set_instance_devices(0, {5});
  EXPECT_EQ(e.instance_devices(0), std::vector<int>{5});
  // Devices of one model are named once, with their ordinals (the panel's title line).
  EXPECT_EQ(e.device_name(), CpuEngine(1).device_name() + " x 2 (2,5)");
}

TEST(MultiEngine, ASlotListTwiceOrWithoutEngineIsRefused) {
  std::vector<DeviceSlot> twice;
  twice.push_back(DeviceSlot{1, std::make_unique<CpuEngine>(1)});
  twice.push_back(DeviceSlot{1, std::make_unique<CpuEngine>(1)});
  EXPECT_EQ(message_of([&] { MultiEngine{std::move(twice)}; }), "device 1 is listed twice");
  EXPECT_THROW(MultiEngine{std::vector<DeviceSlot>{}}, InputError);
}

TEST(MultiEngine, TestsMayPutTwoSlotsOnOneDeviceAndMoveBetweenThem) {
  std::vector<DeviceSlot> twice;
  twice.push_back(DeviceSlot{0, std::make_unique<CpuEngine>(1)});
  twice.push_back(DeviceSlot{0, std::make_unique<CpuEngine>(1)});
  MultiEngine multi(std::move(twice), RepeatedDevicesForTests{});
  multi.add(soup(64, 32, 3));
  multi.add(soup(32, 64, 4));
  EXPECT_EQ(multi.slot_of(1), 1u);
  multi.step(7);
  const std::vector<Seen> before = seen_all(multi);
  multi.move(0, 1);
  EXPECT_EQ(multi.slot_of(0), 1u);
  EXPECT_EQ(multi.instance_devices(0), std::vector<int>{0});
  EXPECT_EQ(seen_all(multi), before);
  EXPECT_EQ(multi.slot_of_device(0), 0u) << "by device, the first slot of that device";
}

TEST(MultiEngine, SteppingEqualsOneEngineRunningTheSameInstances) {
  std::mt19937_64 rng(12);
  for (int n = 2; n <= 4; ++n) {
    MultiEngine multi(cpu_slots(n));
    CpuEngine one(1);
    for (int i = 0; i < 3 * n + 1; ++i) {
      const InstanceSpec spec = random_soup(rng);
      multi.add(spec);
      one.add(spec);
    }
    for (int round = 0; round < 4; ++round) {
      const int gens = 1 + static_cast<int>(rng() % 9);
      multi.step(gens);
      one.step(gens);
      for (std::size_t i = 0; i < one.size(); ++i) {
        ASSERT_EQ(seen(multi, i), seen(one, i)) << n << " slots, instance " << i << ", round " << round;
        ASSERT_EQ(multi.read(i), one.read(i));
      }
    }
  }
}

TEST(MultiEngine, EditsReachTheInstanceTheyName) {
  MultiEngine multi(cpu_slots(2));
  CpuEngine one(1);
  for (std::uint64_t i = 0; i < 5; ++i) {
    multi.add(soup(64, 32, i + 1));
    one.add(soup(64, 32, i + 1));
  }
  const Rule highlife = parse_rule("B36/S23");
  for (Engine* e : {static_cast<Engine*>(&multi), static_cast<Engine*>(&one)}) {
    e->set_rule(3, highlife);
    e->set_variant(1, Variant::naive);
    e->set_generations_per_launch(4, 7);
    e->set_cell(2, 5, 6, true);
    e->set_cell(2, 6, 6, true);
    e->replace(0, soup(32, 96, 77));
    e->step(5);
  }
  for (std::size_t i = 0; i < 5; ++i) {
    const Seen a = seen(multi, i), b = seen(one, i);
    EXPECT_EQ(a.hash, b.hash) << i;
    EXPECT_EQ(a.generation, b.generation) << i;
    EXPECT_EQ(a.rule, b.rule) << i;
    EXPECT_EQ(a.variant, b.variant) << i;
    EXPECT_EQ(a.k, b.k) << i;
    EXPECT_EQ(a.width, b.width) << i;
    EXPECT_EQ(a.height, b.height) << i;
  }
  EXPECT_EQ(multi.status(3).rule, highlife);
  EXPECT_EQ(multi.status(0).height, 96);
}

TEST(MultiEngine, AMoveKeepsTheStateAndLeavesTheOthersAsACleanRunHasThem) {
  MultiEngine multi(cpu_slots(2));
  CpuEngine clean(1);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 8; ++i) {
    const InstanceSpec spec = random_soup(rng);
    multi.add(spec);
    clean.add(spec);
  }
  multi.step(5);
  clean.step(5);
  const Seen before = seen(multi, 3);
  ASSERT_EQ(multi.slot_of(3), 1u);
  multi.move(3, 0);
  EXPECT_EQ(multi.slot_of(3), 0u);
  EXPECT_EQ(multi.instance_devices(3), std::vector<int>{0});
  EXPECT_EQ(seen(multi, 3), before) << "same generation, hash, origin, rule, variant and k";
  EXPECT_EQ(multi.slot_engine(0).size(), 5u);
  EXPECT_EQ(multi.slot_engine(1).size(), 3u);
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < clean.size(); ++i) ASSERT_EQ(seen(multi, i), seen(clean, i)) << i;
    multi.step(3);
    clean.step(3);
  }
  // Moving back, and a move to where it already runs, keep it as well.
  multi.move(3, 1);
  multi.move(3, 1);
  multi.set_instance_devices(5, {0});
  for (std::size_t i = 0; i < clean.size(); ++i) EXPECT_EQ(seen(multi, i), seen(clean, i)) << i;
}

TEST(MultiEngine, AMovedInstanceStillAgreesWithItsTwinsInTheCrossCheck) {
  MultiEngine multi(cpu_slots(2));
  multi.add(soup(64, 64, 9));
  multi.add(soup(64, 64, 9));  // same start on the other slot: same origin
  multi.step(4);
  multi.move(1, 0);
  multi.step(4);
  EXPECT_EQ(multi.status(0).origin, multi.status(1).origin);
  EXPECT_EQ(multi.summarize(0).hash, multi.summarize(1).hash);
}

TEST(MultiEngine, ACopyOfAnInstanceOnAnotherSlotKeepsItsStateGenerationAndOrigin) {
  MultiEngine multi(cpu_slots(2));
  multi.add(soup(64, 32, 4));
  multi.step(6);
  InstanceSpec copy = soup(64, 32, 99);
  copy.init = CopyInit{0};
  multi.add(copy);  // round-robin: slot 1
  ASSERT_EQ(multi.slot_of(1), 1u);
  EXPECT_EQ(multi.summarize(1).hash, multi.summarize(0).hash);
  EXPECT_EQ(multi.status(1).generation, 6u);
  EXPECT_EQ(multi.status(1).origin, multi.status(0).origin);
  // replace() from another slot's instance: the same, and instance 0 keeps its slot.
  multi.add(soup(32, 32, 5));  // slot 0, instance 2
  multi.step(2);
  InstanceSpec from1 = soup(64, 32, 0);
  from1.init = CopyInit{1};
  multi.replace(2, from1);
  EXPECT_EQ(multi.slot_of(2), 0u);
  EXPECT_EQ(multi.summarize(2).hash, multi.summarize(1).hash);
  EXPECT_EQ(multi.status(2).generation, 8u);
  EXPECT_EQ(multi.read(2), multi.read(1));
  EXPECT_EQ(multi.slot_engine(0).size(), 2u);
}

TEST(MultiEngine, SplittingAndUnknownDevicesAreRefusedChangingNothing) {
  MultiEngine multi(cpu_slots(2));
  for (std::uint64_t i = 0; i < 4; ++i) multi.add(soup(32, 32, i + 1));
  multi.step(2);
  const auto before = seen_all(multi);
  EXPECT_EQ(message_of([&] {
              multi.set_instance_devices(1, {0, 1});
            }),
            "instance 1 on GPU 0,1: this engine cannot split an instance across GPUs");
  EXPECT_EQ(message_of([&] { multi.set_instance_devices(1, {7}); }),
            "GPU 7 is not one of this run's devices (0,1)");
  EXPECT_THROW(multi.set_instance_devices(9, {0}), InputError);
  EXPECT_THROW(multi.move(0, 2), InputError);
  EXPECT_EQ(seen_all(multi), before);
  EXPECT_EQ(multi.slot_of(1), 1u);
}

TEST(MultiEngine, AnEngineOnOneDeviceRefusesToMoveAnInstance) {
  CpuEngine one(1);
  one.add(soup(32, 32, 1));
  EXPECT_EQ(
      message_of([&] { one.set_instance_devices(0, {1}); }),
      "instance 0 cannot run on GPU 1: this engine runs on one device (host memory); list the GPUs with "
      "--devices");
  EXPECT_NO_THROW(one.set_instance_devices(0, one.instance_devices(0))) << "where it runs already";
  EXPECT_EQ(one.max_instances(), 64u);
}

TEST(MultiEngine, SixtyFourInstancesPerSlotAndRefusalsNameWhatIsFreeOnEachDevice) {
  MultiEngine multi(cpu_slots(2));
  EXPECT_EQ(multi.max_instances(), 128u);
  std::vector<InstanceSpec> specs(127, soup(32, 32, 1));
  EXPECT_NO_THROW(multi.check_room(specs));
  specs.push_back(soup(32, 32, 2));
  specs.push_back(soup(32, 32, 3));
  EXPECT_EQ(message_of([&] { multi.check_room(specs); }),
            "129 instances asked, 0 running; free: GPU 0: 64, GPU 1: 64 (of 64 instances per GPU)");
  for (int i = 0; i < 127; ++i) multi.add(soup(32, 32, static_cast<std::uint64_t>(i)));
  EXPECT_EQ(multi.slot_engine(0).size(), 64u);
  EXPECT_EQ(multi.slot_engine(1).size(), 63u);
  multi.add_on(soup(32, 32, 500), 1);  // the next add() starts at slot 0
  multi.step(1);
  const auto before = seen_all(multi);
  EXPECT_EQ(message_of([&] { multi.add(soup(32, 32, 7)); }),
            "1 instance asked, 128 running; free: GPU 0: 0, GPU 1: 0 (of 64 instances per GPU)");
  EXPECT_EQ(seen_all(multi), before);
  multi.remove(5);  // slot 1 has room now; slot 0 has none
  const auto after_remove = seen_all(multi);
  EXPECT_EQ(before[6], after_remove[5]) << "a remove shifts the later instances down by one";
  ASSERT_EQ(multi.slot_of(1), 1u);
  EXPECT_EQ(message_of([&] { multi.move(1, 0); }),
            "instance 1 cannot move to GPU 0: 1 instance asked there; free: GPU 0: 0, GPU 1: 1 (of 64 "
            "instances per "
            "GPU)");
  EXPECT_EQ(message_of([&] { multi.add_on(soup(32, 32, 8), 0); }),
            "1 instance asked on GPU 0; free: GPU 0: 0, GPU 1: 1 (of 64 instances per GPU)");
  EXPECT_EQ(seen_all(multi), after_remove);
  // Round-robin skips the full slot 0.
  multi.add(soup(32, 32, 9));
  EXPECT_EQ(multi.slot_of(127), 1u);
  EXPECT_EQ(multi.size(), 128u);
}

class MultiEngineEnqueue : public ::testing::TestWithParam<SlotEnqueue> {};

INSTANTIATE_TEST_SUITE_P(EveryWay, MultiEngineEnqueue,
                         ::testing::Values(SlotEnqueue::per_slot_threads, SlotEnqueue::calling_thread,
                                           SlotEnqueue::measured),
                         [](const ::testing::TestParamInfo<SlotEnqueue>& info) {
                           return enqueue_name(info.param);
                         });

/// The device a slot's make_current() made current last on this thread (the tests' stand-in for
/// cudaSetDevice, which is per thread too: a slot's own thread sets it once).
thread_local int current_device = -1;

/// A CPU engine for device `device` that checks every call comes with its device current, and
/// whose additions can be made to fail, as a GPU refuses an allocation: the refusals a MultiEngine
/// must undo. Forwards everything to a CpuEngine.
class RefusingEngine final : public Engine {
 public:
  explicit RefusingEngine(int device) : device_(device) {}
  bool refuse = false;
  mutable int calls_on_wrong_device = 0;
  std::string backend() const override { return in().backend(); }
  std::string device_name() const override { return "refusing"; }
  int cuda_device() const override { return -1; }
  std::size_t size() const override { return inner_.size(); }  // host bookkeeping: no device needed
  void add(const InstanceSpec& spec) override {
    in();
    if (refuse) throw InputError("lattice needs 1 MiB; 0 MiB free");
    in().add(spec);
  }
  void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) override {
    in();
    if (refuse) throw InputError("lattice needs 1 MiB; 0 MiB free");
    in().add_moved(spec, generation, origin);
  }
  void check_room(const std::vector<InstanceSpec>& specs) const override {
    in();
    if (refuse) throw InputError(std::to_string(specs.size()) + " lattices need 1 MiB; 0 MiB free");
  }
  void remove(std::size_t i) override { in().remove(i); }
  void replace(std::size_t i, const InstanceSpec& spec) override {
    in();
    if (refuse) throw InputError("lattice needs 1 MiB; 0 MiB free");
    in().replace(i, spec);
  }
  void set_variant(std::size_t i, Variant v) override { in().set_variant(i, v); }
  void set_rule(std::size_t i, const Rule& r) override { in().set_rule(i, r); }
  void set_generations_per_launch(std::size_t i, int k) override { in().set_generations_per_launch(i, k); }
  void set_cell(std::size_t i, int x, int y, bool alive) override { in().set_cell(i, x, y, alive); }
  void set_stream_mode(StreamMode m) override { in().set_stream_mode(m); }
  StreamMode stream_mode() const override { return in().stream_mode(); }
  void set_timing_period(int p) override { in().set_timing_period(p); }
  int timing_period() const override { return in().timing_period(); }
  bool frame_timed() const override { return in().frame_timed(); }
  void step(int g) override { in().step(g); }
  std::uint64_t host_syncs_in_last_step() const override { return 0; }
  void request_summaries() override { in().request_summaries(); }
  InstanceStatus status(std::size_t i) const override { return in().status(i); }
  FrameTimings frame_timings() const override { return in().frame_timings(); }
  /// Its CPU engine's bars, then `extra_bars` (copies a GPU engine would time).
  std::vector<TimelineBar> timeline() const override {
    std::vector<TimelineBar> bars = in().timeline();
    bars.insert(bars.end(), extra_bars.begin(), extra_bars.end());
    return bars;
  }
  std::vector<TimelineBar> extra_bars;
  bool begin_display(std::size_t i) override { return in().begin_display(i); }
  void end_display(std::size_t i) override { in().end_display(i); }
  void request_snapshots(std::uint64_t m) override { in().request_snapshots(m); }
  // Host memory only: answers with no device current (after a device is lost).
  std::vector<HostSnapshot> snapshots() const override { return inner_.snapshots(); }
  Lattice read(std::size_t i) override { return in().read(i); }
  StateSummary summarize(std::size_t i) override { return in().summarize(i); }
  void finish() override {}

 private:
  CpuEngine& in() const {
    if (current_device != device_) ++calls_on_wrong_device;
    return inner_;
  }
  int device_;
  mutable CpuEngine inner_{1};
};

TEST_P(MultiEngineEnqueue, ADeviceThatRefusesAMoveOrAnAddLeavesEverythingAsItWas) {
  std::vector<DeviceSlot> slots;
  auto checked = std::make_unique<RefusingEngine>(0);
  RefusingEngine& gpu0 = *checked;
  slots.push_back(DeviceSlot{0, std::move(checked), [] { current_device = 0; }});
  auto refusing = std::make_unique<RefusingEngine>(1);
  RefusingEngine& gpu1 = *refusing;
  slots.push_back(DeviceSlot{1, std::move(refusing), [] { current_device = 1; }});
  MultiEngine multi(std::move(slots), GetParam());
  for (std::uint64_t i = 0; i < 6; ++i) multi.add(soup(64, 64, i + 1));
  multi.step(3);
  const auto before = seen_all(multi);
  std::vector<std::size_t> slots_before;
  for (std::size_t i = 0; i < multi.size(); ++i) slots_before.push_back(multi.slot_of(i));
  gpu1.refuse = true;
  EXPECT_EQ(message_of([&] { multi.move(2, 1); }), "GPU 1: lattice needs 1 MiB; 0 MiB free");
  EXPECT_EQ(message_of([&] { multi.add_on(soup(32, 32, 3), 1); }), "GPU 1: lattice needs 1 MiB; 0 MiB free");
  EXPECT_EQ(message_of([&] {
              multi.check_room({soup(32, 32, 1), soup(32, 32, 2)});
            }),
            "GPU 1: 1 lattices need 1 MiB; 0 MiB free");
  InstanceSpec copy = soup(64, 64, 0);
  copy.init = CopyInit{0};
  EXPECT_THROW(multi.replace(1, copy), InputError);
  EXPECT_THROW(multi.set_instance_devices(4, {1}), InputError);
  EXPECT_EQ(seen_all(multi), before);
  for (std::size_t i = 0; i < multi.size(); ++i) EXPECT_EQ(multi.slot_of(i), slots_before[i]) << i;
  EXPECT_EQ(multi.slot_engine(0).size(), 3u);
  EXPECT_EQ(multi.slot_engine(1).size(), 3u);
  gpu1.refuse = false;
  multi.move(2, 1);
  EXPECT_EQ(seen(multi, 2), before[2]);
  // Every call reached its engine with that engine's device current.
  multi.step(1);
  multi.request_summaries();
  (void)multi.timeline();
  (void)multi.frame_timings();
  multi.request_snapshots(1u << 20);
  (void)multi.snapshots();
  EXPECT_EQ(gpu0.calls_on_wrong_device, 0);
  EXPECT_EQ(gpu1.calls_on_wrong_device, 0);
}

// The display GPU's engine times a remote tile's copies into its atlas for an instance of another
// slot's engine (TimelineBar::instance_device): the merged timeline names that slot's instance,
// on the display GPU's lanes; a bar for a device no slot runs, or an instance that slot no longer
// has, is left out. The remote slot's own copy out of the tile's array keeps its own numbering.
TEST(MultiEngine, ACopyTimedForAnotherSlotsInstanceNamesThatInstance) {
  using K = TimelineBar::Kind;
  using C = TimelineBar::Copy;
  std::vector<DeviceSlot> slots;
  auto display = std::make_unique<RefusingEngine>(0);
  RefusingEngine& gpu0 = *display;
  slots.push_back(DeviceSlot{0, std::move(display), [] { current_device = 0; }});
  auto remote = std::make_unique<RefusingEngine>(1);
  RefusingEngine& gpu1 = *remote;
  slots.push_back(DeviceSlot{1, std::move(remote), [] { current_device = 1; }});
  MultiEngine multi(std::move(slots));
  for (std::uint64_t i = 0; i < 4; ++i) multi.add(soup(64, 64, i + 1));  // 0, 2 on GPU 0; 1, 3 on GPU 1
  ASSERT_EQ(multi.slot_of(3), 1u);
  ASSERT_EQ(multi.local_of(3), 1u);
  multi.step(1);
  multi.step(1);
  gpu0.extra_bars = {{1, 0, K::tile, 2.0, 2.1, 0, C::peer, 1, 4096, 1},   // GPU 1's local 1: instance 3
                     {1, 0, K::tile, 2.1, 2.2, 0, C::d2d, 1, 4096, 1},    // its staging to the atlas
                     {0, 0, K::tile, 2.0, 2.1, 0, C::peer, 7, 4096, 7},   // no slot runs GPU 7
                     {5, 0, K::tile, 2.0, 2.1, 0, C::peer, 1, 4096, 1}};  // GPU 1 has no local 5
  gpu1.extra_bars = {{1, 1, K::tile, 1.9, 2.0, 1, C::d2d, 0, 4096}};      // out of the array: local 1
  std::vector<TimelineBar> copies;
  for (const TimelineBar& b : multi.timeline())
    if (b.kind == K::tile) copies.push_back(b);
  ASSERT_EQ(copies.size(), 3u);
  for (const TimelineBar& b : copies) {
    EXPECT_EQ(b.instance, 3u);
    EXPECT_EQ(b.instance_device, -1) << "numbered globally now";
  }
  EXPECT_EQ(copies[0].device, 0);
  EXPECT_EQ(copies[0].copy, C::peer);
  EXPECT_EQ(copies[0].peer, 1);
  EXPECT_EQ(copies[1].copy, C::d2d);
  EXPECT_EQ(copies[2].device, 1);
}

TEST_P(MultiEngineEnqueue, AThousandCyclesOfAddsRemovesMovesAndStepsMatchACleanRun) {
  // The clean run: one engine given the same adds, removes and steps, never a move. Every
  // instance, moved or not, must match it after every cycle. (Splitting and merging are not part
  // of it: MultiEngine has no split instances yet.)
  std::mt19937_64 rng(2024);
  MultiEngine multi(cpu_slots(3), GetParam());
  ASSERT_EQ(multi.enqueue(), GetParam());
  CpuEngine clean(1);
  for (int i = 0; i < 6; ++i) {
    const InstanceSpec spec = random_soup(rng);
    multi.add(spec);
    clean.add(spec);
  }
  // The first four are never moved, edited or removed: the untouched instances.
  const std::size_t untouched = 4;
  int moves = 0, adds = 0, removes = 0, steps = 0, copies = 0;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    const auto op = rng() % 10;
    if (op < 4 && multi.size() > untouched) {
      const std::size_t i = untouched + rng() % (multi.size() - untouched);
      multi.move(i, rng() % multi.slots());
      ++moves;
    } else if (op < 6 && multi.size() < 24) {
      InstanceSpec spec = random_soup(rng);
      if (rng() % 3 == 0) {
        spec.init = CopyInit{rng() % multi.size()};
        ++copies;
      }
      multi.add(spec);
      clean.add(spec);
      ++adds;
    } else if (op < 8 && multi.size() > untouched) {
      const std::size_t i = untouched + rng() % (multi.size() - untouched);
      multi.remove(i);
      clean.remove(i);
      ++removes;
    } else {
      const int g = 1 + static_cast<int>(rng() % 3);
      multi.step(g);
      clean.step(g);
      ++steps;
    }
    ASSERT_EQ(multi.size(), clean.size());
    for (std::size_t i = 0; i < clean.size(); ++i) {
      const InstanceStatus a = multi.status(i), b = clean.status(i);
      ASSERT_EQ(a.generation, b.generation) << "cycle " << cycle << ", instance " << i;
      ASSERT_EQ(multi.summarize(i).hash, clean.summarize(i).hash) << "cycle " << cycle << ", instance " << i;
      ASSERT_EQ(a.rule, b.rule);
      ASSERT_EQ(a.variant, b.variant);
      ASSERT_EQ(a.generations_per_launch, b.generations_per_launch);
    }
    std::size_t held = 0;
    for (std::size_t s = 0; s < multi.slots(); ++s) held += multi.slot_engine(s).size();
    ASSERT_EQ(held, multi.size()) << "every slot holds exactly the instances placed on it";
  }
  for (std::size_t i = 0; i < untouched; ++i) EXPECT_EQ(multi.status(i).origin, clean.status(i).origin);
  EXPECT_GT(moves, 200);
  EXPECT_GT(adds, 50);
  EXPECT_GT(removes, 50);
  EXPECT_GT(steps, 100);
  EXPECT_GT(copies, 5);
}

TEST(MultiEngine, TimingsMergeTheSlotsAndTheTimelineGroupsRowsPerDevice) {
  MultiEngine multi(cpu_slots(2));
  for (std::uint64_t i = 0; i < 5; ++i) multi.add(soup(256, 256, i + 1));
  multi.step(2);
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(multi.begin_display(i));
    multi.end_display(i);
  }
  multi.step(1);  // closes the timed frame before
  const FrameTimings t0 = multi.slot_engine(0).frame_timings(), t1 = multi.slot_engine(1).frame_timings();
  const FrameTimings t = multi.frame_timings();
  ASSERT_TRUE(t.valid);
  EXPECT_DOUBLE_EQ(t.gpu_span_ms, std::max(t0.gpu_span_ms, t1.gpu_span_ms));
  EXPECT_DOUBLE_EQ(t.busy_ms, t0.busy_ms + t1.busy_ms);
  EXPECT_DOUBLE_EQ(t.concurrency, t.busy_ms / t.gpu_span_ms);
  const auto bars = multi.timeline();
  ASSERT_EQ(bars.size(), 10u) << "a step and a display bar per instance";
  int last_row_slot0 = -1, first_row_slot1 = 1 << 30;
  std::vector<int> steps_seen(5, 0);
  for (const TimelineBar& bar : bars) {
    ASSERT_LT(bar.instance, 5u);
    if (bar.kind == TimelineBar::Kind::step) ++steps_seen[bar.instance];
    if (multi.slot_of(bar.instance) == 0)
      last_row_slot0 = std::max(last_row_slot0, bar.stream);
    else
      first_row_slot1 = std::min(first_row_slot1, bar.stream);
  }
  EXPECT_EQ(steps_seen, std::vector<int>(5, 1));
  EXPECT_EQ(last_row_slot0, 2) << "slot 0's three instances on rows 0..2";
  EXPECT_EQ(first_row_slot1, 3) << "slot 1's rows follow";
  std::vector<float> spans, s0, s1;
  multi.span_history(spans);
  multi.slot_engine(0).span_history(s0);
  multi.slot_engine(1).span_history(s1);
  ASSERT_EQ(spans.size(), s0.size());
  for (std::size_t i = 0; i < spans.size(); ++i) EXPECT_EQ(spans[i], std::max(s0[i], s1[i]));
  EXPECT_EQ(multi.host_syncs_in_last_step(), 0u);
  EXPECT_EQ(multi.host_enqueue_ms().samples, 2);
}

TEST(MultiEngine, SnapshotsNameTheGlobalInstance) {
  MultiEngine multi(cpu_slots(3));
  for (std::uint64_t i = 0; i < 7; ++i) multi.add(soup(32, 64, i + 1));
  multi.step(3);
  multi.move(0, 2);
  multi.request_snapshots(1u << 20);
  const auto snaps = multi.snapshots();
  ASSERT_EQ(snaps.size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(snaps[i].instance, i);
    EXPECT_EQ(snaps[i].generation, 3u);
    EXPECT_EQ(snaps[i].cells, multi.read(i));
  }
}

TEST(MultiEngine, SettingsReachEverySlot) {
  MultiEngine multi(cpu_slots(3));
  multi.set_stream_mode(StreamMode::graph);
  multi.set_timing_period(5);
  EXPECT_THROW(multi.set_timing_period(0), InputError);
  EXPECT_THROW(multi.step(-1), InputError);
  for (std::size_t s = 0; s < multi.slots(); ++s) {
    EXPECT_EQ(multi.slot_engine(s).stream_mode(), StreamMode::graph);
    EXPECT_EQ(multi.slot_engine(s).timing_period(), 5);
  }
  EXPECT_EQ(multi.timing_period(), 5);
}

}  // namespace
}  // namespace ls::multi
