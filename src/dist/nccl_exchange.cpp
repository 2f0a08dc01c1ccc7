// nccl_exchange.cpp — halo rows between ranks by NCCL (nccl_exchange.hpp).
#include "dist/nccl_exchange.hpp"

#include "kernels/cuda_check.hpp"

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
  std::byte* base = band_.buffers[static_cast<std::size_t>(buffer)];
  const std::size_t bytes = row_bytes_ * static_cast<std::size_t>(rows);
  const auto at = [&](int row) { return base + row_bytes_ * static_cast<std::size_t>(row); };
  // Every rank queues the same four calls in the same order, so with one or two ranks (the upper
  // and lower neighbour the same rank, or this one) the i-th send to a peer still meets the i-th
  // receive from it: first rows go up into the upper neighbour's lower halo, last rows go down into
  // the lower neighbour's upper halo.
  LS_NCCL_CHECK(ncclGroupStart);
  LS_NCCL_CHECK(ncclSend, at(halo_), bytes, ncclUint8, upper_, comm_.get(), band_.stream);
  LS_NCCL_CHECK(ncclRecv, at(halo_ + band_.rows), bytes, ncclUint8, lower_, comm_.get(), band_.stream);
  LS_NCCL_CHECK(ncclSend, at(halo_ + band_.rows - rows), bytes, ncclUint8, lower_, comm_.get(), band_.stream);
  LS_NCCL_CHECK(ncclRecv, at(halo_ - rows), bytes, ncclUint8, upper_, comm_.get(), band_.stream);
  LS_NCCL_CHECK(ncclGroupEnd);
  if (marks) marks->end.record(band_.stream);
}

}  // namespace ls::dist
