// host_probe.cpp — `ls_host_probe`: what one frame of many small instances costs the host. Times
// (steady clock, median of repeats) the CUDA calls the engine makes per instance and frame, the
// same work replayed from CUDA graphs, and CudaEngine::step() itself with graphs off and on, for
// 64 instances of 1024x1024 (bench/NOTES.md, "Many small instances").
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/rule.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "sim/cuda_engine.hpp"
#include "sim/cuda_handles.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kInstances = 64;
constexpr int kSide = 1024;
constexpr int kFrames = 50;
constexpr int kRepeats = 7;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Host microseconds per call of `op(i)` over kInstances x kFrames calls, median of repeats; the
/// device drains (untimed) between repeats so that queues never fill.
double host_us(const std::function<void(int, int)>& op) {
  std::vector<double> us;
  for (int r = 0; r < kRepeats + 1; ++r) {
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto t0 = Clock::now();
    for (int f = 0; f < kFrames; ++f)
      for (int i = 0; i < kInstances; ++i) op(f, i);
    const double total = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    if (r > 0) us.push_back(total / (kFrames * kInstances));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  return median(us);
}

std::size_t free_memory() {
  std::size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return free_bytes;
}

/// Cell updates per second of `frames` engine frames of `gens` generations, device time from a
/// mark before the first to the end of every stream, and host microseconds per step() call.
void engine_row(const char* name, ls::Variant variant, int k, ls::StreamMode mode, bool graphs,
                bool summaries, int timing_period = 1) {
  ls::sim::CudaEngine engine;
  engine.set_stream_mode(mode);
  engine.set_timing_period(timing_period);
  engine.set_launch_graphs(graphs);
  for (int i = 0; i < kInstances; ++i) {
    ls::InstanceSpec spec;
    spec.width = spec.height = kSide;
    spec.variant = variant;
    spec.generations_per_launch = k;
    spec.init = ls::RandomInit{0.35, static_cast<std::uint64_t>(i + 1)};
    engine.add(spec);
  }
  ls::cuda::Stream mark(ls::cuda::Stream::Create{});
  ls::cuda::Event start(ls::cuda::Event::Create{});
  std::vector<ls::cuda::Event> ends;
  for (int i = 0; i < kInstances; ++i) ends.emplace_back(ls::cuda::Event::Create{});
  engine.finish();
  const std::size_t before_steps = free_memory();
  std::vector<double> cups, step_us;
  for (int r = 0; r < kRepeats + 2; ++r) {
    engine.finish();
    start.record(mark.get());
    const int frames = 200;
    const auto t0 = Clock::now();
    for (int f = 0; f < frames; ++f) {
      engine.step(k);
      if (summaries) engine.request_summaries();
    }
    const double host = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    double longest = 0;
    for (std::size_t i = 0; i < engine.size(); ++i) {
      ends[i].record(engine.device_view(i).stream);
      CUDA_CHECK(cudaEventSynchronize(ends[i].get()));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), ends[i].get()));
      longest = std::max(longest, static_cast<double>(ms));
    }
    if (r < 2) continue;  // warm-up: modules loaded, graphs made
    cups.push_back(double(kSide) * kSide * kInstances * k * frames / (longest * 1e-3));
    step_us.push_back(host / frames);
  }
  const double graph_mib = (double(before_steps) - double(free_memory())) / 1048576.0;
  std::printf("%-40s %9.3e cups %7.1f us host/frame (%5.2f per instance) mem +%5.1f MiB\n", name,
              median(cups), median(step_us), median(step_us) / kInstances, graph_mib);
}

}  // namespace

