// split_tuning.cpp — the check of a SplitTuning (split_tuning.hpp).
#include "multi/split_tuning.hpp"

#include <string>

#include "core/error.hpp"
#include "multi/band_partition.hpp"

namespace ls::multi {

void check_split_tuning(const SplitTuning& tuning) {
  const int t = tuning.trim_rows;
  if (t == -1 || (t >= 0 && t % kHaloGranularity == 0)) return;
  throw InputError("split trim " + std::to_string(t) + ": expected -1 (chosen) or a multiple of " +
                   std::to_string(kHaloGranularity) + " rows");
}

}  // namespace ls::multi
