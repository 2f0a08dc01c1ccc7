// split_lattice.hpp — one W x H lattice held as horizontal bands, one per band slot of a
// DeviceWorkers (one per GPU; tests put several bands on one GPU). Each band's buffers hold its
// own rows plus halo rows above and below (band_partition.hpp); the unchanged torus kernels step
// windows of a band buffer, and a HaloExchange refreshes the halos.
//
// How a band hides its exchange (exchange_plan.hpp chooses, SplitTuning may force):
// - Edges first (bands whose launch is long): each launch steps the two windows that hold the rows
//   the neighbours need (the band's first and last rows, with the halo above or below) into small
//   edge buffers on a high-priority edge stream, and sends those rows on that stream (peer copies)
//   while the band's interior (its own rows as one window) is stepped on the band's stream; the
//   band's stream then copies the edge rows in and waits for the halos. A window of W rows stepped
//   g generations as a torus of its own is exact in its rows [g, W - g). A bitpacked interior
//   instead steps its own rows from the whole buffer and writes only them, exact, so the edge
//   windows give back only its trim. A bitpacked band's interior may leave a few more own rows to
//   its edge windows (interior_trim) so that its blocks fit the kernel's rounds (edge_windows.hpp).
// - Whole buffers (short launches, bands too thin for the windows, and a process's share of a
//   lattice split across processes, whose exchange is NCCL's): each launch steps the whole buffer,
//   halos included, and every launches_per_exchange()-th launch is followed by an exchange of
//   m x (generations a launch) rows each side. Garbage enters a buffer at its top and bottom and
//   moves a row a generation, so the own rows stay exact for as many generations as the halo
//   holds refreshed rows. Where every band has a GPU of its own and NCCL loads, the exchange is
//   NCCL's (nccl_band_exchange.hpp), else peer copies (peer_exchange.hpp).
// The split lattice equals the one-GPU lattice cell for cell, generation by generation, whatever
// the tuning, and its summary (population and the state hash over the whole lattice) is the
// one-lattice summary.
//
// Its work is in four files: split_lattice.cpp (bands made and released), split_lattice_step.cpp
// (the launches and exchanges of a step, cell edits), split_lattice_reads.cpp (summaries,
// snapshots, reads); split_band_state.hpp holds one band's stream, events and memory.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/non_copyable.hpp"
#include "multi/band_partition.hpp"
#include "multi/device_workers.hpp"
#include "multi/exchange_plan.hpp"
#include "multi/halo_exchange.hpp"
#include "multi/split_tuning.hpp"
#include "sim/band_view.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::multi {

/// A process's share of a lattice split across processes (src/dist): the lattice is cut into
/// `total_bands` bands, this process holds bands first_band .. first_band + slots - 1, and
/// `make_exchange` builds the exchange that reaches the other processes' bands (given this
/// process's bands' memory, the row bytes, the halo rows and the most rows one exchange moves).
/// The share's summaries are its bands' part: population and hash terms without the lattice's
/// base, which the process that sums the shares adds once.
struct ProcessShare {
  int total_bands = 1;
  int first_band = 0;
  std::function<std::unique_ptr<HaloExchange>(std::vector<BandMemory>, std::size_t row_bytes, int halo,
                                              int max_rows)>
      make_exchange;
};

class SplitLattice : NonCopyable {
 public:
  /// Cuts `spec`'s lattice into workers.size() bands, one per slot, allocates each band on its
  /// slot's device and enqueues the initial state (a random soup filled band by band with the
  /// whole lattice's formula, or an uploaded lattice). `spec.init` must not be a CopyInit (copy
  /// with read()). Throws InputError, changing nothing, when a band is too thin for the variant
  /// (band_partition.hpp) or does not fit in its device's free memory (what is asked and free).
  /// With `share`: only this process's bands of the share's partition (one per slot), their halos
  /// refreshed by the share's exchange. `tuning` as split_tuning.hpp says (InputError when its
  /// trim is not -1 or a multiple of 16).
  SplitLattice(DeviceWorkers& workers, const InstanceSpec& spec, std::uint64_t generation = 0,
               const ProcessShare* share = nullptr, const SplitTuning& tuning = {});
  ~SplitLattice();

