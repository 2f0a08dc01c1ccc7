// rates.cpp — implements rates.hpp.
#include "app/rates.hpp"

namespace ls::app {

void DeliveredRate::add(double now_s, double cells) {
  total_ += cells;
  window_.emplace_back(now_s, total_);
  // Keep one sample at or before the window's start, so the rate spans the whole window.
  while (window_.size() > 2 && window_[1].first <= now_s - kWindowSeconds) window_.pop_front();
}

double DeliveredRate::per_second() const {
  if (window_.size() < 2) return 0;
  const double dt = window_.back().first - window_.front().first;
  return dt > 0 ? (window_.back().second - window_.front().second) / dt : 0;
}

void GenerationRate::add(double now_s, std::uint64_t generation) {
  if (start_s_ < 0 || generation < start_generation_ || now_s < start_s_) {
    start_s_ = now_s;
    start_generation_ = generation;
    return;
  }
  const double dt = now_s - start_s_;
  if (dt < kWindowSeconds) return;
  rate_ = static_cast<double>(generation - start_generation_) / dt;
  start_s_ = now_s;
  start_generation_ = generation;
}

double kernel_rate(const std::vector<InstanceStatus>& statuses) {
  double sum = 0;
  for (const InstanceStatus& s : statuses) sum += s.cups;
  return sum;
}

}  // namespace ls::app
