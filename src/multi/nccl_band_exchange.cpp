// nccl_band_exchange.cpp — halo rows by NCCL (nccl_band_exchange.hpp).
#include "multi/nccl_band_exchange.hpp"

#include "kernels/cuda_check.hpp"
#include "multi/nccl_library.hpp"

namespace ls::multi {

void enqueue_halo_swap(ncclComm_t comm, const BandMemory& band, std::size_t row_bytes, int halo, int buffer,
                       int rows, int upper, int lower, cudaStream_t stream) {
  std::byte* base = band.buffers[static_cast<std::size_t>(buffer)];
  const std::size_t bytes = row_bytes * static_cast<std::size_t>(rows);
  const auto at = [&](int row) { return base + row_bytes * static_cast<std::size_t>(row); };
  LS_NCCL_CHECK(ncclGroupStart);
  try {
    LS_NCCL_CHECK(ncclSend, at(halo), bytes, ncclUint8, upper, comm, stream);
    LS_NCCL_CHECK(ncclRecv, at(halo + band.rows), bytes, ncclUint8, lower, comm, stream);
    LS_NCCL_CHECK(ncclSend, at(halo + band.rows - rows), bytes, ncclUint8, lower, comm, stream);
    LS_NCCL_CHECK(ncclRecv, at(halo - rows), bytes, ncclUint8, upper, comm, stream);
  } catch (...) {
    // The group is this thread's: closed, so that the thread's later NCCL calls are not in it.
    static_cast<void>(nccl_library().ncclGroupEnd());
    throw;
  }
  LS_NCCL_CHECK(ncclGroupEnd);
}

NcclBandExchange::NcclBandExchange(std::vector<BandMemory> bands, std::size_t row_bytes, int halo)
    : bands_(std::move(bands)), row_bytes_(row_bytes), halo_(halo) {
  std::vector<int> devices;
  for (const BandMemory& b : bands_) devices.push_back(b.device);
  comms_.assign(bands_.size(), nullptr);
  int current = 0;
  CUDA_CHECK(cudaGetDevice(&current));
  const ncclResult_t rc =
      nccl_library().ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data());
  CUDA_CHECK(cudaSetDevice(current));
  if (rc != ncclSuccess) comms_.clear();
  nccl_check(rc, "ncclCommInitAll");
}

void NcclBandExchange::cancel() noexcept {
  aborted_ = true;
  if (comms_.empty()) return;
  const NcclLibrary& nccl = nccl_library();
  for (ncclComm_t comm : comms_) nccl.ncclCommAbort(comm);
  comms_.clear();
}

NcclBandExchange::~NcclBandExchange() {
  if (comms_.empty()) return;
  const NcclLibrary& nccl = nccl_library();
  for (ncclComm_t comm : comms_) {
    // Errors here have no one left to tell: such a communicator is aborted instead.
    if (aborted_ || nccl.ncclCommDestroy(comm) != ncclSuccess) nccl.ncclCommAbort(comm);
  }
}

void NcclBandExchange::exchange(int band, int buffer, int rows) {
  if (aborted_) throw DeviceError("halo exchange stopped: another band's thread failed");
  const int n = static_cast<int>(bands_.size());
  const BandMemory& me = bands_[static_cast<std::size_t>(band)];
  enqueue_halo_swap(comms_[static_cast<std::size_t>(band)], me, row_bytes_, halo_, buffer, rows,
                    (band + n - 1) % n, (band + 1) % n, me.stream);
}

}  // namespace ls::multi
