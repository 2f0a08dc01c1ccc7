// mpi_session.cpp — MPI start, end and errors of one process (mpi_session.hpp).
#include "dist/mpi_session.hpp"

#include <cstdlib>

namespace ls::dist {

void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw MpiError(std::string(call) + ": " +
                 (length > 0 ? std::string(text, length) : "error " + std::to_string(rc)));
}

MpiSession::MpiSession() {
  int provided = 0;
  LS_MPI_CHECK(MPI_Init_thread, nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  LS_MPI_CHECK(MPI_Comm_set_errhandler, MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  LS_MPI_CHECK(MPI_Comm_rank, MPI_COMM_WORLD, &rank_);
  LS_MPI_CHECK(MPI_Comm_size, MPI_COMM_WORLD, &size_);
  MPI_Comm local = MPI_COMM_NULL;
  LS_MPI_CHECK(MPI_Comm_split_type, MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  LS_MPI_CHECK(MPI_Comm_rank, local, &local_rank_);
  LS_MPI_CHECK(MPI_Comm_size, local, &local_size_);
  LS_MPI_CHECK(MPI_Comm_free, &local);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::abort(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  // MPI_Abort does not return; should it, this process still must not linger.
  std::_Exit(status);
}

}  // namespace ls::dist
