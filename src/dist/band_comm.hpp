// band_comm.hpp — the MPI traffic of a distributed run: halo rows between neighbouring ranks (the
// CPU backend's exchange), bands' summaries summed and bands' rows gathered on rank 0, and the
// agreement on a status every rank reaches. Rank r holds band r; on the torus rank 0's upper
// neighbour is rank R-1.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "dist/cpu_band.hpp"
#include "multi/band_partition.hpp"

namespace ls::dist {

class BandComm {
 public:
  BandComm(MPI_Comm comm, int rank, int size) : comm_(comm), rank_(rank), size_(size) {}

  int rank() const { return rank_; }
  int size() const { return size_; }

  /// Fills the band's halos from its neighbours' own rows (MPI_Sendrecv each way; one rank: its
  /// own rows, copied).
  void refresh_halos(CpuBand& band) const;

  /// Rank 0: the lattice's population and hash from every rank's (population, hash terms), summed
  /// in unsigned 64-bit arithmetic on rank 0 (mod 2^64, whatever MPI_SUM would do). Others: {}.
  StateSummary summarize(std::uint64_t generation, std::uint64_t population, std::uint64_t hash_terms,
                         int width, int height) const;

  /// Rank 0: the whole width x height lattice from every rank's own rows (bands[r] is rank r's;
  /// `rows` points to this rank's, `row_words` 32-bit words each, contiguous). Others: empty.
  Lattice gather(const std::vector<multi::Band>& bands, const std::uint32_t* rows, int width,
                 int height) const;

  /// The largest of every rank's `status` (MPI_Allreduce, MPI_MAX).
  int worst(int status) const;
  /// The smallest of every rank's `value` (MPI_Allreduce, MPI_MIN).
  int least(int value) const;
  /// The largest of every rank's `value` (MPI_Allreduce, MPI_MAX): the slowest rank's time.
  double longest(double value) const;
  /// Returns when every rank has called it (MPI_Barrier): timed sections start together.
  void barrier() const;
  /// Rank 0's `value` on every rank (MPI_Bcast).
  int from_rank0(int value) const;
  /// Rank 0's `bytes` bytes at `data` into every rank's `data` (MPI_Bcast).
  void broadcast_bytes(void* data, int bytes) const;

 private:
  MPI_Comm comm_;
  int rank_;
  int size_;
};

}  // namespace ls::dist
