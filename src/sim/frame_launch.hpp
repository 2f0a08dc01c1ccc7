// frame_launch.hpp — enqueueing one frame of an instance: its kernels for the frame's generations,
// bracketed by its timing events on timed frames, and replayed from a cached CUDA graph once the
// same frame shape repeats.
#pragma once

#include <array>
#include <cstdint>

#include "core/engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::sim {

struct Instance;
struct TimingSlot;

/// A frame is replayed from a graph once the same frame shape has come this many frames in a row
/// (so that runs whose steps vary, like tests and `lifestreams run`, make no graphs).
inline constexpr int kFramesBeforeGraph = 3;
/// Frames of more launches run without a graph (instantiating one would cost more than it saves).
inline constexpr int kMaxGraphLaunches = 64;

/// Whether repeated work (frames, summaries) is replayed from CUDA graphs, and the stream the
/// graphs are captured on: only ever captured into, never run.
struct GraphCapture {
  bool on = true;
  cuda::Stream stream;
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
  // kernels::rule_kernels_serial(): a rule's own kernel made ready since the graphs were captured
  // (they hold the general one) is a new shape.
  std::uint64_t kernels = 0;
  bool operator==(const FrameShape&) const = default;
};

/// An instance's frame graphs: the kernels of one frame of `shape`, one graph per front buffer.
/// They use the instance's buffers, so the instance destroys them before its memory.
struct FrameGraphs {
  FrameShape shape;
  int shape_frames = 0;  // consecutive frames of `shape`
  std::array<cuda::GraphExec, 2> graphs;
  void drop() {
    for (auto& graph : graphs) graph.reset();
  }
};

/// Enqueues `generations` generations of `inst` on `stream`, alternating between its two buffers
/// from the front one; changes nothing in `inst`, so that it can be captured into a graph.
/// `side_by_side`: kernels released at once with these (a frame graph's branches), for the
/// launch's tile plan (kernels::launch_step_bitpacked).
void enqueue_generations(const Instance& inst, int generations, cudaStream_t stream, int side_by_side = 1);
/// Launches that enqueue_generations makes for `generations` generations.
int launch_count(const Instance& inst, int generations);
/// After a frame of `generations` generations was enqueued: the front buffer and the generation.
void advance(Instance& inst, int generations);

/// Enqueues one frame of `inst` (on a timed frame, `slot`'s start event, `generations`
/// generations, `slot`'s end event) on `stream` and advances its front buffer and generation. A
/// frame that repeats the previous frames' shape replays its kernels from a graph made once per
/// front buffer: one host call instead of one per launch, the host cost that bounds many small
/// instances (bench/NOTES.md). The timing events stay outside the graph: recorded by a graph they
/// cost the host more than recorded directly.
void enqueue_frame(Instance& inst, const TimingSlot* slot, int generations, cudaStream_t stream,
                   const GraphCapture& graphs);

}  // namespace ls::sim
