// cli_run_distributed.hpp — `lifestreams run --distributed`: one lattice over the ranks of an MPI
// job (src/dist), printing what a one-process run prints (rank 0 alone, header ending ` ranks=R`).
#pragma once

#include <functional>
#include <optional>

#include "control/run_setup.hpp"

namespace ls {

/// Starts MPI, then calls `parse` on every rank (`speak`: this rank prints, i.e. rank 0); parse
/// throws InputError for bad options and returns nullopt after printing --help. Every rank checks
/// the options and files before any lattice is exchanged; one bad input anywhere is one line (from
/// rank 0 when it sees it too) and exit 2 on every rank. Returns the exit status: 0, 2, or 3 (an MPI
/// or NCCL failure, named, after which the job is aborted). A build without MPI says so (2).
int run_distributed(const std::function<std::optional<RunOptions>(bool speak)>& parse);

}  // namespace ls
