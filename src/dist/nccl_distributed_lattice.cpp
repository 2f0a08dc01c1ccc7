// nccl_distributed_lattice.cpp — one band per rank on its GPU, halos by NCCL
// (nccl_distributed_lattice.hpp).
#include "dist/nccl_distributed_lattice.hpp"

#include <cuda_runtime_api.h>

#include "dist/nccl_exchange.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::dist {

NcclDistributedLattice::NcclDistributedLattice(const BandComm& comm, const InstanceSpec& spec,
                                               const Pattern* pattern, int device)
    : comm_(comm), device_(device), nccl_(std::make_unique<NcclComm>()) {
  workers_ = std::make_unique<multi::DeviceWorkers>(std::vector<int>{device});
  InstanceSpec start = spec;
  if (pattern) {
    // The whole lattice on the host, of which the band uploads its rows.
    Lattice l(spec.width, spec.height);
    l.place_centred(*pattern);
    start.init = std::move(l);
  }
  multi::ProcessShare share;
  share.total_bands = comm.size();
  share.first_band = comm.rank();
  const NcclComm& nccl = *nccl_;
  const int rank = comm.rank(), ranks = comm.size();
  share.make_exchange = [this, &nccl, rank, ranks](std::vector<multi::BandMemory> bands,
                                                   std::size_t row_bytes, int halo,
                                                   int) -> std::unique_ptr<multi::HaloExchange> {
    auto exchange = std::make_unique<NcclExchange>(bands.front(), row_bytes, halo, nccl, rank, ranks);
    exchange_ = exchange.get();
    stream_ = bands.front().stream;
    return exchange;
  };
  lattice_ = std::make_unique<multi::SplitLattice>(*workers_, start, 0, &share);
}

NcclDistributedLattice::~NcclDistributedLattice() {
  // Reverse order of the start: the communicator (its queued work flushed), the band, its thread.
  nccl_.reset();
  lattice_.reset();
  workers_.reset();
}

std::string NcclDistributedLattice::variant() const { return std::string(variant_name(lattice_->variant())); }

std::string NcclDistributedLattice::device_name() const {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
  return prop.name;
}

void NcclDistributedLattice::connect() {
  // The id goes by MPI on this (the MPI) thread; the communicator starts on the band's thread,
  // whose current device is the band's.
  const ncclUniqueId id = NcclComm::shared_id(comm_);
  workers_->run_on_all([&](int) { nccl_->init(id, comm_.size(), comm_.rank()); });
  // Each rank chose its launches between exchanges from its own GPU's launcher; their exchanges
  // must meet, and every rank's halos hold the least of them.
  lattice_->lower_launches_per_exchange(comm_.least(lattice_->launches_per_exchange()));
}

void NcclDistributedLattice::step(int generations) { lattice_->step(generations); }

void NcclDistributedLattice::finish() {
  // Every launch and exchange of the band is on its stream: idle stream, work done.
  workers_->run_on_all([&](int) { CUDA_CHECK(cudaStreamSynchronize(stream_)); });
}

void NcclDistributedLattice::set_exchange(bool on) { exchange_->set_enabled(on); }

void NcclDistributedLattice::start_exchange_timing() { exchange_->start_timing(); }

DistributedLattice::ExchangeTiming NcclDistributedLattice::exchange_timing() {
  ExchangeTiming t;
  workers_->run_on_all([&](int) {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    const auto [count, mean] = exchange_->timed();
    t = {count, mean};
  });
  return t;
}

StateSummary NcclDistributedLattice::summarize() {
  const StateSummary mine = lattice_->summarize();
  return comm_.summarize(mine.generation, mine.population, mine.hash, lattice_->width(), lattice_->height());
}

Lattice NcclDistributedLattice::gather() {
  const Lattice mine = lattice_->read();
  return comm_.gather(lattice_->bands(),
                      mine.row(lattice_->bands()[static_cast<std::size_t>(comm_.rank())].first_row),
                      lattice_->width(), lattice_->height());
}

void NcclDistributedLattice::abort() noexcept {
  if (nccl_) nccl_->abort();
}

}  // namespace ls::dist
