// distributed_setup.hpp — what `run --distributed` and `bench --distributed` decide alike before
// any communication: the backend (GPU through NCCL, or CPU), each rank's band and GPU, and the
// rank's DistributedLattice (src/dist).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "control/device_args.hpp"
#include "core/engine.hpp"
#include "core/pattern.hpp"
#include "dist/band_comm.hpp"
#include "dist/distributed_lattice.hpp"
#include "dist/mpi_session.hpp"
#include "multi/band_partition.hpp"

namespace ls {

/// The backend options of a distributed command.
struct DistributedBackend {
  std::string backend = "auto";  // auto, cpu or cuda
  DeviceList devices;            // --devices LIST or --device N: narrows each rank's GPU
  bool devices_given = false;
};

/// Whether the ranks run on GPUs: `cuda`, or `auto` on a host with a GPU in a build with NCCL.
/// InputError for an unknown backend, for `cuda` in a build without NCCL, and for --devices naming
/// several GPUs (or all) with `cpu`, as a one-process run refuses it.
bool distributed_wants_gpu(const DistributedBackend& b);

/// The name of the device this rank runs on: its GPU's (as make_distributed_lattice picks it), or
/// the host's CPU model.
std::string rank_device_name(const DistributedBackend& b, bool gpu, int local_rank);

/// Rank 0, once the ranks agreed, on the CPU backend: a note on stderr when --device/--devices was
/// given (one device with `cpu`, or any with `auto` on a host without GPUs). Said, not refused: a
/// one-process CPU run accepts one device, and a cluster's command line may name GPUs that only
/// some hosts have. `prefix` starts the line ("lifestreams run").
void note_cpu_devices(const char* prefix, const DistributedBackend& b);

/// `height` rows cut into `ranks` bands as a split lattice is cut across GPUs; a band too thin for
/// the variant is refused in words of ranks (InputError).
std::vector<multi::Band> rank_bands(int height, int ranks, Variant variant, int k);

/// This rank's band of `spec` (filled from spec.init, or `pattern` placed centred): on its GPU
/// (local rank modulo the GPUs --devices leaves) when `gpu`, else on the CPU with the host's cores
/// shared among its ranks. Allocates without communicating.
std::unique_ptr<dist::DistributedLattice> make_distributed_lattice(const DistributedBackend& b, bool gpu,
                                                                   const InstanceSpec& spec,
                                                                   const Pattern* pattern,
                                                                   const dist::MpiSession& mpi,
                                                                   const dist::BandComm& comm);

}  // namespace ls
