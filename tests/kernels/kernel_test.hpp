// kernel_test.hpp — what the kernels' tests share: skipping without a device, a device buffer, the
// layout of each variant, uploads and downloads of a lattice, a run of any variant on the device the
// way the engine runs it, where two lattices first differ, and the rules every variant is checked on.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace ls::kernel_tests {

using ls::Lattice;
using ls::Rule;
using ls::Variant;
using ls::variant_name;
using ls::kernels::Layout;

inline bool has_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

#define SKIP_WITHOUT_DEVICE() \
  if (!has_device()) GTEST_SKIP() << "no CUDA device: the kernels cannot run here"

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) { CUDA_CHECK(cudaMalloc(&ptr_, bytes)); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
};

inline Layout layout_of(Variant v) {
  switch (v) {
    case Variant::naive:
      return Layout::int32_cells;
    case Variant::bitpacked:
      return Layout::bit_cells;
    default:
      return Layout::byte_cells;
  }
}
inline const char* name(Layout l) {
  switch (l) {
    case Layout::int32_cells:
      return "int32";
    case Layout::byte_cells:
      return "byte";
    case Layout::bit_cells:
      return "bit";
  }
  return "?";
}
inline constexpr Layout kLayouts[] = {Layout::int32_cells, Layout::byte_cells, Layout::bit_cells};

inline ls::kernels::RuleMasks masks(const Rule& r) { return {r.birth, r.survive}; }

// A plain cudaMemcpy from pageable memory may return before its DMA lands, and kernels on a
// non-blocking stream do not wait for it: the copy goes on the stream that reads it, and is waited
// for (a pageable source must stay put until then).
inline void upload_bits(const Lattice& l, void* dst, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dst, l.words().data(), l.words().size() * 4, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
}
inline Lattice download_bits(const void* src, int w, int h) {
  Lattice l(w, h);
  CUDA_CHECK(cudaMemcpy(l.words().data(), src, l.words().size() * 4, cudaMemcpyDeviceToHost));
  return l;
}

/// Reads a lattice stored on the device in `layout` back cell by cell (not through convert).
inline Lattice download_raw(Layout layout, const void* src, int w, int h) {
  if (layout == Layout::bit_cells) return download_bits(src, w, h);
  const std::size_t cells = static_cast<std::size_t>(w) * h;
  std::vector<std::int32_t> ints(layout == Layout::int32_cells ? cells : 0);
  std::vector<std::uint8_t> bytes(layout == Layout::byte_cells ? cells : 0);
  if (layout == Layout::int32_cells)
    CUDA_CHECK(cudaMemcpy(ints.data(), src, cells * 4, cudaMemcpyDeviceToHost));
  else
    CUDA_CHECK(cudaMemcpy(bytes.data(), src, cells, cudaMemcpyDeviceToHost));
  Lattice l(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      const int v = layout == Layout::int32_cells ? ints[i] : bytes[i];
      EXPECT_TRUE(v == 0 || v == 1) << "cell (" << x << ", " << y << ") holds " << v;
      if (v) l.set(x, y, true);
    }
  }
  return l;
}

/// Runs `generations` generations of `variant` on the device from `start`, k per launch (plus a
/// remainder launch), ping-ponging between two buffers as the engine does.
inline Lattice run_on_device(Variant variant, const Lattice& start, const Rule& rule, long long generations,
                             int k) {
  const int w = start.width(), h = start.height();
  const Layout layout = layout_of(variant);
  const std::size_t bytes = ls::kernels::layout_bytes(layout, w, h);
  DeviceBuffer bits(ls::kernels::layout_bytes(Layout::bit_cells, w, h)), a(bytes), b(bytes);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  upload_bits(start, bits.get(), stream);
  ls::kernels::launch_convert(Layout::bit_cells, bits.get(), layout, a.get(), w, h, stream);
  void* front = a.get();
  void* back = b.get();
  const auto m = masks(rule);
  for (long long done = 0; done < generations;) {
    const int step = static_cast<int>(std::min<long long>(k, generations - done));
    switch (variant) {
      case Variant::naive:
        ls::kernels::launch_step_naive(static_cast<std::int32_t*>(front), static_cast<std::int32_t*>(back), w,
                                       h, m, stream);
        done += 1;
        break;
      case Variant::global:
        ls::kernels::launch_step_global(static_cast<std::uint8_t*>(front), static_cast<std::uint8_t*>(back),
                                        w, h, m, stream);
        done += 1;
        break;
      case Variant::shared:
        ls::kernels::launch_step_shared(static_cast<std::uint8_t*>(front), static_cast<std::uint8_t*>(back),
                                        w, h, m, stream);
        done += 1;
        break;
      case Variant::iterate:
        ls::kernels::launch_step_iterate(static_cast<std::uint8_t*>(front), static_cast<std::uint8_t*>(back),
                                         w, h, m, step, stream);
        done += step;
        break;
      case Variant::bitpacked:
        ls::kernels::launch_step_bitpacked(static_cast<std::uint32_t*>(front),
                                           static_cast<std::uint32_t*>(back), w, h, m, step, stream);
        done += step;
        break;
    }
    std::swap(front, back);
  }
  ls::kernels::launch_convert(layout, front, Layout::bit_cells, bits.get(), w, h, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return download_bits(bits.get(), w, h);
}

/// Where two lattices first differ, for the failure message.
inline std::string first_difference(const Lattice& got, const Lattice& want) {
  for (int y = 0; y < want.height(); ++y)
    for (int x = 0; x < want.width(); ++x)
      if (got.get(x, y) != want.get(x, y))
        return "first difference at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
  return "no difference";
}

inline std::vector<Rule> test_rules() {
  std::vector<Rule> rules = {Rule::life(),
                             {(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)},  // HighLife
                             {0b111001000, 0b111011000},                      // Day & Night
                             {1u << 2, 0},                                    // Seeds
                             {0b110011111, 0b111011111}};                     // B0123478/S01234678
  std::mt19937 rng(20240611);
  for (int i = 0; i < 22; ++i)
    rules.push_back({static_cast<std::uint16_t>(rng() & 0x1ff), static_cast<std::uint16_t>(rng() & 0x1ff)});
  return rules;
}

struct Size {
  int w, h;
};

}  // namespace ls::kernel_tests
