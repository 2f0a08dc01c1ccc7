// halo_exchange.hpp — the one interface a split lattice's bands use to talk to their neighbours:
// after a launch (every launch, or every few with deep halos), refresh the halo rows next to every
// band's own rows from the neighbours' own rows, stream-ordered, never blocking on a device.
// PeerExchange (peer copies in one process, also from edge buffers stepped ahead of the interior:
// exchange_edges) and NcclBandExchange (NCCL between the bands of one process) implement it here;
// NcclExchange (src/dist) puts ncclSend/ncclRecv between processes under exchange().
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>

#include "core/non_copyable.hpp"

namespace ls::multi {

/// One band's memory as an exchange sees it. Each of the two buffers (the generations alternate
/// between them) holds `halo` rows, the band's `rows` own rows, then `halo` rows, each `row_bytes`
/// long. The band above band b is b - 1, the band below b + 1; on the torus the first band's upper
/// neighbour is the last band.
struct BandMemory {
  int device = 0;
  cudaStream_t stream = nullptr;
  std::array<std::byte*, 2> buffers{};
  int rows = 0;
  /// Edges first (split_lattice.hpp): the band steps the rows its neighbours need into small edge
  /// buffers on `edge_stream`, ahead of its interior on `stream`. Per buffer parity, where its
  /// first own row is in the top edge buffer, and where its last own row ends in the bottom one.
  /// Null when the band has no edge buffers.
  cudaStream_t edge_stream = nullptr;
  std::array<std::byte*, 2> first_row_edge{};
  std::array<std::byte*, 2> rows_end_edge{};
};

class HaloExchange : NonCopyable {
 public:
  virtual ~HaloExchange() = default;

  /// Called by band `band`'s thread before it enqueues work that writes buffers[buffer] (a launch
  /// into it, a cell edit): makes the band's stream wait until its neighbours no longer read it.
  virtual void before_write(int band, int buffer) = 0;
  /// Called by band `band`'s thread after it enqueued a launch into buffers[buffer]: enqueues on
  /// the band's stream what fills the `rows` halo rows next to its own rows, on each side, from
  /// its neighbours' own rows in their buffers[buffer] (the upper neighbour's last rows, the lower
  /// neighbour's first). Every band calls it for the same launches in the same order; it may wait
  /// for the other bands' threads to reach the same call, never for a device.
  virtual void exchange(int band, int buffer, int rows) = 0;
  /// Whether exchange_edges() is there (every band then has edge buffers and an edge stream).
  virtual bool sends_edges() const { return false; }
  /// Edges first: as before_write(), but the band's edge stream waits (its neighbours read only
  /// its edge buffers, which that stream writes), so that the band's own stream never waits for
  /// another GPU.
  virtual void before_write_edges(int band, int buffer) { before_write(band, buffer); }
  /// As exchange(), but each band's rows come from its edge buffers of parity `buffer`, and the
  /// copies into the halos of buffers[buffer] run on the band's edge stream, ordered after what it
  /// enqueued there last, so they travel while the band's interior is stepped on its stream.
  virtual void exchange_edges(int band, int buffer, int rows) { (void)band, (void)buffer, (void)rows; }
  /// After a band's thread failed: every thread waiting in exchange() throws instead of waiting
  /// for it, and so do later calls. The exchange is not usable afterwards.
  virtual void abort() noexcept = 0;
  /// After a failure, before the bands' streams are drained: stops what the exchange left queued on
  /// the devices that waits for a band that will not come (NCCL's kernels), so that the drain
  /// returns. The exchange is not usable afterwards.
  virtual void cancel() noexcept {}
};

}  // namespace ls::multi
