// frame_graph.hpp — stream mode `graph`: one frame of all instances as one CUDA graph, launched
// with one host call per frame. Each instance is a branch of its own, captured from its own stream
// (forked from and joined to the frame stream by events): its summary when one is due, its start
// stamp, its kernels, its end stamp (timed frames; %globaltimer kernel nodes, see timing_ring.hpp).
// Graphs are kept per frame key and built again only when the frame's shape changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::sim {

struct Instance;

/// Graphs kept for one frame shape. A key is the shape plus, per instance, its front buffer and
/// summary slot, and the frame's timing slot; in a steady run these advance together (a k = 1 run
/// timing every frame with summaries every frame cycles through 4 keys), so a few graphs serve it.
/// Beyond this many the oldest goes. With timing one frame in N the keys cycle through the timing
/// slots, both fronts and the summary slots: 16 graphs were fewer than one cycle, so every frame
/// was built anew (64 x 1024² at timing 1/8 ran at a third of per-instance mode, H100); 64 hold it.
inline constexpr std::size_t kMaxFrameGraphs = 64;

/// How many instances run one after another in one branch of a frame graph. One branch each lets
/// every instance run beside the others; but each branch is a root of the graph, and a graph's
/// launch costs the host per root: 64 x 1024² k = 1, 64 branches 34 us, 16 branches of 4 8.6 us,
/// and the GPU finished the frame sooner too (65 against 81 us), its kernels being a few us each.
/// At k = 16 chains of 4 lost a third of the rate (ls_graph_probe, bench/NOTES.md). So instances
/// chain in fours while there are more than kChainAbove of them and their frames are small: at most
/// kChainMaxCellUpdates cell updates (cells x generations per frame) per instance on average. The
/// measure is the work asked for, not the timed step, which depends on how many run at once (a
/// policy on timed steps kept k = 16 chained).
inline constexpr int kChainLength = 4;
inline constexpr std::size_t kChainAbove = 16;
inline constexpr double kChainMaxCellUpdates = 4.0 * 1024 * 1024;

/// What one frame of one instance asks of its branch.
struct BranchWork {
  int summary_slot = -1;                   // -1: no summary in this frame
  std::uint64_t* summary_words = nullptr;  // the summary's device words in the frame's gathered
                                           // results (FrameSummaries); null: the slot's own
  std::uint64_t* step_stamps = nullptr;    // timed frame: [start, end, .., .., summary start]
                                           // (TimingRing::step_stamps)
};

/// A frame's gathered summary results: `words` device words at `device`, zeroed before the
/// branches and copied to `host` (pinned) after them; `ring` is the host slot (part of the key).
struct FrameSummaryCopy {
  std::uint64_t* device = nullptr;
  std::uint64_t* host = nullptr;
  std::size_t words = 0;  // 0: none
  int ring = -1;
};

/// The chain length (kChainLength or 1) for a frame of `generations` generations.
int chain_length(const std::vector<std::unique_ptr<Instance>>& instances, int generations);

class FrameGraphCache {
 public:
  using InstanceList = std::vector<std::unique_ptr<Instance>>;

  FrameGraphCache();

  /// Enqueues one frame of every instance (`generations` generations each; on a timed frame the
  /// `reference` stamp first and each branch's stamps around its kernels, of ring slot
  /// `timed_slot`, -1 for none; the summaries and stamps in `work`, one entry per instance) on
  /// `frame_stream`, with the gathered summary results of `summaries`, and advances the fronts and
  /// generations.
  /// A frame of a shape seen kFramesBeforeGraph frames in a row is one graph launch (the graph
  /// captured on `capture_stream` the first time its key comes); other frames, and every frame when
  /// `use_graphs` is false, enqueue the same branches directly.
  /// `chain`: instances per branch (kChainLength or 1, see above).
  void enqueue(const InstanceList& instances, int generations, int timed_slot, std::uint64_t* reference,
               const std::vector<BranchWork>& work, const FrameSummaryCopy& summaries, int chain,
               cudaStream_t frame_stream, cudaStream_t capture_stream, bool use_graphs);

  /// Drops every graph (before instances, their buffers or their events go).
  void drop();
  const FrameGraphStats& stats() const { return stats_; }

 private:
  /// What a frame's graph bakes in, beside the per-instance parts of its key.
  struct Shape {
    std::uint64_t serial = 0;
    int width = 0, height = 0;
    Variant variant = Variant::naive;
    int k = 0;
    std::uint32_t birth = 0, survive = 0;
    const void* memory = nullptr;
    std::uint64_t kernels = 0;  // kernels::rule_kernels_serial(), as FrameShape's
    bool operator==(const Shape&) const = default;
  };
  struct Entry {
    std::vector<std::uint8_t> key;
    cuda::GraphExec graph;
  };

  /// One frame's work on `frame_stream` and the instances' streams; `captured`: into a graph, which
  /// then starts and ends in one node.
  void enqueue_branches(const InstanceList& instances, int generations, std::uint64_t* reference,
                        const std::vector<BranchWork>& work, const FrameSummaryCopy& summaries, int chain,
                        cudaStream_t frame_stream, bool captured) const;
  cuda::GraphExec build(const InstanceList& instances, int generations, std::uint64_t* reference,
                        const std::vector<BranchWork>& work, const FrameSummaryCopy& summaries, int chain,
                        cudaStream_t capture_stream);

  cuda::Event fork_{cuda::Event::Create{}, false};
  std::vector<Shape> shape_;  // of the cached graphs
  int generations_ = 0;
  int chain_ = 1;         // of the cached graphs
  int shape_frames_ = 0;  // consecutive frames of this shape
  std::vector<Shape> scratch_shape_;
  std::vector<std::uint8_t> scratch_key_;
  std::vector<Entry> entries_;  // oldest first
  FrameGraphStats stats_;
};

}  // namespace ls::sim
