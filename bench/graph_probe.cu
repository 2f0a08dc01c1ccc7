// graph_probe.cu — `ls_graph_probe`: what one frame graph of many small instances costs, by the
// shape of its branches (bench/NOTES.md "Frame graph shapes"). 64 instances of 1024²
// bitpacked, each a branch forked from and joined to one frame stream; per shape: the host time of
// one cudaGraphLaunch and the wall time per frame of 400 frames launched back to back (the larger
// of host and device cost), median of 5 repeats. Shapes: kernels only; a timing event-record node
// before and after each branch's kernel; a one-thread %globaltimer stamp kernel before and after;
// the same kernels as one chain on one stream. Then the app's frame (stamps into pinned memory and
// a summary per branch) with its summaries' results handled three ways: a memset, the kernel and a
// copy to pinned memory per branch; one memset before the branches and one copy after them for
// all; a zeroing kernel before and a kernel that writes all results to pinned memory after. Last, a
// timed frame with no summaries (a benchmark's: a reference stamp, stamps around each kernel), its
// branches joined at the end of the graph or into one stamp kernel after them.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kInstances = 64;
constexpr int kSide = 1024;
constexpr int kFrames = 400;
constexpr int kRepeats = 5;

__global__ void stamp_kernel(unsigned long long* out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  *out = t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct World {
  std::vector<std::uint32_t*> a, b;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> starts, ends, joins;
  cudaEvent_t fork = nullptr;
  unsigned long long* stamps = nullptr;         // device, 2 per instance
  unsigned long long* pinned_stamps = nullptr;  // pinned host, 2 per instance
  std::uint64_t* results = nullptr;             // device, 2 per instance
  std::uint64_t* pinned_results = nullptr;      // pinned host, 2 per instance
  cudaStream_t frame = nullptr, capture = nullptr;
};

enum class Shape {
  kernels,
  events,
  stamps,
  chain,
  summaries_own,
  summaries_gathered,
  summaries_kernels,
  kernel_root_copy_sink,
  memset_root_kernel_sink,
  app_no_stamps,
  app_chains_of_4,
  timed_no_summaries,
  timed_no_summaries_sink
};

__global__ void zero_kernel(std::uint64_t* words, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) words[i] = 0;
}

__global__ void publish_kernel(const std::uint64_t* from, std::uint64_t* to, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) to[i] = from[i];
}

const char* name(Shape s) {
  switch (s) {
    case Shape::kernels:
      return "branches: kernel";
    case Shape::events:
      return "branches: event, kernel, event";
    case Shape::stamps:
      return "branches: stamp, kernel, stamp";
    case Shape::chain:
      return "one chain of kernels";
    case Shape::summaries_own:
      return "app: summary memset+kernel+copy each";
    case Shape::summaries_gathered:
      return "app: one memset, kernels, one copy";
    case Shape::summaries_kernels:
      return "app: zero kernel, kernels, publish kernel";
    case Shape::kernel_root_copy_sink:
      return "app: zero kernel, kernels, one copy";
    case Shape::memset_root_kernel_sink:
      return "app: one memset, kernels, publish kernel";
    case Shape::app_no_stamps:
      return "app now without stamps";
    case Shape::app_chains_of_4:
      return "app now, 16 branches of 4 instances";
    case Shape::timed_no_summaries:
      return "timed, no summaries: stamp root";
    case Shape::timed_no_summaries_sink:
      return "timed, no summaries: + stamp sink";
  }
  return "?";
}

