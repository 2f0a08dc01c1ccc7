// nccl_exchange.hpp — HaloExchange between the bands of different processes (one band per rank,
// band r on rank r): ncclSend/ncclRecv of the edge rows in one NCCL group on the band's stream.
// The sends and receives are stream-ordered after the launch that wrote the rows and before the
// next launch that overwrites them, so neither side needs events or host barriers.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "dist/nccl_comm.hpp"
#include "multi/halo_exchange.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::dist {

class NcclExchange final : public multi::HaloExchange {
 public:
  /// `band` is this process's one band (rank `rank` of `ranks`); `comm` is connected later
  /// (NcclComm::init) but before the first exchange.
  NcclExchange(multi::BandMemory band, std::size_t row_bytes, int halo, const NcclComm& comm, int rank,
               int ranks);

  /// Nothing to wait for: the neighbours' receives of buffer X completed on their streams before
  /// our sends of X completed on ours, and our next write of X is queued after those sends.
  void before_write(int, int) override {}
  void exchange(int band, int buffer, int rows) override;
  /// Nothing waits on the host here; the communicator is aborted by its owner.
  void abort() noexcept override {}

  // For the bench (DistributedLattice::set_exchange and exchange timing). Set between steps, from
  // the thread that hands the band's thread its jobs (DeviceWorkers orders the two).
  /// `on` false: exchange() enqueues nothing (every rank must agree, or NCCL calls go unmatched).
  void set_enabled(bool on) { enabled_ = on; }
  /// From now on each exchange is bracketed by a pair of events on the band's stream.
  void start_timing();
  /// On the band's thread, after its stream is idle: the exchanges timed and their mean seconds.
  std::pair<long long, double> timed() const;

 private:
  struct Marks {
    cuda::Event start{cuda::Event::Create{}};
    cuda::Event end{cuda::Event::Create{}};
  };

  multi::BandMemory band_;
  std::size_t row_bytes_;
  int halo_;
  const NcclComm& comm_;
  int upper_;
  int lower_;
  bool enabled_ = true;
  bool timing_ = false;
  std::size_t timed_ = 0;     // marks_[0 .. timed_) bracket exchanges since start_timing()
  std::vector<Marks> marks_;  // made on the band's thread (its device current), reused
};

}  // namespace ls::dist
