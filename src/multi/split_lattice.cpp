// split_lattice.cpp — a lattice cut into bands across devices (split_lattice.hpp).
#include "multi/split_lattice.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <variant>

#include "core/error.hpp"
#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/peer_exchange.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/instance.hpp"

namespace ls::multi {

using kernels::Layout;

/// One band: its stream, event and memory (both buffers and the summary result in one allocation),
/// all on its slot's device: made and destroyed with that device current (the constructor's guard,
/// SplitLattice's destructor).
struct SplitLattice::BandState {
  int device = 0;
  Band band;
  cuda::Stream stream;
  cuda::DeviceBuffer memory;
  std::array<std::byte*, 2> buffers{};
  std::uint64_t* result_device = nullptr;
  cuda::PinnedBuffer result_host;                    // two uint64: population, hash part
  cuda::Event summary_start{cuda::Event::Create{}};  // timed: the summary's GPU time paces them
  cuda::Event summary_done{cuda::Event::Create{}};
  int front = 0;  // the buffer holding the current generation
  // Edges first: a plain exchange (after an edit) read the neighbours' buffers of this parity, so
  // the next launch into it makes the band's stream wait for them too (PeerExchange::before_write).
  std::array<bool, 2> plain_read{};
  // Edges first: the edge stream, its edge buffers (per parity: top window, bottom window, in
  // `edges`), and the events that tie the two streams of a launch together.
  cuda::Stream edge_stream;
  cuda::DeviceBuffer edges;
  std::array<std::byte*, 2> top{};
  std::array<std::byte*, 2> bottom{};
  cuda::Event launch_start{cuda::Event::Create{}, false};
  // Host snapshots: the bit-layout copy of the own rows (other layouts), and the copy's end.
  cuda::DeviceBuffer snap_staging;
  cuda::Event snap_done{cuda::Event::Create{}, false};
  cuda::Event edges_done{cuda::Event::Create{}, false};

  std::byte* own_rows(std::size_t row_bytes, int halo) const {
    return buffers[static_cast<std::size_t>(front)] + row_bytes * static_cast<std::size_t>(halo);
  }
};

namespace {

std::size_t row_bytes_of(Layout layout, int width) { return kernels::layout_bytes(layout, width, 1); }

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// Rows of an edge window: the halo rows above the first own row, the `trim` own rows the interior
/// leaves to the edges, and 2 x depth own rows (the window's rows [g, W - g) are exact after
/// g <= depth generations), rounded up to the kernels' 32.
int edge_window_rows(int halo, int depth, int trim) {
  return (halo + trim + 2 * depth + kBandRowGranularity - 1) / kBandRowGranularity * kBandRowGranularity;
}

/// LIFESTREAMS_SPLIT_TRIM=N (the bench's before/after): trim N rows (a multiple of 16), not the chosen.
int trim_override() {
  const char* v = std::getenv("LIFESTREAMS_SPLIT_TRIM");
  return v ? std::max(0, std::atoi(v)) / kHaloGranularity * kHaloGranularity : -1;
}

/// Own rows each side that a bitpacked band's interior leaves to its edge windows. The launcher
/// runs whole blocks, so an interior of 32768 rows (65536 wide, k = 16, 132 multiprocessors) spills
/// 9 of its 4761 blocks into a 37th round, where 32640 rows fit 36 (H200: split 65536² 1.89x ->
/// 1.93x). The smallest trim (at most 128 rows, and rows / 32) whose interior keeps the band's tile
/// and needs at least 1% fewer rounds, the rounds saved outweighing what the larger edge windows
/// add (counted as if they ran alone; they run beside the interior and fill its last round).
/// Measured: trims that change the tile, or windows of hundreds of rows, lose (16384², NOTES.md).
/// Current device: the bands'.
int choose_trim(int rows, int width, int halo, int depth) {
  using kernels::bitpacked_launch_plan;
  const auto edge_work = [&](int trim) {
    const kernels::BitpackedPlan e = bitpacked_launch_plan(width, edge_window_rows(halo, depth, trim), depth);
    return 2 * e.rounds * e.tile_rows;
  };
  const kernels::BitpackedPlan whole = bitpacked_launch_plan(width, rows, depth);
  for (int trim = kHaloGranularity; trim <= std::min(128, rows / 32); trim += kHaloGranularity) {
    const kernels::BitpackedPlan p = bitpacked_launch_plan(width, rows - 2 * trim, depth);
    if (p.tile_rows != whole.tile_rows || p.warps != whole.warps) continue;
    const long long saved = (whole.rounds - p.rounds) * whole.tile_rows;
    if (static_cast<double>(p.rounds) <= 0.99 * static_cast<double>(whole.rounds) &&
        saved > edge_work(trim) - edge_work(0))
      return trim;
  }
  return 0;
}

/// The summary result (two uint64) sits in front of the edge buffers, which start this far past
/// the second buffer (buffer sizes are multiples of 128 bytes: the edge buffers stay aligned).
constexpr std::size_t kEdgeAlign = 256;

/// The largest pitch handed to cudaMemcpy2DAsync (devices report 2^31 - 1; kept below it).
constexpr std::size_t kMaxCopyPitch = std::size_t{1} << 30;

bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v && std::strcmp(v, value) == 0;
}

bool whole_buffer_forced() {
  const char* v = std::getenv("LIFESTREAMS_SPLIT_WHOLE_BUFFER");
  return v && std::strcmp(v, "1") == 0;
}

int greatest_stream_priority() {
  int least = 0, greatest = 0;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  return greatest;
}

}  // namespace

