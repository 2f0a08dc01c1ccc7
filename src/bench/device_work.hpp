// device_work.hpp — what a row of `lifestreams bench --devices` runs: one lattice split over the
// GPUs (multi::SplitEngine), instances spread over them (multi::MultiEngine, a host thread per GPU
// or the calling thread alone), or the same work on one GPU's engine, every row's baseline.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "bench/bench_measure.hpp"
#include "core/rule.hpp"
#include "multi/split_tuning.hpp"

namespace ls::bench {

/// Instances on one or several GPUs, enqueued frame by frame.
class DeviceWork {
 public:
  virtual ~DeviceWork() = default;
  /// Enqueues `frames` frames of `k` generations on every instance; returns once enqueued.
  virtual void enqueue(int frames, int k) = 0;
  /// Blocks until every GPU involved has finished all it was given.
  virtual void wait() = 0;
  /// Every instance's state hash, in instance order (blocking).
  virtual std::vector<std::uint64_t> hashes() = 0;
};

/// The row's work on `devices` (a device may repeat: several bands or engines of one GPU); on one
/// device, the baseline: every instance on one CUDA engine stepped by the calling thread, as the
/// one-GPU app does. A split lattice's bands step as `split` says.
std::unique_ptr<DeviceWork> make_device_work(const Config& c, const Rule& rule,
                                             const std::vector<int>& devices,
                                             const multi::SplitTuning& split);

/// Waits until the bitpacked kernels compiled for `rule` (every block shape) are loaded on each of
/// `devices`, so that the rows time them rather than the general kernel that runs until then, and
/// says on stderr which kernel the bitpacked rows run. Nothing to wait for with B3/S23.
void wait_for_rule_kernels(const Rule& rule, const std::vector<int>& devices);

/// Events of different GPUs cannot be compared: `frames` frames timed by the host clock from every
/// GPU idle to every GPU done (a final synchronization of each); host_ms the enqueueing.
Timed time_on_host_clock(DeviceWork& work, int frames, int k);

}  // namespace ls::bench
