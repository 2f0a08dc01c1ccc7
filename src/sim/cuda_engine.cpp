// cuda_engine.cpp — implements CudaEngine (cuda_engine.hpp): instances with their own streams and
// double-buffered device lattices, asynchronous summaries and event timings read frames late.
#include "sim/cuda_engine.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/splitmix.hpp"
#include "core/stats.hpp"
#include "cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls {

namespace {

using kernels::Layout;

/// Frames of timing events each instance keeps: reading them a frame or two late never waits.
constexpr std::size_t kTimingRing = 4;
/// Summary requests each instance can have in flight.
constexpr std::size_t kSummaryRing = 4;
constexpr std::size_t kSummaryWords = 2;  // population, hash
constexpr std::uint64_t kNoFrame = std::numeric_limits<std::uint64_t>::max();
/// Device memory left free beyond a lattice's own needs, for the runtime (launches, streams).
constexpr std::size_t kHeadroomBytes = std::size_t{16} << 20;
constexpr std::size_t kAlign = 256;
/// A frame is replayed from a graph once the same frame shape has come this many frames in a row
/// (so that runs whose steps vary, like tests and `lifestreams run`, make no graphs).
constexpr int kFramesBeforeGraph = 3;
/// Frames of more launches run without a graph (instantiating one would cost more than it saves).
constexpr int kMaxGraphLaunches = 64;

Layout layout_of(Variant v) {
  switch (v) {
    case Variant::naive:
      return Layout::int32_cells;
    case Variant::bitpacked:
      return Layout::bit_cells;
    default:
      return Layout::byte_cells;
  }
}

kernels::RuleMasks masks_of(const Rule& rule) { return {rule.birth, rule.survive}; }

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

/// Non-blocking completion test; a real error throws DeviceError.
bool event_done(cudaEvent_t event) {
  const cudaError_t err = cudaEventQuery(event);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) {
    // Not an error: make sure a later cudaGetLastError() check after a launch does not see it.
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();
    return false;
  }
  throw_cuda_error(err, "cudaEventQuery(event)", __FILE__, __LINE__);
}

/// Milliseconds from `from` to `to`, or false while either is pending; a real error throws.
bool try_elapsed_ms(cudaEvent_t from, cudaEvent_t to, double& ms) {
  float t = 0;
  const cudaError_t err = cudaEventElapsedTime(&t, from, to);
  if (err == cudaSuccess) {
    ms = t;
    return true;
  }
  if (err == cudaErrorNotReady) {
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();
    return false;
  }
  throw_cuda_error(err, "cudaEventElapsedTime(&t, from, to)", __FILE__, __LINE__);
}

double elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
  return ms;
}

/// Whole MiB: rounded to nearest for what is asked, down for what is free.
std::string mib_text(std::size_t bytes, bool nearest) {
  const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
  return std::to_string(static_cast<unsigned long long>(nearest ? std::llround(mib) : std::floor(mib)));
}

/// Timing events of one instance in one timed frame.
struct TimingSlot {
  std::uint64_t frame = kNoFrame;
  int generations = 0;
  bool display_begun = false;
  bool display_ended = false;
  cuda::Event step_start{cuda::Event::Create{}};
  cuda::Event step_end{cuda::Event::Create{}};
  cuda::Event display_start{cuda::Event::Create{}};
  cuda::Event display_end{cuda::Event::Create{}};
};

/// One asynchronous summary request: device result -> pinned host memory, then `done`.
struct SummarySlot {
  std::uint64_t sequence = 0;  // 0: never requested
  std::uint64_t generation = 0;
  bool pending = false;
  cuda::Event done{cuda::Event::Create{}, false};
};

/// The reference event recorded first in each timed frame, so that bars on all streams share an
/// origin. Timed frames are numbered apart from frames (`timed`): the rings hold the newest
/// kTimingRing timed frames whatever the timing period.
struct FrameRecord {
  std::uint64_t frame = kNoFrame;
  std::uint64_t timed = kNoFrame;
  StreamMode mode = StreamMode::per_instance;
  cuda::Event reference{cuda::Event::Create{}};
};

/// What one frame's work depends on besides the front buffer and the timing slot: a frame graph
/// stays valid while these stay the same.
struct FrameShape {
  Variant variant = Variant::naive;
  int k = 0;
  int generations = 0;
  std::uint32_t birth = 0;
  std::uint32_t survive = 0;
  const void* memory = nullptr;
  bool operator==(const FrameShape&) const = default;
};

/// What a summary graph depends on besides the front buffer and the summary slot.
struct SummaryShape {
  Layout layout = Layout::int32_cells;
  const void* memory = nullptr;
  bool operator==(const SummaryShape&) const = default;
};

/// One simulation: its stream, its lattices (front/back in one allocation, plus summary results),
/// its events and statistics. Members are destroyed in reverse order: device memory first (cudaFree
/// waits for pending work), then pinned memory, events and finally the stream.
struct Instance {
  int width = 0;
  int height = 0;
  Rule rule;
  Variant variant = Variant::bitpacked;
  int k = 1;
  std::uint64_t generation = 0;
  std::uint64_t origin = 0;