SplitLattice::SplitLattice(DeviceWorkers& workers, const InstanceSpec& spec, std::uint64_t generation,
                           const ProcessShare* share)
    : workers_(workers),
      width_(spec.width),
      height_(spec.height),
      variant_(spec.variant),
      k_(spec.generations_per_launch),
      rule_(spec.rule),
      generation_(generation) {
  // A constructor that throws after allocating releases as the destructor does (streams drained,
  // each band's memory freed with its device current).
  struct ReleaseOnThrow {
    SplitLattice* self;
    bool done = false;
    ~ReleaseOnThrow() {
      if (!done) self->release();
    }
  } release_on_throw{this};
  if (std::holds_alternative<CopyInit>(spec.init))
    throw InputError("a split lattice starts from a soup or a lattice, not a copy");
  if (const auto* l = std::get_if<Lattice>(&spec.init)) {
    width_ = l->width();
    height_ = l->height();
  }
  check_lattice_size(width_, height_);
  sim::check_generations_per_launch(k_);
  const int slots = static_cast<int>(workers.size());
  depth_ = variant_iterates(variant_) ? k_ : 1;
  if (variant_ == Variant::iterate) {
    for (const int d : workers.devices()) {
      cuda::DeviceGuard on(d);
      depth_ = std::min(depth_, std::max(1, kernels::iterate_max_depth()));
    }
  }
  // The exchange refreshes depth_ rows each side after every launch; halos are that, rounded.
  bands_ = partition_rows(height_, share ? share->total_bands : slots, variant_, depth_);
  if (share) {
    if (share->first_band < 0 || share->first_band + slots > share->total_bands)
      throw InputError("a process share's bands lie outside the lattice's " +
                       std::to_string(share->total_bands));
    first_band_ = share->first_band;
    partial_ = true;
  }
  halo_ = halo_rows(variant_, depth_);
  // Edges first where every band of this process holds both windows apart from its interior.
  edges_first_ = !share && !whole_buffer_forced();
  edges_lead_ = env_is("LIFESTREAMS_SPLIT_EDGES", "lead");
  exact_interior_ = variant_ == Variant::bitpacked && !env_is("LIFESTREAMS_SPLIT_EXACT_INTERIOR", "0");
  int thinnest = height_;
  for (int b = 0; b < slots; ++b)
    thinnest = std::min(thinnest, bands_[static_cast<std::size_t>(first_band_ + b)].rows);
  if (const int forced = trim_override(); forced >= 0) {
    trim_ = forced;
  } else if (edges_first_ && variant_ == Variant::bitpacked) {
    cuda::DeviceGuard on(workers.device(0));
    int thickest = 0;  // the slowest band decides (bands differ by a granule at most)
    for (int b = 0; b < slots; ++b)
      thickest = std::max(thickest, bands_[static_cast<std::size_t>(first_band_ + b)].rows);
    trim_ = choose_trim(thickest, width_, halo_, depth_);
  }
  // A trim leaves the interior a granule at least, and each edge window's rows inside the band.
  if (thinnest < 2 * (trim_ + depth_) + kBandRowGranularity ||
      thinnest < edge_window_rows(halo_, depth_, trim_) - halo_)
    trim_ = 0;
  window_ = edge_window_rows(halo_, depth_, trim_);
  if (thinnest < window_ - halo_) edges_first_ = false;
  if (!edges_first_) window_ = trim_ = 0;

  const Layout layout = sim::layout_of(variant_);
  const std::size_t row_bytes = row_bytes_of(layout, width_);
  const std::size_t edge_bytes =
      4 * row_bytes * static_cast<std::size_t>(window_);  // two windows, two parities
  auto band_bytes = [&](const Band& b) {
    return 2 * row_bytes * static_cast<std::size_t>(b.rows + 2 * halo_) + kEdgeAlign + edge_bytes;
  };
  // Refused before anything is allocated: what each device is asked for, and what it has free.
  std::map<int, std::size_t> need;
  for (int b = 0; b < slots; ++b)
    need[workers.device(static_cast<std::size_t>(b))] +=
        band_bytes(bands_[static_cast<std::size_t>(first_band_ + b)]);
  for (const auto& [device, bytes] : need) {
    cuda::DeviceGuard on(device);
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    if (bytes > free) {
      throw InputError("lattice " + std::to_string(width_) + "x" + std::to_string(height_) + " split over " +
                       std::to_string(slots) + " bands needs " + mib(bytes) + " on device " +
                       std::to_string(device) + "; " + mib(free) + " free");
    }
  }

  std::vector<BandMemory> views;
  for (int b = 0; b < slots; ++b) {
    const int device = workers.device(static_cast<std::size_t>(b));
    // Before the state: its event belongs to the band's device (recorded on the band's stream).
    cuda::DeviceGuard on(device);
    auto s = std::make_unique<BandState>();
    s->device = device;
    s->band = bands_[static_cast<std::size_t>(first_band_ + b)];
    s->stream = cuda::Stream(cuda::Stream::Create{});
    const std::size_t buffer_bytes = row_bytes * static_cast<std::size_t>(s->band.rows + 2 * halo_);
    s->memory = cuda::DeviceBuffer::try_allocate(band_bytes(s->band));
    if (!s->memory) {
      std::size_t free = 0, total = 0;
      CUDA_CHECK(cudaMemGetInfo(&free, &total));
      throw InputError("lattice " + std::to_string(width_) + "x" + std::to_string(height_) + ": band " +
                       std::to_string(b) + " needs " + mib(band_bytes(s->band)) + " on device " +
                       std::to_string(s->device) + "; " + mib(free) + " free");
    }
    s->buffers[0] = s->memory.as<std::byte>();
    s->buffers[1] = s->buffers[0] + buffer_bytes;
    s->result_device = reinterpret_cast<std::uint64_t*>(s->buffers[1] + buffer_bytes);
    BandMemory view{s->device, s->stream.get(), s->buffers, s->band.rows};
    if (edges_first_) {
      s->edge_stream = cuda::Stream(cuda::Stream::Create{}, greatest_stream_priority());
      std::byte* e = s->buffers[1] + buffer_bytes + kEdgeAlign;  // past the summary result
      const std::size_t window_bytes = row_bytes * static_cast<std::size_t>(window_);
      for (std::size_t p = 0; p < 2; ++p) {
        s->top[p] = e + (2 * p) * window_bytes;
        s->bottom[p] = e + (2 * p + 1) * window_bytes;
        // The top window starts halo_ rows above the first own row; the bottom one ends halo_
        // rows below the last.
        view.first_row_edge[p] = s->top[p] + row_bytes * static_cast<std::size_t>(halo_);
        view.rows_end_edge[p] = s->bottom[p] + row_bytes * static_cast<std::size_t>(window_ - halo_);
      }
      view.edge_stream = s->edge_stream.get();
    }
    s->result_host = cuda::PinnedBuffer(2 * sizeof(std::uint64_t));
    // Halo rows beyond the refreshed ones are never read into an own row, but start them dead.
    CUDA_CHECK(cudaMemsetAsync(s->memory.get(), 0, s->memory.bytes(), s->stream.get()));
    views.push_back(view);
    state_.push_back(std::move(s));
  }
  if (share)
    exchange_ = share->make_exchange(std::move(views), row_bytes, halo_, depth_);
  else
    exchange_ = std::make_unique<PeerExchange>(std::move(views), row_bytes, halo_, depth_);
  if (edges_first_ && !exchange_->sends_edges())
    throw DeviceError("split lattice: the halo exchange cannot send from edge buffers");

  // The initial state, band by band on each band's thread.
  if (const auto* r = std::get_if<RandomInit>(&spec.init)) {
    if (!(r->density >= 0.0 && r->density <= 1.0))
      throw InputError("density " + std::to_string(r->density) + " is outside 0..1");
    const FillThreshold t = fill_threshold(r->density);
    run([&](int, BandState& s) {
      kernels::launch_random_fill_rows(layout, s.own_rows(row_bytes, halo_), width_, s.band.rows,
                                       s.band.first_row, t.threshold, t.all, r->seed, s.stream.get());
    });
  } else {
    const Lattice& l = std::get<Lattice>(spec.init);
    const std::size_t words_per_row = static_cast<std::size_t>(l.words_per_row());
    run([&](int, BandState& s) {
      const std::uint32_t* src = l.row(s.band.first_row);
      const std::size_t bits = words_per_row * sizeof(std::uint32_t) * static_cast<std::size_t>(s.band.rows);
      if (layout == Layout::bit_cells) {
        CUDA_CHECK(
            cudaMemcpyAsync(s.own_rows(row_bytes, halo_), src, bits, cudaMemcpyHostToDevice, s.stream.get()));
        CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));  // pageable source: done before it goes
        return;
      }
      cuda::DeviceBuffer staging(bits);
      CUDA_CHECK(cudaMemcpyAsync(staging.get(), src, bits, cudaMemcpyHostToDevice, s.stream.get()));
      kernels::launch_convert(Layout::bit_cells, staging.get(), layout, s.own_rows(row_bytes, halo_), width_,
                              s.band.rows, s.stream.get());
      CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
    });
  }
  halos_stale_ = true;
  release_on_throw.done = true;
}

