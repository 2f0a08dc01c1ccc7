// test_multi_engine_gpu.cpp — moves between CUDA engines (MultiEngine over CudaEngine slots, through
// CudaEngine::add_moved): an instance moved while the others run keeps its hash, generation,
// origin and settings, the others keep theirs, and after many moves every instance equals the CPU
// reference, in every variant and stream mode, with a host thread per slot and with the caller's
// thread alone. The reliability churn: 1000 cycles of adds, removes and moves while the others
// step leave the untouched instances as a clean run has them and give every byte of device memory
// back. Two slots of device 0 stand in for two GPUs, so this runs on a one-GPU machine (two GPUs
// add a slot per device). Skips (with the reason) where there is no CUDA device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "multi/multi_engine.hpp"
#include "multi/split_engine.hpp"
#include "seen.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"
#include "split_fixtures.hpp"

namespace ls::multi {
namespace {

class MultiEngineGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "needs a CUDA device: " << why;
  }
};

/// Slots on `devices` (a device may repeat: RepeatedDevicesForTests), each a CudaEngine made
/// with its device current, which the slot's thread makes current once (per_slot_threads) or the
/// caller's thread before every call.
MultiEngine cuda_slots(const std::vector<int>& devices, SlotEnqueue enqueue = SlotEnqueue::per_slot_threads) {
  std::vector<DeviceSlot> slots;
  for (const int d : devices) {
    const auto make_current = [d] {
      if (cudaSetDevice(d) != cudaSuccess)
        throw DeviceError("cudaSetDevice(" + std::to_string(d) + ") failed");
    };
    make_current();
    slots.push_back(DeviceSlot{d, std::make_unique<sim::CudaEngine>(d), make_current});
  }
  return MultiEngine(std::move(slots), RepeatedDevicesForTests{}, enqueue);
}

/// Lets `multi` split instances into bands over `devices`, as the app does (engine_factory.cpp).
void enable_splits(MultiEngine& multi, const std::vector<int>& devices) {
  multi.enable_splits([devices] { return std::make_unique<SplitEngine>(devices); });
}

/// The slots each test runs on: two of device 0, devices 0 and 1 where there are two, and 0..3 where
/// there are four.
std::vector<std::vector<int>> slot_layouts() {
  std::vector<std::vector<int>> out = {{0, 0}};
  if (cuda_device_count() >= 2) out.push_back({0, 1});
  if (cuda_device_count() >= 4) out.push_back({0, 1, 2, 3});
  return out;
}

// Random soups of every variant (two each, random rules and k) step while instances move back and
// forth between the slots: after each move every instance is as it was (the moved one included:
// same hash, generation, origin, rule, variant, k), stepping after it makes no host sync, and at
// the end every instance equals the CPU reference run from its soup.
TEST_F(MultiEngineGpuTest, MovesBetweenCudaSlotsKeepEveryStateExactly) {
  for (const SlotEnqueue enqueue : {SlotEnqueue::per_slot_threads, SlotEnqueue::calling_thread})
    for (const auto& devices : slot_layouts()) {
      for (const StreamMode mode : kAllStreamModes) {
        SCOPED_TRACE(std::string(stream_mode_name(mode)) + " on devices " + device_list_text(devices) +
                     (enqueue == SlotEnqueue::per_slot_threads ? ", a thread per slot" : ", one thread"));
        std::mt19937_64 rng(4242 + static_cast<unsigned>(mode));
        MultiEngine multi = cuda_slots(devices, enqueue);
        ASSERT_EQ(multi.enqueue(), enqueue);
        multi.set_stream_mode(mode);
        std::vector<Lattice> reference;
        std::vector<Rule> rules;
        for (int copy = 0; copy < 2; ++copy) {
          for (const Variant v : kAllVariants) {
            InstanceSpec spec;
            spec.width = 32 * static_cast<int>(1 + rng() % 6);
            spec.height = 32 * static_cast<int>(1 + rng() % 6);
            spec.rule = random_rule(rng);
            spec.variant = v;
            spec.generations_per_launch = 1 + static_cast<int>(rng() % 20);
            const double density = 0.1 + 0.05 * static_cast<double>(rng() % 10);
            const std::uint64_t seed = rng();
            spec.init = RandomInit{density, seed};
            multi.add(spec);
            reference.push_back(Lattice::random(spec.width, spec.height, density, seed));
            rules.push_back(spec.rule);
          }
        }
        ASSERT_EQ(multi.slot_of(0), 0u);
        ASSERT_EQ(multi.slot_of(1), 1u) << "round-robin placement";
        long long generations = 0;
        for (int round = 0; round < 24; ++round) {
          const int g = 1 + static_cast<int>(rng() % 9);
          multi.step(g);
          EXPECT_EQ(multi.host_syncs_in_last_step(), 0u) << "round " << round;
          multi.request_summaries();
          generations += g;
          const std::size_t i = rng() % multi.size();
          const std::size_t to = (multi.slot_of(i) + 1) % multi.slots();
          const std::vector<Seen> before = seen_all(multi);
          multi.move(i, to);
          ASSERT_EQ(multi.slot_of(i), to);
          EXPECT_EQ(multi.instance_devices(i), std::vector<int>{devices[to]});
          EXPECT_EQ(seen_all(multi), before) << "after moving instance " << i << " to slot " << to;
        }
        // Every instance moves once more, all in one frame's gap, then everything runs on.
        for (std::size_t i = 0; i < multi.size(); ++i) multi.move(i, (multi.slot_of(i) + 1) % multi.slots());
        multi.step(17);
        generations += 17;
        for (std::size_t i = 0; i < multi.size(); ++i) {
          cpu_run(reference[i], rules[i], generations);
          EXPECT_EQ(multi.status(i).generation, static_cast<std::uint64_t>(generations));
          EXPECT_EQ(difference(multi.read(i), reference[i]), "")
              << "instance " << i << " (" << variant_name(multi.status(i).variant) << ")";
          EXPECT_EQ(multi.summarize(i).hash, reference[i].hash());
        }
      }
    }
}

