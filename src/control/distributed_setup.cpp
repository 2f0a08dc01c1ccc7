// distributed_setup.cpp — backend, bands, GPUs and lattices of distributed commands
// (distributed_setup.hpp).
#include "control/distributed_setup.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include "core/cpu_engine.hpp"
#include "core/error.hpp"
#include "dist/cpu_distributed_lattice.hpp"
#if defined(LIFESTREAMS_HAVE_NCCL)
#include <cuda_runtime_api.h>

#include "dist/nccl_distributed_lattice.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_engine.hpp"
#endif

namespace ls {

namespace {

bool several_devices(const DeviceList& d) { return d.all || d.ordinals.size() > 1; }

#if defined(LIFESTREAMS_HAVE_NCCL)
// This rank's GPU: its local rank on its host modulo the GPUs --devices leaves (default: all).
int rank_device(const DistributedBackend& b, int local_rank) {
  std::string why;
  if (cuda_device_count(&why) == 0) throw DeviceError("--backend cuda: no usable CUDA device (" + why + ")");
  const std::vector<int> list =
      resolve_devices("--devices", b.devices_given ? b.devices : DeviceList{true, {}});
  return list[static_cast<std::size_t>(local_rank) % list.size()];
}
#endif

}  // namespace

bool distributed_wants_gpu(const DistributedBackend& b) {
  if (b.backend == "cpu") {
    // The one-process run's refusal, word for word: a list of GPUs contradicts --backend cpu. One
    // device (--device N, whose default is 0) it accepts; the lattice's maker notes it.
    if (b.devices_given && several_devices(b.devices))
      throw InputError(
          "--devices with --backend cpu: the CPU engine uses no GPU; give one device or --backend cuda");
    return false;
  }
  if (b.backend != "auto" && b.backend != "cuda")
    throw InputError("--backend " + b.backend + ": expected auto, cpu or cuda");
#if defined(LIFESTREAMS_HAVE_NCCL)
  return b.backend == "cuda" || cuda_device_count() > 0;
#else
  if (b.backend == "cuda") {
#if defined(LIFESTREAMS_HAVE_CUDA)
    throw InputError(
        "--distributed --backend cuda: this build has no NCCL (nccl.h and libnccl.so were not found in "
        "the CUDA installation); use --backend cpu");
#else
    throw InputError(
        "--distributed --backend cuda: this build has no CUDA engine (and so no NCCL); use --backend cpu");
#endif
  }
  return false;
#endif
}

std::vector<multi::Band> rank_bands(int height, int ranks, Variant variant, int k) {
  const int thinnest = height / multi::kBandRowGranularity / ranks * multi::kBandRowGranularity;
  const int need = multi::min_band_rows(variant, k);
  if (thinnest < need) {
    throw InputError("lattice of height " + std::to_string(height) + " over " + std::to_string(ranks) +
                     " ranks: the thinnest band would have " + std::to_string(thinnest) +
                     " rows; a band needs at least " + std::to_string(need) + " (" +
                     std::to_string(need * ranks) + " rows in all)");
  }
  return multi::partition_rows(height, ranks, variant, k);
}

std::string rank_device_name(const DistributedBackend& b, bool gpu, int local_rank) {
#if defined(LIFESTREAMS_HAVE_NCCL)
  if (gpu) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, rank_device(b, local_rank)));
    return prop.name;
  }
#else
  (void)b;
  (void)gpu;
  (void)local_rank;
#endif
  return CpuEngine(1).device_name();
}

void note_cpu_devices(const char* prefix, const DistributedBackend& b) {
  if (b.devices_given)
    std::cerr << prefix
              << ": note: --device/--devices apply to the GPU backend; the ranks run the CPU engine\n";
}

std::unique_ptr<dist::DistributedLattice> make_distributed_lattice(const DistributedBackend& b, bool gpu,
                                                                   const InstanceSpec& spec,
                                                                   const Pattern* pattern,
                                                                   const dist::MpiSession& mpi,
                                                                   const dist::BandComm& comm) {
  if (gpu) {
#if defined(LIFESTREAMS_HAVE_NCCL)
    rank_bands(spec.height, mpi.size(), spec.variant,
               spec.generations_per_launch);  // refused in words of ranks
    return std::make_unique<dist::NcclDistributedLattice>(comm, spec, pattern,
                                                          rank_device(b, mpi.local_rank()));
#else
    (void)b;  // no GPU backend in this build: refused before this (distributed_setup's checks)
#endif
  }
  auto bands = rank_bands(spec.height, mpi.size(), Variant::naive, 1);
  // The host's cores shared among its ranks.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = std::max(1, cores / mpi.local_size());
  return std::make_unique<dist::CpuDistributedLattice>(comm, std::move(bands), spec, pattern, threads);
}

}  // namespace ls
