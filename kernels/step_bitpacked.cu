// step_bitpacked.cu — the `bitpacked` variant's launcher: one bit per cell, k generations per
// launch (1..64), the kernel life_step_bits of step_bitpacked.cuh at the block shape a model of
// the launch picks. B3/S23 runs a kernel of its own; any other rule a kernel compiled for it at run
// time (rule_kernels.hpp) once that is ready on the device, and until then the general kernel,
// which reads the rule's masks at run time.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

#include "kernels/bitpacked_shapes.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/device_slot.hpp"
#include "kernels/life_device.cuh"
#include "kernels/life_kernels.hpp"
#include "kernels/rule_kernels.hpp"
#include "kernels/step_bitpacked.cuh"

namespace ls::kernels {
namespace {

using detail::BitRule;
using detail::BitsPair;
using detail::kBaseShapes;
using detail::kShapeCount;
using detail::kShapes;

/// The smallest tile (shape 0) wherever it needs at most this many blocks per multiprocessor.
constexpr int kSmallTilesPerSm = 3;
/// A filling shape replaces the base set's choice only where the model gives it this much less time:
/// the base shapes' choices are measured (bench/NOTES.md); a model's 1% is within its error.
constexpr double kFillingGain = 0.98;

/// The most blocks a grid holds in y (its bands).
constexpr long long kMaxGridY = 65535;

/// The shape set_bitpacked_shape asked for; -1: the model chooses.
std::atomic<int> set_shape{-1};

int shape_setting() { return set_shape.load(std::memory_order_relaxed); }

template <bool kLife, int kShape>
constexpr auto kernel_for() {
  return detail::life_step_bits<detail::RuntimeRule<kLife>, kShapes[kShape].rows_per_warp,
                                kShapes[kShape].warps>;
}

template <bool kLife, std::size_t... I>
constexpr auto kernel_table(std::index_sequence<I...>) {
  using Kernel = void (*)(BitsPair, int, int, int, int, BitRule, int, int);
  return std::array<Kernel, sizeof...(I)>{kernel_for<kLife, static_cast<int>(I)>()...};
}

struct LaunchPlan {
  int shape;
  dim3 grid;
  double cost;  // the model's time for the launch (tile rows per multiprocessor over its busy share)
};

/// Blocks each shape keeps resident per multiprocessor, and the multiprocessor count (read once
/// per device: a split lattice's bands launch on every GPU of the host, which may differ).
struct Occupancy {
  int sms = 0;
  int blocks[kShapeCount] = {};
};

const Occupancy& occupancy() {
  static std::once_flag once[detail::kMaxDevices];
  static Occupancy occ[detail::kMaxDevices];
  const int slot = detail::current_device_slot();
  std::call_once(once[slot], [slot] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    Occupancy& o = occ[slot];
    CUDA_CHECK(cudaDeviceGetAttribute(&o.sms, cudaDevAttrMultiProcessorCount, device));
    const auto table = kernel_table<true>(std::make_index_sequence<kShapeCount>());
    for (int i = 0; i < kShapeCount; ++i) {
      CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.blocks[i], table[i], 32 * kShapes[i].warps, 0));
      if (o.blocks[i] < 1) o.blocks[i] = 1;
    }
  });
  return occ[slot];
}

