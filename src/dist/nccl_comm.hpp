// nccl_comm.hpp — the NCCL communicator of a distributed GPU run (one GPU per rank): the unique id
// made by rank 0 and sent by MPI_Bcast, ncclCommInitRank on the rank's GPU, and the teardown
// (ncclCommFinalize + ncclCommDestroy, or ncclCommAbort after a failure); and NCCL's error path
// (NcclError names the call).
#pragma once

#include <nccl.h>

#include "core/error.hpp"
#include "dist/band_comm.hpp"
#include "dist/nccl_library.hpp"

namespace ls::dist {

/// A failed NCCL call: "ncclSend: <ncclGetErrorString>". Exit status 3, after ncclCommAbort and
/// MPI_Abort.
class NcclError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

/// Throws NcclError naming `call` unless rc is ncclSuccess.
void nccl_check(ncclResult_t rc, const char* call);
#define LS_NCCL_CHECK(call, ...) ::ls::dist::nccl_check(::ls::dist::nccl_library().call(__VA_ARGS__), #call)

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