  int width() const { return width_; }
  int height() const { return height_; }
  Variant variant() const { return variant_; }
  /// Generations per launch as asked.
  int generations_per_launch() const { return k_; }
  int launch_depth() const { return depth_; }
  const Rule& rule() const { return rule_; }
  std::uint64_t generation() const { return generation_; }
  const std::vector<Band>& bands() const { return bands_; }
  int halo() const { return halo_; }
  /// Whether the bands step their edges first (see the top of this file).
  bool edges_first() const { return edges_first_; }
  /// Launches between two exchanges (1 edges first).
  int launches_per_exchange() const { return exchange_every_; }
  /// Fewer launches between exchanges: `every` in 1..launches_per_exchange() (InputError otherwise,
  /// changing nothing); the halos, as deep as before, are refreshed at the next step. The processes
  /// of a share choose their own from their GPU's launcher, and their NCCL calls must meet: once
  /// connected they all take the least (NcclDistributedLattice::connect), which every one's halos
  /// hold.
  void lower_launches_per_exchange(int every);
  /// Whether the halos go by NCCL (else by peer copies, or by the process share's exchange).
  bool exchange_by_nccl() const { return use_nccl_; }
  /// Why NCCL was not taken where it could have been (not installed, communicators that failed to
  /// start), else empty.
  const std::string& exchange_note() const { return exchange_note_; }
  /// Edges first: own rows each side that the interior leaves to the edge windows, chosen so that
  /// the interior's blocks fill the launcher's last round (choose_trim) or as tuned, else 0.
  int interior_trim() const { return trim_; }
  HaloExchange& exchange() { return *exchange_; }
  /// This process's bands, top to bottom (host data only: never waits, never touches a device).
  /// Their streams may then carry others' work: ran_nothing_since_step() is false from here.
  std::vector<sim::BandView> band_views() const;
  /// Whether the bands' streams have carried nothing since the last step's work (no summary,
  /// snapshot, read, edit or band views given out): that step's last event ends where the next
  /// step's work begins (SplitEngine times back-to-back steps with one event each).
  bool ran_nothing_since_step() const { return jobs_ == jobs_after_step_; }

  /// Enqueued by each band's own thread on the band's stream, with its device current (SplitEngine
  /// records its timing events here).
  using BandHook = std::function<void(int band, cudaStream_t stream)>;
  /// What step() enqueues around a band's work, each where given: `before` ahead of its first
  /// launch (and halo refresh), `after` behind its last launch or exchange; `exchange_start` and
  /// `exchange_end` around the first exchange after a launch of this step (none where no launch of
  /// it is followed by one: deep halos), on the stream that exchange runs on (the edge stream,
  /// edges first).
  struct StepHooks {
    BandHook before, after, exchange_start, exchange_end;
  };
  /// Enqueues `generations` generations on every band (each band's thread: launch, exchange, ...);
  /// returns once enqueued, never waiting for a device.
  void step(int generations, const StepHooks& hooks = {});
  void set_rule(const Rule& rule) { rule_ = rule; }
  void set_cell(int x, int y, bool alive);

  /// Blocking: the whole lattice's summary from the bands' own rows.
  StateSummary summarize();
  /// Blocking: returns when every band's streams have run all they were given (steps, exchanges,
  /// a summary or snapshot in flight). Asks for no summary of its own.
  void wait_idle();
  /// Blocking: gathers the whole lattice (with a ProcessShare: this process's bands' rows, the
  /// others' left dead).
  Lattice read();
  /// Enqueues a summary of every band into pinned memory; newest_summary() reads it when all
  /// bands have finished (a poll, never a wait).
  /// `before` and `after` go around each band's part on its stream, when given (timings).
  void request_summary(const BandHook& before = {}, const BandHook& after = {});
  std::optional<StateSummary> newest_summary();
  /// The GPU time of the newest finished summary (the slowest band's), once: set when
  /// newest_summary() first reads a finished one, cleared by this call (summary pacing).
  std::optional<double> take_summary_ms();
  /// A summary was asked (request_summary, summarize) and newest_summary() has not read it yet.
  bool summary_pending() const { return !requested_seen_; }

  /// Starts a host snapshot of the whole lattice (its rows in the bit layout, each band's copied
  /// on its stream into one of two pinned buffers) unless one is in flight; never waits but for
  /// the first allocation of a pinned buffer. Not for a ProcessShare (it holds part of the lattice).
  /// `before` and `after` as request_summary()'s, when a copy starts.
  void request_snapshot(const BandHook& before = {}, const BandHook& after = {});
  /// The newest finished snapshot (instance 0: the engine renumbers it); host memory and event
  /// queries only, never throws: after a device failure the copy in flight does not count.
  std::optional<HostSnapshot> newest_snapshot() const noexcept;

  /// Blocking calls made by the last step() (0: step only enqueues).
  std::uint64_t host_syncs_in_last_step() const { return 0; }
  /// Blocking calls made so far (summarize, read).
  std::uint64_t host_syncs() const { return host_syncs_; }