/// Picks the shape with the least modelled time. Per multiprocessor, time ~ (blocks it runs, a
/// whole number) x tile rows, divided by how busy its resident warps keep it (fewer than ~24
/// warps leave the logic units idle). Tall tiles waste fewer rows on halos; small ones spread a
/// small lattice over more multiprocessors. (Checked against every shape on an H200, NOTES.md.)
/// `forced` >= 0 restricts the choice to that shape where it fits k (set_bitpacked_shape).
LaunchPlan plan(int width, int height, int k, int halo_words, int forced, int side_by_side) {
  Occupancy occ = occupancy();
  // Kernels launched side by side share the multiprocessors: plan for this one's share, so that
  // 64 small lattices in one frame graph take the tiles that waste least (taller, fewer), not the
  // smallest tiles that make one lattice alone fastest (H100, 64 x 1024² k = 16 in one graph:
  // 1.2e12 cell updates/s with the smallest tiles, 1.1e13 with 32 x 12-warp ones; NOTES.md).
  occ.sms = std::max(1, occ.sms / std::max(1, side_by_side));
  const int words_per_row = width / 32;
  const int out_words = 32 - 2 * halo_words;
  const long long strips = words_per_row >= out_words ? (words_per_row + out_words - 1) / out_words : 1;
  // The least modelled time among the base shapes and among the filling ones, ties to the taller.
  LaunchPlan least[2] = {{-1, dim3(), 0.0}, {-1, dim3(), 0.0}};
  for (int i = 0; i < kShapeCount; ++i) {
    const int tile_rows = kShapes[i].rows_per_warp * kShapes[i].warps;
    const int out_rows = tile_rows - 2 * k;
    if (out_rows < 16 || (forced >= 0 && i != forced)) continue;  // every k <= 64 fits {32, 16}
    const long long bands = height >= out_rows ? (height + out_rows - 1) / out_rows : 1;
    if (bands > kMaxGridY) continue;  // a forced short tile on a tall lattice: the launch could not start
    const long long per_sm = (strips * bands + occ.sms - 1) / occ.sms;
    const double warps = static_cast<double>(std::min<long long>(per_sm, occ.blocks[i]) * kShapes[i].warps);
    const double cost = static_cast<double>(per_sm * tile_rows) / std::min(1.0, warps / 24.0);
    // Rounds quantize a kernel that runs alone; beside others (a frame graph's branches) the
    // multiprocessors a round leaves idle take the other kernels' blocks: base shapes only.
    if (i >= kBaseShapes && forced < 0 && side_by_side > 1) continue;
    LaunchPlan& b = least[i < kBaseShapes ? 0 : 1];
    if (b.shape < 0 || cost < b.cost ||
        (cost == b.cost && tile_rows > kShapes[b.shape].rows_per_warp * kShapes[b.shape].warps))
      b = {i, dim3(static_cast<unsigned>(strips), static_cast<unsigned>(bands)), cost};
  }
  const bool filling =
      least[1].shape >= 0 && (least[0].shape < 0 || least[1].cost < kFillingGain * least[0].cost);
  LaunchPlan best = filling ? least[1] : least[0];
  if (best.shape < 0) return plan(width, height, k, halo_words, -1, side_by_side);
  // A lattice too small to fill the GPU with more than a few of the smallest tiles per
  // multiprocessor (1024², 2048², a split band's 64-row edge windows) runs them side by side, up to
  // 8 resident per multiprocessor: the kernel takes a few small blocks' time, where the model's
  // busy factor counts them as idle and picks taller tiles. Measured on one stream (H200,
  // bench/NOTES.md): 1.96x at 1024² k = 16 and 1.24x at k = 1 (one block per multiprocessor); at
  // k = 16 2048² 1.47x (1.45 blocks per SM), 65536x64 1.47x (1.05), 2048x4096 1.17x (2.9),
  // 131072x64 1.00x (2.1), 4096² k = 1 1.08x (2.5); beyond 3 per SM it loses (4096², k = 16, 4.85:
  // 0.83x). Taller tiles (k > 24) hold 32 rows per lane, which a lone warp gains nothing on.
  const int small_rows = kShapes[0].rows_per_warp * kShapes[0].warps - 2 * k;
  if (forced < 0 && small_rows >= 16) {
    const long long bands = height >= small_rows ? (height + small_rows - 1) / small_rows : 1;
    // Beside other kernels (a frame graph's branches) only one per multiprocessor, as measured
    // there (64 x 1024² in one graph: taller tiles, NOTES.md).
    const int per_sm = side_by_side > 1 ? 1 : kSmallTilesPerSm;
    if (strips * bands <= static_cast<long long>(per_sm) * occ.sms)
      best = {0, dim3(static_cast<unsigned>(strips), static_cast<unsigned>(bands)),
              kShapes[0].rows_per_warp * kShapes[0].warps * 6.0};
  }
  return best;
}

template <bool kLife>
void launch_bits(const BitsPair& pair, int lattices, int width, int height, int first_row, int rows,
                 RuleMasks masks, int k, cudaStream_t stream, int side_by_side) {
  static constexpr auto table = kernel_table<kLife>(std::make_index_sequence<kShapeCount>());
  const int halo_words = k > 32 ? 2 : 1;  // a word of halo holds 32 generations of garbage
  const LaunchPlan p = plan(width, rows, k, halo_words, shape_setting(), side_by_side);
  const dim3 grid(p.grid.x, p.grid.y, static_cast<unsigned>(lattices));
  BitRule rule = detail::make_bit_rule(masks);  // the general kernel's argument; ignored by the others
  if constexpr (!kLife) {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    if (const void* fixed = detail::rule_kernel(device, masks, p.shape, occupancy().blocks[p.shape])) {
      BitsPair pair_arg = pair;
      int words_per_row = width / 32, halo_arg = halo_words;
      void* args[] = {&pair_arg, &words_per_row, &height, &first_row, &rows, &rule, &k, &halo_arg};
      // Its error is also the thread's last error: read (and cleared) by the one check below.
      static_cast<void>(cudaLaunchKernel(fixed, grid, dim3(32 * kShapes[p.shape].warps), args, 0, stream));
      CUDA_CHECK_LAUNCH();
      return;
    }
  }
  table[p.shape]<<<grid, 32 * kShapes[p.shape].warps, 0, stream>>>(pair, width / 32, height, first_row, rows,
                                                                   rule, k, halo_words);
  CUDA_CHECK_LAUNCH();
}