void enqueue(World& w, Shape shape, int k, int front) {
  const ls::kernels::RuleMasks rule{1u << 3, (1u << 2) | (1u << 3)};
  const bool app = shape == Shape::summaries_own || shape == Shape::summaries_gathered ||
                   shape == Shape::summaries_kernels || shape == Shape::kernel_root_copy_sink ||
                   shape == Shape::memset_root_kernel_sink || shape == Shape::app_no_stamps ||
                   shape == Shape::app_chains_of_4;
  // A timed frame with no summaries asked (a benchmark's): a reference stamp first, stamps around
  // each branch's kernel; with or without one stamp after the joins.
  const bool timed_only = shape == Shape::timed_no_summaries || shape == Shape::timed_no_summaries_sink;
  const bool stamped = (app && shape != Shape::app_no_stamps) || timed_only;
  // Instances per branch (a chain on one stream).
  const int per_branch = shape == Shape::app_chains_of_4 ? 4 : 1;
  const bool memset_root = shape == Shape::summaries_gathered || shape == Shape::memset_root_kernel_sink;
  const bool kernel_root = shape == Shape::summaries_kernels || shape == Shape::kernel_root_copy_sink ||
                           shape == Shape::app_no_stamps || shape == Shape::app_chains_of_4;
  const bool copy_sink = shape == Shape::summaries_gathered || shape == Shape::kernel_root_copy_sink ||
                         shape == Shape::app_no_stamps || shape == Shape::app_chains_of_4;
  const bool kernel_sink = shape == Shape::summaries_kernels || shape == Shape::memset_root_kernel_sink;
  constexpr int kWords = 2 * kInstances;
  constexpr std::size_t kBytes = kWords * sizeof(std::uint64_t);
  if (memset_root) CUDA_CHECK(cudaMemsetAsync(w.results, 0, kBytes, w.capture));
  if (kernel_root) zero_kernel<<<1, kWords, 0, w.capture>>>(w.results, kWords);
  if (timed_only) stamp_kernel<<<1, 1, 0, w.capture>>>(w.pinned_stamps + 2 * kInstances);
  CUDA_CHECK(cudaEventRecord(w.fork, w.capture));
  for (int i = 0; i < kInstances; ++i) {
    const std::size_t u = static_cast<std::size_t>(i);
    const bool first_of_branch = i % per_branch == 0, last_of_branch = (i + 1) % per_branch == 0;
    const cudaStream_t s = shape == Shape::chain ? w.capture : w.streams[u / per_branch];
    std::uint32_t* in = front ? w.b[u] : w.a[u];
    if (shape != Shape::chain && first_of_branch) CUDA_CHECK(cudaStreamWaitEvent(s, w.fork, 0));
    if (shape == Shape::summaries_own) {
      ls::kernels::launch_summary(ls::kernels::Layout::bit_cells, in, kSide, kSide, w.results + 2 * i, s);
      CUDA_CHECK(cudaMemcpyAsync(w.pinned_results + 2 * i, w.results + 2 * i, 2 * sizeof(std::uint64_t),
                                 cudaMemcpyDeviceToHost, s));
    } else if (app) {
      ls::kernels::launch_summary_onto(ls::kernels::Layout::bit_cells, in, kSide, kSide, w.results + 2 * i,
                                       s);
    }
    if (shape == Shape::events) CUDA_CHECK(cudaEventRecordWithFlags(w.starts[u], s, cudaEventRecordExternal));
    if (shape == Shape::stamps) stamp_kernel<<<1, 1, 0, s>>>(w.stamps + 2 * i);
    if (stamped) stamp_kernel<<<1, 1, 0, s>>>(w.pinned_stamps + 2 * i);
    ls::kernels::launch_step_bitpacked(in, front ? w.a[u] : w.b[u], kSide, kSide, rule, k, s,
                                       shape == Shape::chain ? 1 : kInstances);
    if (shape == Shape::events) CUDA_CHECK(cudaEventRecordWithFlags(w.ends[u], s, cudaEventRecordExternal));
    if (shape == Shape::stamps) stamp_kernel<<<1, 1, 0, s>>>(w.stamps + 2 * i + 1);
    if (stamped) stamp_kernel<<<1, 1, 0, s>>>(w.pinned_stamps + 2 * i + 1);
    if (shape != Shape::chain && last_of_branch) {
      CUDA_CHECK(cudaEventRecord(w.joins[u], s));
      CUDA_CHECK(cudaStreamWaitEvent(w.capture, w.joins[u], 0));
    }
  }
  if (copy_sink)
    CUDA_CHECK(cudaMemcpyAsync(w.pinned_results, w.results, kBytes, cudaMemcpyDeviceToHost, w.capture));
  if (kernel_sink) publish_kernel<<<1, kWords, 0, w.capture>>>(w.results, w.pinned_results, kWords);
  if (shape == Shape::timed_no_summaries_sink)
    stamp_kernel<<<1, 1, 0, w.capture>>>(w.pinned_stamps + 2 * kInstances + 1);
}

