// cuda_engine.cpp — implements CudaEngine (cuda_engine.hpp), the Engine on one CUDA device, as a
// façade over its parts: the instances (instance.hpp), frame launches and their graphs
// (frame_launch.hpp), the timing ring (timing_ring.hpp), the summary ring (summary_ring.hpp) and
// the recovery snapshots (snapshots.hpp).
#include "sim/cuda_engine.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "sim/cuda_handles.hpp"
#include "sim/event_reads.hpp"
#include "sim/frame_graph.hpp"
#include "sim/frame_launch.hpp"
#include "sim/instance.hpp"
#include "sim/nvtx_names.hpp"
#include "sim/snapshots.hpp"
#include "sim/summary_ring.hpp"
#include "sim/timing_ring.hpp"

namespace ls::sim {

using kernels::Layout;
using sim::Instance;

/// The parts, declared so that they are destroyed in the old order: the timing ring's events
/// first, then the instances (their device memory waits for pending work), then the streams that
/// graphs are captured on and snapshots copied on.
struct CudaEngine::Impl {
  explicit Impl(int dev) : device(dev), instances(syncs) {
    graphs.stream = cuda::Stream(cuda::Stream::Create{});
  }

  int device = 0;
  std::string name;
  sim::HostSyncs syncs;  // every blocking call the engine makes
  std::uint64_t last_step_syncs = 0;
  sim::GraphCapture graphs;  // set_launch_graphs
  sim::SnapshotCopier snapshots;
  // Stream mode `graph`: a summary asked for rides on the next frame's graph (deferred) and is
  // done when the event recorded after that graph is; one event per frame, not one per instance.
  static_assert(sim::kSummaryRing == 4, "one event per ring slot below");
  std::array<cuda::Event, sim::kSummaryRing> summary_done{
      cuda::Event{cuda::Event::Create{}, false}, cuda::Event{cuda::Event::Create{}, false},
      cuda::Event{cuda::Event::Create{}, false}, cuda::Event{cuda::Event::Create{}, false}};
  std::uint64_t graph_summaries = 0;
  bool summaries_deferred = false;  // some instance's summary rides on the next frame graph
  bool stepped = false;             // a frame was stepped since the last request_summaries()
  sim::Instances instances;
  sim::FrameSummaries frame_summaries;  // a frame graph's gathered summary results
  sim::FrameGraphCache frame_graph;     // names the instances' buffers and events: goes first
  std::vector<sim::BranchWork> branch_work;
  sim::SummaryRequests summaries;
  sim::TimingRing timing;
  RollingStats host_enqueue;