  cuda::Stream stream;
  cuda::Event order{cuda::Event::Create{}, false};  // orders work across streams
  std::array<TimingSlot, kTimingRing> timing;
  std::array<SummarySlot, kSummaryRing> summaries;
  std::size_t next_summary = 0;
  cuda::PinnedBuffer results_host;
  // Host snapshots (request_snapshots): the state in the bit layout on the device, then in one of
  // two pinned buffers (the newest finished snapshot stays readable while the next is in flight).
  std::array<cuda::PinnedBuffer, 2> snapshot_host;
  cuda::DeviceBuffer snapshot_device;
  cuda::Event snapshot_converted{cuda::Event::Create{}, false};
  cuda::Event snapshot_copied{cuda::Event::Create{}, false};
  mutable int snapshot_in_flight = -1;  // pinned buffer being filled, or -1
  mutable int snapshot_newest = -1;     // pinned buffer holding the newest finished snapshot, or -1
  std::array<std::uint64_t, 2> snapshot_generation{};
  std::array<Rule, 2> snapshot_rule{};
  cuda::DeviceBuffer memory;
  void* front = nullptr;
  void* back = nullptr;
  std::uint64_t* results_device = nullptr;
  // Frame graphs (CudaEngine::Impl::enqueue_frame): the kernels of one frame of graph_shape, one
  // graph per front buffer. They use this instance's buffers, so they are destroyed first.
  FrameShape graph_shape;
  int shape_frames = 0;  // consecutive frames of graph_shape
  std::array<cuda::GraphExec, 2> frame_graphs;
  // Summary graphs likewise, one per front buffer and summary slot.
  SummaryShape summary_shape;
  std::uint64_t summary_frame = kNoFrame;  // frame of the newest summary request
  int summary_frames = 0;                  // consecutive frames with a summary request
  std::array<cuda::GraphExec, 2 * kSummaryRing> summary_graphs;

  // Newest finished summary and the request it came from (updated by polling in const status()).
  mutable std::optional<StateSummary> summary;
  mutable std::uint64_t summary_sequence = 0;

  RollingStats step_stats;
  RollingStats display_stats;
  RollingStats generation_stats;

  Layout layout() const { return layout_of(variant); }
  std::size_t lattice_bytes() const { return kernels::layout_bytes(layout(), width, height); }
};

/// Bytes of one instance's device allocation: two lattices and the summary results.
std::size_t instance_bytes(Layout layout, int width, int height) {
  return 2 * round_up(kernels::layout_bytes(layout, width, height), kAlign) +
         kSummaryRing * kSummaryWords * sizeof(std::uint64_t);
}

/// Points front/back/results into `inst.memory`.
void carve(Instance& inst) {
  auto* base = static_cast<unsigned char*>(inst.memory.get());
  const std::size_t lattice = round_up(inst.lattice_bytes(), kAlign);
  inst.front = base;
  inst.back = base + lattice;
  inst.results_device = reinterpret_cast<std::uint64_t*>(base + 2 * lattice);
}

void drop_frame_graphs(Instance& inst) {
  for (auto& graph : inst.frame_graphs) graph.reset();
}

void drop_summary_graphs(Instance& inst) {
  for (auto& graph : inst.summary_graphs) graph.reset();
}

void clear_timing_stats(Instance& inst) {
  inst.step_stats.clear();
  inst.display_stats.clear();
  inst.generation_stats.clear();
}

/// Notes a finished snapshot copy. Never throws: after a fatal device error the query fails and
/// the snapshot that was in flight is simply not counted.
void poll_snapshot(const Instance& inst) noexcept {
  if (inst.snapshot_in_flight < 0) return;
  const cudaError_t err = cudaEventQuery(inst.snapshot_copied.get());
  if (err == cudaSuccess) {
    inst.snapshot_newest = inst.snapshot_in_flight;
    inst.snapshot_in_flight = -1;
  } else if (err == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) {
    cudaGetLastError();
  }
}

}  // namespace

int cuda_device_count(std::string* why_none) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why_none) *why_none = std::string("no CUDA device: ") + cudaGetErrorString(err);
    return 0;
  }
  if (count == 0 && why_none) *why_none = "no CUDA device";
  return count;
}

struct CudaEngine::Impl {
  int device = 0;
  std::string name;
  StreamMode mode = StreamMode::per_instance;
  cuda::Stream shared;
  cuda::Event shared_order{cuda::Event::Create{}, false};
  cuda::Stream snapshot_stream;  // lowest priority; made on the first snapshot request
  cuda::Stream capture_stream;   // only ever captured into graphs, never run
  bool launch_graphs = true;     // set_launch_graphs
  std::vector<std::unique_ptr<Instance>> instances;

  std::array<FrameRecord, kTimingRing> frames;  // by timed frame number
  std::uint64_t frame_count = 0;                // frames started by step()
  std::uint64_t timed_count = 0;                // timed frames started by step()
  std::uint64_t next_harvest = 0;               // oldest timed frame whose timings are not read yet
  int timing_period = 1;                        // set_timing_period
  int frames_to_timed = 0;                      // frames before the next timed one
  FrameTimings newest_frame;
  std::vector<TimelineBar> newest_timeline;