cudaGraphExec_t build(World& w, Shape shape, int k, int front) {
  CUDA_CHECK(cudaStreamBeginCapture(w.capture, cudaStreamCaptureModeThreadLocal));
  enqueue(w, shape, k, front);
  cudaGraph_t g = nullptr;
  CUDA_CHECK(cudaStreamEndCapture(w.capture, &g));
  cudaGraphExec_t exec = nullptr;
  CUDA_CHECK(cudaGraphInstantiate(&exec, g, 0));
  CUDA_CHECK(cudaGraphDestroy(g));
  return exec;
}

void row(World& w, Shape shape, int k) {
  cudaGraphExec_t g[2] = {build(w, shape, k, 0), build(w, shape, k, 1)};
  for (int f = 0; f < 20; ++f) CUDA_CHECK(cudaGraphLaunch(g[f % 2], w.frame));
  CUDA_CHECK(cudaStreamSynchronize(w.frame));
  std::vector<double> host_us, wall_us;
  for (int r = 0; r < kRepeats; ++r) {
    double host = 0;
    const auto start = Clock::now();
    for (int f = 0; f < kFrames; ++f) {
      const auto t0 = Clock::now();
      CUDA_CHECK(cudaGraphLaunch(g[f % 2], w.frame));
      host += std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    }
    CUDA_CHECK(cudaStreamSynchronize(w.frame));
    wall_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kFrames);
    host_us.push_back(host / kFrames);
  }
  const double wall = median(wall_us);
  const double rate = static_cast<double>(kInstances) * kSide * kSide * k / (wall * 1e-6);
  std::printf("%-34s k=%-3d host %7.1f us/launch  wall %7.1f us/frame  %.3g cell updates/s\n", name(shape), k,
              median(host_us), wall, rate);
  CUDA_CHECK(cudaGraphExecDestroy(g[0]));
  CUDA_CHECK(cudaGraphExecDestroy(g[1]));
}

}  // namespace

int main() {
  World w;
  const std::size_t bytes = ls::kernels::layout_bytes(ls::kernels::Layout::bit_cells, kSide, kSide);
  for (int i = 0; i < kInstances; ++i) {
    std::uint32_t *a = nullptr, *b = nullptr;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    ls::kernels::launch_random_fill(ls::kernels::Layout::bit_cells, a, kSide, kSide, 1ull << 62, false,
                                    static_cast<std::uint64_t>(i), s);
    cudaEvent_t e0 = nullptr, e1 = nullptr, j = nullptr;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    CUDA_CHECK(cudaEventCreateWithFlags(&j, cudaEventDisableTiming));
    w.a.push_back(a);
    w.b.push_back(b);
    w.streams.push_back(s);
    w.starts.push_back(e0);
    w.ends.push_back(e1);
    w.joins.push_back(j);
  }
  CUDA_CHECK(cudaEventCreateWithFlags(&w.fork, cudaEventDisableTiming));
  CUDA_CHECK(cudaMalloc(&w.stamps, 2 * kInstances * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMallocHost(&w.pinned_stamps, (2 * kInstances + 2) * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&w.results, 2 * kInstances * sizeof(std::uint64_t)));
  CUDA_CHECK(cudaMallocHost(&w.pinned_results, 2 * kInstances * sizeof(std::uint64_t)));
  CUDA_CHECK(cudaStreamCreateWithFlags(&w.frame, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&w.capture, cudaStreamNonBlocking));
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s: %d instances of %dx%d bitpacked, %d frames per repeat, median of %d\n", prop.name,
              kInstances, kSide, kSide, kFrames, kRepeats);
  for (int k : {1, 16})
    for (Shape s : {Shape::kernels, Shape::events, Shape::stamps, Shape::chain, Shape::summaries_own,
                    Shape::summaries_gathered, Shape::summaries_kernels, Shape::kernel_root_copy_sink,
                    Shape::memset_root_kernel_sink, Shape::app_no_stamps, Shape::app_chains_of_4,
                    Shape::timed_no_summaries, Shape::timed_no_summaries_sink})
      row(w, s, k);
  return 0;
}
