// split_lattice_reads.cpp — what a split lattice gives back (split_lattice.hpp): summaries
// summed over the bands, host snapshots and reads of the whole lattice gathered band by band.
#include "multi/split_lattice.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/split_band_state.hpp"
#include "sim/instance.hpp"

namespace ls::multi {

using kernels::Layout;

StateSummary SplitLattice::summarize() {
  request_summary();
  run([&](int, BandState& s) { CUDA_CHECK(cudaEventSynchronize(s.summary_done.get())); });
  host_syncs_ += state_.size();
  auto out = newest_summary();
  if (!out) throw DeviceError("split lattice: a finished summary did not read back");
  return *out;
}

void SplitLattice::wait_idle() {
  run([&](int, BandState& s) {
    CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
    if (s.edge_stream) CUDA_CHECK(cudaStreamSynchronize(s.edge_stream.get()));
  });
  host_syncs_ += state_.size();
}

void SplitLattice::request_summary(const BandHook& before, const BandHook& after) {
  const Layout layout = sim::layout_of(variant_);
  const std::uint64_t base =
      lattice_hash_base(static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_));
  run([&](int band, BandState& s) {
    if (before) before(band, s.stream.get());
    s.summary_start.record(s.stream.get());
    // The base term once, from the first band: the parts then sum to the whole lattice's hash.
    kernels::launch_summary_rows(layout, s.own_rows(row_bytes(), halo_), width_, s.band.rows,
                                 s.band.first_row, band == 0 && !partial_ ? base : 0, s.result_device,
                                 s.stream.get());
    CUDA_CHECK(cudaMemcpyAsync(s.result_host.get(), s.result_device, 2 * sizeof(std::uint64_t),
                               cudaMemcpyDeviceToHost, s.stream.get()));
    s.summary_done.record(s.stream.get());
    if (after) after(band, s.stream.get());
  });
  summary_generation_ = generation_;
  requested_seen_ = false;
}

std::optional<StateSummary> SplitLattice::newest_summary() {
  // Read once per request, when every band's part has landed. Before the first request there is
  // nothing to read (and the events, never recorded, would time nothing).
  if (requested_seen_) return newest_;
  StateSummary sum;
  sum.generation = summary_generation_;
  double slowest_ms = 0;
  bool timed = true;
  for (const auto& s : state_) {
    const cudaError_t q = cudaEventQuery(s->summary_done.get());
    if (q == cudaErrorNotReady) return newest_;
    CUDA_CHECK(q);
    const auto* r = s->result_host.as<std::uint64_t>();
    sum.population += r[0];
    sum.hash += r[1];
    float ms = 0;
    if (cudaEventElapsedTime(&ms, s->summary_start.get(), s->summary_done.get()) == cudaSuccess) {
      slowest_ms = std::max(slowest_ms, static_cast<double>(ms));
    } else {
      cudaGetLastError();
      timed = false;
    }
  }
  // The pacer learns only from a summary every band timed: a cost of 0 would have it ask for one
  // every frame.
  summary_ms_ = timed ? std::optional<double>(slowest_ms) : std::nullopt;
  requested_seen_ = true;
  newest_ = sum;
  return newest_;
}

void SplitLattice::request_snapshot(const BandHook& before, const BandHook& after) {
  if (partial_) return;
  poll_snapshot();
  if (snap_in_flight_ >= 0) return;  // one at a time: the newest stays readable meanwhile
  const int slot = snap_newest_ == 0 ? 1 : 0;
  const Layout layout = sim::layout_of(variant_);
  const std::size_t words_per_row = static_cast<std::size_t>((width_ + 31) / 32);
  const std::size_t row_bits = words_per_row * sizeof(std::uint32_t);
  if (!snap_host_[static_cast<std::size_t>(slot)])
    snap_host_[static_cast<std::size_t>(slot)] =
        cuda::PinnedBuffer(row_bits * static_cast<std::size_t>(height_));
  std::byte* host = snap_host_[static_cast<std::size_t>(slot)].as<std::byte>();
  run([&](int band, BandState& s) {
    if (before) before(band, s.stream.get());
    const std::size_t bytes = row_bits * static_cast<std::size_t>(s.band.rows);
    const void* src = s.own_rows(row_bytes(), halo_);
    if (layout != Layout::bit_cells) {
      if (!s.snap_staging) s.snap_staging = cuda::DeviceBuffer(bytes);
      kernels::launch_convert(layout, src, Layout::bit_cells, s.snap_staging.get(), width_, s.band.rows,
                              s.stream.get());
      src = s.snap_staging.get();
    }
    CUDA_CHECK(cudaMemcpyAsync(host + row_bits * static_cast<std::size_t>(s.band.first_row), src, bytes,
                               cudaMemcpyDeviceToHost, s.stream.get()));
    s.snap_done.record(s.stream.get());
    if (after) after(band, s.stream.get());
  });
  snap_in_flight_ = slot;
  snap_generation_[static_cast<std::size_t>(slot)] = generation_;
  snap_rule_[static_cast<std::size_t>(slot)] = rule_;
}

void SplitLattice::poll_snapshot() const noexcept {
  if (snap_in_flight_ < 0) return;
  for (const auto& s : state_)
    if (cudaEventQuery(s->snap_done.get()) != cudaSuccess) {
      cudaGetLastError();  // not ready, or the device failed: this copy does not count (yet)
      return;
    }
  snap_newest_ = snap_in_flight_;
  snap_in_flight_ = -1;
}

std::optional<HostSnapshot> SplitLattice::newest_snapshot() const noexcept {
  try {
    poll_snapshot();
    if (snap_newest_ < 0) return std::nullopt;
    const auto slot = static_cast<std::size_t>(snap_newest_);
    HostSnapshot snap;
    snap.instance = 0;
    snap.generation = snap_generation_[slot];
    snap.rule = snap_rule_[slot];
    snap.cells = Lattice(width_, height_);
    const std::size_t bytes = static_cast<std::size_t>(snap.cells.words_per_row()) * sizeof(std::uint32_t) *
                              static_cast<std::size_t>(height_);
    std::memcpy(snap.cells.row(0), snap_host_[slot].get(), bytes);
    return snap;
  } catch (...) {
    return std::nullopt;  // no host memory for the copy: no snapshot, as after a failed device
  }
}

std::optional<double> SplitLattice::take_summary_ms() { return std::exchange(summary_ms_, std::nullopt); }

Lattice SplitLattice::read() {
  Lattice out(width_, height_);
  const Layout layout = sim::layout_of(variant_);
  const std::size_t row = row_bytes();
  const std::size_t words_per_row = static_cast<std::size_t>(out.words_per_row());
  run([&](int, BandState& s) {
    const std::size_t bits = words_per_row * sizeof(std::uint32_t) * static_cast<std::size_t>(s.band.rows);
    const void* src = s.own_rows(row, halo_);
    cuda::DeviceBuffer staging;
    if (layout != Layout::bit_cells) {
      staging = cuda::DeviceBuffer(bits);
      kernels::launch_convert(layout, src, Layout::bit_cells, staging.get(), width_, s.band.rows,
                              s.stream.get());
      src = staging.get();
    }
    CUDA_CHECK(cudaMemcpyAsync(out.row(s.band.first_row), src, bits, cudaMemcpyDeviceToHost, s.stream.get()));
    CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
  });
  host_syncs_ += state_.size();
  return out;
}

}  // namespace ls::multi