int main() {
  try {
    std::string why;
    if (ls::cuda_device_count(&why) == 0) {
      std::printf("ls_host_probe: %s\n", why.c_str());
      return 0;
    }
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("ls_host_probe: %s, %d instances of %dx%d, bitpacked B3/S23\n", prop.name, kInstances, kSide,
                kSide);
    using ls::cuda::Event;
    using ls::cuda::Stream;
    const std::size_t words = std::size_t{kSide} * kSide / 32;
    ls::cuda::DeviceBuffer cells(2 * kInstances * words * sizeof(std::uint32_t));
    ls::cuda::DeviceBuffer results(kInstances * 2 * sizeof(std::uint64_t));
    ls::cuda::PinnedBuffer host(kInstances * 2 * sizeof(std::uint64_t));
    std::vector<Stream> streams;
    std::vector<Event> timed, untimed, timed2;
    for (int i = 0; i < kInstances; ++i) {
      streams.emplace_back(Stream::Create{});
      timed.emplace_back(Event::Create{});
      timed2.emplace_back(Event::Create{});
      untimed.emplace_back(Event::Create{}, false);
    }
    auto* base = cells.as<std::uint32_t>();
    const auto lattice = [&](int i, int parity) { return base + (2 * i + parity) * words; };
    for (int i = 0; i < kInstances; ++i)
      ls::kernels::launch_random_fill(ls::kernels::Layout::bit_cells, lattice(i, 0), kSide, kSide,
                                      std::uint64_t{1} << 62, false, i + 1, streams[i].get());
    const ls::kernels::RuleMasks life{1u << 3, (1u << 2) | (1u << 3)};
    const auto step = [&](int i, int f, int k, cudaStream_t s) {
      ls::kernels::launch_step_bitpacked(lattice(i, f & 1), lattice(i, (f + 1) & 1), kSide, kSide, life, k,
                                         s);
    };
    const auto summary = [&](int i, int f, cudaStream_t s) {
      auto* r = results.as<std::uint64_t>() + 2 * i;
      ls::kernels::launch_summary(ls::kernels::Layout::bit_cells, lattice(i, f & 1), kSide, kSide, r, s);
      CUDA_CHECK(cudaMemcpyAsync(host.as<std::uint64_t>() + 2 * i, r, 16, cudaMemcpyDeviceToHost, s));
    };
    step(0, 0, 1, streams[0].get());  // first launches: modules, occupancy tables
    step(0, 0, 16, streams[0].get());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::printf("\nhost microseconds per call (64 streams round-robin, median of %d x %d calls)\n", kRepeats,
                kInstances * kFrames);
    const auto row = [](const char* name, double us) { std::printf("  %-52s %6.2f\n", name, us); };
    row("launch bitpacked k=1", host_us([&](int f, int i) { step(i, f, 1, streams[i].get()); }));
    row("launch bitpacked k=16", host_us([&](int f, int i) { step(i, f, 16, streams[i].get()); }));
    row("event record, timing", host_us([&](int, int i) { timed[i].record(streams[i].get()); }));
    row("event record, no timing", host_us([&](int, int i) { untimed[i].record(streams[i].get()); }));
    row("event query (complete)", host_us([&](int, int i) { (void)cudaEventQuery(timed[i].get()); }));
    row("event elapsed time (complete)", host_us([&](int, int i) {
          float ms = 0;
          CUDA_CHECK(cudaEventElapsedTime(&ms, timed[i].get(), timed[i].get()));
        }));
    row("cudaGetLastError", host_us([&](int, int) { (void)cudaGetLastError(); }));
    row("event + launch k=1 + event (engine, direct)", host_us([&](int f, int i) {
          timed[i].record(streams[i].get());
          step(i, f, 1, streams[i].get());
          timed2[i].record(streams[i].get());
        }));
    row("summary: memset + kernel + copy + event (direct)", host_us([&](int f, int i) {
          summary(i, f, streams[i].get());
          untimed[i].record(streams[i].get());
        }));

    // The same work as graphs: one per instance and parity.
    Stream capture_stream(Stream::Create{});
    const std::size_t before = free_memory();
    std::vector<ls::cuda::GraphExec> framed, bare, summed;
    const auto t0 = Clock::now();
    for (int i = 0; i < kInstances; ++i)
      for (int p = 0; p < 2; ++p) {
        framed.push_back(ls::cuda::capture(capture_stream.get(), [&](cudaStream_t c) {
          timed[i].record_in_graph(c, true);
          step(i, p, 1, c);
          timed2[i].record_in_graph(c, true);
        }));
        bare.push_back(ls::cuda::capture(capture_stream.get(), [&](cudaStream_t c) { step(i, p, 1, c); }));
        summed.push_back(ls::cuda::capture(capture_stream.get(), [&](cudaStream_t c) {
          summary(i, p, c);
          untimed[i].record_in_graph(c, true);
        }));
      }
    const double make_us =
        std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / (3.0 * 2 * kInstances);
    const std::size_t with_graphs = free_memory();
    row("capture + instantiate one graph", make_us);
    row("graph [event, launch k=1, event]",
        host_us([&](int f, int i) { framed[2 * i + (f & 1)].launch(streams[i].get()); }));
    row("graph [launch k=1]", host_us([&](int f, int i) { bare[2 * i + (f & 1)].launch(streams[i].get()); }));
    row("graph [memset, kernel, copy, event] (summary)",
        host_us([&](int f, int i) { summed[2 * i + (f & 1)].launch(streams[i].get()); }));
    row("event + graph [launch k=1] + event (engine, graphs)", host_us([&](int f, int i) {
          timed[i].record(streams[i].get());
          bare[2 * i + (f & 1)].launch(streams[i].get());
          timed2[i].record(streams[i].get());
        }));
    float ms = -1;
    const cudaError_t err = cudaEventElapsedTime(&ms, timed[0].get(), timed2[0].get());
    std::printf("  events recorded by a graph: elapsed %s, %.4f ms (one k=1 step)\n", cudaGetErrorName(err),
                ms);
    std::printf("  device memory: %.2f MiB for %d graphs\n",
                (double(before) - double(with_graphs)) / 1048576.0, 6 * kInstances);

    // Serial device time on one stream (what shared stream mode is bound by).
    {
      Event a(Event::Create{}), b(Event::Create{});
      for (int k : {1, 16}) {
        std::vector<double> per;
        for (int r = 0; r < 4; ++r) {
          CUDA_CHECK(cudaDeviceSynchronize());
          a.record(streams[0].get());
          for (int f = 0; f < 4; ++f)
            for (int i = 0; i < kInstances; ++i) {
              timed[i].record(streams[0].get());
              step(i, f, k, streams[0].get());
              timed2[i].record(streams[0].get());
            }
          b.record(streams[0].get());
          CUDA_CHECK(cudaEventSynchronize(b.get()));
          float t = 0;
          CUDA_CHECK(cudaEventElapsedTime(&t, a.get(), b.get()));
          per.push_back(1000.0 * t / (4 * kInstances));
        }
        std::printf("  device us per instance-frame on one stream, k=%-2d: %.2f\n", k, median(per));
      }
    }

    // Several host threads enqueueing (event, graph [launch], event) for their share of the instances.
    std::printf(
        "\nthreads enqueueing event + graph [launch k=1] + event, us per instance-frame (frame barrier)\n");
    for (int threads : {1, 2, 4, 8}) {
      std::vector<double> us;
      for (int r = 0; r < 4; ++r) {
        CUDA_CHECK(cudaDeviceSynchronize());
        std::atomic<int> arrived{0};
        const auto t1 = Clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
          pool.emplace_back([&, t] {
            for (int f = 0; f < kFrames; ++f) {
              for (int i = t; i < kInstances; i += threads) {
                timed[i].record(streams[i].get());
                bare[2 * i + (f & 1)].launch(streams[i].get());
                timed2[i].record(streams[i].get());
              }
              arrived.fetch_add(1);
              while (arrived.load() < (f + 1) * threads) {
              }
            }
          });
        for (auto& th : pool) th.join();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t1).count() /
                     (kFrames * kInstances));
      }
      std::printf("  %d thread%s %6.2f\n", threads, threads == 1 ? " " : "s", median(us));
    }
    framed.clear();
    bare.clear();
    summed.clear();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("  device memory: %.2f MiB not back after destroying the graphs\n",
                (double(before) - double(free_memory())) / 1048576.0);
    CUDA_CHECK(cudaDeviceSynchronize());
    cells = {};

    std::printf("\nCudaEngine, 64 x 1024^2, 200 frames of one launch per instance\n");
    using ls::StreamMode;
    using ls::Variant;
    engine_row("bitpacked k=1  per-instance direct", Variant::bitpacked, 1, StreamMode::per_instance, false,
               false);
    engine_row("bitpacked k=1  per-instance graphs", Variant::bitpacked, 1, StreamMode::per_instance, true,
               false);
    engine_row("bitpacked k=1  shared       direct", Variant::bitpacked, 1, StreamMode::shared, false, false);
    engine_row("bitpacked k=1  shared       graphs", Variant::bitpacked, 1, StreamMode::shared, true, false);
    engine_row("bitpacked k=16 per-instance direct", Variant::bitpacked, 16, StreamMode::per_instance, false,
               false);
    engine_row("bitpacked k=16 per-instance graphs", Variant::bitpacked, 16, StreamMode::per_instance, true,
               false);
    engine_row("bitpacked k=16 shared       graphs", Variant::bitpacked, 16, StreamMode::shared, true, false);
    engine_row("bitpacked k=32 per-instance graphs", Variant::bitpacked, 32, StreamMode::per_instance, true,
               false);
    engine_row("iterate   k=16 per-instance graphs", Variant::iterate, 16, StreamMode::per_instance, true,
               false);
    engine_row("naive     k=1  per-instance graphs", Variant::naive, 1, StreamMode::per_instance, true,
               false);
    engine_row("bitpacked k=1  per-instance graphs 1/8", Variant::bitpacked, 1, StreamMode::per_instance,
               true, false, 8);
    engine_row("bitpacked k=1  per-instance graphs 1/1000", Variant::bitpacked, 1, StreamMode::per_instance,
               true, false, 1000);
    engine_row("bitpacked k=1  shared       graphs 1/1000", Variant::bitpacked, 1, StreamMode::shared, true,
               false, 1000);
    engine_row("iterate   k=1  per-instance graphs 1/1000", Variant::iterate, 1, StreamMode::per_instance,
               true, false, 1000);
    engine_row("iterate   k=1  shared       graphs 1/1000", Variant::iterate, 1, StreamMode::shared, true,
               false, 1000);
    engine_row("bitpacked k=16 per-instance graphs 1/1000", Variant::bitpacked, 16, StreamMode::per_instance,
               true, false, 1000);
    engine_row("bitpacked k=1  + summaries, direct", Variant::bitpacked, 1, StreamMode::per_instance, false,
               true);
    engine_row("bitpacked k=1  + summaries, graphs", Variant::bitpacked, 1, StreamMode::per_instance, true,
               true);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ls_host_probe: %s\n", e.what());
    return 1;
  }
}