 private:
  struct BandState;
  // Construction (split_lattice.cpp), in its order.
  /// The launch depth, this process's bands of the partition and their halo.
  void cut_into_bands(const ProcessShare* share);
  /// Edges first or whole buffers, the edge windows' rows and the interior's trim, the launches
  /// between exchanges, the halo, and whether NCCL will swap it.
  void plan_steps(bool process_share, const SplitTuning& tuning);
  /// A launch's time by its rows for choose_exchange_every, which asks by the thinnest band: the
  /// launcher's model (where the variant has one: bitpacked) of a band `thicker` rows taller, the
  /// thickest, whose launch the step waits for; on the current device. Else empty (rows at the
  /// nominal rate).
  LaunchSeconds launch_seconds(int generations, int thicker) const;
  bool bands_on_distinct_devices() const;
  /// Whether libnccl loads (exchange_note_ says why not).
  bool nccl_loads();
  /// NCCL's exchange where planned and its communicators start, else peer copies.
  std::unique_ptr<HaloExchange> make_exchange(std::vector<BandMemory> views);
  /// Refuses (InputError, what each device is asked and has free) before anything is allocated.
  void check_free_memory() const;
  /// Band `slot`'s stream, events and memory on its device (current); `view` says where its rows are.
  std::unique_ptr<BandState> allocate_band(int slot, BandMemory& view) const;
  /// Enqueues the initial state (a soup or an uploaded lattice) band by band on each band's thread.
  void fill(const InitialState& init);
  std::size_t row_bytes() const;
  /// One band's allocation: two buffers (own rows and halos), the summary result, the edge buffers.
  std::size_t band_bytes(const Band& band) const;

  // A step (split_lattice_step.cpp).
  /// Steps `rows` rows starting at `in` as a torus of their own into `out`.
  void launch_window(const void* in, void* out, int rows, int generations, cudaStream_t stream) const;
  void enqueue_launch(BandState& s, int generations);
  /// Before a launch writes buffer parity `out`: the first write after the neighbours read it waits
  /// for them (across GPUs); the launches after it follow it on the band's stream.
  void wait_for_readers(BandState& s, int band, std::size_t out);
  void enqueue_launch_edges_first(BandState& s, int band, int generations, int per_exchange,
                                  const StepHooks* marks);
  /// Edges first: both edge windows of buffer `in` stepped into the edge buffers of parity `out`.
  void launch_edge_windows(BandState& s, std::size_t in, std::size_t out, int generations,
                           cudaStream_t stream) const;
  /// Edges first: the first and last `rows` own rows of buffer `out`, copied from its edge buffers
  /// on the band's stream.
  void copy_edge_rows_in(BandState& s, std::size_t out, int rows) const;

  void run(const std::function<void(int band, BandState& s)>& job);
  /// Drains every band's streams, then frees the exchange and the bands (each with its device
  /// current); the destructor's work, and a throwing constructor's.
  void release() noexcept;

  DeviceWorkers& workers_;
  int width_ = 0;
  int height_ = 0;
  Variant variant_ = Variant::bitpacked;
  int k_ = 1;
  int depth_ = 1;
  Rule rule_;
  std::uint64_t generation_ = 0;
  std::vector<Band> bands_;
  int first_band_ = 0;    // the band slot 0 holds (0 unless a ProcessShare says otherwise)
  bool partial_ = false;  // a ProcessShare: summaries leave out the lattice's hash base
  int halo_ = 16;
  int exchange_every_ = 1;  // launches between two exchanges
  int exchanged_rows_ = 1;  // rows each side an exchange refreshes: exchange_every_ x generations
  int stale_ = 0;           // generations stepped since the halos were refreshed (whole buffers)
  bool use_nccl_ = false;
  std::string exchange_note_;
  int window_ = 0;  // rows of each edge window (edges first), else 0
  int trim_ = 0;    // own rows each side the interior leaves to the edge windows (edges first)
  bool edges_first_ = false;
  // Bitpacked: the interior steps the own rows from the whole buffer and writes only them, exact,
  // so the edges give back only the trim (none at most sizes), and both edge windows go in one
  // launch. The other variants have no such kernel: their interior is a window of its own.
  bool exact_interior_ = false;
  bool halos_stale_ = true;
  bool broken_ = false;
  // Jobs handed to the bands' threads (run()) and band views given out; as many as after the last
  // step: the streams ran nothing since (ran_nothing_since_step).
  mutable std::uint64_t jobs_ = 0;
  std::uint64_t jobs_after_step_ = ~std::uint64_t{0};
  std::uint64_t host_syncs_ = 0;
  std::uint64_t summary_generation_ = 0;
  std::optional<StateSummary> newest_;
  std::optional<double> summary_ms_;
  // Host snapshots (request_snapshot): two pinned buffers, the one being filled and the newest.
  std::array<cuda::PinnedBuffer, 2> snap_host_;
  mutable int snap_in_flight_ = -1;
  mutable int snap_newest_ = -1;
  std::array<std::uint64_t, 2> snap_generation_{};
  std::array<Rule, 2> snap_rule_{};
  void poll_snapshot() const noexcept;
  bool requested_seen_ = true;  // newest_summary() has read the newest request's result
  std::vector<std::unique_ptr<BandState>> state_;
  std::unique_ptr<HaloExchange> exchange_;
};

}  // namespace ls::multi
