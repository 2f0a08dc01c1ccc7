// variant_launch.hpp — one launch of a variant's step kernel on a lattice or a band's window: the
// one place that maps a Variant to its kernels/ launch function and its cell layout.
#pragma once

#include <cuda_runtime_api.h>

#include "core/instance_spec.hpp"
#include "core/rule.hpp"

namespace ls::sim {

/// Enqueues one launch of `variant` on `stream`, `in` to `out` (each width x rows cells in the
/// variant's layout), advancing `generations` generations: the iterating variants (iterate,
/// bitpacked) take 1..kMaxGenerationsPerLaunch, the others 1. `side_by_side`: how many such launches
/// the caller runs at once (the bitpacked launcher sizes its blocks for them).
void launch_variant_step(Variant variant, const void* in, void* out, int width, int rows, const Rule& rule,
                         int generations, cudaStream_t stream, int side_by_side = 1);

}  // namespace ls::sim
