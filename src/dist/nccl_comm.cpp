// nccl_comm.cpp — NCCL start, end and errors (nccl_comm.hpp).
#include "dist/nccl_comm.hpp"

#include <string>

namespace ls::dist {

NcclComm::NcclComm() {
  try {
    multi::nccl_library();
  } catch (const multi::NcclError& e) {
    throw multi::NcclError(std::string(e.what()) + "; --backend cpu runs without it");
  }
}

NcclComm::~NcclComm() {
  if (!comm_) return;
  // Flushes what is still queued on the communicator, then frees it; errors here have no one left
  // to tell, so the communicator is aborted instead.
  const multi::NcclLibrary& nccl = multi::nccl_library();
  if (nccl.ncclCommFinalize(comm_) != ncclSuccess || nccl.ncclCommDestroy(comm_) != ncclSuccess)
    nccl.ncclCommAbort(comm_);
  comm_ = nullptr;
}

ncclUniqueId NcclComm::shared_id(const BandComm& mpi) {
  ncclUniqueId id{};
  if (mpi.rank() == 0) LS_NCCL_CHECK(ncclGetUniqueId, &id);
  mpi.broadcast_bytes(&id, sizeof id);
  return id;
}

void NcclComm::init(const ncclUniqueId& id, int ranks, int rank) {
  LS_NCCL_CHECK(ncclCommInitRank, &comm_, ranks, id, rank);
}

void NcclComm::abort() noexcept {
  if (!comm_) return;
  multi::nccl_library().ncclCommAbort(comm_);
  comm_ = nullptr;
}

}  // namespace ls::dist