void launch_any(const BitsPair& pair, int lattices, int width, int height, int first_row, int rows,
                RuleMasks rule, int k, cudaStream_t stream, int side_by_side) {
  if (k < 1 || k > 64) throw InputError("generations per launch must be 1..64, got " + std::to_string(k));
  if (first_row < 0 || rows < 1 || first_row + rows > height)
    throw InputError("bitpacked rows " + std::to_string(first_row) + "+" + std::to_string(rows) +
                     " outside a lattice of " + std::to_string(height));
  if (detail::is_life(rule))
    launch_bits<true>(pair, lattices, width, height, first_row, rows, rule, k, stream, side_by_side);
  else
    launch_bits<false>(pair, lattices, width, height, first_row, rows, rule, k, stream, side_by_side);
}

}  // namespace

BitpackedPlan bitpacked_launch_plan(int width, int height, int k) {
  const LaunchPlan p = plan(width, height, k, k > 32 ? 2 : 1, shape_setting(), 1);
  const long long blocks = static_cast<long long>(p.grid.x) * p.grid.y;
  const int sms = occupancy().sms;
  return {kShapes[p.shape].rows_per_warp * kShapes[p.shape].warps, kShapes[p.shape].warps, blocks,
          (blocks + sms - 1) / sms, p.cost};
}

bool wait_rule_kernels(RuleMasks rule, double timeout_s) {
  if (detail::is_life(rule)) return true;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  return detail::wait_rule_kernels(device, rule, (1u << kShapeCount) - 1, occupancy().blocks, timeout_s);
}

bool wait_rule_kernels(RuleMasks rule, int width, int height, int k, double timeout_s) {
  if (detail::is_life(rule)) return true;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const LaunchPlan p = plan(width, height, k, k > 32 ? 2 : 1, shape_setting(), 1);
  return detail::wait_rule_kernels(device, rule, 1u << p.shape, occupancy().blocks, timeout_s);
}

int bitpacked_shape_count() { return kShapeCount; }

void set_bitpacked_shape(int shape) {
  if (shape < -1 || shape >= kShapeCount)
    throw InputError("no bitpacked block shape " + std::to_string(shape) + " (0.." +
                     std::to_string(kShapeCount - 1) + ", or -1: the launcher's model chooses)");
  set_shape.store(shape, std::memory_order_relaxed);
}

BitpackedShape bitpacked_shape(int shape) {
  if (shape < 0 || shape >= kShapeCount)
    throw InputError("no bitpacked block shape " + std::to_string(shape));
  return {kShapes[shape].rows_per_warp, kShapes[shape].warps};
}

void launch_step_bitpacked(const std::uint32_t* in, std::uint32_t* out, int width, int height, RuleMasks rule,
                           int k, cudaStream_t stream, int side_by_side) {
  launch_any(BitsPair{{in, in}, {out, out}}, 1, width, height, 0, height, rule, k, stream, side_by_side);
}

void launch_step_bitpacked_rows(const std::uint32_t* in, std::uint32_t* out, int width, int height,
                                int first_row, int rows, RuleMasks rule, int k, cudaStream_t stream) {
  launch_any(BitsPair{{in, in}, {out, out}}, 1, width, height, first_row, rows, rule, k, stream, 1);
}

void launch_step_bitpacked_pair(const std::uint32_t* in_a, std::uint32_t* out_a, const std::uint32_t* in_b,
                                std::uint32_t* out_b, int width, int height, RuleMasks rule, int k,
                                cudaStream_t stream) {
  launch_any(BitsPair{{in_a, in_b}, {out_a, out_b}}, 2, width, height, 0, height, rule, k, stream, 1);
}

}  // namespace ls::kernels
