// cli_run_distributed.cpp — `lifestreams run --distributed`: MPI up, every rank checks the options and
// files and builds its band, the ranks agree that all went well, then rank 0 prints the lines of a
// one-process run while every rank steps its band (src/dist), and rank 0 writes --output.
#include "app/cli_run_distributed.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "app/cli_numbers.hpp"
#include "app/progress_line.hpp"
#include "core/error.hpp"
#include "core/trace.hpp"
#include "dist/band_comm.hpp"
#include "dist/cpu_distributed_lattice.hpp"
#include "dist/mpi_session.hpp"
#include "multi/band_partition.hpp"
#if defined(LIFESTREAMS_HAVE_NCCL)
#include "app/cli_devices.hpp"
#include "dist/nccl_distributed_lattice.hpp"
#include "sim/cuda_engine.hpp"
#endif

namespace ls {

namespace {

constexpr const char* kPrefix = "lifestreams run";

bool wants_gpu(const RunOptions& o) {
  if (o.backend == "cpu") return false;
  if (o.backend != "auto" && o.backend != "cuda")
    throw InputError("--backend " + o.backend + ": expected auto, cpu or cuda");
#if defined(LIFESTREAMS_HAVE_NCCL)
  return o.backend == "cuda" || cuda_device_count() > 0;
#else
  if (o.backend == "cuda") {
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

// The bands of `height` over `ranks` ranks: the split lattice's partition, refused in the words of
// ranks rather than devices.
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

#if defined(LIFESTREAMS_HAVE_NCCL)
// This rank's GPU: its local rank on its host modulo the GPUs --devices leaves (default: all).
int rank_device(const RunOptions& o, int local_rank) {
  std::string why;
  if (cuda_device_count(&why) == 0) throw DeviceError("--backend cuda: no usable CUDA device (" + why + ")");
  const std::vector<int> list =
      resolve_devices("--devices", o.devices_given ? o.devices : DeviceList{true, {}});
  return list[static_cast<std::size_t>(local_rank) % list.size()];
}
#endif

std::unique_ptr<dist::DistributedLattice> make_lattice(const RunOptions& o, const RunStart& start,
                                                       const dist::MpiSession& mpi,
                                                       const dist::BandComm& comm) {
  const Pattern* pattern = start.pattern ? &*start.pattern : nullptr;
  const InstanceSpec& s = start.spec;
  if (wants_gpu(o)) {
#if defined(LIFESTREAMS_HAVE_NCCL)
    rank_bands(s.height, mpi.size(), s.variant, s.generations_per_launch);  // refused in words of ranks
    return std::make_unique<dist::NcclDistributedLattice>(comm, s, pattern, rank_device(o, mpi.local_rank()));
#endif
  }
  auto bands = rank_bands(s.height, mpi.size(), Variant::naive, 1);
  // The host's cores shared among its ranks.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = std::max(1, cores / mpi.local_size());
  return std::make_unique<dist::CpuDistributedLattice>(comm, std::move(bands), s, pattern, threads);
}

// What every rank prepares before any communication: the options, the start, its band.
struct Prepared {
  std::optional<RunOptions> options;  // none: --help was printed
  RunStart start;
  std::unique_ptr<dist::DistributedLattice> lattice;
};

int run_agreed(const RunOptions& o, const RunStart& start, dist::DistributedLattice& lattice,
               const dist::BandComm& comm) {
  const bool speak = comm.rank() == 0;
  lattice.connect();
  if (speak) {
    if (lattice.backend() == "cpu") note_cpu_variant(o);
    print_run_header(lattice.backend(), lattice.variant(), lattice.device_name(), start,
                     " ranks=" + std::to_string(comm.size()));
  }
  auto summary = [&] {
    const StateSummary s = lattice.summarize();
    if (speak) print_summary(s);
  };
  summary();
  ProgressLine progress(o.generations, static_cast<double>(start.spec.width) * start.spec.height,
                        start.spec.generations_per_launch, speak && ProgressLine::stderr_is_terminal(),
                        /*always_pieces=*/true);
  step_in_chunks(
      o.generations, o.every,
      [&](int n) {
        progress.step_in_pieces(
            n,
            [&](int piece) {
              const trace::Scope range(trace::Phase::run_step);
              lattice.step(piece);
            },
            [&] { lattice.finish(); });
      },
      [&](long long) {
        progress.clear();
        summary();
      });
  progress.clear();
  int status = 0;
  if (!o.output.empty()) {
    const Lattice whole = lattice.gather();
    if (speak) {
      status = exit_status_of(kPrefix, [&] {
        write_output(o.output, whole, start.rule_text, o.generations);
        return 0;
      });
    }
  }
  return comm.from_rank0(status);
}

}  // namespace

int run_distributed(const std::function<std::optional<RunOptions>(bool speak)>& parse) {
  std::optional<dist::MpiSession> mpi;
  try {
    mpi.emplace();
  } catch (const dist::MpiError& e) {
    std::cerr << kPrefix << ": " << e.what() << "\n";
    return 3;
  }
  const dist::BandComm comm(mpi->world(), mpi->rank(), mpi->size());
  const bool speak = mpi->rank() == 0;

  // Every rank checks everything it can before any communication: the same options and files give
  // the same refusal everywhere, and only rank 0 says it.
  Prepared p;
  std::string message;
  int status = 0;
  try {
    p.options = parse(speak);
    if (p.options) {
      p.start = resolve_start(*p.options);
      if (speak && !p.options->output.empty()) check_output_writable(p.options->output);
      p.lattice = make_lattice(*p.options, p.start, *mpi, comm);
    }
  } catch (const InputError& e) {
    status = 2;
    message = e.what();
  } catch (const std::bad_alloc&) {
    status = 2;
    message = "out of host memory";
  } catch (const DeviceError& e) {
    status = 3;
    message = e.what();
  }
  try {
    const int worst = comm.worst(status);
    if (worst != 0) {
      // The line comes from rank 0 when it failed too, else from the first rank that failed.
      const int teller = comm.least(status != 0 ? mpi->rank() : mpi->size());
      if (mpi->rank() == teller) {
        std::cerr << kPrefix << ": "
                  << (teller == 0 ? std::string() : "rank " + std::to_string(teller) + ": ") << message
                  << "\n";
      }
      return worst;
    }
    if (!p.options) return 0;
    return run_agreed(*p.options, p.start, *p.lattice, comm);
  } catch (const std::exception& e) {
    // Past the agreement every rank runs the same calls: one rank failing alone (an MPI or NCCL
    // call, memory) ends the job, so no rank waits for it.
    const bool input =
        dynamic_cast<const InputError*>(&e) != nullptr || dynamic_cast<const std::bad_alloc*>(&e);
    std::cerr << kPrefix << ": rank " << mpi->rank() << ": " << e.what() << "\n";
    // No teardown: freeing a GPU band would wait for NCCL work that waits for the other ranks.
    if (p.lattice) p.lattice->abort();
    mpi->abort(input ? 2 : 3);
  }
}

}  // namespace ls
