// split_lattice.cpp — a lattice cut into bands across devices (split_lattice.hpp): the bands made
// (their plan, memory, exchange and initial state) and released.
#include "multi/split_lattice.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "core/error.hpp"
#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "multi/edge_windows.hpp"
#include "multi/exchange_plan.hpp"
#include "multi/peer_exchange.hpp"
#if defined(LIFESTREAMS_HAVE_NCCL)
#include "multi/nccl_band_exchange.hpp"
#include "multi/nccl_library.hpp"
#endif
#include "multi/split_band_state.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/instance.hpp"

namespace ls::multi {

using kernels::Layout;

namespace {

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// The summary result (two uint64) sits in front of the edge buffers, which start this far past the
/// second buffer (buffer sizes are multiples of 128 bytes: the edge buffers stay aligned).
constexpr std::size_t kEdgeAlign = 256;

}  // namespace

SplitLattice::SplitLattice(DeviceWorkers& workers, const InstanceSpec& spec, std::uint64_t generation,
                           const ProcessShare* share, const SplitTuning& tuning)
    : workers_(workers),
      width_(spec.width),
      height_(spec.height),
      variant_(spec.variant),
      k_(spec.generations_per_launch),
      rule_(spec.rule),
      generation_(generation) {
  // A constructor that throws after allocating releases as the destructor does (streams drained, each
  // band's memory freed with its device current).
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
  check_split_tuning(tuning);
  cut_into_bands(share);
  plan_steps(share != nullptr, tuning);
  check_free_memory();

  std::vector<BandMemory> views;
  for (int b = 0; b < static_cast<int>(workers_.size()); ++b) {
    BandMemory view;
    state_.push_back(allocate_band(b, view));
    views.push_back(view);
  }
  if (share)
    exchange_ = share->make_exchange(std::move(views), row_bytes(), halo_, exchanged_rows_);
  else
    exchange_ = make_exchange(std::move(views));
  if (edges_first_ && !exchange_->sends_edges())
    throw DeviceError("split lattice: the halo exchange cannot send from edge buffers");
  fill(spec.init);
  halos_stale_ = true;
  release_on_throw.done = true;
}

std::size_t SplitLattice::row_bytes() const {
  return kernels::layout_bytes(sim::layout_of(variant_), width_, 1);
}

std::size_t SplitLattice::band_bytes(const Band& band) const {
  const std::size_t edge_bytes =
      4 * row_bytes() * static_cast<std::size_t>(window_);  // two windows, two parities
  return 2 * row_bytes() * static_cast<std::size_t>(band.rows + 2 * halo_) + kEdgeAlign + edge_bytes;
}

void SplitLattice::cut_into_bands(const ProcessShare* share) {
  const int slots = static_cast<int>(workers_.size());
  depth_ = variant_iterates(variant_) ? k_ : 1;
  bands_ = partition_rows(height_, share ? share->total_bands : slots, variant_, depth_);
  if (share) {
    if (share->first_band < 0 || share->first_band + slots > share->total_bands)
      throw InputError("a process share's bands lie outside the lattice's " +
                       std::to_string(share->total_bands));
    first_band_ = share->first_band;
    partial_ = true;
  }
}

void SplitLattice::plan_steps(bool process_share, const SplitTuning& tuning) {
  exact_interior_ = variant_ == Variant::bitpacked;
  // The slowest band decides the trim (bands differ by a granule at most). Over the whole
  // partition, not this process's share of it: every process of a share must choose the same
  // launches between exchanges, or their NCCL calls would not meet.
  int thinnest = height_, thickest = 0;
  for (const Band& band : bands_) {
    thinnest = std::min(thinnest, band.rows);
    thickest = std::max(thickest, band.rows);
  }
  const int g = generations_per_exchange(variant_, depth_);
  halo_ = halo_rows(variant_, depth_);
  // Edges first where every band of this process holds both windows apart from its interior, and
  // its launch is long enough to hide the exchange (exchange_plan.hpp).
  edges_first_ = !process_share && (tuning.steps == SplitSteps::edges_first ||
                                    (tuning.steps == SplitSteps::chosen && tuning.exchange_every < 0 &&
                                     launch_hides_exchange(variant_, width_, thinnest, g)));
  if (tuning.trim_rows >= 0) {
    trim_ = tuning.trim_rows;
  } else if (edges_first_ && variant_ == Variant::bitpacked) {
    cuda::DeviceGuard on(workers_.device(0));
    trim_ = choose_trim(thickest, width_, halo_, depth_);
  }
  // A trim leaves the interior a granule at least, and each edge window's rows inside the band.
  if (thinnest < 2 * (trim_ + depth_) + kBandRowGranularity ||
      thinnest < edge_window_rows(halo_, depth_, trim_) - halo_)
    trim_ = 0;
  window_ = edge_window_rows(halo_, depth_, trim_);
  if (thinnest < window_ - halo_) edges_first_ = false;
  if (edges_first_) {
    exchange_every_ = 1;
  } else {
    window_ = trim_ = 0;
    // Whole buffers: NCCL where each band has a GPU of its own (a process share's exchange is its
    // own: NCCL across processes), halos deep enough for the launches between two exchanges.
    use_nccl_ = !process_share && !tuning.peer_only && bands_on_distinct_devices() && nccl_loads();
    if (tuning.exchange_every >= 1) {
      exchange_every_ = tuning.exchange_every;
      if (2 * exchange_every_ * g > thinnest)
        throw InputError(std::to_string(exchange_every_) + " launches per exchange need bands of " +
                         std::to_string(2 * exchange_every_ * g) + " rows at least; the thinnest has " +
                         std::to_string(thinnest));
    } else {
      const bool nccl = process_share || use_nccl_;
      cuda::DeviceGuard on(workers_.device(0));
      exchange_every_ = choose_exchange_every(variant_, width_, thinnest, g,
                                              nccl ? kNcclExchangeSeconds : kPeerExchangeSeconds,
                                              launch_seconds(g, thickest - thinnest));
      // The launcher's model reads this process's GPU: the processes of a share take the least of
      // their choices once connected (lower_launches_per_exchange), not here, where they do not
      // communicate.
    }
  }
  exchanged_rows_ = exchange_every_ * g;
  halo_ = halo_holding(exchanged_rows_);
}

void SplitLattice::lower_launches_per_exchange(int every) {
  if (every < 1 || every > exchange_every_)
    throw InputError("launches per exchange can go from " + std::to_string(exchange_every_) + " to 1.." +
                     std::to_string(exchange_every_) + ", not " + std::to_string(every));
  exchange_every_ = every;
  exchanged_rows_ = every * generations_per_exchange(variant_, depth_);
  halos_stale_ = true;
}

LaunchSeconds SplitLattice::launch_seconds(int generations, int thicker) const {
  if (variant_ != Variant::bitpacked) return {};
  // The bitpacked launcher runs whole rounds of blocks (kernels::bitpacked_launch_plan), so a band
  // and its halos may cost the same at two depths, or a few rows more a whole round: 65536² over
  // four GPUs runs 2.4% faster with halos 8 launches deep than 4 (bench/NOTES.md). Its model's
  // cost, in seconds by a tall lattice of the same width at the nominal rate, on the current device.
  constexpr int kReferenceRows = 1 << 20;
  const int width = width_;
  const double seconds_per_cost = nominal_launch_seconds(variant_, width, kReferenceRows, generations) /
                                  kernels::bitpacked_launch_plan(width, kReferenceRows, generations).cost;
  return [width, generations, seconds_per_cost, thicker](int rows) {
    return kernels::bitpacked_launch_plan(width, rows + thicker, generations).cost * seconds_per_cost;
  };
}

bool SplitLattice::bands_on_distinct_devices() const {
  std::set<int> devices;
  for (std::size_t b = 0; b < workers_.size(); ++b) devices.insert(workers_.device(b));
  return devices.size() == workers_.size() && workers_.size() > 1;
}

bool SplitLattice::nccl_loads() {
#if defined(LIFESTREAMS_HAVE_NCCL)
  exchange_note_ = nccl_unavailable();
  return exchange_note_.empty();
#else
  exchange_note_ = "built without NCCL";
  return false;
#endif
}

std::unique_ptr<HaloExchange> SplitLattice::make_exchange(std::vector<BandMemory> views) {
#if defined(LIFESTREAMS_HAVE_NCCL)
  if (use_nccl_) {
    try {
      return std::make_unique<NcclBandExchange>(views, row_bytes(), halo_);
    } catch (const NcclError& e) {
      // Communicators that cannot start: peer copies instead, the halo as deep as planned for NCCL
      // (the buffers are allocated): exact, a little short of peer copies' own best depth.
      exchange_note_ = e.what();
      use_nccl_ = false;
    }
  }
#endif
  return std::make_unique<PeerExchange>(std::move(views), row_bytes(), halo_, exchanged_rows_,
                                        exchange_every_ > 1);
}

void SplitLattice::check_free_memory() const {
  std::map<int, std::size_t> need;
  const int slots = static_cast<int>(workers_.size());
  for (int b = 0; b < slots; ++b)
    need[workers_.device(static_cast<std::size_t>(b))] +=
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
}

std::unique_ptr<SplitLattice::BandState> SplitLattice::allocate_band(int slot, BandMemory& view) const {
  const int device = workers_.device(static_cast<std::size_t>(slot));
  // Before the state: its event belongs to the band's device (recorded on the band's stream).
  cuda::DeviceGuard on(device);
  auto s = std::make_unique<BandState>();
  s->device = device;
  s->band = bands_[static_cast<std::size_t>(first_band_ + slot)];
  s->stream = cuda::Stream(cuda::Stream::Create{});
  const std::size_t rows = row_bytes();
  const std::size_t buffer_bytes = rows * static_cast<std::size_t>(s->band.rows + 2 * halo_);
  s->memory = cuda::DeviceBuffer::try_allocate(band_bytes(s->band));
  if (!s->memory) {
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    throw InputError("lattice " + std::to_string(width_) + "x" + std::to_string(height_) + ": band " +
                     std::to_string(slot) + " needs " + mib(band_bytes(s->band)) + " on device " +
                     std::to_string(s->device) + "; " + mib(free) + " free");
  }
  s->buffers[0] = s->memory.as<std::byte>();
  s->buffers[1] = s->buffers[0] + buffer_bytes;
  s->result_device = reinterpret_cast<std::uint64_t*>(s->buffers[1] + buffer_bytes);
  view = BandMemory{s->device, s->stream.get(), s->buffers, s->band.rows};
  if (edges_first_) {
    s->edge_stream = cuda::Stream(cuda::Stream::Create{}, cuda::stream_priorities().greatest);
    std::byte* e = s->buffers[1] + buffer_bytes + kEdgeAlign;  // past the summary result
    const std::size_t window_bytes = rows * static_cast<std::size_t>(window_);
    for (std::size_t p = 0; p < 2; ++p) {
      s->top[p] = e + (2 * p) * window_bytes;
      s->bottom[p] = e + (2 * p + 1) * window_bytes;
      // The top window starts halo_ rows above the first own row; the bottom one ends halo_ rows below
      // the last.
      view.first_row_edge[p] = s->top[p] + rows * static_cast<std::size_t>(halo_);
      view.rows_end_edge[p] = s->bottom[p] + rows * static_cast<std::size_t>(window_ - halo_);
    }
    view.edge_stream = s->edge_stream.get();
  }
  s->result_host = cuda::PinnedBuffer(2 * sizeof(std::uint64_t));
  // Halo rows beyond the refreshed ones are never read into an own row, but start them dead.
  CUDA_CHECK(cudaMemsetAsync(s->memory.get(), 0, s->memory.bytes(), s->stream.get()));
  return s;
}

void SplitLattice::fill(const InitialState& init) {
  const Layout layout = sim::layout_of(variant_);
  const std::size_t rows = row_bytes();
  if (const auto* r = std::get_if<RandomInit>(&init)) {
    if (!(r->density >= 0.0 && r->density <= 1.0))
      throw InputError("density " + std::to_string(r->density) + " is outside 0..1");
    const FillThreshold t = fill_threshold(r->density);
    run([&](int, BandState& s) {
      kernels::launch_random_fill_rows(layout, s.own_rows(rows, halo_), width_, s.band.rows, s.band.first_row,
                                       t.threshold, t.all, r->seed, s.stream.get());
    });
    return;
  }
  const Lattice& l = std::get<Lattice>(init);
  const std::size_t words_per_row = static_cast<std::size_t>(l.words_per_row());
  run([&](int, BandState& s) {
    const std::uint32_t* src = l.row(s.band.first_row);
    const std::size_t bits = words_per_row * sizeof(std::uint32_t) * static_cast<std::size_t>(s.band.rows);
    if (layout == Layout::bit_cells) {
      CUDA_CHECK(cudaMemcpyAsync(s.own_rows(rows, halo_), src, bits, cudaMemcpyHostToDevice, s.stream.get()));
      CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));  // pageable source: done before it goes
      return;
    }
    cuda::DeviceBuffer staging(bits);
    CUDA_CHECK(cudaMemcpyAsync(staging.get(), src, bits, cudaMemcpyHostToDevice, s.stream.get()));
    kernels::launch_convert(Layout::bit_cells, staging.get(), layout, s.own_rows(rows, halo_), width_,
                            s.band.rows, s.stream.get());
    CUDA_CHECK(cudaStreamSynchronize(s.stream.get()));
  });
}

SplitLattice::~SplitLattice() { release(); }

void SplitLattice::release() noexcept {
  // Nothing is freed while any band's work may still run: a band's edge stream copies from its
  // neighbours' edge buffers on another GPU, and cudaFree waits only for its own device. (A removal
  // or merge, never the frame loop; a failed device answers with its error, ignored here.) After a
  // band failed, the exchange first stops what waits for it (NCCL's kernels), or the drain would not.
  if (broken_ && exchange_) exchange_->cancel();
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
  ++jobs_;
  const std::size_t row = row_bytes();
  std::vector<sim::BandView> out;
  out.reserve(state_.size());
  for (const auto& s : state_)
    out.push_back(sim::BandView{s->device, s->stream.get(), layout, s->own_rows(row, halo_),
                                s->band.first_row, s->band.rows, width_, height_});
  return out;
}

void SplitLattice::run(const std::function<void(int band, BandState& s)>& job) {
  if (broken_) throw DeviceError("split lattice unusable after an earlier device failure");
  ++jobs_;
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

}  // namespace ls::multi
