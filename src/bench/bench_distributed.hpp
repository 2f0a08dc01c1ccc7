// bench_distributed.hpp — `mpirun -np R lifestreams bench --distributed`: one lattice over the ranks
// of an MPI job (the bands of `run --distributed`), its launches timed with the halo exchange in
// the loop, on GPUs (NCCL) or CPUs (MPI); rank 0 prints the table and writes the JSON.
#pragma once

#include <algorithm>
#include <string_view>

namespace ls {

/// argv[0] is "bench" and argv holds --distributed. Returns the exit status on every rank: 0 done,
/// 2 bad arguments (one line, from rank 0), 3 an MPI, NCCL or device failure. A build without MPI
/// says so (2).
int bench_distributed_main(int argc, char** argv);

/// Whether argv (argv[0] the subcommand) asks for --distributed.
inline bool asks_distributed(int argc, char** argv) {
  return std::any_of(argv + 1, argv + argc,
                     [](const char* a) { return std::string_view(a) == "--distributed"; });
}

}  // namespace ls