// Split and merged back while the others step: every variant (random rules, k), in every stream mode
// of the slots, keeps its hash, generation and origin through the split and the merge, and every
// other instance keeps its own; a split instance steps exactly as the CPU reference; a split that
// does not fit (bands thinner than the variant needs) is refused and changes nothing.
TEST_F(MultiEngineGpuTest, SplittingAndMergingKeepEveryStateExactly) {
  for (const auto& devices : slot_layouts()) {
    for (const StreamMode mode : kAllStreamModes) {
      SCOPED_TRACE(std::string(stream_mode_name(mode)) + " on devices " + device_list_text(devices));
      std::mt19937_64 rng(777 + static_cast<unsigned>(mode));
      MultiEngine multi = cuda_slots(devices);
      enable_splits(multi, devices);
      multi.set_stream_mode(mode);
      std::vector<Lattice> reference;
      std::vector<Rule> rules;
      for (const Variant v : kAllVariants) {
        InstanceSpec spec;
        spec.width = 32 * static_cast<int>(1 + rng() % 4);
        spec.height = 128 + 32 * static_cast<int>(rng() % 5);
        spec.rule = random_rule(rng);
        spec.variant = v;
        spec.generations_per_launch = 1 + static_cast<int>(rng() % 16);
        const double density = 0.15 + 0.05 * static_cast<double>(rng() % 8);
        const std::uint64_t seed = rng();
        spec.init = RandomInit{density, seed};
        multi.add(spec);
        reference.push_back(Lattice::random(spec.width, spec.height, density, seed));
        rules.push_back(spec.rule);
      }
      long long generations = 0;
      for (std::size_t i = 0; i < multi.size(); ++i) {
        const int g = 1 + static_cast<int>(rng() % 7);
        multi.step(g);
        EXPECT_EQ(multi.host_syncs_in_last_step(), 0u);
        multi.request_summaries();
        generations += g;
        std::vector<Seen> before = seen_all(multi);
        multi.set_instance_devices(i, devices);
        ASSERT_TRUE(multi.is_split(i));
        EXPECT_EQ(multi.instance_devices(i), devices);
        EXPECT_EQ(seen_all(multi), before) << "after splitting instance " << i;
        // Split, it steps with the others (its bands' threads enqueue; nothing waits).
        multi.step(5);
        EXPECT_EQ(multi.host_syncs_in_last_step(), 0u);
        generations += 5;
        before = seen_all(multi);
        const std::size_t to = rng() % multi.slots();
        multi.set_instance_devices(i, {devices[to]});
        ASSERT_FALSE(multi.is_split(i));
        EXPECT_EQ(multi.slot_of(i), to == 1 && devices[0] == devices[1] ? 0u : to);
        EXPECT_EQ(seen_all(multi), before) << "after merging instance " << i;
      }
      // Split all but one, step them side by side with the one left, then compare with the CPU.
      for (std::size_t i = 1; i < multi.size(); ++i) multi.set_instance_devices(i, devices);
      multi.step(23);
      generations += 23;
      for (std::size_t i = 0; i < multi.size(); ++i) {
        cpu_run(reference[i], rules[i], generations);
        EXPECT_EQ(multi.status(i).generation, static_cast<std::uint64_t>(generations));
        EXPECT_EQ(difference(multi.read(i), reference[i]), "")
            << "instance " << i << " (" << variant_name(multi.status(i).variant) << ")";
        EXPECT_EQ(multi.summarize(i).hash, reference[i].hash());
      }
      // Recovery snapshots of the split instances, as of the one left whole: host copies of the
      // exact state, never waited for (finish() lets them land).
      multi.request_snapshots(std::uint64_t{1} << 30);
      multi.finish();
      const std::vector<HostSnapshot> snaps = multi.snapshots();
      for (std::size_t i = 0; i < multi.size(); ++i) {
        const auto it =
            std::find_if(snaps.begin(), snaps.end(), [&](const HostSnapshot& h) { return h.instance == i; });
        ASSERT_NE(it, snaps.end()) << "no snapshot of instance " << i
                                   << (multi.is_split(i) ? " (split)" : "");
        EXPECT_EQ(it->generation, static_cast<std::uint64_t>(generations)) << i;
        EXPECT_EQ(it->rule, rules[i]) << i;
        EXPECT_EQ(difference(it->cells, reference[i]), "") << "snapshot of instance " << i;
      }
      // The frame's figures per GPU: one entry per device, their busy times the frame's.
      multi.finish();
      for (int f = 0; f < 3; ++f) multi.step(1);
      multi.finish();
      const FrameTimings timings = multi.frame_timings();
      ASSERT_TRUE(timings.valid);
      const std::set<int> distinct(devices.begin(), devices.end());
      ASSERT_EQ(timings.gpus.size(), distinct.size());
      double busy = 0;
      for (const GpuFrameTimings& g : timings.gpus) {
        EXPECT_TRUE(distinct.count(g.device)) << g.device;
        EXPECT_GT(g.span_ms, 0);
        EXPECT_LE(g.span_ms, timings.gpu_span_ms);
        busy += g.busy_ms;
      }
      EXPECT_NEAR(busy, timings.busy_ms, 1e-9 + 1e-9 * timings.busy_ms);
      // A lattice of 32 rows cannot be cut into two bands of 32: refused, nothing changed.
      InstanceSpec thin;
      thin.width = 64;
      thin.height = 32;
      thin.init = RandomInit{0.3, 5};
      multi.add(thin);
      const std::size_t t = multi.size() - 1;
      const std::vector<Seen> before = seen_all(multi);
      EXPECT_THROW(multi.set_instance_devices(t, devices), InputError);
      EXPECT_FALSE(multi.is_split(t));
      EXPECT_EQ(seen_all(multi), before);
    }
  }
}

