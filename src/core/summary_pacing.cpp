// summary_pacing.cpp — implements summary_pacing.hpp.
#include "core/summary_pacing.hpp"

#include <algorithm>
#include <cmath>

namespace ls {

int summary_every(double cost_ms, double work_ms) {
  if (!(cost_ms > 0)) return 1;
  const double frame = std::max(std::isfinite(work_ms) ? work_ms : 0.0, kSummaryFloorMs);
  double frames = std::ceil(cost_ms / (kSummaryBudget * frame) - 1e-9);
  if (cost_ms > frame) frames = std::max(frames, static_cast<double>(kLongSummaryEvery));
  if (!(frames < kMaxSummaryEvery)) return kMaxSummaryEvery;
  return std::max(1, static_cast<int>(frames));
}

void SummaryPacer::observe_cost(double ms) {
  if (!(ms >= 0) || !std::isfinite(ms)) return;
  costs_[observed_ % kCostWindow] = ms;
  ++observed_;
}

double SummaryPacer::cost_ms() const {
  if (observed_ == 0) return 0;
  const std::size_t held = std::min(observed_, kCostWindow);
  return *std::min_element(costs_.begin(), costs_.begin() + static_cast<std::ptrdiff_t>(held));
}

void SummaryPacer::forget_cost() { observed_ = 0; }

bool SummaryPacer::due(bool changed, double work_ms, bool in_flight) {
  ++since_;
  if (!changed) return false;
  if (!measured() && in_flight) return false;
  if (since_ < static_cast<std::uint64_t>(every(work_ms))) return false;
  since_ = 0;
  return true;
}

}  // namespace ls
