// peer_exchange.cpp — halo refreshes between bands of one process (peer_exchange.hpp).
//
// Ordering, with a PhaseBarrier crossing per exchange (the "phase"). In phase t every band
// launched into buffer X = t % 2 and then, in exchange(): records `stepped[X]` on its stream,
// crosses the barrier (so every neighbour's record is enqueued before anyone waits on it), makes
// its stream wait for its neighbours' `stepped[X]`, pulls their edge rows into its halos and
// records `pulled[X]`. A launch into X two phases later overwrites what the neighbours pulled
// from, so before_write(X) waits for their `pulled[X]`; that record was made before the barrier of
// phase t + 1 and is re-recorded only after the barrier of phase t + 2, which the waiting thread
// has not crossed yet: every wait sees exactly the record it means. No call blocks on a device.
// exchange_edges() is the same on the band's edge stream, from the neighbours' edge buffers of
// parity X; there before_write_edges(X) makes the edge stream, which rewrites those buffers, wait
// for the neighbours' `pulled[X]`, and the band's own stream waits for no other GPU (a plain
// exchange after an edit read the buffers themselves: the next launch into that parity also calls
// before_write(X), split_lattice_step.cpp).
//
// With deep halos (`sparse`) the launches between exchanges carry none, so a write into X can come
// two launches after the exchange of X with no barrier between: the neighbour may not have
// recorded that exchange's `pulled[X]` yet, and the wait would see its record before. There each
// exchange crosses the barrier a second time after recording `pulled[X]`; its next record comes
// only after the first barrier of a later exchange, which the writer has not crossed. A band's step
// calls before_write(X) only for its first launch into X after an exchange of X
// (split_lattice_step.cpp): its later launches into X follow that one on the band's stream.
#include "multi/peer_exchange.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "core/error.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::multi {

/// Without peer access: the neighbour's rows go to pinned memory on a stream of the neighbour's
/// GPU (owned by the receiving band), then to the halo on the band's own stream.
struct PeerExchange::Side {
  CopyPath path = CopyPath::same_device;
  cuda::Stream staging_stream;  // on the neighbour's device (host_staged only)
  cuda::Event staged;           // D2H done
  cuda::Event consumed;         // H2D done: the pinned buffer may be written again
  cuda::PinnedBuffer pinned;
};

struct PeerExchange::BandEvents {
  std::array<cuda::Event, 2> stepped;
  std::array<cuda::Event, 2> pulled;
  std::array<Side, 2> sides;  // [0] from the band above, [1] from the band below
};

namespace {

cuda::Event ordering_event() { return cuda::Event(cuda::Event::Create{}, /*timing=*/false); }

CopyPath path_between(int from_device, int to_device) {
  if (from_device == to_device) return CopyPath::same_device;
  int can = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, to_device, from_device));
  return can ? CopyPath::peer : CopyPath::host_staged;
}

}  // namespace

PeerExchange::PeerExchange(std::vector<BandMemory> bands, std::size_t row_bytes, int halo, int max_rows,
                           bool sparse)
    : sparse_(sparse),
      bands_(std::move(bands)),
      row_bytes_(row_bytes),
      halo_(halo),
      barrier_(static_cast<int>(bands_.size())) {
  const int n = static_cast<int>(bands_.size());
  edges_ = std::all_of(bands_.begin(), bands_.end(), [](const BandMemory& b) {
    return b.edge_stream && b.first_row_edge[0] && b.first_row_edge[1] && b.rows_end_edge[0] &&
           b.rows_end_edge[1];
  });
  for (int b = 0; b < n; ++b) {
    const BandMemory& me = bands_[static_cast<std::size_t>(b)];
    cuda::DeviceGuard on(me.device);
    auto ev = std::make_unique<BandEvents>();
    for (int i = 0; i < 2; ++i) {
      ev->stepped[static_cast<std::size_t>(i)] = ordering_event();
      ev->pulled[static_cast<std::size_t>(i)] = ordering_event();
    }
    const int neighbours[2] = {(b + n - 1) % n, (b + 1) % n};
    for (int s = 0; s < 2; ++s) {
      Side& side = ev->sides[static_cast<std::size_t>(s)];
      const int from = bands_[static_cast<std::size_t>(neighbours[s])].device;
      side.path = path_between(from, me.device);
      if (side.path == CopyPath::peer) {
        // The receiver's stream copies, so the receiver's context maps the sender's memory.
        const cudaError_t err = cudaDeviceEnablePeerAccess(from, 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled)
          cudaGetLastError();
        else
          CUDA_CHECK(err);
      } else if (side.path == CopyPath::host_staged) {
        side.pinned = cuda::PinnedBuffer(row_bytes * static_cast<std::size_t>(max_rows));
        side.consumed = ordering_event();
        cuda::DeviceGuard on_sender(from);
        side.staging_stream = cuda::Stream(cuda::Stream::Create{});
        side.staged = ordering_event();
      }
    }
    events_.push_back(std::move(ev));
  }
}

PeerExchange::~PeerExchange() = default;

