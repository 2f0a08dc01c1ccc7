// nccl_band_exchange.hpp — halo rows by NCCL. enqueue_halo_swap is the one group of sends and
// receives a band enqueues after a launch (the distributed run's NcclExchange, src/dist, makes the
// same calls); NcclBandExchange is the exchange of a lattice split over several GPUs of one
// process: one communicator per band (ncclCommInitAll over the bands' GPUs), each band's thread
// enqueueing on its own. NCCL's kernels meet on the GPUs, so no band waits for another GPU's event
// or crosses a host barrier: where an exchange is short against the launch (a small lattice), this
// is the cheaper way (split_lattice.hpp says when it is taken).
#pragma once

#include <nccl.h>

#include <atomic>
#include <cstddef>
#include <vector>

#include "multi/halo_exchange.hpp"

namespace ls::multi {

/// Enqueues on `stream`, in one NCCL group, the swap of `rows` halo rows of band `band`'s
/// buffers[buffer] with its neighbours (ranks `upper` and `lower` of `comm`): the first own rows go
/// up into the upper neighbour's lower halo, the last own rows down into the lower neighbour's upper
/// halo. Every rank makes the same four calls in the same order, so with one or two ranks (upper
/// and lower the same rank, or this one) the i-th send to a peer meets the i-th receive from it.
void enqueue_halo_swap(ncclComm_t comm, const BandMemory& band, std::size_t row_bytes, int halo, int buffer,
                       int rows, int upper, int lower, cudaStream_t stream);

class NcclBandExchange final : public HaloExchange {
 public:
  /// One communicator per band, band b rank b; every band on a device of its own. Throws NcclError
  /// when NCCL is missing or its communicators cannot start. The caller's current device is kept.
  NcclBandExchange(std::vector<BandMemory> bands, std::size_t row_bytes, int halo);
  /// Destroys the communicators (aborts them after abort()); the bands' streams are idle by then.
  ~NcclBandExchange() override;

  /// Nothing to wait for: a neighbour reads buffer X only through our sends, queued on our stream
  /// before our next write of X.
  void before_write(int, int) override {}
  void exchange(int band, int buffer, int rows) override;
  /// Later exchanges throw; the communicators are aborted, not destroyed, at the end.
  void abort() noexcept override { aborted_ = true; }
  /// Aborts the communicators now: NCCL's kernels queued for a band that failed stop waiting.
  void cancel() noexcept override;

 private:
  std::vector<BandMemory> bands_;
  std::size_t row_bytes_;
  int halo_;
  std::vector<ncclComm_t> comms_;
  std::atomic<bool> aborted_{false};
};

}  // namespace ls::multi
