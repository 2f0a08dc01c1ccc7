// nccl_exchange.cpp — halo rows between ranks by NCCL (nccl_exchange.hpp).
#include "dist/nccl_exchange.hpp"

#include "kernels/cuda_check.hpp"
#include "multi/nccl_band_exchange.hpp"

namespace ls::dist {

NcclExchange::NcclExchange(multi::BandMemory band, std::size_t row_bytes, int halo, const NcclComm& comm,
                           int rank, int ranks)
    : band_(band),
      row_bytes_(row_bytes),
      halo_(halo),
      comm_(comm),
      upper_((rank + ranks - 1) % ranks),
      lower_((rank + 1) % ranks) {}

void NcclExchange::start_timing() {
  timing_ = true;
  timed_ = 0;
}

std::pair<long long, double> NcclExchange::timed() const {
  double total_ms = 0;
  for (std::size_t i = 0; i < timed_; ++i) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, marks_[i].start.get(), marks_[i].end.get()));
    total_ms += ms;
  }
  const auto n = static_cast<long long>(timed_);
  return {n, n > 0 ? total_ms * 1e-3 / static_cast<double>(n) : 0.0};
}

void NcclExchange::exchange(int, int buffer, int rows) {
  if (!enabled_) return;
  const Marks* marks = nullptr;
  if (timing_) {
    if (timed_ == marks_.size()) marks_.emplace_back();
    marks = &marks_[timed_++];
    marks->start.record(band_.stream);
  }
  multi::enqueue_halo_swap(comm_.get(), band_, row_bytes_, halo_, buffer, rows, upper_, lower_, band_.stream);
  if (marks) marks->end.record(band_.stream);
}

}  // namespace ls::dist