  /// Serves a deferred summary request now, on the frame stream (before anything changes the
  /// state it was asked for, or when no frame came to carry it).
  void flush_summaries() {
    if (!summaries_deferred) return;
    summaries_deferred = false;
    for (const auto& inst : instances.all()) {
      if (!inst->summaries.deferred) continue;
      inst->summaries.deferred = false;
      summaries.request(*inst, instances.stream_of(*inst), graphs, timing.frame_count(),
                        sim::SummaryTiming{sim::summary_needs_measuring(*inst), sim::kNoFrame});
    }
  }
  /// The instance's handoff pulse on its stream, on its D2H copy lane in a timed frame (an event
  /// before and after it: what a timed summary in its place records too).
  void handoff_pulse(Instance& inst) {
    const cudaStream_t stream = instances.stream_of(inst);
    const bool timed =
        timing.begin_copy(inst, &sim::TimingSlot::handoff,
                          sim::CopyWhat{TimelineBar::Copy::d2h, -1, sim::kHandoffPulseBytes}, stream);
    sim::enqueue_handoff_pulse(inst, stream);
    if (timed) timing.end_copy(inst, &sim::TimingSlot::handoff, stream);
  }
  /// Before an instance's buffers, events or state change outside a frame.
  void before_edit() {
    flush_summaries();
    frame_graph.drop();
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
  impl_ = std::move(impl);
}

CudaEngine::~CudaEngine() = default;

std::string CudaEngine::device_name() const { return impl_->name; }
int CudaEngine::device() const { return impl_->device; }
std::size_t CudaEngine::size() const { return impl_->instances.size(); }

void CudaEngine::add(const InstanceSpec& spec) {
  impl_->instances.add(impl_->instances.make(spec));
  sim::name_streams(impl_->instances, impl_->instances.size() - 1);
}

void CudaEngine::add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  if (!std::holds_alternative<Lattice>(spec.init))
    throw InputError("a moved instance needs its lattice (spec.init must be a Lattice)");
  auto inst = impl_->instances.make(spec);
  inst->generation = generation;
  inst->origin = origin;
  impl_->instances.add(std::move(inst));
  sim::name_streams(impl_->instances, impl_->instances.size() - 1);
}

void CudaEngine::remove(std::size_t index) {
  impl_->instances.at(index);
  impl_->before_edit();
  impl_->instances.remove(index);
  sim::name_streams(impl_->instances, index);
}

void CudaEngine::replace(std::size_t index, const InstanceSpec& spec) {
  sim::Instances& instances = impl_->instances;
  instances.at(index);
  impl_->before_edit();
  auto inst = instances.make(spec);
  if (!std::holds_alternative<CopyInit>(spec.init)) inst->generation = 0;
  instances.replace(index, std::move(inst));
  sim::name_streams(instances, index, 1);
}

void CudaEngine::set_variant(std::size_t index, Variant variant) {
  Instance& inst = impl_->instances.at(index);
  if (variant == inst.variant) return;
  impl_->before_edit();
  impl_->instances.set_layout(inst, variant);
  inst.variant = variant;
  inst.summaries.pacer.forget_cost();  // another layout, another summary kernel
  inst.timing.clear_stats();
  sim::name_streams(impl_->instances, index, 1);
}

void CudaEngine::set_rule(std::size_t index, const Rule& rule) {
  Instance& inst = impl_->instances.at(index);
  if (inst.rule == rule) return;
  impl_->flush_summaries();
  inst.rule = rule;
  inst.origin = rule_change_origin(inst.origin, rule, inst.generation);
}

void CudaEngine::set_generations_per_launch(std::size_t index, int k) {
  Instance& inst = impl_->instances.at(index);
  sim::check_generations_per_launch(k);
  if (k == inst.k) return;
  inst.k = k;
  inst.timing.clear_stats();
}

void CudaEngine::set_cell(std::size_t index, int x, int y, bool alive) {
  Instance& inst = impl_->instances.at(index);
  impl_->flush_summaries();
  const auto wrap = [](long long v, int n) { return static_cast<int>(((v % n) + n) % n); };
  kernels::launch_set_cell(inst.layout(), inst.front, inst.width, inst.height, wrap(x, inst.width),
                           wrap(y, inst.height), alive, impl_->instances.stream_of(inst));
  inst.origin = unique_origin();
}

void CudaEngine::set_stream_mode(StreamMode mode) {
  if (mode == impl_->instances.mode()) return;
  impl_->flush_summaries();
  impl_->instances.set_mode(mode);
  // Another stream mode is another workload: the timings start again.
  for (std::size_t i = 0; i < impl_->instances.size(); ++i) impl_->instances.at(i).timing.clear_stats();
  impl_->timing.clear_span();
}
StreamMode CudaEngine::stream_mode() const { return impl_->instances.mode(); }

void CudaEngine::set_launch_graphs(bool on) {
  impl_->graphs.on = on;
  if (on) return;
  impl_->frame_graph.drop();
  for (const auto& inst : impl_->instances.all()) {
    inst->frame_graphs.drop();
    inst->summary_graphs.drop();
  }
}

bool CudaEngine::launch_graphs() const { return impl_->graphs.on; }

void CudaEngine::step(int generations) {
  Impl& e = *impl_;
  if (generations < 0) throw InputError("cannot step a negative number of generations");
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t syncs_before = e.syncs.total();
  e.timing.harvest(e.instances.all(), false);
  for (const auto& inst : e.instances.all()) sim::poll_snapshot(*inst);
  if (generations > 0 && e.instances.size() > 0) {
    e.stepped = true;
    const StreamMode mode = e.instances.mode();
    const int s = e.timing.start_frame(mode, e.instances.shared_stream());
    if (mode == StreamMode::graph) {
      step_graph(generations, s);
    } else {
      for (const auto& inst : e.instances.all()) {
        const sim::TimingSlot* slot = s >= 0 ? &e.timing.claim(*inst, s, generations) : nullptr;
        sim::enqueue_frame(*inst, slot, generations, e.instances.stream_of(*inst), e.graphs);
      }
    }
    e.host_enqueue.add(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  e.last_step_syncs = e.syncs.total() - syncs_before;
}

void CudaEngine::step_graph(int generations, int timed_slot) {
  Impl& e = *impl_;
  const auto& all = e.instances.all();
  const cudaStream_t frame_stream = e.instances.shared_stream();
  e.branch_work.assign(all.size(), sim::BranchWork{});
  // The gathered results' host slot goes round with the frames that carry summaries; one whose
  // frame is still running (the host 4 summary frames ahead) is not reused: the summaries wait.
  const std::size_t ring = e.graph_summaries % sim::kSummaryRing;
  // The frames' summary events, asked once here for every instance's slots below.
  const sim::KnownEvents known =
      e.summaries_deferred ? sim::KnownEvents::ask(e.summary_done) : sim::KnownEvents{};
  const bool summaries = e.summaries_deferred && known.is_done(e.summary_done[ring].get());
  sim::FrameSummaryCopy gathered;
  if (timed_slot >= 0) e.timing.reserve_stamps(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    sim::Instance& inst = *all[i];
    if (timed_slot >= 0) {
      e.timing.claim(inst, timed_slot, generations, i);
      e.branch_work[i].step_stamps = e.timing.step_stamps(timed_slot, i);
    }
    if (summaries)
      sim::settle_gathered(inst, e.frame_summaries.host(ring, 0),
                           e.frame_summaries.host(ring, sim::FrameSummaries::kBranches), &known);
    if (summaries && inst.summaries.deferred) {
      e.branch_work[i].summary_slot =
          static_cast<int>(sim::SummaryRequests::claim_slot(inst, e.timing.frame_count(), &known));
      if (timed_slot >= 0) inst.timing.slots[static_cast<std::size_t>(timed_slot)].graph_summary = true;
      if (i < sim::FrameSummaries::kBranches) e.branch_work[i].summary_words = e.frame_summaries.device(i);
    }
  }
  if (summaries) {
    gathered.device = e.frame_summaries.device(0);
    gathered.host = e.frame_summaries.host(ring, 0);
    gathered.words = std::min(all.size(), sim::FrameSummaries::kBranches) * sim::kSummaryWords;
    gathered.ring = static_cast<int>(ring);
  }
  e.frame_graph.enqueue(all, generations, timed_slot,
                        timed_slot >= 0 ? e.timing.reference_stamp(timed_slot) : nullptr, e.branch_work,
                        gathered, sim::chain_length(all, generations), frame_stream, e.graphs.stream.get(),
                        e.graphs.on);
  e.timing.end_graph_step(frame_stream);
  if (summaries) {
    // The summaries read the state before this frame's steps: the generation they were asked at.
    const cuda::Event& done = e.summary_done[ring];
    ++e.graph_summaries;
    done.record(frame_stream);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (e.branch_work[i].summary_slot < 0) continue;
      all[i]->summaries.deferred = false;
      e.summaries.commit(*all[i], static_cast<std::size_t>(e.branch_work[i].summary_slot), done.get(),
                         all[i]->generation - static_cast<std::uint64_t>(generations),
                         e.timing.frame_count() - 1,
                         e.branch_work[i].summary_words ? e.frame_summaries.host(ring, i) : nullptr);
    }
    e.summaries_deferred = false;
  }
}

StatSummary CudaEngine::host_enqueue_ms() const { return impl_->host_enqueue.summary(); }
FrameGraphStats CudaEngine::frame_graph_stats() const { return impl_->frame_graph.stats(); }

std::uint64_t CudaEngine::host_syncs_in_last_step() const { return impl_->last_step_syncs; }

void CudaEngine::set_timing_period(int period) {
  check_timing_period(period);
  impl_->timing.set_period(period);
}

int CudaEngine::timing_period() const { return impl_->timing.period(); }

bool CudaEngine::frame_timed() const { return impl_->timing.current_timed_slot() >= 0; }

void CudaEngine::request_summaries() {
  Impl& e = *impl_;
  const bool after_step = std::exchange(e.stepped, false);
  const bool graph_mode = e.instances.mode() == StreamMode::graph;
  if (graph_mode) {
    // Graph mode carries every instance's summary in the next frame's graph, unpaced: pacing each
    // instance on its own changed the frame graph's key (each branch's summary slot) nearly every
    // frame (2921 builds in 3000 frames of 64 x 1024², H100). A request with no frame since the
    // last one (a paused app) serves the deferred ones now; they cover this request. After a frame
    // that could not carry them (its gathered results' host slot still busy: the GPU 4 summary
    // frames behind), they wait for the next frame instead: serving them one by one then would add
    // 64 launches just when the GPU is late.
    if (e.summaries_deferred) {
      if (!after_step) e.flush_summaries();
      return;
    }
    for (const auto& p : e.instances.all()) p->summaries.deferred = true;
    e.summaries_deferred = e.instances.size() > 0;
    return;
  }
  const std::uint64_t frames = e.timing.frame_count();
  const int timed_slot = e.timing.current_timed_slot();
  // A stepped instance whose summary is paced out gets the handoff pulse in its place; the shared
  // stream mode's one stream gets one, and only where no summary ends its frame.
  const bool shared = e.instances.mode() == StreamMode::shared;
  bool summarized = false;
  for (const auto& p : e.instances.all()) {
    Instance& inst = *p;
    if (!sim::summary_due(inst)) {
      if (after_step && !shared) e.handoff_pulse(inst);
      continue;
    }
    summarized = true;
    // Right after a timed frame's step, the summary is part of that frame: its bar is in the
    // frame's timeline and its time in the frame's span. Later requests (edits while paused)
    // belong to no timed frame.
    const bool in_timed_frame = after_step && timed_slot >= 0 &&
                                inst.timing.slots[static_cast<std::size_t>(timed_slot)].frame == frames - 1;
    const bool measure = sim::summary_needs_measuring(inst);
    e.summaries.request(
        inst, e.instances.stream_of(inst), e.graphs, frames,
        sim::SummaryTiming{in_timed_frame || measure, in_timed_frame ? frames - 1 : sim::kNoFrame});
  }
  if (after_step && shared && !summarized && e.instances.size() > 0)
    e.handoff_pulse(*e.instances.all().front());
}

InstanceStatus CudaEngine::status(std::size_t index) const {
  const Instance& inst = impl_->instances.at(index);
  sim::poll_summaries(inst);
  InstanceStatus s;
  s.width = inst.width;
  s.height = inst.height;
  s.rule = inst.rule;
  s.variant = inst.variant;
  s.generations_per_launch = inst.k;
  s.generation = inst.generation;
  s.origin = inst.origin;
  s.summary = inst.summaries.newest;
  if (s.summary) s.summary_frames_ago = impl_->timing.frame_count() - inst.summaries.newest_frame;
  s.summary_ms = inst.summaries.pacer.cost_ms();
  s.summary_every = inst.summaries.pacer.every(sim::frame_work_ms(inst));
  s.step_ms = inst.timing.step.summary();
  s.display_ms = inst.timing.display.summary();
  const double gens = inst.timing.generations.summary().mean;
  if (s.step_ms.mean > 0)
    s.cups = static_cast<double>(inst.width) * inst.height * gens / (s.step_ms.mean * 1e-3);
  return s;
}

FrameTimings CudaEngine::frame_timings() const {
  FrameTimings t = impl_->timing.newest_frame();
  if (t.valid) t.gpus = {GpuFrameTimings{impl_->device, t.gpu_span_ms, t.busy_ms, t.concurrency}};
  return t;
}
void CudaEngine::step_history(std::size_t index, std::vector<float>& out) const {
  impl_->instances.at(index).timing.step.history(out);
}
void CudaEngine::span_history(std::vector<float>& out) const { impl_->timing.span_ms().history(out); }
void CudaEngine::host_enqueue_history(std::vector<float>& out) const { impl_->host_enqueue.history(out); }
std::vector<TimelineBar> CudaEngine::timeline() const {
  std::vector<TimelineBar> bars = impl_->timing.newest_timeline();
  for (TimelineBar& b : bars) b.device = impl_->device;
  return bars;
}

std::vector<EngineReports::TimelineOrigin> CudaEngine::timeline_origins() const {
  const std::uint64_t ns = impl_->timing.newest_timeline_origin_ns();
  if (ns == 0 || impl_->timing.newest_timeline().empty()) return {};
  return {TimelineOrigin{impl_->device, ns}};
}

void CudaEngine::set_timeline_clock(bool on) { impl_->timing.set_clock(on); }

bool CudaEngine::begin_display(std::size_t index) {
  Instance& inst = impl_->instances.at(index);
  return impl_->timing.begin_display(inst, impl_->instances.stream_of(inst));
}

void CudaEngine::end_display(std::size_t index) {
  Instance& inst = impl_->instances.at(index);
  impl_->timing.end_display(inst, impl_->instances.stream_of(inst));
}

std::uint64_t* CudaEngine::claim_display_stamps(std::size_t index) {
  return impl_->timing.claim_display_stamps(impl_->instances.at(index));
}

void CudaEngine::display_enqueued(cudaStream_t stream) { impl_->timing.end_graph_display(stream); }

bool CudaEngine::begin_tile_copy(std::size_t index, TimelineBar::Copy copy, int display,
                                 std::uint64_t bytes) {
  Instance& inst = impl_->instances.at(index);
  return impl_->timing.begin_copy(inst, &sim::TimingSlot::tile, sim::CopyWhat{copy, display, bytes},
                                  impl_->instances.stream_of(inst));
}

void CudaEngine::end_tile_copy(std::size_t index) {
  Instance& inst = impl_->instances.at(index);
  impl_->timing.end_copy(inst, &sim::TimingSlot::tile, impl_->instances.stream_of(inst));
}

int CudaEngine::begin_copy_for(int device, std::size_t index, TimelineBar::Copy copy, std::uint64_t bytes,
                               cudaStream_t stream) {
  // Without instances this engine starts no frames: its last timed frame is long read.
  if (impl_->instances.size() == 0) return -1;
  return impl_->timing.begin_copy_for(device, index, TimelineBar::Kind::tile,
                                      sim::CopyWhat{copy, device, bytes}, stream);
}

void CudaEngine::end_copy_for(int handle, cudaStream_t stream) { impl_->timing.end_copy_for(handle, stream); }

void CudaEngine::request_snapshots(std::uint64_t max_cells) {
  impl_->snapshots.request(impl_->instances, max_cells, &impl_->timing);
}

std::vector<HostSnapshot> CudaEngine::snapshots() const {
  return sim::SnapshotCopier::read(impl_->instances);
}

Lattice CudaEngine::read(std::size_t index) {
  Impl& e = *impl_;
  Instance& inst = e.instances.at(index);
  Lattice out(inst.width, inst.height);
  const std::size_t bits_bytes = kernels::layout_bytes(Layout::bit_cells, inst.width, inst.height);
  const cudaStream_t stream = e.instances.stream_of(inst);
  cuda::DeviceBuffer staging;
  const void* bits = inst.front;
  if (inst.layout() != Layout::bit_cells) {
    staging = e.instances.allocate(bits_bytes, inst.width, inst.height, Variant::bitpacked);
    kernels::launch_convert(inst.layout(), inst.front, Layout::bit_cells, staging.get(), inst.width,
                            inst.height, stream);
    bits = staging.get();
  }
  CUDA_CHECK(cudaMemcpyAsync(out.words().data(), bits, bits_bytes, cudaMemcpyDeviceToHost, stream));
  e.syncs.stream(stream);
  return out;
}

StateSummary CudaEngine::summarize(std::size_t index) {
  Impl& e = *impl_;
  Instance& inst = e.instances.at(index);
  const cudaStream_t stream = e.instances.stream_of(inst);
  const std::size_t s = e.summaries.request(inst, stream, e.graphs, e.timing.frame_count());
  e.syncs.stream(stream);
  sim::poll_summaries(inst);
  return sim::SummaryRequests::read(inst, s);
}

void CudaEngine::finish() {
  impl_->flush_summaries();
  impl_->syncs.device();
  impl_->timing.harvest(impl_->instances.all(), true);
}

DeviceLatticeView CudaEngine::device_view(std::size_t index) const {
  const Instance& inst = impl_->instances.at(index);
  return DeviceLatticeView{inst.layout(), inst.front, inst.width, inst.height,
                           impl_->instances.stream_of(inst)};
}

}  // namespace ls::sim
