// distributed_job.hpp — the life of one process of a distributed command (`run --distributed`,
// `bench --distributed`): MPI up; every rank prepares (options, files, its band) before any
// communication; the ranks agree that all went well, else one line (from rank 0 when it saw the
// problem too) and the worst status on every rank; then the job runs, every rank making the same
// collective calls, and a failure on one rank past the agreement aborts the whole job, so that no
// rank waits for it.
#pragma once

#include <functional>
#include <memory>

#include "core/non_copyable.hpp"
#include "dist/band_comm.hpp"
#include "dist/mpi_session.hpp"

namespace ls {

class DistributedJob : NonCopyable {
 public:
  virtual ~DistributedJob() = default;

  /// Runs once every rank has prepared its job; returns the exit status, the same on every rank.
  virtual int run() = 0;
  /// After a failure on this rank past the agreement, before MPI_Abort: ends what would wait for
  /// the other ranks (DistributedLattice::abort).
  virtual void abort() noexcept {}
};

/// Prepares this rank's job without communicating (`speak`: this rank is rank 0, the one that
/// prints). Throws InputError (exit 2), std::bad_alloc (2) or DeviceError (3); returns nullptr
/// when there is nothing to run (--help was printed).
using PrepareJob = std::function<std::unique_ptr<DistributedJob>(const dist::MpiSession& mpi,
                                                                 const dist::BandComm& comm, bool speak)>;

/// Starts MPI, prepares on every rank, agrees, runs. `prefix` starts every line of ours on stderr
/// ("lifestreams run"). Returns the exit status: 0, 2 (bad input anywhere), 3 (an MPI, NCCL or
/// device failure, named; past the agreement the job is aborted).
int run_distributed_job(const char* prefix, const PrepareJob& prepare);

}  // namespace ls
