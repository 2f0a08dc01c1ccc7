// display_graph.cpp — implements DisplayGraphs (display_graph.hpp): the key of a frame's render
// jobs, their capture into one graph of a branch per tile, and the cache of those graphs.
#include "interop/display_graph.hpp"

#include <algorithm>

namespace ls::interop {

RenderJob render_job(const DeviceLatticeView& lattice, cudaSurfaceObject_t surface, int tex_width,
                     int tex_height, const kernels::TileView& view, std::uint64_t* stamps) {
  RenderJob job;
  job.layout = lattice.layout;
  job.cells = lattice.cells;
  job.width = lattice.width;
  job.height = lattice.height;
  job.surface = surface;
  job.tex_width = tex_width;
  job.tex_height = tex_height;
  job.view = view;
  job.stamps = stamps;
  return job;
}

namespace {

template <class T>
void append(std::vector<std::uint8_t>& key, const T& value) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&value);
  key.insert(key.end(), bytes, bytes + sizeof value);
}

/// The job's every field, one by one (a struct's padding would make equal jobs differ).
void append_job(std::vector<std::uint8_t>& key, const RenderJob& j) {
  append(key, j.layout);
  append(key, j.cells);
  append(key, j.width);
  append(key, j.height);
  append(key, j.surface);
  append(key, j.tex_width);
  append(key, j.tex_height);
  append(key, j.view.origin_x);
  append(key, j.view.origin_y);
  append(key, j.view.cells_per_pixel);
  append(key, j.view.grid_lines);
  append(key, j.view.age_shading);
  append(key, j.view.live_rgba);
  append(key, j.view.dead_rgba);
  append(key, j.view.grid_rgba);
  append(key, j.view.surface_x);
  append(key, j.view.surface_y);
  append(key, j.stamps);
}

}  // namespace

cuda::GraphExec DisplayGraphs::build(const std::vector<RenderJob>& jobs) {
  while (branches_.size() < jobs.size()) branches_.emplace_back(cuda::Stream::Create{});
  ++builds_;
  return cuda::capture(capture_.get(), [&](cudaStream_t c) {
    fork_.record(c);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const RenderJob& j = jobs[i];
      const cudaStream_t b = branches_[i].get();
      CUDA_CHECK(cudaStreamWaitEvent(b, fork_.get(), 0));
      if (j.stamps) kernels::launch_stamp(j.stamps, b);
      kernels::launch_render_tile(j.layout, j.cells, j.width, j.height, j.surface, j.tex_width, j.tex_height,
                                  j.view, b);
      if (j.stamps) kernels::launch_stamp(j.stamps + 1, b);
      join_.record(b);
      CUDA_CHECK(cudaStreamWaitEvent(c, join_.get(), 0));
    }
  });
}

void DisplayGraphs::launch(const std::vector<RenderJob>& jobs, cudaStream_t stream) {
  if (jobs.empty()) return;
  scratch_key_.clear();
  for (const RenderJob& j : jobs) append_job(scratch_key_, j);
  auto it =
      std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == scratch_key_; });
  if (it == entries_.end()) {
    cuda::GraphExec graph = build(jobs);
    if (entries_.size() >= kMaxGraphs) entries_.erase(entries_.begin());
    entries_.push_back(Entry{scratch_key_, std::move(graph)});
    it = entries_.end() - 1;
  }
  it->graph.launch(stream);
}

}  // namespace ls::interop
