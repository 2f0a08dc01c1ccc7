// cpu_engine.hpp — the CPU reference engine: exact for any Life-like rule on the torus,
// bit-parallel (32 cells per word, bit-sliced neighbour counts) and multi-threaded; its step is
// cpu_step.hpp's.
#pragma once

#include <memory>
#include <vector>

#include "core/cpu_step.hpp"
#include "core/engine.hpp"
#include "core/stats.hpp"

namespace ls {

/// The Engine on the host. Variants are kept and reported per instance (scripts and the panel
/// behave the same on both backends) but every variant runs the CPU reference. step() runs
/// synchronously; its timings are wall-clock times of each instance's step. Snapshots are copies
/// of the lattices made at request.
class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(int threads = 0);
  ~CpuEngine() override;

  std::string backend() const override { return "cpu"; }
  std::string device_name() const override;
  int cuda_device() const override { return -1; }
  std::size_t size() const override { return instances_.size(); }

  void add(const InstanceSpec& spec) override;
  void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) override;
  void check_room(const std::vector<InstanceSpec>& specs) const override;
  void remove(std::size_t index) override;
  std::unique_ptr<PreparedInstance> prepare(const InstanceSpec& spec, BuildProgress& progress) const override;
  void install(std::vector<Installation> batch) override;
  void replace(std::size_t index, const InstanceSpec& spec) override;
  void set_variant(std::size_t index, Variant variant) override;
  void set_rule(std::size_t index, const Rule& rule) override;
  void set_generations_per_launch(std::size_t index, int k) override;
  void set_cell(std::size_t index, int x, int y, bool alive) override;
  void set_stream_mode(StreamMode mode) override;
  StreamMode stream_mode() const override { return mode_; }

  void set_timing_period(int period) override;
  int timing_period() const override { return timing_period_; }
  bool frame_timed() const override { return frame_timed_; }
  void step(int generations) override;
  std::uint64_t host_syncs_in_last_step() const override { return 0; }
  StatSummary host_enqueue_ms() const override { return host_enqueue_.summary(); }

  void request_summaries() override;
  InstanceStatus status(std::size_t index) const override;
  FrameTimings frame_timings() const override { return frame_; }
  void step_history(std::size_t index, std::vector<float>& out) const override;
  void span_history(std::vector<float>& out) const override { span_ms_.history(out); }
  void host_enqueue_history(std::vector<float>& out) const override { host_enqueue_.history(out); }
  std::vector<TimelineBar> timeline() const override { return timeline_; }
  bool begin_display(std::size_t index) override;
  void end_display(std::size_t index) override;

  void request_snapshots(std::uint64_t max_cells) override;
  std::vector<HostSnapshot> snapshots() const override;

  Lattice read(std::size_t index) override;
  StateSummary summarize(std::size_t index) override;
  void finish() override {}

  /// The current state, for the renderer's texture upload (valid until the next mutating call).
  const Lattice& lattice(std::size_t index) const;

 private:
  struct Instance;
  /// With `progress`, a random fill runs on several threads, counts its rows and may be cancelled
  /// (nullptr then).
  std::unique_ptr<Instance> make_instance(const InstanceSpec& spec, BuildProgress* progress = nullptr) const;
  Instance& at(std::size_t index);
  const Instance& at(std::size_t index) const;
  /// The timings of frame `frame` (the last step's) from its steps and display brackets.
  void close_frame(std::uint64_t frame);

  int threads_;
  StreamMode mode_ = StreamMode::per_instance;
  std::vector<std::unique_ptr<Instance>> instances_;
  FrameTimings frame_;
  RollingStats span_ms_;  // span_history()
  std::vector<TimelineBar> timeline_;
  RollingStats host_enqueue_;      // host time of each step()
  std::uint64_t frame_count_ = 0;  // frames started by step()
  int timing_period_ = 1;
  int frames_to_timed_ = 0;   // frames before the next timed one
  bool frame_timed_ = false;  // the current frame (the last step) is timed
  std::uint64_t next_origin_ = 1;
};

}  // namespace ls
