// mpi_session.hpp — the MPI side of one process of a distributed run: MPI_Init_thread on
// construction, MPI_Finalize on destruction (or MPI_Abort after a failure), this process's rank
// and its local rank on its host; and the one error path of MPI calls (MpiError names the call).
#pragma once

#include <mpi.h>

#include <string>

#include "core/error.hpp"
#include "core/non_copyable.hpp"

namespace ls::dist {

/// A failed MPI call: "MPI_Sendrecv: <MPI's error string>". Exit status 3, after MPI_Abort.
class MpiError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

/// Throws MpiError naming `call` unless rc is MPI_SUCCESS (MPI_COMM_WORLD returns errors: see
/// MpiSession).
void mpi_check(int rc, const char* call);
#define LS_MPI_CHECK(call, ...) ::ls::dist::mpi_check(call(__VA_ARGS__), #call)

class MpiSession : NonCopyable {
 public:
  /// MPI_Init_thread (MPI_THREAD_FUNNELED: only the main thread calls MPI), then errors on
  /// MPI_COMM_WORLD return to the caller (MPI_ERRORS_RETURN) so each names its call; rank and size,
  /// and the rank among the processes on this host (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED).
  /// Throws MpiError (MPI then cannot abort the others: it never started).
  MpiSession();
  /// MPI_Finalize, unless abort() ran.
  ~MpiSession();

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }
  MPI_Comm world() const { return MPI_COMM_WORLD; }

  /// MPI_Abort(MPI_COMM_WORLD, status): every rank of the job ends with it, none waits for this one.
  [[noreturn]] void abort(int status);

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

}  // namespace ls::dist
