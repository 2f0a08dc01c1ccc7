// display_graph.hpp — stream mode `graph`'s display: the render kernels of every tile as one CUDA
// graph per frame, each tile a branch of its own (forked from and joined to the launching stream),
// with %globaltimer stamps around a tile's kernel on timed frames. Graphs are kept per key (every
// tile's job) and built again only when a job changes (a pan, a zoom, a resize, a new front buffer
// pair, a timing slot): in a steady run a few graphs serve every frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/life_kernels.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {

/// One tile's render work: launch_render_tile's arguments, and where its stamps go (null: none).
struct RenderJob {
  kernels::Layout layout = kernels::Layout::bit_cells;
  const void* cells = nullptr;
  int width = 0, height = 0;
  cudaSurfaceObject_t surface = 0;
  int tex_width = 0, tex_height = 0;
  kernels::TileView view;
  std::uint64_t* stamps = nullptr;
};

/// The job that draws `lattice` into `surface` (a tex_width x tex_height tile seen through `view`).
RenderJob render_job(const DeviceLatticeView& lattice, cudaSurfaceObject_t surface, int tex_width,
                     int tex_height, const kernels::TileView& view, std::uint64_t* stamps);

class DisplayGraphs {
 public:
  /// Graphs kept; beyond this many the oldest goes.
  static constexpr std::size_t kMaxGraphs = 16;

  /// Enqueues every job on `stream` as one graph launch (built the first time its key comes).
  void launch(const std::vector<RenderJob>& jobs, cudaStream_t stream);
  /// Graphs built so far (a steady run builds a few, then none).
  std::uint64_t builds() const { return builds_; }

 private:
  struct Entry {
    std::vector<std::uint8_t> key;
    cuda::GraphExec graph;
  };
  cuda::GraphExec build(const std::vector<RenderJob>& jobs);

  cuda::Stream capture_{cuda::Stream::Create{}};
  std::vector<cuda::Stream> branches_;  // captured into only, never run
  cuda::Event fork_{cuda::Event::Create{}, false};
  cuda::Event join_{cuda::Event::Create{}, false};
  std::vector<std::uint8_t> scratch_key_;
  std::vector<Entry> entries_;  // oldest first
  std::uint64_t builds_ = 0;
};

}  // namespace ls::interop