  std::uint64_t syncs = 0;  // every blocking call the engine makes
  std::uint64_t last_step_syncs = 0;
  std::uint64_t summary_sequence = 0;

  explicit Impl(int dev) : device(dev) {}

  cudaStream_t stream_of(const Instance& inst) const {
    return mode == StreamMode::shared ? shared.get() : inst.stream.get();
  }

  Instance& at(std::size_t index) const {
    if (index >= instances.size())
      throw InputError("instance " + std::to_string(index) + " does not exist (there are " +
                       std::to_string(instances.size()) + ")");
    return *instances[index];
  }

  // Blocking calls go through these so that host_syncs_in_last_step() can count them.
  void sync_stream(cudaStream_t stream) {
    ++syncs;
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  void sync_device() {
    ++syncs;
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  /// Device memory for a lattice: checks free memory first and throws InputError (changing
  /// nothing) when it will not fit.
  cuda::DeviceBuffer allocate(std::size_t bytes, int width, int height, Variant variant) {
    ++syncs;
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const auto too_big = [&] {
      return InputError("lattice " + std::to_string(width) + "x" + std::to_string(height) + " (" +
                        std::string(variant_name(variant)) + ") needs " + mib_text(bytes, true) +
                        " MiB of device memory; " + mib_text(free_bytes, false) + " MiB free");
    };
    if (bytes > free_bytes || free_bytes - bytes < kHeadroomBytes) throw too_big();
    cuda::DeviceBuffer buffer = cuda::DeviceBuffer::try_allocate(bytes);
    if (!buffer) throw too_big();
    return buffer;
  }

  static void check_k(int k) {
    if (k < 1 || k > kMaxGenerationsPerLaunch)
      throw InputError("generations per launch " + std::to_string(k) + " is outside 1.." +
                       std::to_string(kMaxGenerationsPerLaunch));
  }

  /// A complete instance from `spec`, its initial state enqueued (or, for a pattern, uploaded).
  std::unique_ptr<Instance> make_instance(const InstanceSpec& spec) {
    check_k(spec.generations_per_launch);
    auto inst = std::make_unique<Instance>();
    inst->rule = spec.rule;
    inst->variant = spec.variant;
    inst->k = spec.generations_per_launch;

    const Instance* source = nullptr;
    if (const auto* copy = std::get_if<CopyInit>(&spec.init)) {
      source = &at(copy->source);
      inst->width = source->width;
      inst->height = source->height;
    } else if (const auto* lattice = std::get_if<Lattice>(&spec.init)) {
      check_lattice_size(lattice->width(), lattice->height());
      inst->width = lattice->width();
      inst->height = lattice->height();
    } else {
      check_lattice_size(spec.width, spec.height);
      inst->width = spec.width;
      inst->height = spec.height;
    }
    const Layout layout = inst->layout();
    const std::size_t bits_bytes = kernels::layout_bytes(Layout::bit_cells, inst->width, inst->height);

    // One allocation per instance, so that removing it gives back exactly what adding took.
    inst->memory =
        allocate(instance_bytes(layout, inst->width, inst->height), inst->width, inst->height, inst->variant);
    carve(*inst);
    inst->stream = cuda::Stream(cuda::Stream::Create{});
    inst->results_host = cuda::PinnedBuffer(kSummaryRing * kSummaryWords * sizeof(std::uint64_t));
    std::memset(inst->results_host.get(), 0, inst->results_host.bytes());
    const cudaStream_t stream = stream_of(*inst);

    if (const auto* random = std::get_if<RandomInit>(&spec.init)) {
      const FillThreshold threshold = fill_threshold(random->density);
      kernels::launch_random_fill(layout, inst->front, inst->width, inst->height, threshold.threshold,
                                  threshold.all, random->seed, stream);
      inst->origin = start_origin(spec);
    } else if (const auto* lattice = std::get_if<Lattice>(&spec.init)) {
      // Uploaded once: pinned staging, one copy, then a conversion into the layout on the device.
      cuda::PinnedBuffer pinned(bits_bytes);
      std::memcpy(pinned.get(), lattice->words().data(), bits_bytes);
      cuda::DeviceBuffer staging;
      if (layout != Layout::bit_cells)
        staging = allocate(bits_bytes, inst->width, inst->height, Variant::bitpacked);
      void* bits = layout == Layout::bit_cells ? inst->front : staging.get();
      CUDA_CHECK(cudaMemcpyAsync(bits, pinned.get(), bits_bytes, cudaMemcpyHostToDevice, stream));
      if (layout != Layout::bit_cells)
        kernels::launch_convert(Layout::bit_cells, bits, layout, inst->front, inst->width, inst->height,
                                stream);
      sync_stream(stream);  // the staging buffers go away at the end of this scope
      inst->origin = start_origin(spec);
    } else {
      // Copy: wait for the source's pending work, and make the source wait for the copy before it
      // overwrites the buffer being read.
      const cudaStream_t source_stream = stream_of(*source);
      source->order.record(source_stream);
      CUDA_CHECK(cudaStreamWaitEvent(stream, source->order.get(), 0));
      kernels::launch_convert(source->layout(), source->front, layout, inst->front, inst->width, inst->height,
                              stream);
      inst->order.record(stream);
      CUDA_CHECK(cudaStreamWaitEvent(source_stream, inst->order.get(), 0));
      inst->generation = source->generation;
      inst->origin = source->rule == inst->rule ? source->origin : unique_origin();
    }
    return inst;
  }

  /// Generations per launch as run: the instance's k, but for `iterate` no deeper than the GPU's
  /// shared memory per block allows (48 on Turing; 64 elsewhere).
  static int launch_depth(const Instance& inst) {
    return inst.variant == Variant::iterate ? std::min(inst.k, std::max(1, kernels::iterate_max_depth()))
                                            : inst.k;
  }

  /// Enqueues `generations` generations of `inst` on `stream`, alternating between its two
  /// buffers from the front one; the result lies in the back buffer after an odd number of launches
  /// (launch_count). Changes nothing in `inst`, so it can also be captured into a frame graph.
  static void enqueue_generations(const Instance& inst, int generations, cudaStream_t stream) {
    const kernels::RuleMasks rule = masks_of(inst.rule);
    const int w = inst.width, h = inst.height;
    void* front = inst.front;
    void* back = inst.back;
    int left = generations;
    while (left > 0) {
      int done = 1;
      switch (inst.variant) {
        case Variant::naive:
          kernels::launch_step_naive(static_cast<const std::int32_t*>(front),
                                     static_cast<std::int32_t*>(back), w, h, rule, stream);
          break;
        case Variant::global:
          kernels::launch_step_global(static_cast<const std::uint8_t*>(front),
                                      static_cast<std::uint8_t*>(back), w, h, rule, stream);
          break;
        case Variant::shared:
          kernels::launch_step_shared(static_cast<const std::uint8_t*>(front),
                                      static_cast<std::uint8_t*>(back), w, h, rule, stream);
          break;
        case Variant::iterate:
          done = std::min(launch_depth(inst), left);
          kernels::launch_step_iterate(static_cast<const std::uint8_t*>(front),
                                       static_cast<std::uint8_t*>(back), w, h, rule, done, stream);
          break;
        case Variant::bitpacked:
          done = std::min(inst.k, left);
          kernels::launch_step_bitpacked(static_cast<const std::uint32_t*>(front),
                                         static_cast<std::uint32_t*>(back), w, h, rule, done, stream);
          break;
      }
      std::swap(front, back);
      left -= done;
    }
  }

  /// Launches that enqueue_generations makes for `generations` generations.
  static int launch_count(const Instance& inst, int generations) {
    const int depth = launch_depth(inst);
    return variant_iterates(inst.variant) ? (generations + depth - 1) / depth : generations;
  }

  /// Enqueues one frame of `inst` (on a timed frame, `slot`'s start event, `generations`
  /// generations, `slot`'s end event) on `stream` and advances its front buffer and generation. A
  /// frame that repeats the previous frames' shape replays its kernels from a graph made once per
  /// front buffer: one call of about 1.2 us instead of about 3.5 us per launch, the host cost that
  /// bounds many small instances (bench/NOTES.md). The timing events stay outside the graph:
  /// recorded by a graph they cost the host more than recorded directly.
  void enqueue_frame(Instance& inst, const TimingSlot* slot, int generations, cudaStream_t stream) {
    const int launches = launch_count(inst, generations);
    const FrameShape shape{inst.variant,      inst.k,           generations, inst.rule.birth,
                           inst.rule.survive, inst.memory.get()};
    if (shape == inst.graph_shape) {
      ++inst.shape_frames;
    } else {
      inst.graph_shape = shape;
      inst.shape_frames = 1;
      drop_frame_graphs(inst);
    }
    if (slot) slot->step_start.record(stream);
    if (launch_graphs && inst.shape_frames >= kFramesBeforeGraph && launches <= kMaxGraphLaunches) {
      cuda::GraphExec& graph = inst.frame_graphs[inst.front == inst.memory.get() ? 0 : 1];
      if (!graph)
        graph = cuda::capture(capture_stream.get(),
                              [&](cudaStream_t c) { enqueue_generations(inst, generations, c); });
      graph.launch(stream);
    } else {
      enqueue_generations(inst, generations, stream);
    }
    if (slot) slot->step_end.record(stream);
    if (launches % 2 == 1) std::swap(inst.front, inst.back);
    inst.generation += static_cast<std::uint64_t>(generations);
  }

  /// The ring slot of the current frame (the last step's) if that frame is timed, else -1.
  int current_timed_slot() const {
    if (timed_count == 0) return -1;
    const std::size_t s = (timed_count - 1) % kTimingRing;
    return frames[s].frame == frame_count - 1 ? static_cast<int>(s) : -1;
  }

  /// Reads the timings of finished timed frames (oldest first, never waiting). `all`: also the
  /// current frame (after a synchronisation), else only frames older than the current one, whose
  /// display brackets are recorded already.
  void harvest(bool all) {
    const std::uint64_t limit = timed_count - (!all && current_timed_slot() >= 0 ? 1 : 0);
    while (next_harvest < limit) {
      const std::uint64_t t = next_harvest;
      const FrameRecord& record = frames[t % kTimingRing];
      if (record.timed != t) {  // overwritten before it finished: dropped
        ++next_harvest;
        continue;
      }
      if (!read_frame(t % kTimingRing)) return;
      ++next_harvest;
    }
  }

  /// Reads the timed frame in ring slot `s`: its timings into the statistics and the newest
  /// timeline; false, changing nothing, while any of its events is still pending. The elapsed-time
  /// calls double as the completion tests (they answer cudaErrorNotReady), which saves a query per
  /// event.
  bool read_frame(std::size_t s) {
    const FrameRecord& record = frames[s];
    const std::uint64_t f = record.frame;
    const cudaEvent_t ref = record.reference.get();
    std::vector<TimelineBar> bars;
    bars.reserve(2 * instances.size());
    double busy = 0;
    for (std::size_t i = 0; i < instances.size(); ++i) {
      const Instance& inst = *instances[i];
      const TimingSlot& slot = inst.timing[s];
      if (slot.frame != f) continue;
      const int row = record.mode == StreamMode::shared ? 0 : static_cast<int>(i);
      // Start and end were recorded on one stream: the end finishing implies the start did.
      double end = 0;
      if (!try_elapsed_ms(ref, slot.step_end.get(), end)) return false;
      const double start = elapsed_ms(ref, slot.step_start.get());
      bars.push_back({i, row, TimelineBar::Kind::step, start, end});
      busy += end - start;
      if (slot.display_begun && slot.display_ended) {
        double d1 = 0;
        if (!try_elapsed_ms(ref, slot.display_end.get(), d1)) return false;
        const double d0 = elapsed_ms(ref, slot.display_start.get());
        bars.push_back({i, row, TimelineBar::Kind::display, d0, d1});
        busy += d1 - d0;
      }
    }
    for (const auto& bar : bars) {
      Instance& inst = *instances[bar.instance];
      if (bar.kind == TimelineBar::Kind::step) {
        inst.step_stats.add(bar.end_ms - bar.start_ms);
        inst.generation_stats.add(inst.timing[s].generations);
      } else {
        inst.display_stats.add(bar.end_ms - bar.start_ms);
      }
    }
    if (bars.empty()) return true;
    double first = bars.front().start_ms, last = bars.front().end_ms;
    for (const auto& bar : bars) {
      first = std::min(first, bar.start_ms);
      last = std::max(last, bar.end_ms);
    }
    for (auto& bar : bars) {
      bar.start_ms -= first;
      bar.end_ms -= first;
    }
    const double span = last - first;
    newest_frame = FrameTimings{true, span, busy, span > 0 ? busy / span : 0.0};
    newest_timeline = std::move(bars);
    return true;
  }

  /// Polls the instance's summary requests (non-blocking) and publishes the newest finished one.
  void poll_summaries(const Instance& inst) const {
    const auto* host = inst.results_host.as<const std::uint64_t>();
    // Oldest request first; requests finish in order (one stream, or streams ordered by the
    // mode switch), so the first pending one decides whether any later one can be done.
    for (std::size_t n = 0; n < kSummaryRing; ++n) {
      const std::size_t s = (inst.next_summary + n) % kSummaryRing;
      auto& slot = const_cast<SummarySlot&>(inst.summaries[s]);
      if (!slot.pending) continue;
      if (!event_done(slot.done.get())) break;
      slot.pending = false;
      if (slot.sequence > inst.summary_sequence) {
        inst.summary_sequence = slot.sequence;
        inst.summary = StateSummary{slot.generation, host[s * kSummaryWords], host[s * kSummaryWords + 1]};
      }
    }
  }

  /// Enqueues a summary of the instance's current state; returns the slot used. Requested in
  /// consecutive frames (as the app does), it is replayed from a graph per (front buffer, slot).
  std::size_t request_summary(Instance& inst) {
    if (inst.summary_frame + 1 == frame_count)
      ++inst.summary_frames;
    else if (inst.summary_frame != frame_count)
      inst.summary_frames = 1;
    inst.summary_frame = frame_count;
    std::size_t s = inst.next_summary;
    if (inst.summaries[s].pending) poll_summaries(inst);
    if (inst.summaries[s].pending) {
      // The ring is full (the host is more than kSummaryRing requests ahead of the device).
      // Reusing the oldest slot would re-record the event poll_summaries waits on first, and a host
      // that stays ahead would never see a summary finish. The newest pending request is replaced
      // instead: the instance's work runs in order, so its results are written again after the
      // first request's and its event is recorded after both; the oldest requests still land and
      // the newest request is never lost.
      s = (s + kSummaryRing - 1) % kSummaryRing;
    } else {
      inst.next_summary = (s + 1) % kSummaryRing;
    }
    SummarySlot& slot = inst.summaries[s];
    const cudaStream_t stream = stream_of(inst);
    const SummaryShape shape{inst.layout(), inst.memory.get()};
    if (!(shape == inst.summary_shape)) {
      inst.summary_shape = shape;
      drop_summary_graphs(inst);
    }
    const auto enqueue = [&inst, s](cudaStream_t on) {
      std::uint64_t* device_result = inst.results_device + s * kSummaryWords;
      kernels::launch_summary(inst.layout(), inst.front, inst.width, inst.height, device_result, on);
      CUDA_CHECK(cudaMemcpyAsync(inst.results_host.as<std::uint64_t>() + s * kSummaryWords, device_result,
                                 kSummaryWords * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, on));
    };
    if (launch_graphs && inst.summary_frames >= kFramesBeforeGraph) {
      const std::size_t buffer = inst.front == inst.memory.get() ? 0 : 1;
      cuda::GraphExec& graph = inst.summary_graphs[buffer * kSummaryRing + s];
      if (!graph) graph = cuda::capture(capture_stream.get(), enqueue);
      graph.launch(stream);
    } else {
      enqueue(stream);
    }
    slot.done.record(stream);
    slot.sequence = ++summary_sequence;
    slot.generation = inst.generation;
    slot.pending = true;
    return s;
  }
};

CudaEngine::CudaEngine(int device) {
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) throw DeviceError("the CUDA engine cannot start: " + why);
  if (device < 0 || device >= count)
    throw DeviceError("CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(count) +
                      " device" + (count == 1 ? "" : "s") + ")");
  CUDA_CHECK(cudaSetDevice(device));
  auto impl = std::make_unique<Impl>(device);
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  impl->name = prop.name;
  impl->shared = cuda::Stream(cuda::Stream::Create{});
  impl->capture_stream = cuda::Stream(cuda::Stream::Create{});
  impl_ = std::move(impl);
}

CudaEngine::~CudaEngine() = default;

std::string CudaEngine::device_name() const { return impl_->name; }
int CudaEngine::device() const { return impl_->device; }
std::size_t CudaEngine::size() const { return impl_->instances.size(); }

void CudaEngine::add(const InstanceSpec& spec) {
  auto inst = impl_->make_instance(spec);
  impl_->instances.push_back(std::move(inst));
}

void CudaEngine::remove(std::size_t index) {
  impl_->at(index);
  impl_->instances.erase(impl_->instances.begin() + static_cast<std::ptrdiff_t>(index));
}

void CudaEngine::replace(std::size_t index, const InstanceSpec& spec) {
  impl_->at(index);
  auto inst = impl_->make_instance(spec);
  if (!std::holds_alternative<CopyInit>(spec.init)) inst->generation = 0;
  impl_->instances[index] = std::move(inst);
}

void CudaEngine::set_variant(std::size_t index, Variant variant) {
  Instance& inst = impl_->at(index);
  if (variant == inst.variant) return;
  const Layout from = inst.layout();
  const Layout to = layout_of(variant);
  if (from != to) {
    // New pair first (may throw, changing nothing), convert on the device, then drop the old pair.
    cuda::DeviceBuffer memory =
        impl_->allocate(instance_bytes(to, inst.width, inst.height), inst.width, inst.height, variant);
    auto* base = static_cast<unsigned char*>(memory.get());
    const std::size_t lattice = round_up(kernels::layout_bytes(to, inst.width, inst.height), kAlign);
    const cudaStream_t stream = impl_->stream_of(inst);
    kernels::launch_convert(from, inst.front, to, base, inst.width, inst.height, stream);
    // Pending summaries copy out of the old results area: let them and the conversion finish.
    impl_->sync_stream(stream);
    drop_frame_graphs(inst);
    drop_summary_graphs(inst);
    inst.memory = std::move(memory);
    inst.front = base;
    inst.back = base + lattice;
    inst.results_device = reinterpret_cast<std::uint64_t*>(base + 2 * lattice);
  }
  inst.variant = variant;
  clear_timing_stats(inst);
}

void CudaEngine::set_rule(std::size_t index, const Rule& rule) {
  Instance& inst = impl_->at(index);
  if (inst.rule == rule) return;
  inst.rule = rule;
  inst.origin = unique_origin();
}

void CudaEngine::set_generations_per_launch(std::size_t index, int k) {
  Instance& inst = impl_->at(index);
  Impl::check_k(k);
  if (k == inst.k) return;
  inst.k = k;
  clear_timing_stats(inst);
}

void CudaEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  Instance& inst = impl_->at(index);
  const auto wrap = [](long long v, int n) { return static_cast<int>(((v % n) + n) % n); };
  kernels::launch_set_cell(inst.layout(), inst.front, inst.width, inst.height, wrap(x, inst.width),
                           wrap(y, inst.height), alive, impl_->stream_of(inst));
  inst.origin = unique_origin();
}