SplitLattice::~SplitLattice() { release(); }

void SplitLattice::release() noexcept {
  // Nothing is freed while any band's work may still run: a band's edge stream copies from its
  // neighbours' edge buffers on another GPU, and cudaFree waits only for its own device. (A
  // removal or merge, never the frame loop; a failed device answers with its error, ignored here.)
  for (auto& s : state_) {
    try {
      const cuda::DeviceGuard on(s->device);
      cudaStreamSynchronize(s->stream.get());
      if (s->edge_stream.get()) cudaStreamSynchronize(s->edge_stream.get());
    } catch (...) {  // the device is gone: nothing of it runs any more
    }
  }
  cudaGetLastError();
  exchange_.reset();
  for (auto& s : state_) {
    // cudaFree and the stream's destruction with the band's device current.
    try {
      cuda::DeviceGuard on(s->device);
      s.reset();
    } catch (...) {
      s.reset();
    }
  }
  state_.clear();
}

std::vector<sim::BandView> SplitLattice::band_views() const {
  const Layout layout = sim::layout_of(variant_);
  const std::size_t row_bytes = row_bytes_of(layout, width_);
  std::vector<sim::BandView> out;
  out.reserve(state_.size());
  for (const auto& s : state_)
    out.push_back(sim::BandView{s->device, s->stream.get(), layout, s->own_rows(row_bytes, halo_),
                           s->band.first_row, s->band.rows, width_, height_});
  return out;
}

