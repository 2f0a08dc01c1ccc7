// test_step_bitpacked.cpp — the bitpacked launcher beyond its model's choice: every block shape
// (set_bitpacked_shape) equals the CPU reference, shapes outside the set are refused, and row ranges
// and pair launches equal the CPU reference.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"

#include "kernel_test.hpp"

namespace ls::kernel_tests {
namespace {

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

// A forced shape whose bands would not fit a grid (65535 in y) gives way to one that does: the
// smallest tile at k = 24 holds 16 output rows, so a lattice 1048576 tall would need 65536 bands.
TEST(BitpackedShapes, AForcedShapeTooShortForATallLatticeGivesWay) {
  SKIP_WITHOUT_DEVICE();
  struct ModelChooses {
    ~ModelChooses() { ls::kernels::set_bitpacked_shape(-1); }
  } model_chooses;
  const ls::kernels::BitpackedShape small = ls::kernels::bitpacked_shape(0);
  constexpr int kK = 24, kHeight = 1048576;
  ASSERT_EQ(small.rows_per_warp * small.warps - 2 * kK, 16);
  ls::kernels::set_bitpacked_shape(0);
  const ls::kernels::BitpackedPlan plan = ls::kernels::bitpacked_launch_plan(64, kHeight, kK);
  EXPECT_GT(plan.tile_rows, small.rows_per_warp * small.warps);
  Lattice want = Lattice::random(64, kHeight, 0.3, 77);
  const Lattice got = run_on_device(Variant::bitpacked, want, Rule::life(), kK, kK);
  ls::cpu_run(want, Rule::life(), kK);
  EXPECT_TRUE(got == want) << first_difference(got, want);
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

}  // namespace
}  // namespace ls::kernel_tests
