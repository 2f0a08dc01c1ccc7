// instance.hpp — the CUDA engine's instances: one simulation each (its stream, its double-buffered
// device lattices, its timing, summary and snapshot state, its graphs), and Instances, which makes
// them (allocation, initial state, layout changes), owns them and picks the stream each works on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/frame_launch.hpp"
#include "sim/snapshots.hpp"
#include "sim/summary_ring.hpp"
#include "sim/timing_ring.hpp"

namespace ls::sim {

kernels::Layout layout_of(Variant v);

/// One simulation: its stream, its lattices (front/back in one allocation, plus summary results),
/// its events and statistics. Members are destroyed in reverse order: graphs first, then device
/// memory (cudaFree waits for pending work), then pinned memory, events and finally the stream.
struct Instance {
  int width = 0;
  int height = 0;
  Rule rule;
  Variant variant = Variant::bitpacked;
  int k = 1;
  std::uint64_t generation = 0;
  std::uint64_t origin = 0;
  /// Unique per instance made by an engine: a frame graph that names it (its events, its buffers)
  /// belongs to it and to no later instance that happens to reuse its address.
  std::uint64_t serial = 0;

  cuda::Stream stream;
  cuda::Event order{cuda::Event::Create{}, false};  // orders work across streams
  InstanceTimings timing;
  InstanceSummaries summaries;
  InstanceSnapshots snapshot;
  cuda::DeviceBuffer memory;
  void* front = nullptr;
  void* back = nullptr;
  std::uint64_t* results_device = nullptr;
  FrameGraphs frame_graphs;
  SummaryGraphs summary_graphs;

  kernels::Layout layout() const { return layout_of(variant); }
  std::size_t lattice_bytes() const { return kernels::layout_bytes(layout(), width, height); }
};

/// Counts every blocking call the engine makes (Engine::host_syncs_in_last_step); the engine's
/// blocking calls go through it.
class HostSyncs {
 public:
  void stream(cudaStream_t stream) {
    ++count_;
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  void device() {
    ++count_;
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  /// Another blocking call, made by the caller (cudaMemGetInfo, cudaMallocHost).
  void count() { ++count_; }
  std::uint64_t total() const { return count_; }

 private:
  std::uint64_t count_ = 0;
};

class Instances {
 public:
  using List = std::vector<std::unique_ptr<Instance>>;

  /// Creates the engine's shared stream (the current device must be the engine's).
  explicit Instances(HostSyncs& syncs);

  std::size_t size() const { return list_.size(); }
  const List& all() const { return list_; }
  /// Throws InputError naming the instances there are.
  Instance& at(std::size_t index) const;

  /// A complete instance from `spec`, its initial state enqueued (or, for a pattern, uploaded);
  /// the list is unchanged, so that add/replace keep the strong guarantee.
  std::unique_ptr<Instance> make(const InstanceSpec& spec);
  void add(std::unique_ptr<Instance> inst) { list_.push_back(std::move(inst)); }
  void remove(std::size_t index);
  void replace(std::size_t index, std::unique_ptr<Instance> inst);
  /// Moves the instance's state into `variant`'s layout when it differs (a new allocation first,
  /// so that a failure changes nothing; blocks for the conversion).
  void set_layout(Instance& inst, Variant variant);

  StreamMode mode() const { return mode_; }
  /// Work keeps its order across the switch: the new streams wait (on the device) for the old ones.
  void set_mode(StreamMode mode);
  /// Where work outside the frame (summaries, edits, display) goes: the instance's own stream in
  /// per-instance mode, else the engine's stream (in graph mode each frame graph is launched there,
  /// its branches captured from the instances' own streams).
  cudaStream_t stream_of(const Instance& inst) const {
    return mode_ == StreamMode::per_instance ? inst.stream.get() : shared_.get();
  }
  /// The engine's own stream: the shared mode's, graph mode's frame stream, and the one timing
  /// references are recorded on.
  cudaStream_t shared_stream() const { return shared_.get(); }

  /// Device memory for a lattice: checks free memory first and throws InputError (changing
  /// nothing) when it will not fit.
  cuda::DeviceBuffer allocate(std::size_t bytes, int width, int height, Variant variant);
  HostSyncs& syncs() const { return syncs_; }

 private:
  HostSyncs& syncs_;
  StreamMode mode_ = StreamMode::per_instance;
  cuda::Stream shared_;
  cuda::Event shared_order_{cuda::Event::Create{}, false};
  List list_;
  std::uint64_t next_serial_ = 1;
};

/// Throws InputError when k is outside 1..kMaxGenerationsPerLaunch.
void check_generations_per_launch(int k);

}  // namespace ls::sim
