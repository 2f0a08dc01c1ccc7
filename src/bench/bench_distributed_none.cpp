// bench_distributed_none.cpp — `bench --distributed` in a build without MPI: says so (exit 2).
#include "bench/bench_distributed.hpp"
#include "core/error.hpp"

namespace ls {

int bench_distributed_main(int, char**) {
  return exit_status_of("lifestreams bench", []() -> int {
    throw InputError(
        "--distributed: this build has no MPI (Open MPI was not found when it was configured: install "
        "libopenmpi-dev and rebuild)");
  });
}

}  // namespace ls
