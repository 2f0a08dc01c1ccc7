// bench_devices.hpp — the several-GPU driver of `lifestreams bench --devices LIST`: lattices split
// across the GPUs and instances spread over them, each row measured against the same work on the
// first listed GPU in the same run, with its speedup and whether every final hash agrees.
#pragma once

#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "multi/split_tuning.hpp"

namespace ls::bench {

/// Measures and prints the rows on `devices` (resolved, in the order given; a device may repeat:
/// bands or engines of one GPU) and writes --json; split rows' bands step as `split` says. Returns
/// the exit status (0).
int run_devices_bench(const Sweep& sweep, const std::vector<int>& devices, const multi::SplitTuning& split);

}  // namespace ls::bench
