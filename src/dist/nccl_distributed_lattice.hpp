// nccl_distributed_lattice.hpp — the GPU backend of a distributed run: this rank's band on its GPU,
// a SplitLattice holding one band of the ranks' partition (multi::ProcessShare), its halos moved by
// NCCL (NcclExchange); summaries summed and rows gathered on rank 0 over MPI (BandComm).
#pragma once

#include <memory>
#include <vector>

#include "dist/band_comm.hpp"
#include "dist/distributed_lattice.hpp"
#include "dist/nccl_comm.hpp"
#include "dist/nccl_exchange.hpp"
#include "multi/device_workers.hpp"
#include "multi/split_lattice.hpp"

namespace ls::dist {

class NcclDistributedLattice final : public DistributedLattice {
 public:
  /// Band comm.rank() of the ranks' partition of `spec` on CUDA device `device`, filled from
  /// spec.init (a RandomInit) or `pattern` placed centred. Allocates and fills without
  /// communicating (InputError when the band does not fit; DeviceError for a device failure).
  NcclDistributedLattice(const BandComm& comm, const InstanceSpec& spec, const Pattern* pattern, int device);
  /// The NCCL communicator first (finalized, or aborted after a failure), then the band.
  ~NcclDistributedLattice() override;

  std::string backend() const override { return "cuda"; }
  std::string variant() const override;
  std::string device_name() const override;
  void connect() override;
  void step(int generations) override;
  void finish() override;
  void set_exchange(bool on) override;
  void start_exchange_timing() override;
  ExchangeTiming exchange_timing() override;
  StateSummary summarize() override;
  Lattice gather() override;
  void abort() noexcept override;

 private:
  const BandComm& comm_;
  int device_;
  std::unique_ptr<NcclComm> nccl_;
  std::unique_ptr<multi::DeviceWorkers> workers_;
  std::unique_ptr<multi::SplitLattice> lattice_;
  NcclExchange* exchange_ = nullptr;  // the lattice's exchange (it owns it)
  cudaStream_t stream_ = nullptr;     // the band's stream: its launches and exchanges
};

}  // namespace ls::dist
