// kernel_bench.cu — the kernels' tuning harness (target ls_kernel_bench): cell updates per second
// of each variant and lattice size, the median of repeats after a warm-up, timed with CUDA
// events, next to `naive` at the same size and a device-to-device copy roof measured in the same
// run. Figures go to bench/NOTES.md; the project's own `lifestreams bench` is the engine's.
//
//   ls_kernel_bench [--variants naive,global,shared,iterate,bitpacked] [--sizes 1024,4096,16384]
//                   [--k 1,2,4,8,16,32] [--rule B3/S23] [--samples 7]
// Sizes apply to every variant; 65536 is added for bitpacked unless --sizes is given.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.cuh"
#include "core/rule.hpp"
#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace {

using ls::kernels::Layout;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Layout layout_of(const std::string& v) {
  if (v == "naive") return Layout::int32_cells;
  if (v == "bitpacked") return Layout::bit_cells;
  return Layout::byte_cells;
}
bool multi_generation(const std::string& v) { return v == "iterate" || v == "bitpacked"; }
// Bytes one generation must read and write per cell (the one-generation memory roof's divisor).
double bytes_per_cell(Layout l) {
  return l == Layout::int32_cells ? 8.0 : l == Layout::byte_cells ? 2.0 : 0.25;
}

class Buffer {
 public:
  explicit Buffer(std::size_t bytes) { CUDA_CHECK(cudaMalloc(&p_, bytes)); }
  ~Buffer() { cudaFree(p_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
};

/// The memory roof: GB/s of a large device-to-device copy, counting bytes read plus written.
double copy_roof_gbps(cudaStream_t s, int samples) {
  const std::size_t bytes = std::size_t{1} << 30;
  Buffer a(bytes), b(bytes);
  CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, s));
  const double ms = ls::probe::median_ms(
      s, samples, [&] { CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, s)); });
  return 2.0 * bytes / (ms * 1e-3) / 1e9;
}

struct Row {
  std::string variant;
  int n;
  int k;
  double ms;
  double cups;
};

}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::string> variants = {"naive", "global", "shared", "iterate", "bitpacked"};
  std::vector<int> sizes = {1024, 4096, 16384};
  bool sizes_given = false;
  std::vector<int> ks = {1, 2, 4, 8, 16, 32};
  std::string rule_text = "B3/S23";
  int samples = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string opt = argv[i], val = argv[i + 1];
    if (opt == "--variants") {
      variants = split(val);
    } else if (opt == "--sizes") {
      sizes.clear();
      for (auto& s : split(val)) sizes.push_back(std::stoi(s));
      sizes_given = true;
    } else if (opt == "--k") {
      ks.clear();
      for (auto& s : split(val)) ks.push_back(std::stoi(s));
    } else if (opt == "--rule") {
      rule_text = val;
    } else if (opt == "--samples") {
      samples = std::stoi(val);
    } else {
      std::fprintf(stderr, "unknown option %s\n", opt.c_str());
      return 2;
    }
  }
  const ls::Rule rule = ls::parse_rule(rule_text);
  const ls::kernels::RuleMasks masks{rule.birth, rule.survive};

  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const double roof = copy_roof_gbps(s, samples);
  std::printf("device: %s (%d SMs), rule %s, copy roof %.0f GB/s\n", prop.name, prop.multiProcessorCount,
              rule.to_string().c_str(), roof);

  std::vector<Row> rows;
  std::map<int, double> naive_cups;
  for (const std::string& v : variants) {
    std::vector<int> vs = sizes;
    if (v == "bitpacked" && !sizes_given) vs.push_back(65536);
    for (int n : vs) {
      const Layout layout = layout_of(v);
      const std::size_t bytes = ls::kernels::layout_bytes(layout, n, n);
      Buffer a(bytes), b(bytes);
      const ls::FillThreshold t = ls::fill_threshold(0.35);
      ls::kernels::launch_random_fill(layout, a.get(), n, n, t.threshold, t.all, 42, s);
      for (int k : multi_generation(v) ? ks : std::vector<int>{1}) {
        void* front = a.get();
        void* back = b.get();
        auto step = [&] {
          if (v == "naive")
            ls::kernels::launch_step_naive(static_cast<std::int32_t*>(front),
                                           static_cast<std::int32_t*>(back), n, n, masks, s);
          else if (v == "global")
            ls::kernels::launch_step_global(static_cast<std::uint8_t*>(front),
                                            static_cast<std::uint8_t*>(back), n, n, masks, s);
          else if (v == "shared")
            ls::kernels::launch_step_shared(static_cast<std::uint8_t*>(front),
                                            static_cast<std::uint8_t*>(back), n, n, masks, s);
          else if (v == "iterate")
            ls::kernels::launch_step_iterate(static_cast<std::uint8_t*>(front),
                                             static_cast<std::uint8_t*>(back), n, n, masks, k, s);
          else if (v == "bitpacked")
            ls::kernels::launch_step_bitpacked(static_cast<std::uint32_t*>(front),
                                               static_cast<std::uint32_t*>(back), n, n, masks, k, s);
          else
            throw ls::InputError("unknown variant " + v);
          std::swap(front, back);
        };
        const double ms = ls::probe::median_ms(s, samples, step);
        const double cups = static_cast<double>(n) * n * k / (ms * 1e-3);
        if (v == "naive") naive_cups[n] = cups;
        rows.push_back({v, n, k, ms, cups});
      }
    }
  }
  CUDA_CHECK(cudaStreamSynchronize(s));

  std::printf("%-10s %7s %3s %10s %11s %9s %9s\n", "variant", "size", "k", "median_ms", "cells/s", "x naive",
              "x roof1");
  for (const Row& r : rows) {
    const double roof_cups = roof * 1e9 / bytes_per_cell(layout_of(r.variant));
    const auto nv = naive_cups.find(r.n);
    char ratio[32] = "-";
    if (nv != naive_cups.end()) std::snprintf(ratio, sizeof ratio, "%.1f", r.cups / nv->second);
    std::printf("%-10s %7d %3d %10.4f %11.3e %9s %9.2f\n", r.variant.c_str(), r.n, r.k, r.ms, r.cups, ratio,
                r.cups / roof_cups);
  }
  std::printf(
      "x roof1: cells/s over the one-generation memory roof of the layout (copy GB/s / bytes read+written "
      "per cell)\n");
  CUDA_CHECK(cudaStreamDestroy(s));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "ls_kernel_bench: %s\n", e.what());
  return 3;
}
