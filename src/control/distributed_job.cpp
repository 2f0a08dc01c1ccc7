// distributed_job.cpp — prepare, agree, run; abort on a lone failure (distributed_job.hpp).
#include "control/distributed_job.hpp"

#include <iostream>
#include <new>
#include <optional>
#include <string>

#include "core/error.hpp"

namespace ls {

int run_distributed_job(const char* prefix, const PrepareJob& prepare) {
  std::optional<dist::MpiSession> mpi;
  try {
    mpi.emplace();
  } catch (const dist::MpiError& e) {
    std::cerr << prefix << ": " << e.what() << "\n";
    return 3;
  }
  const dist::BandComm comm(mpi->world(), mpi->rank(), mpi->size());
  const bool speak = mpi->rank() == 0;

  // Every rank checks everything it can before any communication: the same options and files give
  // the same refusal everywhere, and only rank 0 says it.
  std::unique_ptr<DistributedJob> job;
  std::string message;
  int status = 0;
  try {
    job = prepare(*mpi, comm, speak);
  } catch (const InputError& e) {
    status = 2;
    message = e.what();
  } catch (const std::bad_alloc&) {
    status = 2;
    message = "out of host memory";
  } catch (const DeviceError& e) {
    status = 3;
    message = e.what();
  }
  try {
    const int worst = comm.worst(status);
    if (worst != 0) {
      // The line comes from rank 0 when it failed too, else from the first rank that failed.
      const int teller = comm.least(status != 0 ? mpi->rank() : mpi->size());
      if (mpi->rank() == teller) {
        std::cerr << prefix << ": " << (teller == 0 ? std::string() : "rank " + std::to_string(teller) + ": ")
                  << message << "\n";
      }
      return worst;
    }
    if (!job) return 0;
    return job->run();
  } catch (const std::exception& e) {
    // Past the agreement every rank runs the same calls: one rank failing alone (an MPI or NCCL
    // call, memory) ends the job, so no rank waits for it.
    const bool input =
        dynamic_cast<const InputError*>(&e) != nullptr || dynamic_cast<const std::bad_alloc*>(&e);
    std::cerr << prefix << ": rank " << mpi->rank() << ": " << e.what() << "\n";
    // No teardown: freeing a GPU band would wait for NCCL work that waits for the other ranks.
    if (job) job->abort();
    mpi->abort(input ? 2 : 3);
  }
}

}  // namespace ls
