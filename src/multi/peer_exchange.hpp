// peer_exchange.hpp — HaloExchange between bands of one process: cudaMemcpyPeerAsync on the
// receiving band's stream (or its edge stream, from the neighbours' edge buffers), ordered by
// events on both sides; through pinned host memory where two
// GPUs have no peer access (still asynchronous); a plain device copy between bands of one GPU.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "multi/halo_exchange.hpp"
#include "multi/phase_barrier.hpp"

namespace ls::multi {

/// How a pair of bands copies: on one GPU, peer to peer, or staged through pinned host memory.
enum class CopyPath { same_device, peer, host_staged };

class PeerExchange final : public HaloExchange {
 public:
  /// Enables peer access between neighbouring GPUs where it exists (once per pair; never
  /// disabled) and makes the events (and, without peer access, the pinned staging buffers of
  /// `max_rows` rows) each band needs. The caller's current device is kept. `sparse`: launches
  /// without an exchange come between exchanges (deep halos), so each exchange also waits until
  /// every band has recorded its `pulled` (peer_exchange.cpp says why).
  PeerExchange(std::vector<BandMemory> bands, std::size_t row_bytes, int halo, int max_rows,
               bool sparse = false);
  ~PeerExchange() override;

  void before_write(int band, int buffer) override;
  void exchange(int band, int buffer, int rows) override;
  /// When every band has edge buffers and an edge stream.
  bool sends_edges() const override { return edges_; }
  void exchange_edges(int band, int buffer, int rows) override;
  void before_write_edges(int band, int buffer) override;
  void abort() noexcept override;

  /// The path from band `from` to band `to`'s halo (tests and the bench say which ran).
  CopyPath path(int from, int to) const;

 private:
  struct Side;
  struct BandEvents;
  /// From the neighbours' own rows in their buffers, on the band's stream; or (`edges`) from their
  /// edge buffers, on the band's edge stream.
  void pull(int band, int buffer, int rows, bool edges);
  /// Makes `stream` wait for the neighbours' `pulled[buffer]` (before a write of that parity).
  void wait_for_neighbours_pulled(int band, int buffer, cudaStream_t stream) const;
  bool edges_ = false;
  bool sparse_ = false;
  std::vector<BandMemory> bands_;
  std::size_t row_bytes_;
  int halo_;
  PhaseBarrier barrier_;
  std::vector<std::unique_ptr<BandEvents>> events_;
};

}  // namespace ls::multi
