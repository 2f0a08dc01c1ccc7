// split_band_state.hpp — SplitLattice::BandState: one band's stream, events and memory, shared by
// the split lattice's files (split_lattice.hpp lists them); nothing outside them includes it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "multi/band_partition.hpp"
#include "multi/split_lattice.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::multi {

/// One band: its stream, event and memory (both buffers and the summary result in one allocation),
/// all on its slot's device: made and destroyed with that device current (the constructor's guard,
/// SplitLattice's destructor).
struct SplitLattice::BandState {
  int device = 0;
  Band band;
  cuda::Stream stream;
  cuda::DeviceBuffer memory;
  std::array<std::byte*, 2> buffers{};
  std::uint64_t* result_device = nullptr;
  cuda::PinnedBuffer result_host;                    // two uint64: population, hash part
  cuda::Event summary_start{cuda::Event::Create{}};  // timed: the summary's GPU time paces them
  cuda::Event summary_done{cuda::Event::Create{}};
  int front = 0;  // the buffer holding the current generation
  // The neighbours read this parity of the band's buffers in an exchange (with edges first: only a
  // plain exchange, after a fill or an edit) since the band last wrote it: the next launch into it
  // makes the band's stream wait for them (PeerExchange::before_write); the launches after it need
  // not.
  std::array<bool, 2> plain_read{};
  // Edges first: the edge stream, its edge buffers (per parity: top window, bottom window, in
  // `edges`), and the events that tie the two streams of a launch together.
  cuda::Stream edge_stream;
  cuda::DeviceBuffer edges;
  std::array<std::byte*, 2> top{};
  std::array<std::byte*, 2> bottom{};
  cuda::Event launch_start{cuda::Event::Create{}, false};
  // Host snapshots: the bit-layout copy of the own rows (other layouts), and the copy's end.
  cuda::DeviceBuffer snap_staging;
  cuda::Event snap_done{cuda::Event::Create{}, false};
  cuda::Event edges_done{cuda::Event::Create{}, false};

  std::byte* own_rows(std::size_t row_bytes, int halo) const {
    return buffers[static_cast<std::size_t>(front)] + row_bytes * static_cast<std::size_t>(halo);
  }
};

}  // namespace ls::multi
