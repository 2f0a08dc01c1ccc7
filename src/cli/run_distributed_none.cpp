// cli_run_distributed_none.cpp — `run --distributed` in a build without MPI: says so (exit 2).
#include <iostream>

#include "cli/run_distributed.hpp"
#include "core/error.hpp"

namespace ls {

int run_distributed(const std::function<std::optional<RunOptions>(bool speak)>& parse) {
  return exit_status_of("lifestreams run", [&] {
    if (!parse(true)) return 0;
    throw InputError(
        "--distributed: this build has no MPI (Open MPI was not found when it was configured: install "
        "libopenmpi-dev and rebuild)");
  });
}

}  // namespace ls