void SplitLattice::run(const std::function<void(int band, BandState& s)>& job) {
  if (broken_) throw DeviceError("split lattice unusable after an earlier device failure");
  try {
    workers_.run_on_all([&](int band) {
      try {
        job(band, *state_[static_cast<std::size_t>(band)]);
      } catch (...) {
        exchange_->abort();  // the other bands' threads must not wait for this one at a barrier
        throw;
      }
    });
  } catch (...) {
    broken_ = true;  // a job threw and broke the exchange's barrier: no band can step again
    throw;
  }
}

void SplitLattice::launch_window(const void* in, void* out, int rows, int generations,
                                 cudaStream_t stream) const {
  const kernels::RuleMasks rule{rule_.birth, rule_.survive};
  switch (variant_) {
    case Variant::naive:
      kernels::launch_step_naive(static_cast<const std::int32_t*>(in), static_cast<std::int32_t*>(out),
                                 width_, rows, rule, stream);
      break;
    case Variant::global:
      kernels::launch_step_global(static_cast<const std::uint8_t*>(in), static_cast<std::uint8_t*>(out),
                                  width_, rows, rule, stream);
      break;
    case Variant::shared:
      kernels::launch_step_shared(static_cast<const std::uint8_t*>(in), static_cast<std::uint8_t*>(out),
                                  width_, rows, rule, stream);
      break;
    case Variant::iterate:
      kernels::launch_step_iterate(static_cast<const std::uint8_t*>(in), static_cast<std::uint8_t*>(out),
                                   width_, rows, rule, generations, stream);
      break;
    case Variant::bitpacked:
      kernels::launch_step_bitpacked(static_cast<const std::uint32_t*>(in), static_cast<std::uint32_t*>(out),
                                     width_, rows, rule, generations, stream);
      break;
  }
}

