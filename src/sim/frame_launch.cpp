// frame_launch.cpp — implements frame_launch.hpp: the kernels of a frame, per variant, launched
// directly or from an instance's cached frame graph.
#include "sim/frame_launch.hpp"

#include <algorithm>
#include <utility>

#include "kernels/life_kernels.hpp"
#include "sim/instance.hpp"
#include "sim/variant_launch.hpp"

namespace ls::sim {

// The result lies in the back buffer after an odd number of launches (launch_count).
void enqueue_generations(const Instance& inst, int generations, cudaStream_t stream, int side_by_side) {
  const int w = inst.width, h = inst.height;
  void* front = inst.front;
  void* back = inst.back;
  int left = generations;
  while (left > 0) {
    const int done = variant_iterates(inst.variant) ? std::min(inst.k, left) : 1;
    launch_variant_step(inst.variant, front, back, w, h, inst.rule, done, stream, side_by_side);
    std::swap(front, back);
    left -= done;
  }
}

int launch_count(const Instance& inst, int generations) {
  return variant_iterates(inst.variant) ? (generations + inst.k - 1) / inst.k : generations;
}

void advance(Instance& inst, int generations) {
  if (launch_count(inst, generations) % 2 == 1) std::swap(inst.front, inst.back);
  inst.generation += static_cast<std::uint64_t>(generations);
}

void enqueue_frame(Instance& inst, const TimingSlot* slot, int generations, cudaStream_t stream,
                   const GraphCapture& graphs) {
  const int launches = launch_count(inst, generations);
  const FrameShape shape{inst.variant,
                         inst.k,
                         generations,
                         inst.rule.birth,
                         inst.rule.survive,
                         inst.memory.get(),
                         kernels::rule_kernels_serial()};
  FrameGraphs& cache = inst.frame_graphs;
  if (shape == cache.shape) {
    ++cache.shape_frames;
  } else {
    cache.shape = shape;
    cache.shape_frames = 1;
    cache.drop();
  }
  if (slot) slot->step_start.record(stream);
  if (graphs.on && cache.shape_frames >= kFramesBeforeGraph && launches <= kMaxGraphLaunches) {
    cuda::GraphExec& graph = cache.graphs[inst.front == inst.memory.get() ? 0 : 1];
    if (!graph)
      graph = cuda::capture(graphs.stream.get(),
                            [&](cudaStream_t c) { enqueue_generations(inst, generations, c); });
    graph.launch(stream);
  } else {
    enqueue_generations(inst, generations, stream);
  }
  if (slot) slot->step_end.record(stream);
  advance(inst, generations);
}

}  // namespace ls::sim
