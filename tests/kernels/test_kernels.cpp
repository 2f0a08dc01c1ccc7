// test_kernels.cpp — the device code against the CPU reference: every variant equals ls::cpu_run
// cell for cell (random soups, random and named Life-like rules, k generations per launch), the
// device random fill equals Lattice::random in every layout, conversions round-trip exactly, and
// the device summary equals Lattice's population and hash. Skips without a CUDA device.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "core/splitmix.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

namespace {

using ls::Lattice;
using ls::Rule;
using ls::Variant;
using ls::variant_name;
using ls::kernels::Layout;

bool has_device() {
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

Layout layout_of(Variant v) {
  switch (v) {
    case Variant::naive:
      return Layout::int32_cells;
    case Variant::bitpacked:
      return Layout::bit_cells;
    default:
      return Layout::byte_cells;
  }
}
const char* name(Layout l) {
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
constexpr Layout kLayouts[] = {Layout::int32_cells, Layout::byte_cells, Layout::bit_cells};

ls::kernels::RuleMasks masks(const Rule& r) { return {r.birth, r.survive}; }

// A plain cudaMemcpy from pageable memory may return before its DMA lands, and kernels on a
// non-blocking stream do not wait for it: the copy goes on the stream that reads it, and is waited
// for (a pageable source must stay put until then).
void upload_bits(const Lattice& l, void* dst, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dst, l.words().data(), l.words().size() * 4, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
}
Lattice download_bits(const void* src, int w, int h) {
  Lattice l(w, h);
  CUDA_CHECK(cudaMemcpy(l.words().data(), src, l.words().size() * 4, cudaMemcpyDeviceToHost));
  return l;
}

/// Reads a lattice stored on the device in `layout` back cell by cell (not through convert).
Lattice download_raw(Layout layout, const void* src, int w, int h) {
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
Lattice run_on_device(Variant variant, const Lattice& start, const Rule& rule, long long generations, int k) {
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
std::string first_difference(const Lattice& got, const Lattice& want) {
  for (int y = 0; y < want.height(); ++y)
    for (int x = 0; x < want.width(); ++x)
      if (got.get(x, y) != want.get(x, y))
        return "first difference at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
  return "no difference";
}

std::vector<Rule> test_rules() {
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
constexpr Size kSizes[] = {{32, 32}, {64, 96}, {256, 128}, {96, 320}, {1024, 64}, {2048, 1024}, {480, 224}};

class VariantTest : public ::testing::TestWithParam<Variant> {};

// Every variant equals the CPU reference on random soups for 27 rules (the named ones, a B0 rule
// and 22 random ones), several sizes, densities and seeds, after 1, 2, 31 and 64 generations.
TEST_P(VariantTest, EqualsCpuReferenceOnRandomSoupsAndRules) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  const std::vector<Rule> rules = test_rules();
  const long long gens[] = {1, 2, 31, 64};
  const int ks[] = {1, 2, 5, 31, 32, 33, 64};
  int case_no = 0;
  for (std::size_t ri = 0; ri < rules.size(); ++ri) {
    for (long long g : gens) {
      const Size s = kSizes[case_no % (std::size(kSizes) - 1)];  // 2048x1024 has its own test
      const double density = 0.1 + 0.1 * (case_no % 6);
      const std::uint64_t seed = 1000 + case_no;
      const int k = ks[case_no % std::size(ks)];
      ++case_no;
      SCOPED_TRACE(std::string(variant_name(v)) + " rule " + rules[ri].to_string() + " " +
                   std::to_string(s.w) + "x" + std::to_string(s.h) + " p=" + std::to_string(density) +
                   " seed=" + std::to_string(seed) + " gens=" + std::to_string(g) +
                   " k=" + std::to_string(k));
      Lattice want = Lattice::random(s.w, s.h, density, seed);
      const Lattice got = run_on_device(v, want, rules[ri], g, k);
      ls::cpu_run(want, rules[ri], g);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

// 1000 generations of Life, HighLife, Day & Night and the B0 rule on 2048x1024 and 480x224 soups.
TEST_P(VariantTest, EqualsCpuReferenceAfter1000Generations) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  const std::vector<Rule> rules = test_rules();
  const int k = (v == Variant::iterate || v == Variant::bitpacked) ? 16 : 1;
  int i = 0;
  for (Size s : {Size{2048, 1024}, Size{480, 224}}) {
    for (int ri : {0, 1, 2, 4}) {
      const double density = 0.2 + 0.1 * (i % 4);
      SCOPED_TRACE(std::string(variant_name(v)) + " rule " + rules[ri].to_string() + " " +
                   std::to_string(s.w) + "x" + std::to_string(s.h) + " k=" + std::to_string(k));
      Lattice want = Lattice::random(s.w, s.h, density, 77 + i++);
      const Lattice got = run_on_device(v, want, rules[ri], 1000, k);
      ls::cpu_run(want, rules[ri], 1000);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest,
                         ::testing::Values(Variant::naive, Variant::global, Variant::shared, Variant::iterate,
                                           Variant::bitpacked),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(variant_name(info.param));
                         });

class DeepVariantTest : public ::testing::TestWithParam<Variant> {};

// k generations in one launch equal k single CPU steps, for every k the engine may ask for,
// including the deepest halos, multi-block lattices and lattices narrower than a tile.
TEST_P(DeepVariantTest, KGenerationsPerLaunchEqualKSingleSteps) {
  SKIP_WITHOUT_DEVICE();
  const Variant v = GetParam();
  const std::vector<Rule> rules = test_rules();
  int i = 0;
  for (int k : {1, 2, 5, 16, 17, 31, 32, 33, 48, 63, 64}) {
    for (Size s : {Size{32, 32}, Size{2048, 1024}, Size{992, 288}, Size{64, 2048}}) {
      const Rule& rule = rules[i % rules.size()];
      SCOPED_TRACE(std::string(variant_name(v)) + " k=" + std::to_string(k) + " rule " + rule.to_string() +
                   " " + std::to_string(s.w) + "x" + std::to_string(s.h));
      Lattice want = Lattice::random(s.w, s.h, 0.15 + 0.05 * (i % 8), 500 + i);
      ++i;
      const Lattice got = run_on_device(v, want, rule, k, k);
      ls::cpu_run(want, rule, k);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(MultiGeneration, DeepVariantTest,
                         ::testing::Values(Variant::iterate, Variant::bitpacked),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(variant_name(info.param));
                         });

// Every block shape the bitpacked launcher may choose (the model picks by lattice size, so small
// test lattices alone would never reach most of them) equals the CPU reference: multi-block and
// narrow lattices, shallow and deep k, Life and random rules.
TEST(BitpackedShapes, EveryBlockShapeEqualsTheCpuReference) {
  SKIP_WITHOUT_DEVICE();
  struct ModelChooses {
    ~ModelChooses() { ls::kernels::set_bitpacked_shape(-1); }
  } model_chooses;
  const std::vector<Rule> rules = test_rules();
  const int shapes = ls::kernels::bitpacked_shape_count();
  ASSERT_GE(shapes, 6);
  int i = 0;
  for (int shape = 0; shape < shapes; ++shape) {
    const ls::kernels::BitpackedShape bs = ls::kernels::bitpacked_shape(shape);
    ls::kernels::set_bitpacked_shape(shape);
    for (int k : {1, 7, 16, 33, 64}) {
      if (bs.rows_per_warp * bs.warps - 2 * k < 16) continue;  // too short for k: the model's own shape
      for (Size s : {Size{2048, 1024}, Size{992, 1312}, Size{64, 96}}) {
        const Rule& rule = rules[i % rules.size()];
        SCOPED_TRACE("shape " + std::to_string(shape) + " (" + std::to_string(bs.rows_per_warp) + " x " +
                     std::to_string(bs.warps) + ") k=" + std::to_string(k) + " rule " + rule.to_string() +
                     " " + std::to_string(s.w) + "x" + std::to_string(s.h));
        Lattice want = Lattice::random(s.w, s.h, 0.2 + 0.05 * (i % 6), 900 + i);
        ++i;
        const Lattice got = run_on_device(Variant::bitpacked, want, rule, 2 * k, k);
        ls::cpu_run(want, rule, 2 * k);
        ASSERT_TRUE(got == want) << first_difference(got, want);
      }
    }
  }
}

// A block shape outside the launcher's set is refused and keeps the setting (no device needed).
TEST(BitpackedShapes, AShapeOutsideTheSetIsRefused) {
  const int shapes = ls::kernels::bitpacked_shape_count();
  EXPECT_THROW(ls::kernels::set_bitpacked_shape(shapes), ls::InputError);
  EXPECT_THROW(ls::kernels::set_bitpacked_shape(-2), ls::InputError);
  EXPECT_THROW(ls::kernels::bitpacked_shape(shapes), ls::InputError);
  EXPECT_NO_THROW(ls::kernels::set_bitpacked_shape(shapes - 1));
  EXPECT_NO_THROW(ls::kernels::set_bitpacked_shape(-1));
}

// A row range writes exactly those rows, each equal to the CPU reference, and leaves the others
// of `out` as they were; a pair launch equals the two lattices stepped alone.
TEST(BitpackedRanges, RowRangesAndPairsEqualTheCpuReference) {
  SKIP_WITHOUT_DEVICE();
  const std::vector<Rule> rules = test_rules();
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int i = 0;
  for (int k : {1, 16, 33}) {
    for (Size s : {Size{2048, 1024}, Size{16384, 96}, Size{96, 608}}) {
      const Rule& rule = rules[i % rules.size()];
      const int first = 16 + 7 * (i % 3), rows = s.h - 2 * first - 5;
      SCOPED_TRACE("k=" + std::to_string(k) + " rule " + rule.to_string() + " " + std::to_string(s.w) + "x" +
                   std::to_string(s.h) + " rows " + std::to_string(first) + "+" + std::to_string(rows));
      const Lattice a = Lattice::random(s.w, s.h, 0.3, 300 + i), b = Lattice::random(s.w, s.h, 0.25, 400 + i);
      const Lattice marker = Lattice::random(s.w, s.h, 0.5, 500 + i);  // what `out` held before
      ++i;
      Lattice want_a = a, want_b = b;
      ls::cpu_run(want_a, rule, k);
      ls::cpu_run(want_b, rule, k);
      const std::size_t bytes = a.words().size() * 4;
      DeviceBuffer ia(bytes), oa(bytes), ib(bytes), ob(bytes);
      upload_bits(a, ia.get(), stream);
      upload_bits(b, ib.get(), stream);
      upload_bits(marker, oa.get(), stream);
      ls::kernels::launch_step_bitpacked_rows(ia.as<std::uint32_t>(), oa.as<std::uint32_t>(), s.w, s.h, first,
                                              rows, masks(rule), k, stream);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      const Lattice got = download_bits(oa.get(), s.w, s.h);
      for (int y = 0; y < s.h; ++y) {
        const Lattice& expect = y >= first && y < first + rows ? want_a : marker;
        for (int x = 0; x < s.w; ++x)
          ASSERT_EQ(got.get(x, y), expect.get(x, y)) << "cell (" << x << ", " << y << ")";
      }
      ls::kernels::launch_step_bitpacked_pair(ia.as<std::uint32_t>(), oa.as<std::uint32_t>(),
                                              ib.as<std::uint32_t>(), ob.as<std::uint32_t>(), s.w, s.h,
                                              masks(rule), k, stream);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      ASSERT_TRUE(download_bits(oa.get(), s.w, s.h) == want_a);
      ASSERT_TRUE(download_bits(ob.get(), s.w, s.h) == want_b);
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
}

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

/// Pretends the device gives at most `bytes` of shared memory per block while it lives.
class SmemLimit {
 public:
  explicit SmemLimit(int bytes) { ls::kernels::set_iterate_smem_limit_for_testing(bytes); }
  ~SmemLimit() { ls::kernels::set_iterate_smem_limit_for_testing(0); }
  SmemLimit(const SmemLimit&) = delete;
  SmemLimit& operator=(const SmemLimit&) = delete;
};

// `iterate` on GPUs with less shared memory per block than Hopper's (Turing 64 KB, Ampere and Ada
// desktop cards 99 KB, 48 KB without opt-in) takes smaller tiles and still equals the CPU
// reference at every k it serves; deeper k are refused with an InputError, not a launch failure.
TEST(IterateOnSmallerGpus, SmallerTilesEqualTheCpuReferenceAndDeeperKIsRefused) {
  SKIP_WITHOUT_DEVICE();
  struct Gpu {
    int bytes;
    int depth;
  };
  const Gpu gpus[] = {{48 * 1024, 16}, {64 * 1024, 48}, {99 * 1024, 64}};
  const Rule rules[] = {Rule::life(), {(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)}};
  const Size sizes[] = {{480, 224}, {256, 128}, {1024, 64}};
  for (const Gpu& gpu : gpus) {
    SmemLimit limit(gpu.bytes);
    EXPECT_EQ(ls::kernels::iterate_max_depth(), gpu.depth) << gpu.bytes << " bytes";
    for (const int k : {1, 5, 16, 17, 33, 48, 64}) {
      if (k > gpu.depth) {
        EXPECT_THROW(ls::kernels::launch_step_iterate(nullptr, nullptr, 256, 128, {8, 12}, k, nullptr),
                     ls::InputError)
            << gpu.bytes << " bytes, k=" << k;
        continue;
      }
      for (const Size& s : sizes) {
        for (const Rule& rule : rules) {
          SCOPED_TRACE(std::to_string(gpu.bytes) + " bytes, k=" + std::to_string(k) + ", " +
                       rule.to_string() + " " + std::to_string(s.w) + "x" + std::to_string(s.h));
          const Lattice start = Lattice::random(s.w, s.h, 0.35, static_cast<std::uint64_t>(k) * 977 + s.w);
          const long long generations = 2 * k + 3;
          const Lattice got = run_on_device(Variant::iterate, start, rule, generations, k);
          Lattice want = start;
          ls::cpu_run(want, rule, generations);
          ASSERT_TRUE(got == want) << first_difference(got, want);
        }
      }
    }
  }
}

// Bad generations-per-launch values are refused, not run.
TEST(Layouts, GenerationsPerLaunchOutsideOneTo64AreRefused) {
  EXPECT_THROW(ls::kernels::launch_step_iterate(nullptr, nullptr, 32, 32, {8, 12}, 0, nullptr),
               ls::InputError);
  EXPECT_THROW(ls::kernels::launch_step_bitpacked(nullptr, nullptr, 32, 32, {8, 12}, 65, nullptr),
               ls::InputError);
}

}  // namespace
