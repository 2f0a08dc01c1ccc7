// split_engine.hpp — the Engine whose instances are lattices split across several GPUs
// (SplitLattice), one host thread per GPU enqueueing that GPU's part of every step. `lifestreams
// run --devices 0,1` drives it through the Engine contract unchanged.
//
// Timings (split_timings.hpp): each band's step is bracketed by events on its stream in timed
// frames and read a frame or two late, never waiting: step statistics per instance, the frame's
// figures and a timeline with rows grouped per GPU.
//
// Summaries are paced by their cost (core/summary_pacing.hpp), as the one-GPU engine's: a lattice
// split because it is huge would otherwise spend its frames hashing itself.
//
// Recovery snapshots as the one-GPU engine's: lattices of at most the asked cells, copied to pinned
// host memory band by band, never waited for.
//
// Each band of a timed frame also shows its first launch's halo exchange, the summary and the
// snapshot asked in the frame, and its part of the tile's drawing, as bars on its row. The display
// draws a split tile band by band (interop/split_tile), so begin_display() is false and each band's
// part is bracketed by display_marks() instead.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "multi/split_timings.hpp"
#include "multi/split_tuning.hpp"

namespace ls::multi {

class DeviceWorkers;
class SplitLattice;

/// The GPUs this process sees, one line: "GPUs present: 0 NVIDIA H200, 1 NVIDIA H200" (or
/// "no GPU present: <why>"). Never throws.
std::string gpus_present();

class SplitEngine final : public Engine {
 public:
  /// Every instance is split over `devices`, one band per entry, in this order. A device may
  /// repeat (tests: several bands on one GPU); the command line refuses repeats before this.
  /// Every lattice steps as `tuning` says (split_tuning.hpp; InputError when it is not one).
  explicit SplitEngine(std::vector<int> devices, SplitTuning tuning = {});
  ~SplitEngine() override;

  std::string backend() const override { return "cuda"; }
  /// The devices, comma-separated ("0,1"): what `lifestreams run` prints as device=.
  std::string device_name() const override;
  int cuda_device() const override;
  std::size_t size() const override { return instances_.size(); }
  const std::vector<int>& devices() const { return devices_; }
  const SplitTuning& tuning() const { return tuning_; }
  /// Every instance is split over all the devices.
  std::vector<int> instance_devices(std::size_t index) const override;

  void add(const InstanceSpec& spec) override;
  /// A moved instance (MultiEngine splitting it): `spec.init` its lattice, its generation and origin.
  void add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) override;
  void remove(std::size_t index) override;
  void replace(std::size_t index, const InstanceSpec& spec) override;
  void set_variant(std::size_t index, Variant variant) override;
  void set_rule(std::size_t index, const Rule& rule) override;
  void set_generations_per_launch(std::size_t index, int k) override;
  void set_cell(std::size_t index, int x, int y, bool alive) override;
  void set_stream_mode(StreamMode mode) override { mode_ = mode; }
  StreamMode stream_mode() const override { return mode_; }

  void set_timing_period(int period) override;
  int timing_period() const override { return timing_period_; }
  bool frame_timed() const override { return timings_.frame_timed(); }
  void step(int generations) override;
  std::uint64_t host_syncs_in_last_step() const override { return 0; }

  void request_summaries() override;
  InstanceStatus status(std::size_t index) const override;
  FrameTimings frame_timings() const override { return timings_.newest_frame(); }
  void step_history(std::size_t index, std::vector<float>& out) const override;
  /// Instance `index`'s timed band steps read so far that started at their step before's end event
  /// (split_timings.hpp): one event a band a frame instead of two.
  std::uint64_t borrowed_starts(std::size_t index) const;
  void span_history(std::vector<float>& out) const override { timings_.span_history(out); }
  std::vector<TimelineBar> timeline() const override { return timings_.newest_timeline(); }
  std::vector<TimelineOrigin> timeline_origins() const override { return timings_.newest_origins(); }
  void set_timeline_clock(bool on) override { clock_ = on; }
  bool begin_display(std::size_t) override { return false; }
  void end_display(std::size_t) override {}

  /// Hooks that bracket a band's part of drawing instance `index`'s tile (band, the band's stream;
  /// its device current) in the current timed frame; empty hooks in an untimed one.
  std::pair<SplitLattice::BandHook, SplitLattice::BandHook> display_marks(std::size_t index);

  /// A host snapshot of every instance of at most `max_cells` cells (SplitLattice::request_snapshot).
  void request_snapshots(std::uint64_t max_cells) override;
  std::vector<HostSnapshot> snapshots() const override;

  Lattice read(std::size_t index) override;
  StateSummary summarize(std::size_t index) override;
  void finish() override;

  /// The split lattice of instance `index` (tests: bands, halo, exchange paths).
  SplitLattice& lattice(std::size_t index) const;

 private:
  struct Entry;
  std::unique_ptr<SplitLattice> make(const InstanceSpec& spec, std::uint64_t generation = 0);
  Entry& at(std::size_t index) const;
  /// Instance `e` made anew from `spec` at its generation (a new variant or k), keeping its origin.
  void rebuild(Entry& e, const InstanceSpec& spec);
  void harvest_timings();

  std::vector<int> devices_;
  SplitTuning tuning_;
  std::unique_ptr<DeviceWorkers> workers_;
  std::vector<std::unique_ptr<Entry>> instances_;
  std::uint64_t frames_ = 0;       // step() calls that stepped: the pacing's and frames_ago's clock
  int last_step_generations_ = 1;  // for the age of a summary older than every request kept
  StreamMode mode_ = StreamMode::per_instance;
  int timing_period_ = 1;
  SplitTimings timings_;
  bool clock_ = false;  // stamp each band's start on its GPU's clock (set_timeline_clock)
};

}  // namespace ls::multi
