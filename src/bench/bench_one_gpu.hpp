// bench_one_gpu.hpp — the one-GPU driver of `lifestreams bench`: the CUDA engine over a sweep of
// variants, sizes, instance counts, stream modes, generations per launch and timing periods, timed
// with CUDA events, each row against `naive` at the same size and the memory roof measured in the
// same run.
#pragma once

#include "bench/bench_options.hpp"

namespace ls::bench {

/// Measures and prints the rows on `device` (and writes --json). Returns the exit status (0).
int run_one_gpu_bench(const Sweep& sweep, int device);

}  // namespace ls::bench
