// split_tuning.hpp — SplitTuning: how a split lattice's bands step, the two settings the
// benchmarks compare (the rows an interior leaves to its edge windows, and whether the edge windows
// overlap the interior); the app and the command line run the defaults. Plain C++.
#pragma once

namespace ls::multi {

/// Own rows each side a band's interior leaves to its edge windows (a bitpacked band's kernel
/// rounds: edge_windows.hpp), and whether each band steps its edge windows on an edge stream and
/// sends them while its interior steps (split_lattice.hpp). A trim the bands are too thin for, or
/// without overlap, is none.
struct SplitTuning {
  int trim_rows = -1;   // -1: chosen by choose_trim; else a multiple of 16
  bool overlap = true;  // false: whole bands stepped, then exchanged
};

/// Throws InputError naming the value unless `tuning.trim_rows` is -1 or a multiple of
/// kHaloGranularity (0 included).
void check_split_tuning(const SplitTuning& tuning);

}  // namespace ls::multi