void CudaEngine::set_stream_mode(StreamMode mode) {
  Impl& e = *impl_;
  if (mode == e.mode) return;
  // Work keeps its order across the switch: the new streams wait (on the device) for the old ones.
  if (mode == StreamMode::shared) {
    for (const auto& inst : e.instances) {
      inst->order.record(inst->stream.get());
      CUDA_CHECK(cudaStreamWaitEvent(e.shared.get(), inst->order.get(), 0));
    }
  } else {
    e.shared_order.record(e.shared.get());
    for (const auto& inst : e.instances)
      CUDA_CHECK(cudaStreamWaitEvent(inst->stream.get(), e.shared_order.get(), 0));
  }
  e.mode = mode;
}

StreamMode CudaEngine::stream_mode() const { return impl_->mode; }

void CudaEngine::set_launch_graphs(bool on) {
  impl_->launch_graphs = on;
  if (on) return;
  for (const auto& inst : impl_->instances) {
    drop_frame_graphs(*inst);
    drop_summary_graphs(*inst);
  }
}

bool CudaEngine::launch_graphs() const { return impl_->launch_graphs; }

void CudaEngine::step(int generations) {
  Impl& e = *impl_;
  if (generations < 0) throw InputError("cannot step a negative number of generations");
  const std::uint64_t syncs_before = e.syncs;
  e.harvest(false);
  for (const auto& inst : e.instances) poll_snapshot(*inst);
  if (generations == 0 || e.instances.empty()) {
    e.last_step_syncs = e.syncs - syncs_before;
    return;
  }
  const std::uint64_t f = e.frame_count++;
  const bool timed = e.frames_to_timed == 0;
  e.frames_to_timed = timed ? e.timing_period - 1 : e.frames_to_timed - 1;
  if (!timed) {
    for (const auto& inst : e.instances) e.enqueue_frame(*inst, nullptr, generations, e.stream_of(*inst));
    e.last_step_syncs = e.syncs - syncs_before;
    return;
  }
  const std::uint64_t t = e.timed_count++;
  const std::size_t s = t % kTimingRing;
  // Slots about to be overwritten lose their unread timings (the GPU is > kTimingRing timed frames
  // behind).
  if (t + 1 > kTimingRing) e.next_harvest = std::max(e.next_harvest, t + 1 - kTimingRing);
  FrameRecord& record = e.frames[s];
  record.frame = f;
  record.timed = t;
  record.mode = e.mode;
  // The reference goes first on the engine's own stream, so every bar of the frame starts after it.
  record.reference.record(e.shared.get());
  for (const auto& inst : e.instances) {
    TimingSlot& slot = inst->timing[s];
    slot.frame = f;
    slot.generations = generations;
    slot.display_begun = slot.display_ended = false;
    e.enqueue_frame(*inst, &slot, generations, e.stream_of(*inst));
  }
  e.last_step_syncs = e.syncs - syncs_before;
}

