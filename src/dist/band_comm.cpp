// band_comm.cpp — halos, summaries, gathers and agreement over MPI (band_comm.hpp).
#include "dist/band_comm.hpp"

#include <algorithm>
#include <array>

#include "core/splitmix.hpp"
#include "dist/mpi_session.hpp"

namespace ls::dist {

namespace {
constexpr int kTagToUpper = 1;  // my first rows, into my upper neighbour's lower halo
constexpr int kTagToLower = 2;  // my last rows, into my lower neighbour's upper halo
}  // namespace

void BandComm::refresh_halos(CpuBand& band) const {
  const std::size_t words = band.halo_words();
  if (size_ == 1) {
    // The band is the whole torus: its own last rows are above it, its first rows below.
    std::copy_n(band.last_own_rows(), words, band.upper_halo());
    std::copy_n(band.first_own_rows(), words, band.lower_halo());
    return;
  }
  const int upper = (rank_ + size_ - 1) % size_;
  const int lower = (rank_ + 1) % size_;
  const int count = static_cast<int>(words);
  LS_MPI_CHECK(MPI_Sendrecv, band.first_own_rows(), count, MPI_UINT32_T, upper, kTagToUpper,
               band.lower_halo(), count, MPI_UINT32_T, lower, kTagToUpper, comm_, MPI_STATUS_IGNORE);
  LS_MPI_CHECK(MPI_Sendrecv, band.last_own_rows(), count, MPI_UINT32_T, lower, kTagToLower, band.upper_halo(),
               count, MPI_UINT32_T, upper, kTagToLower, comm_, MPI_STATUS_IGNORE);
}

StateSummary BandComm::summarize(std::uint64_t generation, std::uint64_t population, std::uint64_t hash_terms,
                                 int width, int height) const {
  const std::array<std::uint64_t, 2> mine = {population, hash_terms};
  std::vector<std::uint64_t> all(rank_ == 0 ? 2 * static_cast<std::size_t>(size_) : 0);
  LS_MPI_CHECK(MPI_Gather, mine.data(), 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, comm_);
  if (rank_ != 0) return {};
  StateSummary s{generation, 0,
                 lattice_hash_base(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height))};
  for (int r = 0; r < size_; ++r) {
    s.population += all[2 * static_cast<std::size_t>(r)];
    s.hash += all[2 * static_cast<std::size_t>(r) + 1];
  }
  return s;
}

Lattice BandComm::gather(const std::vector<multi::Band>& bands, const std::uint32_t* rows, int width,
                         int height) const {
  // Counts in rows of a row datatype: a whole 2^20-sided lattice has more words than an int counts.
  MPI_Datatype row = MPI_DATATYPE_NULL;
  LS_MPI_CHECK(MPI_Type_contiguous, width / 32, MPI_UINT32_T, &row);
  struct Freed {
    MPI_Datatype* t;
    ~Freed() { MPI_Type_free(t); }
  } freed{&row};
  LS_MPI_CHECK(MPI_Type_commit, &row);
  Lattice whole;
  std::vector<int> counts, offsets;
  if (rank_ == 0) {
    whole = Lattice(width, height);
    for (const multi::Band& b : bands) {
      counts.push_back(b.rows);
      offsets.push_back(b.first_row);
    }
  }
  const multi::Band& mine = bands[static_cast<std::size_t>(rank_)];
  LS_MPI_CHECK(MPI_Gatherv, rows, mine.rows, row, rank_ == 0 ? whole.words().data() : nullptr, counts.data(),
               offsets.data(), row, 0, comm_);
  return whole;
}

int BandComm::worst(int status) const {
  int out = status;
  LS_MPI_CHECK(MPI_Allreduce, &status, &out, 1, MPI_INT, MPI_MAX, comm_);
  return out;
}

int BandComm::least(int value) const {
  int out = value;
  LS_MPI_CHECK(MPI_Allreduce, &value, &out, 1, MPI_INT, MPI_MIN, comm_);
  return out;
}

double BandComm::longest(double value) const {
  double out = value;
  LS_MPI_CHECK(MPI_Allreduce, &value, &out, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return out;
}

void BandComm::barrier() const { LS_MPI_CHECK(MPI_Barrier, comm_); }

int BandComm::from_rank0(int value) const {
  LS_MPI_CHECK(MPI_Bcast, &value, 1, MPI_INT, 0, comm_);
  return value;
}

void BandComm::broadcast_bytes(void* data, int bytes) const {
  LS_MPI_CHECK(MPI_Bcast, data, bytes, MPI_BYTE, 0, comm_);
}

}  // namespace ls::dist
