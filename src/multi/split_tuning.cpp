// split_tuning.cpp — the check of a SplitTuning (split_tuning.hpp).
#include "multi/split_tuning.hpp"

#include <string>

#include "core/error.hpp"
#include "multi/band_partition.hpp"
#include "multi/exchange_plan.hpp"

namespace ls::multi {

void check_split_tuning(const SplitTuning& tuning) {
  const int t = tuning.trim_rows;
  if (!(t == -1 || (t >= 0 && t % kHaloGranularity == 0)))
    throw InputError("split trim " + std::to_string(t) + ": expected -1 (chosen) or a multiple of " +
                     std::to_string(kHaloGranularity) + " rows");
  const int e = tuning.exchange_every;
  if (!(e == -1 || (e >= 1 && e <= kMaxExchangeEvery)))
    throw InputError("launches per exchange " + std::to_string(e) + ": expected -1 (chosen) or 1.." +
                     std::to_string(kMaxExchangeEvery));
  if (e != -1 && tuning.steps == SplitSteps::edges_first)
    throw InputError("launches per exchange " + std::to_string(e) +
                     ": edges first exchange after every launch; set it with whole buffers");
}

}  // namespace ls::multi
