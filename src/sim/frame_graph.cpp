// frame_graph.cpp — implements FrameGraphCache (frame_graph.hpp): the branches of a frame, their
// capture into one graph per key, and the key that decides when a graph is built again.
#include "sim/frame_graph.hpp"

#include <algorithm>
#include <chrono>

#include "kernels/life_kernels.hpp"
#include "sim/frame_launch.hpp"
#include "sim/instance.hpp"
#include "sim/summary_ring.hpp"
#include "sim/timing_ring.hpp"

namespace ls::sim {

int chain_length(const std::vector<std::unique_ptr<Instance>>& instances, int generations) {
  if (instances.size() <= kChainAbove) return 1;
  double work = 0;
  for (const auto& p : instances) work += static_cast<double>(p->width) * p->height * generations;
  return work / static_cast<double>(instances.size()) <= kChainMaxCellUpdates ? kChainLength : 1;
}

FrameGraphCache::FrameGraphCache() = default;

void FrameGraphCache::drop() {
  entries_.clear();
  shape_.clear();
  shape_frames_ = 0;
}

void FrameGraphCache::enqueue_branches(const InstanceList& instances, int generations,
                                       std::uint64_t* reference, const std::vector<BranchWork>& work,
                                       const FrameSummaryCopy& summaries, int chain,
                                       cudaStream_t frame_stream, bool captured) const {
  // Each branch's work goes on its own stream, forked from the frame stream and joined back to it,
  // so that captured, each branch runs beside the others.
  if (reference) kernels::launch_stamp(reference, frame_stream);
  const std::size_t summary_bytes = summaries.words * sizeof(std::uint64_t);
  // A kernel, not a memset node: the graph's launch cost the host 85 -> 26 us (ls_graph_probe).
  if (summary_bytes > 0) kernels::launch_zero_words(summaries.device, summaries.words, frame_stream);
  // One root and one sink: branches that start the graph, or end it, each cost its launch (bench/NOTES.md).
  if (captured && !reference && summary_bytes == 0) kernels::launch_join(frame_stream);
  fork_.record(frame_stream);
  const std::size_t n = instances.size(), per_branch = static_cast<std::size_t>(std::max(chain, 1));
  const int side_by_side = static_cast<int>((n + per_branch - 1) / per_branch);
  for (std::size_t first = 0; first < n; first += per_branch) {
    // A branch: its instances one after another on the first one's stream.
    const cudaStream_t branch = instances[first]->stream.get();
    CUDA_CHECK(cudaStreamWaitEvent(branch, fork_.get(), 0));
    const std::size_t end = std::min(n, first + per_branch);
    for (std::size_t i = first; i < end; ++i) {
      const Instance& inst = *instances[i];
      // The summary reads the state as it was when it was asked for: before this frame's steps.
      std::uint64_t* stamps = work[i].step_stamps;
      const bool summary = work[i].summary_words || work[i].summary_slot >= 0;
      if (stamps && summary)
        kernels::launch_stamp(stamps + kSummaryStart, branch);  // ends at the step's start
      if (work[i].summary_words)
        kernels::launch_summary_onto(inst.layout(), inst.front, inst.width, inst.height,
                                     work[i].summary_words, branch);
      else if (work[i].summary_slot >= 0)
        SummaryRequests::enqueue_summary(inst, static_cast<std::size_t>(work[i].summary_slot), branch);
      if (stamps) kernels::launch_stamp(stamps + kStepStart, branch);
      enqueue_generations(inst, generations, branch, side_by_side);
      if (stamps) kernels::launch_stamp(stamps + kStepEnd, branch);
    }
    instances[first]->order.record(branch);
    CUDA_CHECK(cudaStreamWaitEvent(frame_stream, instances[first]->order.get(), 0));
  }
  if (summary_bytes > 0)
    CUDA_CHECK(cudaMemcpyAsync(summaries.host, summaries.device, summary_bytes, cudaMemcpyDeviceToHost,
                               frame_stream));
  else if (captured)
    kernels::launch_join(frame_stream);
}

cuda::GraphExec FrameGraphCache::build(const InstanceList& instances, int generations,
                                       std::uint64_t* reference, const std::vector<BranchWork>& work,
                                       const FrameSummaryCopy& summaries, int chain,
                                       cudaStream_t capture_stream) {
  const auto start = std::chrono::steady_clock::now();
  cuda::GraphExec graph = cuda::capture(capture_stream, [&](cudaStream_t c) {
    enqueue_branches(instances, generations, reference, work, summaries, chain, c, true);
  });
  ++stats_.builds;
  stats_.build_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return graph;
}

void FrameGraphCache::enqueue(const InstanceList& instances, int generations, int timed_slot,
                              std::uint64_t* reference, const std::vector<BranchWork>& work,
                              const FrameSummaryCopy& summaries, int chain, cudaStream_t frame_stream,
                              cudaStream_t capture_stream, bool use_graphs) {
  scratch_shape_.clear();
  bool fits = true;
  for (const auto& p : instances) {
    const Instance& inst = *p;
    scratch_shape_.push_back(Shape{inst.serial, inst.width, inst.height, inst.variant, inst.k,
                                   inst.rule.birth, inst.rule.survive, inst.memory.get(),
                                   kernels::rule_kernels_serial()});
    fits = fits && launch_count(inst, generations) <= kMaxGraphLaunches;
  }
  if (scratch_shape_ == shape_ && generations == generations_ && chain == chain_) {
    ++shape_frames_;
  } else {
    entries_.clear();  // they name buffers and events of another shape
    shape_.swap(scratch_shape_);
    generations_ = generations;
    chain_ = chain;
    stats_.chain = chain;
    shape_frames_ = 1;
  }
  if (!use_graphs || !fits || shape_frames_ < kFramesBeforeGraph) {
    enqueue_branches(instances, generations, reference, work, summaries, chain, frame_stream, false);
  } else {
    // The key: the timing slot, then per instance its front buffer and summary slot.
    scratch_key_.clear();
    scratch_key_.push_back(static_cast<std::uint8_t>(timed_slot + 1));
    // The gathered summaries' host slot and count.
    scratch_key_.push_back(static_cast<std::uint8_t>(summaries.ring + 1));
    scratch_key_.push_back(static_cast<std::uint8_t>(summaries.words));
    scratch_key_.push_back(static_cast<std::uint8_t>(summaries.words >> 8));
    // The stamps' address too: their memory moves when it grows.
    const auto where = reinterpret_cast<std::uintptr_t>(reference);
    for (std::size_t b = 0; b < sizeof where; ++b)
      scratch_key_.push_back(static_cast<std::uint8_t>(where >> (8 * b)));
    for (std::size_t i = 0; i < instances.size(); ++i) {
      const Instance& inst = *instances[i];
      const int front = inst.front == inst.memory.get() ? 0 : 1;
      scratch_key_.push_back(static_cast<std::uint8_t>(front | ((work[i].summary_slot + 1) << 1)));
    }
    auto it =
        std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == scratch_key_; });
    if (it == entries_.end()) {
      cuda::GraphExec graph =
          build(instances, generations, reference, work, summaries, chain, capture_stream);
      if (entries_.size() >= kMaxFrameGraphs) entries_.erase(entries_.begin());
      entries_.push_back(Entry{scratch_key_, std::move(graph)});
      it = entries_.end() - 1;
    }
    it->graph.launch(frame_stream);
  }
  for (const auto& p : instances) advance(*p, generations);
}

}  // namespace ls::sim
