// snapshots.hpp — host snapshots of the CUDA engine's instances, kept for recovery after a fatal
// device error (Engine::request_snapshots): the state in the bit layout in a device staging buffer,
// copied into one of two pinned buffers on a low-priority stream, so that the newest finished copy
// stays readable while the next is in flight and after the device has failed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::sim {

struct Instance;
class Instances;
class TimingRing;

/// An instance's snapshot buffers and which of them holds what.
struct InstanceSnapshots {
  std::array<cuda::PinnedBuffer, 2> host;
  cuda::DeviceBuffer staging;
  cuda::Event converted{cuda::Event::Create{}, false};
  cuda::Event copied{cuda::Event::Create{}, false};
  mutable int in_flight = -1;  // pinned buffer being filled, or -1
  mutable int newest = -1;     // pinned buffer holding the newest finished snapshot, or -1
  std::array<std::uint64_t, 2> generation{};
  std::array<Rule, 2> rule{};
};

/// Notes a finished snapshot copy. Never throws: after a fatal device error the query fails and
/// the snapshot that was in flight is simply not counted.
void poll_snapshot(const Instance& inst) noexcept;

class SnapshotCopier {
 public:
  /// Starts a snapshot of every instance of at most `max_cells` cells whose previous one is not in
  /// flight and whose staging buffer fits; never blocks but for the first pinned allocation of an
  /// instance (counted as a host sync).
  /// With `timing`, a copy started in a timed frame is bracketed for its timeline.
  void request(Instances& instances, std::uint64_t max_cells, const TimingRing* timing = nullptr);
  /// The newest finished snapshot of each instance that has one; host memory only.
  static std::vector<HostSnapshot> read(const Instances& instances);

 private:
  cuda::Stream stream_;  // lowest priority; made on the first request
};

}  // namespace ls::sim