std::uint64_t CudaEngine::host_syncs_in_last_step() const { return impl_->last_step_syncs; }

void CudaEngine::set_timing_period(int period) {
  check_timing_period(period);
  impl_->timing_period = period;
  impl_->frames_to_timed = 0;
}

int CudaEngine::timing_period() const { return impl_->timing_period; }

bool CudaEngine::frame_timed() const { return impl_->current_timed_slot() >= 0; }

void CudaEngine::request_summaries() {
  for (const auto& inst : impl_->instances) impl_->request_summary(*inst);
}

InstanceStatus CudaEngine::status(std::size_t index) const {
  const Instance& inst = impl_->at(index);
  impl_->poll_summaries(inst);
  InstanceStatus s;
  s.width = inst.width;
  s.height = inst.height;
  s.rule = inst.rule;
  s.variant = inst.variant;
  s.generations_per_launch = Impl::launch_depth(inst);  // as run: `iterate` may be held shallower
  s.generation = inst.generation;
  s.origin = inst.origin;
  s.summary = inst.summary;
  s.step_ms = inst.step_stats.summary();
  s.display_ms = inst.display_stats.summary();
  const double gens = inst.generation_stats.summary().mean;
  if (s.step_ms.mean > 0)
    s.cups = static_cast<double>(inst.width) * inst.height * gens / (s.step_ms.mean * 1e-3);
  return s;
}