/// Free bytes of each device in `devices`, every device idle first.
std::map<int, std::size_t> free_memory(const std::vector<int>& devices) {
  std::map<int, std::size_t> out;
  for (const int d : devices) {
    EXPECT_EQ(cudaSetDevice(d), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::size_t free = 0, total = 0;
    EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
    out[d] = free;
  }
  return out;
}

InstanceSpec churn_soup(std::mt19937_64& rng) {
  InstanceSpec spec;
  spec.width = 32 * static_cast<int>(1 + rng() % 4);
  spec.height = 32 * static_cast<int>(1 + rng() % 4);
  spec.rule = random_rule(rng);
  spec.variant = kAllVariants[rng() % kAllVariants.size()];
  spec.generations_per_launch = 1 + static_cast<int>(rng() % 20);
  spec.init = RandomInit{0.1 + 0.05 * static_cast<double>(rng() % 10), rng()};
  return spec;
}

// Reliability: 1000 cycles of adding, removing and moving instances between the slots
// while the others step (each frame handed to the slots' threads, never waited for): no CUDA error,
// the untouched instances (never moved, edited or removed) end with the hashes of a clean run (one
// CpuEngine given the same adds, removes and steps), every instance ends on it, and once every
// instance is removed and the engine finished, the bytes the engines hold (DeviceBuffer::live_bytes)
// are exactly what they were before the churn, and so is each device's free memory on one GPU (on
// two, to one 2 MiB page the driver may keep: see the check). The baseline is taken after a warm-up
// that ran every variant, summaries and snapshots on every slot and removed it again, and after a
// first pass of the same churn, so that what CUDA loads once per process (lazily loaded kernels,
// local memory for them) is in it; the engine allocates with plain cudaMalloc and cudaFree
// (sim/cuda_handles.hpp), with no caching allocator between. A third of the moves split the
// instance over every device instead (a refusal, bands too thin, changes nothing); a later move
// merges it back.
TEST_F(MultiEngineGpuTest, AThousandCyclesOfChurnKeepTheUntouchedInstancesAndGiveBackEveryByte) {
  for (const auto& devices : slot_layouts()) {
    SCOPED_TRACE("devices " + device_list_text(devices));
    std::mt19937_64 rng(9001);
    MultiEngine multi = cuda_slots(devices);
    enable_splits(multi, devices);
    ASSERT_EQ(multi.enqueue(), SlotEnqueue::per_slot_threads);
    // Warm-up: every variant on every slot, stepped, summarized and snapshotted, then removed ...
    for (std::size_t slot = 0; slot < multi.slots(); ++slot)
      for (const Variant v : kAllVariants) {
        InstanceSpec spec = churn_soup(rng);
        spec.variant = v;
        multi.add_on(spec, slot);
      }
    multi.step(3);
    // ... and every path the churn takes once: moves to every slot and copies of every variant
    // (CUDA loads a kernel's module the first time it runs, and keeps it).
    const std::size_t warm = multi.size();
    for (std::size_t i = 0; i < warm; ++i) {
      for (std::size_t slot = 0; slot < multi.slots(); ++slot) multi.move(i, slot);
      InstanceSpec copy = churn_soup(rng);
      copy.init = CopyInit{i};
      multi.add(copy);
    }
    // ... and splits of every variant at every halo depth the churn meets (k 1..20), merged back to
    // every slot, so that each device has loaded the kernels a split runs (windows, edges, fills).
    for (const Variant v : kAllVariants)
      for (const int k : {1, 8, 16, 20}) {
        InstanceSpec spec = churn_soup(rng);
        spec.variant = v;
        spec.height = 64 * static_cast<int>(devices.size());  // bands of 64 rows: deep enough for k = 20
        spec.generations_per_launch = k;
        multi.add(spec);
        const std::size_t i = multi.size() - 1;
        multi.set_instance_devices(i, devices);
        multi.step(k + 1);
        (void)multi.summarize(i);
        for (std::size_t slot = 0; slot < multi.slots(); ++slot) {
          multi.move(i, slot);
          multi.set_instance_devices(i, devices);
        }
      }
    multi.request_summaries();
    multi.request_snapshots(1u << 20);
    multi.step(20);
    for (std::size_t i = 0; i < multi.size(); ++i) (void)multi.summarize(i);
    while (multi.size() > 0) multi.remove(multi.size() - 1);
    multi.finish();
    const std::set<int> device_set(devices.begin(), devices.end());
    const std::vector<int> distinct(device_set.begin(), device_set.end());
    // Two passes of the same 1000 cycles (the same random sequence): the first loads whatever the
    // churn needs once (a kernel the warm-up missed kept 4 MiB after the first pass, H100); the
    // second must give back every byte it took.
    for (int pass = 0; pass < 2; ++pass) {
      SCOPED_TRACE("pass " + std::to_string(pass));
      rng.seed(9002);
      const std::map<int, std::size_t> before = free_memory(distinct);
      const std::size_t live_before = cuda::DeviceBuffer::live_bytes();
      const std::size_t events_before = cuda::Event::live();

      CpuEngine clean(1);
      for (int i = 0; i < 6; ++i) {
        const InstanceSpec spec = churn_soup(rng);
        multi.add(spec);
        clean.add(spec);
      }
      const std::size_t untouched = 4;  // the first four: never moved, edited or removed
      std::vector<std::uint64_t> untouched_origin;
      for (std::size_t i = 0; i < untouched; ++i) untouched_origin.push_back(multi.status(i).origin);
      int moves = 0, adds = 0, removes = 0, steps = 0, splits = 0, refused = 0;
      for (int cycle = 0; cycle < 1000; ++cycle) {
        const auto op = rng() % 10;
        if (op < 4 && multi.size() > untouched) {
          const std::size_t i = untouched + rng() % (multi.size() - untouched);
          if (rng() % 3 == 0) {
            // Split over every device (refused, changing nothing, when the bands would be too thin).
            try {
              multi.set_instance_devices(i, devices);
              ++splits;
            } catch (const InputError&) {
              ++refused;
            }
          } else {
            multi.move(i, rng() % multi.slots());  // merges a split instance back
          }
          ++moves;
        } else if (op < 6 && multi.size() < 24) {
          InstanceSpec spec = churn_soup(rng);
          if (rng() % 3 == 0) spec.init = CopyInit{rng() % multi.size()};
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
          ASSERT_EQ(multi.host_syncs_in_last_step(), 0u) << "cycle " << cycle;
          multi.request_summaries();
          if (cycle % 50 == 0) multi.request_snapshots(1u << 20);
          clean.step(g);
          ++steps;
        }
        ASSERT_EQ(multi.size(), clean.size());
        if (cycle % 100 == 99) {
          for (std::size_t i = 0; i < untouched; ++i)
            ASSERT_EQ(multi.summarize(i).hash, clean.summarize(i).hash)
                << "cycle " << cycle << ", instance " << i;
        }
      }
      for (std::size_t i = 0; i < multi.size(); ++i) {
        const InstanceStatus a = multi.status(i), b = clean.status(i);
        EXPECT_EQ(a.generation, b.generation) << i;
        EXPECT_EQ(multi.summarize(i).hash, clean.summarize(i).hash) << "instance " << i;
        EXPECT_EQ(a.variant, b.variant) << i;
        EXPECT_EQ(a.generations_per_launch, b.generations_per_launch) << i;
      }
      for (std::size_t i = 0; i < untouched; ++i) EXPECT_EQ(multi.status(i).origin, untouched_origin[i]) << i;
      EXPECT_GT(moves, 200);
      EXPECT_GT(splits, 30);
      EXPECT_GT(refused, 5);
      EXPECT_GT(adds, 50);
      EXPECT_GT(removes, 50);
      EXPECT_GT(steps, 100);

      while (multi.size() > 0) multi.remove(multi.size() - 1);
      multi.finish();
      const std::map<int, std::size_t> after = free_memory(distinct);
      if (pass == 0) continue;
      // Every byte and every event the engines made is freed ...
      EXPECT_EQ(cuda::DeviceBuffer::live_bytes(), live_before) << "device bytes still held by the engines";
      EXPECT_EQ(cuda::Event::live(), events_before) << "events still held by the engines";
      // ... and each GPU's free memory is back, to one 2 MiB page: the driver sometimes keeps one
      // page after the churn while live_bytes and the live events come back exactly (seen on two
      // H200s and on one, in some runs of the whole suite in one process, never when this test runs
      // alone). Small device allocations share 2 MiB pages, so which
      // pages stay mapped depends on what earlier tests left in them; a buffer the engines kept
      // would show in live_bytes above, to the byte.
      constexpr long long kDriverPage = 2 << 20;
      for (const int d : distinct) {
        const long long missing = static_cast<long long>(before.at(d)) - static_cast<long long>(after.at(d));
        EXPECT_LE(missing, kDriverPage) << "GPU " << d << ": " << missing << " bytes not given back";
      }
    }
  }
}

// A split instance's summary is current or says it is not: whenever it is not marked old
// (summary_is_old), it counts a state at most kFreshSummaryFrames frames behind the instance, so
// that a label or the Instances table never shows an old population beside the current generation
// as if it were of it. Frames are enqueued far faster than a 16384^2 summary finishes, so the
// summaries fall many frames behind.
TEST_F(MultiEngineGpuTest, ASplitInstancesSummaryIsCurrentOrMarkedOld) {
  SplitEngine split({0, 0});
  InstanceSpec spec;
  spec.width = 16384;
  spec.height = 16384;
  spec.variant = Variant::bitpacked;
  spec.init = RandomInit{0.3, 7};
  split.add(spec);
  for (int frame = 0; frame < 64; ++frame) {
    split.step(1);
    split.request_summaries();
    const InstanceStatus s = split.status(0);
    if (!s.summary) continue;
    // One generation a frame: a summary's age in frames is the generations it lags by.
    EXPECT_EQ(s.summary_frames_ago, s.generation - s.summary->generation) << "frame " << frame;
    if (summary_is_old(s)) continue;
    EXPECT_LE(s.generation - s.summary->generation, kFreshSummaryFrames)
        << "frame " << frame << ": a summary of generation " << s.summary->generation
        << " passes for current at generation " << s.generation;
  }
  split.finish();
  split.request_summaries();
  const InstanceStatus last = split.status(0);
  EXPECT_EQ(last.generation, 64u);
}

}  // namespace
}  // namespace ls::multi
