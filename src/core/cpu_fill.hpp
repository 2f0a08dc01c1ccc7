// cpu_fill.hpp — the CPU engine's random fill of a large lattice on several threads, counted and
// cancellable, for builds made off the frame loop.
#pragma once

#include "core/engine.hpp"
#include "core/lattice.hpp"

namespace ls {

/// The random fill of `cells` by rows (Lattice::fill_random_rows, so the cells equal
/// Lattice::random's), on all but one of the cores (the frame loop keeps one), counting rows into
/// `progress` and giving up when it is cancelled (false then).
bool fill_in_parallel(Lattice& cells, const RandomInit& r, BuildProgress& progress);

}  // namespace ls
