// cuda_engine.hpp — the Engine on one CUDA device: instances with their own non-blocking streams,
// double-buffered device lattices, per-instance variants and event timings.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "kernels/life_kernels.hpp"

namespace ls {

/// Number of usable CUDA devices; 0 when there is no driver or device, with the reason in
/// *why_none: what is missing ("no NVIDIA driver is loaded", "no CUDA device found", a driver older
/// than the runtime) and what the runtime answered. Never throws.
int cuda_device_count(std::string* why_none = nullptr);

/// What the renderer needs to draw an instance from the device: its current (front) lattice and
/// the stream its work runs on. Valid until the next mutating engine call or step().
struct DeviceLatticeView {
  kernels::Layout layout = kernels::Layout::bit_cells;
  const void* cells = nullptr;
  int width = 0;
  int height = 0;
  cudaStream_t stream = nullptr;
};

namespace sim {

/// The one-GPU engine. Its constructor makes `device` current; every later call must run on a
/// thread whose current device is device() (its streams, events and memory belong to it). With
/// several GPUs in one thread, the caller makes it current first (MultiEngine's slots do, on every
/// call).
class CudaEngine final : public Engine {
 public:
  /// Throws DeviceError if the device cannot be used.
  explicit CudaEngine(int device = 0);
  ~CudaEngine() override;

  std::string backend() const override { return "cuda"; }
  std::string device_name() const override;
  int cuda_device() const override { return device(); }
  std::size_t size() const override;

  void add(const InstanceSpec& spec) override;
  /// The lattice is uploaded once (pinned staging, one copy, blocking like any lattice start);
  /// the instance then stands at `generation` with origin `origin`, as if it had run here.
  void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) override;
  void remove(std::size_t index) override;
  void replace(std::size_t index, const InstanceSpec& spec) override;
  void set_variant(std::size_t index, Variant variant) override;
  void set_rule(std::size_t index, const Rule& rule) override;
  void set_generations_per_launch(std::size_t index, int k) override;
  void set_cell(std::size_t index, int x, int y, bool alive) override;
  void set_stream_mode(StreamMode mode) override;
  StreamMode stream_mode() const override;

  void set_timing_period(int period) override;
  int timing_period() const override;
  bool frame_timed() const override;
  void step(int generations) override;
  std::uint64_t host_syncs_in_last_step() const override;
  StatSummary host_enqueue_ms() const override;
  /// Builds of the whole-frame graph (stream mode `graph`), counted since the engine was made.
  FrameGraphStats frame_graph_stats() const override;

  void request_summaries() override;
  InstanceStatus status(std::size_t index) const override;
  FrameTimings frame_timings() const override;
  void step_history(std::size_t index, std::vector<float>& out) const override;
  void span_history(std::vector<float>& out) const override;
  void host_enqueue_history(std::vector<float>& out) const override;
  std::vector<TimelineBar> timeline() const override;
  std::vector<TimelineOrigin> timeline_origins() const override;
  void set_timeline_clock(bool on) override;
  bool begin_display(std::size_t index) override;
  void end_display(std::size_t index) override;

  /// Each instance's state is converted to the bit layout into a device staging buffer on its own
  /// stream, then copied into pinned host memory on a low-priority stream; the newest finished copy
  /// stays readable while the next is in flight. snapshots() polls events without throwing.
  void request_snapshots(std::uint64_t max_cells) override;
  std::vector<HostSnapshot> snapshots() const override;

  Lattice read(std::size_t index) override;
  StateSummary summarize(std::size_t index) override;
  void finish() override;

  /// Frames (and summaries) that repeat the previous frames' shape are replayed from per-instance
  /// CUDA graphs: one call per instance and frame instead of a launch per kernel plus two event
  /// records; in stream mode `graph`, from one graph for the whole frame. On by default; off
  /// launches everything directly (for measurements and tests).
  void set_launch_graphs(bool on);
  bool launch_graphs() const;

  /// For the renderer (src/render): the instance's front lattice and stream.
  DeviceLatticeView device_view(std::size_t index) const;
  /// Stream mode graph, where the display of all tiles is one graph per frame too: claims
  /// instance `index`'s display bracket in the current timed frame as two %globaltimer stamps
  /// [start, end] (pinned memory the device writes) for that graph; null on untimed frames, for an
  /// instance added after the frame's step, or once claimed. Other modes: begin_display.
  std::uint64_t* claim_display_stamps(std::size_t index);
  /// After the display work carrying the claimed stamps was enqueued on `stream`.
  void display_enqueued(cudaStream_t stream);
  /// The copy of instance `index`'s tile pixels out of their array on its stream, on their way to
  /// the display on GPU `display` (a remote tile), bracketed in the current timed frame for its
  /// copy lane (`copy`: into a device outbox or to pinned memory, `bytes` of it): false, recording
  /// nothing, on untimed frames, in stream mode graph, for an instance added after the frame's
  /// step, or once bracketed in this frame. end_tile_copy closes a begun one.
  bool begin_tile_copy(std::size_t index, TimelineBar::Copy copy, int display, std::uint64_t bytes);
  void end_tile_copy(std::size_t index);
  /// A copy this device makes on `stream` for instance `index` of the engine on GPU `device` (a
  /// remote tile's pixels into the display's atlas: peer, host to device, or within this device),
  /// bracketed in this engine's current timed frame, where its bar is numbered in that engine
  /// (TimelineBar::instance_device). Returns the handle end_copy_for takes, or -1: an untimed
  /// frame, stream mode graph, or no instance here (then no frame of this engine is current). Asked
  /// once a frame per copy: after a render that its own engine bracketed in its timed frame.
  int begin_copy_for(int device, std::size_t index, TimelineBar::Copy copy, std::uint64_t bytes,
                     cudaStream_t stream);
  void end_copy_for(int handle, cudaStream_t stream);
  int device() const;

 private:
  /// Stream mode `graph`: the frame (with a deferred summary request) as one graph launch.
  void step_graph(int generations, int timed_slot);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sim
}  // namespace ls