FrameTimings CudaEngine::frame_timings() const { return impl_->newest_frame; }
std::vector<TimelineBar> CudaEngine::timeline() const { return impl_->newest_timeline; }

bool CudaEngine::begin_display(std::size_t index) {
  Impl& e = *impl_;
  Instance& inst = e.at(index);
  const int s = e.current_timed_slot();
  if (s < 0) return false;  // not a timed frame
  TimingSlot& slot = inst.timing[static_cast<std::size_t>(s)];
  if (slot.frame != e.frame_count - 1) return false;  // added after this frame's step
  slot.display_start.record(e.stream_of(inst));
  slot.display_begun = true;
  slot.display_ended = false;
  return true;
}

void CudaEngine::end_display(std::size_t index) {
  Impl& e = *impl_;
  Instance& inst = e.at(index);
  const int s = e.current_timed_slot();
  if (s < 0) return;
  TimingSlot& slot = inst.timing[static_cast<std::size_t>(s)];
  if (slot.frame != e.frame_count - 1 || !slot.display_begun) return;
  slot.display_end.record(e.stream_of(inst));
  slot.display_ended = true;
}

Lattice CudaEngine::read(std::size_t index) {
  Impl& e = *impl_;
  Instance& inst = e.at(index);
  Lattice out(inst.width, inst.height);
  const std::size_t bits_bytes = kernels::layout_bytes(Layout::bit_cells, inst.width, inst.height);
  const cudaStream_t stream = e.stream_of(inst);
  cuda::DeviceBuffer staging;
  const void* bits = inst.front;
  if (inst.layout() != Layout::bit_cells) {
    staging = e.allocate(bits_bytes, inst.width, inst.height, Variant::bitpacked);
    kernels::launch_convert(inst.layout(), inst.front, Layout::bit_cells, staging.get(), inst.width,
                            inst.height, stream);
    bits = staging.get();
  }
  CUDA_CHECK(cudaMemcpyAsync(out.words().data(), bits, bits_bytes, cudaMemcpyDeviceToHost, stream));
  e.sync_stream(stream);
  return out;
}

