// simulation.hpp — the part of the Engine contract that simulates (core/engine.hpp states the
// contract): instances added, rebuilt, edited and removed, stepped, read and copied to the host.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/instance_status.hpp"

namespace ls {

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

class Simulation {
 public:
  virtual ~Simulation() = default;

  virtual std::string backend() const = 0;  // "cpu" | "cuda"
  virtual std::string device_name() const = 0;
  virtual std::size_t size() const = 0;

  virtual void add(const InstanceSpec& spec) = 0;
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
  virtual void install(std::vector<Installation> batch) = 0;
  /// Rebuilds instance `index` from `spec` (new size, new soup, loaded pattern); generation 0.
  virtual void replace(std::size_t index, const InstanceSpec& spec) = 0;
  virtual void set_variant(std::size_t index, Variant variant) = 0;
  virtual void set_rule(std::size_t index, const Rule& rule) = 0;
  virtual void set_generations_per_launch(std::size_t index, int k) = 0;  // 1..64
  virtual void set_cell(std::size_t index, int x, int y, bool alive) = 0;
  virtual void set_stream_mode(StreamMode mode) = 0;
  virtual StreamMode stream_mode() const = 0;
  virtual void step(int generations) = 0;

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