void SplitLattice::enqueue_launch(BandState& s, int generations) {
  // The whole buffer, stepped as a torus of its own.
  launch_window(s.buffers[static_cast<std::size_t>(s.front)],
                s.buffers[static_cast<std::size_t>(1 - s.front)], s.band.rows + 2 * halo_, generations,
                s.stream.get());
}

void SplitLattice::enqueue_launch_edges_first(BandState& s, int band, int generations, int per_exchange,
                                              const StepHooks* marks) {
  const std::size_t row_bytes = row_bytes_of(sim::layout_of(variant_), width_);
  const auto at = [&](std::byte* base, int row) { return base + row_bytes * static_cast<std::size_t>(row); };
  const std::size_t in = static_cast<std::size_t>(s.front);
  const std::size_t out = static_cast<std::size_t>(1 - s.front);
  const int rows = s.band.rows;
  const cudaStream_t main = s.stream.get();
  const cudaStream_t edge = s.edge_stream.get();
  // The edge stream starts behind everything the band's stream holds (the last launch's edge rows
  // copied in, before_write's waits for the neighbours).
  if (s.plain_read[out]) {
    exchange_->before_write(band, static_cast<int>(out));
    s.plain_read[out] = false;
  }
  const auto windows = [&](cudaStream_t stream) {
    std::byte* bottom_in = at(s.buffers[in], 2 * halo_ + rows - window_);
    if (exact_interior_) {  // both in one launch
      kernels::launch_step_bitpacked_pair(
          reinterpret_cast<const std::uint32_t*>(s.buffers[in]), reinterpret_cast<std::uint32_t*>(s.top[out]),
          reinterpret_cast<const std::uint32_t*>(bottom_in), reinterpret_cast<std::uint32_t*>(s.bottom[out]),
          width_, window_, {rule_.birth, rule_.survive}, generations, stream);
    } else {
      launch_window(s.buffers[in], s.top[out], window_, generations, stream);
      launch_window(bottom_in, s.bottom[out], window_, generations, stream);
    }
  };
  if (edges_lead_) {
    // The edge windows lead on the band's own stream, alone on the GPU for a few microseconds;
    // the edge stream sends them while the interior runs. (No wait for the neighbours' reads of
    // these edge buffers: they pulled them on their edge streams before recording the edges this
    // band pulled in its last exchange, which the band's stream waited for before this launch.)
    windows(main);
    s.launch_start.record(main);
    CUDA_CHECK(cudaStreamWaitEvent(edge, s.launch_start.get(), 0));
  } else {
    s.launch_start.record(main);
    CUDA_CHECK(cudaStreamWaitEvent(edge, s.launch_start.get(), 0));
    exchange_->before_write_edges(band, static_cast<int>(out));
    windows(edge);
  }
  if (marks && marks->exchange_start) marks->exchange_start(band, edge);
  exchange_->exchange_edges(band, static_cast<int>(out), per_exchange);
  if (marks && marks->exchange_end) marks->exchange_end(band, edge);
  s.edges_done.record(edge);
  if (exact_interior_) {
    // Own rows [trim, rows - trim), exact: stepped from the whole buffer, its halos included, and
    // written alone (the exchange is writing the halo rows of `out` meanwhile).
    kernels::launch_step_bitpacked_rows(reinterpret_cast<const std::uint32_t*>(s.buffers[in]),
                                        reinterpret_cast<std::uint32_t*>(s.buffers[out]), width_,
                                        rows + 2 * halo_, halo_ + trim_, rows - 2 * trim_,
                                        {rule_.birth, rule_.survive}, generations, main);
  } else {
    // The interior, own rows [trim, rows - trim) as a torus of their own (exact in
    // [trim + g, rows - trim - g)); the halos of `out` are the exchange's.
    launch_window(at(s.buffers[in], halo_ + trim_), at(s.buffers[out], halo_ + trim_), rows - 2 * trim_,
                  generations, main);
  }
  CUDA_CHECK(cudaStreamWaitEvent(main, s.edges_done.get(), 0));
  // The own rows the edges give the band, both in one copy (one operation less on the band's
  // stream per launch): two "rows" of `fixed` lattice rows each, from the top and bottom edge
  // buffers to the first and last own rows. An exact interior leaves them only its trim.
  const int fixed = trim_ + (exact_interior_ ? 0 : per_exchange);
  if (fixed == 0) return;
  const std::byte* top_src = at(s.top[out], halo_);
  const std::byte* bottom_src = at(s.bottom[out], window_ - halo_ - fixed);
  std::byte* top_dst = at(s.buffers[out], halo_);
  std::byte* bottom_dst = at(s.buffers[out], halo_ + rows - fixed);
  const std::size_t edge_bytes = row_bytes * static_cast<std::size_t>(fixed);
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
  run([&](int band, BandState& s) {
    bool first = true;  // the first launch's exchange is bracketed
    if (before) before(band, s.stream.get());
    // After a fill or an edit: the halos next to the own rows, before the first launch reads them.
    if (refresh) {
      exchange_->exchange(band, s.front, per_exchange);
      s.plain_read[static_cast<std::size_t>(s.front)] = true;
    }
    for (int left = generations; left > 0;) {
      const int g = std::min(per_exchange, left);
      // Always per_exchange rows exchanged: the next launch may run the full depth.
      const StepHooks* marks = first ? &hooks : nullptr;
      if (edges_first_) {
        enqueue_launch_edges_first(s, band, g, per_exchange, marks);
        s.front = 1 - s.front;
      } else {
        exchange_->before_write(band, 1 - s.front);
        enqueue_launch(s, g);
        s.front = 1 - s.front;
        if (marks && marks->exchange_start) marks->exchange_start(band, s.stream.get());
        exchange_->exchange(band, s.front, per_exchange);
        if (marks && marks->exchange_end) marks->exchange_end(band, s.stream.get());
      }
      first = false;
      left -= g;
    }
    if (after) after(band, s.stream.get());
  });
  halos_stale_ = false;
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
    kernels::launch_set_cell(layout, s.own_rows(row_bytes_of(layout, width_), halo_), width_, s.band.rows, x,
                             y - s.band.first_row, alive, s.stream.get());
  });
  halos_stale_ = true;
}