StateSummary CudaEngine::summarize(std::size_t index) {
  Impl& e = *impl_;
  Instance& inst = e.at(index);
  const std::size_t s = e.request_summary(inst);
  e.sync_stream(e.stream_of(inst));
  e.poll_summaries(inst);
  const auto* host = inst.results_host.as<const std::uint64_t>();
  return StateSummary{inst.summaries[s].generation, host[s * kSummaryWords], host[s * kSummaryWords + 1]};
}

void CudaEngine::finish() {
  impl_->sync_device();
  impl_->harvest(true);
}

DeviceLatticeView CudaEngine::device_view(std::size_t index) const {
  const Instance& inst = impl_->at(index);
  return DeviceLatticeView{inst.layout(), inst.front, inst.width, inst.height, impl_->stream_of(inst)};
}

void CudaEngine::request_snapshots(std::uint64_t max_cells) {
  Impl& e = *impl_;
  for (const auto& p : e.instances) {
    Instance& inst = *p;
    poll_snapshot(inst);
    if (inst.snapshot_in_flight >= 0) continue;
    if (static_cast<std::uint64_t>(inst.width) * static_cast<std::uint64_t>(inst.height) > max_cells)
      continue;
    const std::size_t bits = kernels::layout_bytes(Layout::bit_cells, inst.width, inst.height);
    if (!inst.snapshot_device) {
      try {
        inst.snapshot_device = e.allocate(bits, inst.width, inst.height, Variant::bitpacked);
      } catch (const InputError&) {
        continue;  // no room for the staging buffer: this instance goes without a snapshot
      }
    }
    if (!e.snapshot_stream) {
      int least = 0, greatest = 0;
      CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      e.snapshot_stream = cuda::Stream(cuda::Stream::Create{}, least);
    }
    const int target = inst.snapshot_newest == 0 ? 1 : 0;
    auto& host = inst.snapshot_host[static_cast<std::size_t>(target)];
    if (!host) {
      ++e.syncs;  // cudaMallocHost blocks; once per instance
      host = cuda::PinnedBuffer(bits);
    }
    // The fast device-side copy goes on the instance's stream (ordered with its steps); the slow
    // copy to the host runs on the low-priority stream, off the instance's critical path.
    const cudaStream_t stream = e.stream_of(inst);
    if (inst.layout() == Layout::bit_cells)
      CUDA_CHECK(
          cudaMemcpyAsync(inst.snapshot_device.get(), inst.front, bits, cudaMemcpyDeviceToDevice, stream));
    else
      kernels::launch_convert(inst.layout(), inst.front, Layout::bit_cells, inst.snapshot_device.get(),
                              inst.width, inst.height, stream);
    inst.snapshot_converted.record(stream);
    CUDA_CHECK(cudaStreamWaitEvent(e.snapshot_stream.get(), inst.snapshot_converted.get(), 0));
    CUDA_CHECK(cudaMemcpyAsync(host.get(), inst.snapshot_device.get(), bits, cudaMemcpyDeviceToHost,
                               e.snapshot_stream.get()));
    inst.snapshot_copied.record(e.snapshot_stream.get());
    inst.snapshot_generation[static_cast<std::size_t>(target)] = inst.generation;
    inst.snapshot_rule[static_cast<std::size_t>(target)] = inst.rule;
    inst.snapshot_in_flight = target;
  }
}

std::vector<HostSnapshot> CudaEngine::snapshots() const {
  std::vector<HostSnapshot> out;
  for (std::size_t i = 0; i < impl_->instances.size(); ++i) {
    const Instance& inst = *impl_->instances[i];
    poll_snapshot(inst);
    if (inst.snapshot_newest < 0) continue;
    const auto n = static_cast<std::size_t>(inst.snapshot_newest);
    HostSnapshot snap{i, inst.snapshot_generation[n], inst.snapshot_rule[n],
                      Lattice(inst.width, inst.height)};
    std::memcpy(snap.cells.words().data(), inst.snapshot_host[n].get(),
                snap.cells.words().size() * sizeof(std::uint32_t));
    out.push_back(std::move(snap));
  }
  return out;
}

}  // namespace ls
