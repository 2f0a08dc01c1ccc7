// nccl_exchange.cpp — halo rows between ranks by NCCL (nccl_exchange.hpp).
#include "dist/nccl_exchange.hpp"

namespace ls::dist {

NcclExchange::NcclExchange(multi::BandMemory band, std::size_t row_bytes, int halo, const NcclComm& comm,
                           int rank, int ranks)
    : band_(band),
      row_bytes_(row_bytes),
      halo_(halo),
      comm_(comm),
      upper_((rank + ranks - 1) % ranks),
      lower_((rank + 1) % ranks) {}

void NcclExchange::exchange(int, int buffer, int rows) {
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
}

}  // namespace ls::dist
