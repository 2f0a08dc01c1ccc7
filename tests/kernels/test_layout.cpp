// test_layout.cpp — the layouts' device code (kernels/layout.cu) against Lattice: the random fill in
// every layout, conversions between any two, the summary (whole lattices, large ones, unaligned
// bands), and set_cell.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

#include "kernel_test.hpp"

namespace ls::kernel_tests {
namespace {

// The device random fill equals Lattice::random bit for bit in every layout.
TEST(Layouts, RandomFillEqualsLatticeRandomInEveryLayout) {
  SKIP_WITHOUT_DEVICE();
  for (Layout layout : kLayouts) {
    for (Size s : {Size{32, 32}, Size{96, 64}, Size{1024, 96}}) {
      for (double p : {0.0, 0.1, 0.5, 0.9, 1.0}) {
        SCOPED_TRACE(std::string(name(layout)) + " " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                     " p=" + std::to_string(p));
        const std::uint64_t seed = 0x1234'5678'9abcull + static_cast<std::uint64_t>(p * 100);
        DeviceBuffer buf(ls::kernels::layout_bytes(layout, s.w, s.h));
        const ls::FillThreshold t = ls::fill_threshold(p);
        ls::kernels::launch_random_fill(layout, buf.get(), s.w, s.h, t.threshold, t.all, seed, nullptr);
        const Lattice got = download_raw(layout, buf.get(), s.w, s.h);
        const Lattice want = Lattice::random(s.w, s.h, p, seed);
        ASSERT_TRUE(got == want) << first_difference(got, want);
      }
    }
  }
}

// Converting between any two layouts keeps every cell, and converting back restores the source.
TEST(Layouts, ConvertIsExactBetweenAllLayoutPairs) {
  SKIP_WITHOUT_DEVICE();
  const int w = 160, h = 96;
  const Lattice want = Lattice::random(w, h, 0.4, 99);
  for (Layout from : kLayouts) {
    for (Layout to : kLayouts) {
      SCOPED_TRACE(std::string(name(from)) + " -> " + name(to));
      DeviceBuffer a(ls::kernels::layout_bytes(from, w, h)), b(ls::kernels::layout_bytes(to, w, h)),
          back(ls::kernels::layout_bytes(from, w, h));
      const ls::FillThreshold t = ls::fill_threshold(0.4);
      ls::kernels::launch_random_fill(from, a.get(), w, h, t.threshold, t.all, 99, nullptr);
      ls::kernels::launch_convert(from, a.get(), to, b.get(), w, h, nullptr);
      ls::kernels::launch_convert(to, b.get(), from, back.get(), w, h, nullptr);
      EXPECT_TRUE(download_raw(to, b.get(), w, h) == want);
      std::vector<std::uint8_t> x(a.bytes()), y(a.bytes());
      CUDA_CHECK(cudaMemcpy(x.data(), a.get(), a.bytes(), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(y.data(), back.get(), back.bytes(), cudaMemcpyDeviceToHost));
      EXPECT_EQ(x, y);
    }
  }
}

// The device population and hash equal Lattice's (the hash includes the W x H base term), in
// every layout; an empty lattice hashes to the base alone.
TEST(Layouts, SummaryEqualsLatticePopulationAndHash) {
  SKIP_WITHOUT_DEVICE();
  DeviceBuffer result(2 * sizeof(std::uint64_t));
  for (Layout layout : kLayouts) {
    // 4096x2048: the bit layout's threads walk several chunks each (summary_walk.hpp).
    for (Size s : {Size{32, 32}, Size{2048, 1024}, Size{96, 320}, Size{4096, 2048}}) {
      for (double p : {0.0, 0.11, 0.3, 1.0}) {
        SCOPED_TRACE(std::string(name(layout)) + " " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                     " p=" + std::to_string(p));
        DeviceBuffer buf(ls::kernels::layout_bytes(layout, s.w, s.h));
        const ls::FillThreshold t = ls::fill_threshold(p);
        ls::kernels::launch_random_fill(layout, buf.get(), s.w, s.h, t.threshold, t.all, 5, nullptr);
        ls::kernels::launch_summary(layout, buf.get(), s.w, s.h, result.as<std::uint64_t>(), nullptr);
        std::uint64_t got[2];
        CUDA_CHECK(cudaMemcpy(got, result.get(), sizeof got, cudaMemcpyDeviceToHost));
        const Lattice want = Lattice::random(s.w, s.h, p, 5);
        EXPECT_EQ(got[0], want.population());
        EXPECT_EQ(got[1], want.hash());
        if (p == 0.0) {
          EXPECT_EQ(got[1], ls::lattice_hash_base(s.w, s.h));
        }
      }
    }
  }
}

// Lattices of 2^22 words and more take the bit summary's chunk walk (smaller ones a word per
// thread): one such lattice, checked like the others.
TEST(Layouts, BitSummaryOfALargeLatticeWalksItsChunksExactly) {
  SKIP_WITHOUT_DEVICE();
  constexpr int w = 16384, h = 8192;  // 2^22 words
  DeviceBuffer result(2 * sizeof(std::uint64_t));
  DeviceBuffer buf(ls::kernels::layout_bytes(Layout::bit_cells, w, h));
  const ls::FillThreshold t = ls::fill_threshold(0.11);
  ls::kernels::launch_random_fill(Layout::bit_cells, buf.get(), w, h, t.threshold, t.all, 9, nullptr);
  ls::kernels::launch_summary(Layout::bit_cells, buf.get(), w, h, result.as<std::uint64_t>(), nullptr);
  std::uint64_t got[2];
  CUDA_CHECK(cudaMemcpy(got, result.get(), sizeof got, cudaMemcpyDeviceToHost));
  const Lattice want = Lattice::random(w, h, 0.11, 9);
  EXPECT_EQ(got[0], want.population());
  EXPECT_EQ(got[1], want.hash());
}

// A split lattice summarizes its bands in place: a band of the bit layout that starts on a word
// not 16-byte aligned (3 words a row, 5 rows in) is summarized word by word, and the bands' sums
// are the whole lattice's.
TEST(Layouts, BitSummaryOfUnalignedBandsAddsUpToTheLattice) {
  SKIP_WITHOUT_DEVICE();
  const int w = 96, h = 320, split = 5;
  DeviceBuffer buf(ls::kernels::layout_bytes(Layout::bit_cells, w, h));
  DeviceBuffer result(4 * sizeof(std::uint64_t));
  const ls::FillThreshold t = ls::fill_threshold(0.3);
  ls::kernels::launch_random_fill(Layout::bit_cells, buf.get(), w, h, t.threshold, t.all, 8, nullptr);
  auto* out = result.as<std::uint64_t>();
  const auto* bits = static_cast<const std::uint32_t*>(buf.get());
  ls::kernels::launch_summary_rows(Layout::bit_cells, bits, w, split, 0, ls::lattice_hash_base(w, h), out,
                                   nullptr);
  ls::kernels::launch_summary_rows(Layout::bit_cells, bits + split * (w / 32), w, h - split, split, 0,
                                   out + 2, nullptr);
  std::uint64_t got[4];
  CUDA_CHECK(cudaMemcpy(got, result.get(), sizeof got, cudaMemcpyDeviceToHost));
  const Lattice want = Lattice::random(w, h, 0.3, 8);
  EXPECT_EQ(got[0] + got[2], want.population());
  EXPECT_EQ(got[1] + got[3], want.hash());
  EXPECT_GT(got[2], 0u);
}

// set_cell changes exactly the one cell it names, in every layout.
TEST(Layouts, SetCellChangesExactlyThatCell) {
  SKIP_WITHOUT_DEVICE();
  const int w = 64, h = 64;
  for (Layout layout : kLayouts) {
    SCOPED_TRACE(name(layout));
    DeviceBuffer buf(ls::kernels::layout_bytes(layout, w, h));
    const ls::FillThreshold t = ls::fill_threshold(0.5);
    ls::kernels::launch_random_fill(layout, buf.get(), w, h, t.threshold, t.all, 3, nullptr);
    Lattice want = Lattice::random(w, h, 0.5, 3);
    const int cells[][3] = {{0, 0, 1}, {63, 63, 0}, {31, 7, 1}, {32, 7, 0}, {5, 40, 1}, {5, 40, 0}};
    for (const auto& c : cells) {
      ls::kernels::launch_set_cell(layout, buf.get(), w, h, c[0], c[1], c[2] != 0, nullptr);
      want.set(c[0], c[1], c[2] != 0);
    }
    EXPECT_TRUE(download_raw(layout, buf.get(), w, h) == want);
  }
}

}  // namespace
}  // namespace ls::kernel_tests