StateSummary SplitLattice::summarize() {
  request_summary();
  run([&](int, BandState& s) { CUDA_CHECK(cudaEventSynchronize(s.summary_done.get())); });
  host_syncs_ += state_.size();
  auto out = newest_summary();
  if (!out) throw DeviceError("split lattice: a finished summary did not read back");
  return *out;
}

void SplitLattice::request_summary(const BandHook& before, const BandHook& after) {
  const Layout layout = sim::layout_of(variant_);
  const std::uint64_t base =
      lattice_hash_base(static_cast<std::uint32_t>(width_), static_cast<std::uint32_t>(height_));
  run([&](int band, BandState& s) {
    if (before) before(band, s.stream.get());
    s.summary_start.record(s.stream.get());
    // The base term once, from the first band: the parts then sum to the whole lattice's hash.
    kernels::launch_summary_rows(layout, s.own_rows(row_bytes_of(layout, width_), halo_), width_, s.band.rows,
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
  StateSummary sum;
  sum.generation = summary_generation_;
  double slowest_ms = 0;
  for (const auto& s : state_) {
    const cudaError_t q = cudaEventQuery(s->summary_done.get());
    if (q == cudaErrorNotReady) return newest_;
    CUDA_CHECK(q);
    const auto* r = s->result_host.as<std::uint64_t>();
    sum.population += r[0];
    sum.hash += r[1];
    float ms = 0;
    // Not ready: no summary was ever recorded on this band (the events start "done").
    if (cudaEventElapsedTime(&ms, s->summary_start.get(), s->summary_done.get()) == cudaSuccess)
      slowest_ms = std::max(slowest_ms, static_cast<double>(ms));
    else
      cudaGetLastError();
  }
  if (!newest_ || newest_->generation != sum.generation || !requested_seen_) {
    summary_ms_ = slowest_ms;
    requested_seen_ = true;
  }
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
    const void* src = s.own_rows(row_bytes_of(layout, width_), halo_);
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
  const std::size_t row_bytes = row_bytes_of(layout, width_);
  const std::size_t words_per_row = static_cast<std::size_t>(out.words_per_row());
  run([&](int, BandState& s) {
    const std::size_t bits = words_per_row * sizeof(std::uint32_t) * static_cast<std::size_t>(s.band.rows);
    const void* src = s.own_rows(row_bytes, halo_);
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
