// nccl_comm.hpp — the NCCL communicator of a distributed GPU run (one GPU per rank): the unique id
// made by rank 0 and sent by MPI_Bcast, ncclCommInitRank on the rank's GPU, and the teardown
// (ncclCommFinalize + ncclCommDestroy, or ncclCommAbort after a failure). NCCL's library and error
// path are multi/nccl_library.hpp's.
#pragma once

#include <nccl.h>

#include "dist/band_comm.hpp"
#include "multi/nccl_library.hpp"

namespace ls::dist {

class NcclComm {
 public:
  /// Opens NCCL (nccl_library): every rank says it is missing before any collective call.
  NcclComm();
  /// Finalizes and destroys the communicator (unless abort() ran or it never started).
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  /// Rank 0's ncclGetUniqueId to every rank (MPI_Bcast on the calling thread, which must be the
  /// one that calls MPI).
  static ncclUniqueId shared_id(const BandComm& mpi);
  /// ncclCommInitRank for rank `rank` of `ranks` with `id`; call on a thread whose current device
  /// is the rank's GPU. Collective: returns when every rank has called it.
  void init(const ncclUniqueId& id, int ranks, int rank);

  ncclComm_t get() const { return comm_; }
  /// ncclCommAbort: ends the communicator without waiting for the other ranks or the GPU.
  void abort() noexcept;

 private:
  ncclComm_t comm_ = nullptr;
};

}  // namespace ls::dist
