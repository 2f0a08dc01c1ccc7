// cpu_distributed_lattice.cpp — CPU bands over MPI (cpu_distributed_lattice.hpp).
#include "dist/cpu_distributed_lattice.hpp"

#include <chrono>
#include <variant>

#include "core/cpu_engine.hpp"

namespace ls::dist {

CpuDistributedLattice::CpuDistributedLattice(const BandComm& comm, std::vector<multi::Band> bands,
                                             const InstanceSpec& spec, const Pattern* pattern, int threads)
    : comm_(comm),
      bands_(std::move(bands)),
      width_(spec.width),
      height_(spec.height),
      band_(spec.width, spec.height, bands_.at(static_cast<std::size_t>(comm.rank())), spec.rule, threads) {
  if (pattern) {
    band_.place_centred(*pattern);
  } else if (const auto* r = std::get_if<RandomInit>(&spec.init)) {
    band_.fill_random(*r);
  }
}

std::string CpuDistributedLattice::device_name() const { return CpuEngine(1).device_name(); }

void CpuDistributedLattice::step(int generations) {
  band_.step(generations, [&](CpuBand& b) {
    if (!exchange_on_) return;
    if (!timing_) {
      comm_.refresh_halos(b);
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    comm_.refresh_halos(b);
    exchange_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++exchanges_;
  });
  generation_ += static_cast<std::uint64_t>(generations);
}

void CpuDistributedLattice::start_exchange_timing() {
  timing_ = true;
  exchanges_ = 0;
  exchange_seconds_ = 0;
}

DistributedLattice::ExchangeTiming CpuDistributedLattice::exchange_timing() {
  return {exchanges_, exchanges_ > 0 ? exchange_seconds_ / static_cast<double>(exchanges_) : 0.0};
}

StateSummary CpuDistributedLattice::summarize() {
  return comm_.summarize(generation_, band_.population(), band_.hash_terms(), width_, height_);
}

Lattice CpuDistributedLattice::gather() { return comm_.gather(bands_, band_.own_row(0), width_, height_); }

}  // namespace ls::dist
