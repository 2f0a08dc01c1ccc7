// cpu_step.hpp — the CPU reference step: exact for any Life-like rule on the torus, bit-parallel
// (32 cells per word, bit-sliced neighbour counts), rows split across threads.
#pragma once

#include "core/lattice.hpp"
#include "core/rule.hpp"

namespace ls {

/// One generation of `in` into `out` (same size; out is resized if needed). threads = 0: all cores.
void cpu_step(const Lattice& in, Lattice& out, const Rule& rule, int threads = 0);

/// `generations` generations in place.
void cpu_run(Lattice& lattice, const Rule& rule, long long generations, int threads = 0);

}  // namespace ls