CopyPath PeerExchange::path(int from, int to) const {
  const int n = static_cast<int>(bands_.size());
  const BandEvents& ev = *events_[static_cast<std::size_t>(to)];
  if ((to + n - 1) % n == from) return ev.sides[0].path;
  return ev.sides[1].path;
}

void PeerExchange::wait_for_neighbours_pulled(int band, int buffer, cudaStream_t stream) const {
  const int n = static_cast<int>(bands_.size());
  const int above = (band + n - 1) % n;
  const int below = (band + 1) % n;
  CUDA_CHECK(cudaStreamWaitEvent(stream, events_[static_cast<std::size_t>(above)]->pulled[buffer].get(), 0));
  // Two bands: the band above is the band below (one wait; each costs the host ~1-2 us).
  if (below != above)
    CUDA_CHECK(
        cudaStreamWaitEvent(stream, events_[static_cast<std::size_t>(below)]->pulled[buffer].get(), 0));
}

void PeerExchange::before_write(int band, int buffer) {
  const cudaStream_t stream = bands_[static_cast<std::size_t>(band)].stream;
  wait_for_neighbours_pulled(band, buffer, stream);
}

void PeerExchange::exchange(int band, int buffer, int rows) { pull(band, buffer, rows, false); }

void PeerExchange::before_write_edges(int band, int buffer) {
  const cudaStream_t stream = bands_[static_cast<std::size_t>(band)].edge_stream;
  wait_for_neighbours_pulled(band, buffer, stream);
}

void PeerExchange::exchange_edges(int band, int buffer, int rows) {
  if (!edges_) throw DeviceError("halo exchange: a band has no edge buffers");
  pull(band, buffer, rows, true);
}

void PeerExchange::pull(int band, int buffer, int rows, bool edges) {
  const int n = static_cast<int>(bands_.size());
  const BandMemory& me = bands_[static_cast<std::size_t>(band)];
  BandEvents& ev = *events_[static_cast<std::size_t>(band)];
  const cudaStream_t stream = edges ? me.edge_stream : me.stream;
  ev.stepped[static_cast<std::size_t>(buffer)].record(stream);
  barrier_.arrive_and_wait();

  const std::size_t bytes = row_bytes_ * static_cast<std::size_t>(rows);
  for (int s = 0; s < 2; ++s) {
    const int nb = s == 0 ? (band + n - 1) % n : (band + 1) % n;
    const BandMemory& from = bands_[static_cast<std::size_t>(nb)];
    const cudaEvent_t ready =
        events_[static_cast<std::size_t>(nb)]->stepped[static_cast<std::size_t>(buffer)].get();
    // From above: its last `rows` own rows into the rows just above ours; from below: its first
    // `rows` own rows into the rows just below ours.
    const std::size_t p = static_cast<std::size_t>(buffer);
    const std::byte* src =
        edges ? (s == 0 ? from.rows_end_edge[p] - row_bytes_ * static_cast<std::size_t>(rows)
                        : from.first_row_edge[p])
              : from.buffers[p] +
                    row_bytes_ * static_cast<std::size_t>(s == 0 ? halo_ + from.rows - rows : halo_);
    std::byte* dst = me.buffers[static_cast<std::size_t>(buffer)] +
                     row_bytes_ * static_cast<std::size_t>(s == 0 ? halo_ - rows : halo_ + me.rows);
    Side& side = ev.sides[static_cast<std::size_t>(s)];
    // Two bands: both halos come from the one other band, whose `stepped` this stream already
    // waits for after the first side's copy.
    const bool waited = s == 1 && nb == (band + n - 1) % n && side.path != CopyPath::host_staged;
    switch (side.path) {
      case CopyPath::same_device:
        if (!waited) CUDA_CHECK(cudaStreamWaitEvent(stream, ready, 0));
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case CopyPath::peer:
        if (!waited) CUDA_CHECK(cudaStreamWaitEvent(stream, ready, 0));
        CUDA_CHECK(cudaMemcpyPeerAsync(dst, me.device, src, from.device, bytes, stream));
        break;
      case CopyPath::host_staged: {
        const cudaStream_t staging = side.staging_stream.get();
        CUDA_CHECK(cudaStreamWaitEvent(staging, ready, 0));
        CUDA_CHECK(cudaStreamWaitEvent(staging, side.consumed.get(), 0));
        CUDA_CHECK(cudaMemcpyAsync(side.pinned.get(), src, bytes, cudaMemcpyDeviceToHost, staging));
        side.staged.record(staging);
        CUDA_CHECK(cudaStreamWaitEvent(stream, side.staged.get(), 0));
        CUDA_CHECK(cudaMemcpyAsync(dst, side.pinned.get(), bytes, cudaMemcpyHostToDevice, stream));
        side.consumed.record(stream);
        break;
      }
    }
  }
  ev.pulled[static_cast<std::size_t>(buffer)].record(stream);
  if (sparse_) barrier_.arrive_and_wait();
}

void PeerExchange::abort() noexcept { barrier_.abort(); }

}  // namespace ls::multi
