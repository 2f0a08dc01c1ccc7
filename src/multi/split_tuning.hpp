// split_tuning.hpp — SplitTuning: how a split lattice's bands step, the settings the benchmarks
// compare (the rows an interior leaves to its edge windows, whether the edge windows overlap the
// interior, how many launches go between two exchanges, and peer copies instead of NCCL); the app
// and the command line run the defaults. Plain C++.
#pragma once

namespace ls::multi {

/// How a band steps: as exchange_plan.hpp chooses, edges first (where its bands hold both windows
/// apart from the interior), or its whole buffer and then the exchange.
enum class SplitSteps { chosen, edges_first, whole_buffers };

/// Own rows each side a band's interior leaves to its edge windows (a bitpacked band's kernel
/// rounds: edge_windows.hpp), how the bands step, and (`exchange_every`, exchange_plan.hpp) the
/// launches between two exchanges of halos that deep: set, the bands step whole buffers.
/// `peer_only`: peer copies even where every band has a GPU of its own and NCCL loads. A trim the
/// bands are too thin for, or with whole buffers, is none.
struct SplitTuning {
  int trim_rows = -1;  // -1: chosen by choose_trim; else a multiple of 16
  SplitSteps steps = SplitSteps::chosen;
  int exchange_every = -1;  // -1: chosen (1 edges first, else choose_exchange_every); else 1..16
  bool peer_only = false;
};

/// Throws InputError naming the value unless `tuning.trim_rows` is -1 or a multiple of
/// kHaloGranularity (0 included), and `tuning.exchange_every` is -1 or 1..kMaxExchangeEvery and not
/// set with edges first.
void check_split_tuning(const SplitTuning& tuning);

}  // namespace ls::multi
