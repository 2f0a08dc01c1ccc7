// split_lattice_step.cpp — a split lattice's step (split_lattice.hpp): each band's launches, edges
// first or whole buffers, with the halo exchanges between them; and cell edits.
#include "multi/split_lattice.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/split_band_state.hpp"
#include "sim/instance.hpp"
#include "sim/variant_launch.hpp"

namespace ls::multi {

using kernels::Layout;

namespace {

/// The largest pitch handed to cudaMemcpy2DAsync (devices report 2^31 - 1; kept below it).
constexpr std::size_t kMaxCopyPitch = std::size_t{1} << 30;

}  // namespace

void SplitLattice::launch_window(const void* in, void* out, int rows, int generations,
                                 cudaStream_t stream) const {
  sim::launch_variant_step(variant_, in, out, width_, rows, rule_, generations, stream);
}

void SplitLattice::enqueue_launch(BandState& s, int generations) {
  // The whole buffer, stepped as a torus of its own.
  launch_window(s.buffers[static_cast<std::size_t>(s.front)],
                s.buffers[static_cast<std::size_t>(1 - s.front)], s.band.rows + 2 * halo_, generations,
                s.stream.get());
}

void SplitLattice::wait_for_readers(BandState& s, int band, std::size_t out) {
  if (!s.plain_read[out]) return;
  exchange_->before_write(band, static_cast<int>(out));
  s.plain_read[out] = false;
}

void SplitLattice::enqueue_launch_edges_first(BandState& s, int band, int generations, int per_exchange,
                                              const StepHooks* marks) {
  const std::size_t in = static_cast<std::size_t>(s.front);
  const std::size_t out = static_cast<std::size_t>(1 - s.front);
  const cudaStream_t main = s.stream.get();
  const cudaStream_t edge = s.edge_stream.get();
  // The edge stream starts behind everything the band's stream holds (the last launch's edge rows
  // copied in, before_write's waits for the neighbours).
  wait_for_readers(s, band, out);
  s.launch_start.record(main);
  CUDA_CHECK(cudaStreamWaitEvent(edge, s.launch_start.get(), 0));
  exchange_->before_write_edges(band, static_cast<int>(out));
  launch_edge_windows(s, in, out, generations, edge);
  if (marks && marks->exchange_start) marks->exchange_start(band, edge);
  exchange_->exchange_edges(band, static_cast<int>(out), per_exchange);
  if (marks && marks->exchange_end) marks->exchange_end(band, edge);
  s.edges_done.record(edge);
  const std::size_t row = row_bytes();
  const auto at = [&](std::byte* base, int r) { return base + row * static_cast<std::size_t>(r); };
  if (exact_interior_) {
    // Own rows [trim, rows - trim), exact: stepped from the whole buffer, its halos included, and
    // written alone (the exchange is writing the halo rows of `out` meanwhile).
    kernels::launch_step_bitpacked_rows(reinterpret_cast<const std::uint32_t*>(s.buffers[in]),
                                        reinterpret_cast<std::uint32_t*>(s.buffers[out]), width_,
                                        s.band.rows + 2 * halo_, halo_ + trim_, s.band.rows - 2 * trim_,
                                        {rule_.birth, rule_.survive}, generations, main);
  } else {
    // The interior, own rows [trim, rows - trim) as a torus of their own (exact in
    // [trim + g, rows - trim - g)); the halos of `out` are the exchange's.
    launch_window(at(s.buffers[in], halo_ + trim_), at(s.buffers[out], halo_ + trim_),
                  s.band.rows - 2 * trim_, generations, main);
  }
  CUDA_CHECK(cudaStreamWaitEvent(main, s.edges_done.get(), 0));
  // The own rows the edges give the band. An exact interior leaves them only its trim.
  copy_edge_rows_in(s, out, trim_ + (exact_interior_ ? 0 : per_exchange));
}

void SplitLattice::launch_edge_windows(BandState& s, std::size_t in, std::size_t out, int generations,
                                       cudaStream_t stream) const {
  std::byte* bottom_in =
      s.buffers[in] + row_bytes() * static_cast<std::size_t>(2 * halo_ + s.band.rows - window_);
  if (exact_interior_) {  // both in one launch
    kernels::launch_step_bitpacked_pair(
        reinterpret_cast<const std::uint32_t*>(s.buffers[in]), reinterpret_cast<std::uint32_t*>(s.top[out]),
        reinterpret_cast<const std::uint32_t*>(bottom_in), reinterpret_cast<std::uint32_t*>(s.bottom[out]),
        width_, window_, {rule_.birth, rule_.survive}, generations, stream);
    return;
  }
  launch_window(s.buffers[in], s.top[out], window_, generations, stream);
  launch_window(bottom_in, s.bottom[out], window_, generations, stream);
}

void SplitLattice::copy_edge_rows_in(BandState& s, std::size_t out, int rows) const {
  if (rows == 0) return;
  // Both in one copy (one operation less on the band's stream per launch): two "rows" of `rows`
  // lattice rows each, from the top and bottom edge buffers to the first and last own rows.
  const std::size_t row = row_bytes();
  const auto at = [&](std::byte* base, int r) { return base + row * static_cast<std::size_t>(r); };
  const cudaStream_t main = s.stream.get();
  const std::byte* top_src = at(s.top[out], halo_);
  const std::byte* bottom_src = at(s.bottom[out], window_ - halo_ - rows);
  std::byte* top_dst = at(s.buffers[out], halo_);
  std::byte* bottom_dst = at(s.buffers[out], halo_ + s.band.rows - rows);
  const std::size_t edge_bytes = row * static_cast<std::size_t>(rows);
  const auto dst_pitch = static_cast<std::size_t>(bottom_dst - top_dst);
  const auto src_pitch = static_cast<std::size_t>(bottom_src - top_src);
  if (std::max(dst_pitch, src_pitch) <= kMaxCopyPitch) {
    CUDA_CHECK(cudaMemcpy2DAsync(top_dst, dst_pitch, top_src, src_pitch, edge_bytes, 2,
                                 cudaMemcpyDeviceToDevice, main));
  } else {  // huge bands: pitches past what a 2D copy takes
    CUDA_CHECK(cudaMemcpyAsync(top_dst, top_src, edge_bytes, cudaMemcpyDeviceToDevice, main));
    CUDA_CHECK(cudaMemcpyAsync(bottom_dst, bottom_src, edge_bytes, cudaMemcpyDeviceToDevice, main));
  }
}

void SplitLattice::step(int generations, const StepHooks& hooks) {
  if (generations <= 0) return;
  const int per_exchange = generations_per_exchange(variant_, depth_);
  const bool refresh = halos_stale_;
  const BandHook& before = hooks.before;
  const BandHook& after = hooks.after;
  // Generations stepped since the halos were refreshed, when the step starts; every band's thread
  // walks the same launches from it (no list per step: nothing allocated in the frame loop).
  const int stale_at_start = refresh ? 0 : stale_;
  // Steps `stale` past a launch of g generations; whether an exchange follows it (then the halos
  // are fresh again): every launch edges first; with whole buffers, the one after which the halos
  // could not take another full launch.
  const auto advance = [&](int& stale, int g) {
    stale += g;
    const bool exchange = edges_first_ || stale + per_exchange > exchanged_rows_;
    if (exchange) stale = 0;
    return exchange;
  };
  run([&](int band, BandState& s) {
    bool first = true;  // the first exchange is bracketed
    if (before) before(band, s.stream.get());
    // After a fill or an edit: the halos next to the own rows, before the first launch reads them.
    if (refresh) {
      exchange_->exchange(band, s.front, exchanged_rows_);
      s.plain_read[static_cast<std::size_t>(s.front)] = true;
    }
    int stale = stale_at_start;
    for (int left = generations; left > 0;) {
      const int g = std::min(per_exchange, left);
      left -= g;
      const bool exchange = advance(stale, g);
      const StepHooks* marks = first && exchange ? &hooks : nullptr;
      if (edges_first_) {
        // Always per_exchange rows exchanged: the next launch may run the full depth.
        enqueue_launch_edges_first(s, band, g, per_exchange, marks);
        s.front = 1 - s.front;
      } else {
        wait_for_readers(s, band, static_cast<std::size_t>(1 - s.front));
        enqueue_launch(s, g);
        s.front = 1 - s.front;
        if (exchange) {
          if (marks && marks->exchange_start) marks->exchange_start(band, s.stream.get());
          exchange_->exchange(band, s.front, exchanged_rows_);
          s.plain_read[static_cast<std::size_t>(s.front)] = true;
          if (marks && marks->exchange_end) marks->exchange_end(band, s.stream.get());
        }
      }
      if (exchange) first = false;
    }
    if (after) after(band, s.stream.get());
  });
  // The same walk on this thread, for where the next step starts.
  int stale = stale_at_start;
  for (int left = generations; left > 0; left -= per_exchange) advance(stale, std::min(per_exchange, left));
  jobs_after_step_ = jobs_;
  halos_stale_ = false;
  stale_ = stale;
  generation_ += static_cast<std::uint64_t>(generations);
}

void SplitLattice::set_cell(int x, int y, bool alive) {
  x = ((x % width_) + width_) % width_;
  y = ((y % height_) + height_) % height_;
  const int owner = band_of_row(bands_, y) - first_band_;
  const Layout layout = sim::layout_of(variant_);
  run([&](int band, BandState& s) {
    if (band != owner) return;
    exchange_->before_write(band, s.front);
    kernels::launch_set_cell(layout, s.own_rows(row_bytes(), halo_), width_, s.band.rows, x,
                             y - s.band.first_row, alive, s.stream.get());
  });
  halos_stale_ = true;
}

}  // namespace ls::multi
