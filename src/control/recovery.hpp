// recovery.hpp — what the app keeps against a fatal device error: a recent host snapshot of every
// instance (Engine::request_snapshots: on CUDA asynchronous copies into pinned memory, on the CPU
// copies of the lattices; at most every 10 s, skipped above a size the user sets), saved as RLE in
// the working directory when the frame loop dies, one line per file saying where and from which
// generation; exit status 3. It knows the engine only through the Engine interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"

namespace ls::app {

/// Default of --snapshot-max-cells: lattices of more cells get no snapshot (2^28 cells is 32 MiB
/// of device staging and 64 MiB of pinned host memory per instance).
inline constexpr std::uint64_t kDefaultSnapshotMaxCells = std::uint64_t{1} << 28;
/// Snapshots are requested at most this often.
inline constexpr double kSnapshotIntervalSeconds = 10.0;
/// The test hook's option: the app's hidden --test-fault-at-frame N (docs/developer-options.md).
inline constexpr const char* kFaultAtFrameOption = "--test-fault-at-frame";

struct RecoverySettings {
  std::uint64_t snapshot_max_cells = kDefaultSnapshotMaxCells;  // 0: no snapshots
  double interval_s = kSnapshotIntervalSeconds;
  /// A test hook: the frame loop throws a DeviceError once this many frames are done, as a device
  /// failure would (tests/app/test_recovery.cpp). -1: no injected fault.
  long long fault_at_frame = -1;
};

/// One instance's state kept for recovery.
using RecoveryState = HostSnapshot;

/// A file written by Recovery::save.
struct RecoveredFile {
  std::size_t instance = 0;
  std::uint64_t generation = 0;
  std::uint64_t hash = 0;  // of the cells saved (Lattice::hash)
  std::filesystem::path path;
};

/// Writes `cells` as RLE whose box is the whole lattice and whose rule carries the torus size
/// ("B3/S23:T1024,512"), so that loading it back gives exactly this lattice: same size, same
/// cells, same hash. Streams row by row (no per-cell copy of a large lattice).
void write_lattice_rle(std::ostream& out, const Lattice& cells, const Rule& rule, const std::string& name,
                       const std::vector<std::string>& comments);

/// "lifestreams-recovered-<instance>-gen<G>.rle", or with "-2", "-3"... when that name is taken.
std::string recovered_file_name(std::size_t instance, std::uint64_t generation, int attempt);

class Recovery {
 public:
  Recovery(Engine& engine, RecoverySettings settings);

  /// Once per frame, after its work is enqueued: starts snapshots when the interval has passed
  /// (never blocks), then throws the injected fault when `frames_done` reaches it.
  void after_frame(long long frames_done, double now_s);

  /// The newest state of each instance that can still be read after a fatal error. Asks the
  /// engine for one more snapshot first (the CPU engine's is its present state; a failed device
  /// refuses it), then takes its newest finished ones. Lattices above the size limit are left
  /// out. Never throws.
  std::vector<RecoveryState> states() const noexcept;

  /// Saves states() as RLE in `dir` (new files only, never overwriting; the system's temp
  /// directory when `dir` cannot be written) and writes one line per instance to `log`: where
  /// its file went and from which generation, or why it has none. Never throws.
  std::vector<RecoveredFile> save(const std::filesystem::path& dir, std::ostream& log) const noexcept;

  /// What the app does with a fatal device error in the frame loop: says what failed, saves the
  /// snapshots in the working directory, and returns exit status 3.
  int save_after_fault(const DeviceError& error, std::ostream& log) const noexcept;

  const RecoverySettings& settings() const { return settings_; }
  /// Snapshot requests made so far (tests).
  long long requests() const { return requests_; }

 private:
  Engine& engine_;
  RecoverySettings settings_;
  double last_request_s_ = 0;
  long long requests_ = 0;
};

}  // namespace ls::app
