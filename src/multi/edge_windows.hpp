// edge_windows.hpp — the arithmetic of a band stepped edges first (split_lattice.hpp): how many rows
// an edge window holds, and the trim that lets a bitpacked interior's blocks fit the launcher's
// rounds.
#pragma once

namespace ls::multi {

/// Rows of an edge window: the halo rows above the first own row, the `trim` own rows the interior
/// leaves to the edges, and 2 x depth own rows (the window's rows [g, W - g) are exact after
/// g <= depth generations), rounded up to the kernels' 32.
int edge_window_rows(int halo, int depth, int trim);

/// Own rows each side that a bitpacked band's interior of `rows` rows (`width` wide, `depth`
/// generations per launch, `halo` rows) leaves to its edge windows: the smallest trim that saves
/// the launcher a round, else 0 (edge_windows.cpp says how). Current device: the bands'.
int choose_trim(int rows, int width, int halo, int depth);

}  // namespace ls::multi
