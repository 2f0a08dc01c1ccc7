// cpu_distributed_lattice.hpp — the CPU backend of a distributed run: this rank's CpuBand, its halos
// refreshed over MPI (BandComm) every CpuBand::kHalo generations.
#pragma once

#include <cstdint>
#include <vector>

#include "dist/band_comm.hpp"
#include "dist/cpu_band.hpp"
#include "dist/distributed_lattice.hpp"

namespace ls::dist {

class CpuDistributedLattice final : public DistributedLattice {
 public:
  /// Band comm.rank() of `bands` (a partition of spec's height), filled from spec.init (a
  /// RandomInit) or `pattern` (placed centred) when given. `threads` for cpu_step. Allocates and
  /// fills without communicating, so a refusal (InputError) can still be agreed on.
  CpuDistributedLattice(const BandComm& comm, std::vector<multi::Band> bands, const InstanceSpec& spec,
                        const Pattern* pattern, int threads);

  std::string backend() const override { return "cpu"; }
  std::string variant() const override { return "cpu"; }
  std::string device_name() const override;
  void step(int generations) override;
  void finish() override {}
  void set_exchange(bool on) override { exchange_on_ = on; }
  void start_exchange_timing() override;
  ExchangeTiming exchange_timing() override;
  StateSummary summarize() override;
  Lattice gather() override;

 private:
  const BandComm& comm_;
  std::vector<multi::Band> bands_;
  int width_;
  int height_;
  std::uint64_t generation_ = 0;
  CpuBand band_;
  bool exchange_on_ = true;
  bool timing_ = false;
  long long exchanges_ = 0;
  double exchange_seconds_ = 0;
};

}  // namespace ls::dist
