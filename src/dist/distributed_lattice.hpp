// distributed_lattice.hpp — one W x H lattice held by the ranks of an MPI job, one band each (cut as
// a split lattice is cut across GPUs: multi::partition_rows). What `run --distributed` drives; the
// CPU backend (CpuDistributedLattice) and the GPU backend (NCCL) implement it. Every call is
// collective: every rank makes the same calls in the same order.
#pragma once

#include <string>

#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "core/non_copyable.hpp"

namespace ls::dist {

class DistributedLattice : NonCopyable {
 public:
  virtual ~DistributedLattice() = default;

  /// "cpu" or "cuda"; the variant and device as the header line names them (rank 0's device).
  virtual std::string backend() const = 0;
  virtual std::string variant() const = 0;
  virtual std::string device_name() const = 0;

  /// The first collective call, after every rank agreed that its input is good: connects to the
  /// neighbouring ranks (NCCL's communicator; nothing for the CPU backend).
  virtual void connect() {}
  /// Advances every band `generations` generations, its halos refreshed from the neighbouring
  /// ranks as needed. However a run is cut into calls, the same generations give the same state.
  virtual void step(int generations) = 0;
  /// Waits until this rank's work is done (a progress line's rate is then true).
  virtual void finish() = 0;
  /// The whole lattice's summary (population and state hash summed over the bands, mod 2^64) on
  /// rank 0; other ranks get a value that means nothing.
  virtual StateSummary summarize() = 0;
  /// The whole lattice, gathered on rank 0; other ranks get an empty lattice.
  virtual Lattice gather() = 0;

  // What `bench --distributed` measures the exchange with. Every rank makes the same calls.
  /// With `on` false, steps skip the halo exchange: the bands then drift from the lattice (for
  /// timing a launch without its exchange; summaries afterwards mean nothing).
  virtual void set_exchange(bool on) = 0;
  /// Times every halo exchange from now on (replacing what was timed before).
  virtual void start_exchange_timing() = 0;
  /// After finish(): the exchanges timed since start_exchange_timing() and their mean in seconds,
  /// as this rank saw them (GPU: between events around the NCCL group on the band's stream, so
  /// waiting for a late neighbour counts; CPU: the MPI calls' wall time).
  struct ExchangeTiming {
    long long count = 0;
    double mean_seconds = 0;
  };
  virtual ExchangeTiming exchange_timing() = 0;

  /// After a failure on this rank, before MPI_Abort: ends what would wait for the other ranks
  /// (ncclCommAbort). Not usable afterwards.
  virtual void abort() noexcept {}
};

}  // namespace ls::dist
