// life_kernels.hpp — the plain host-side interface to the device code in kernels/*.cu.
//
// Host code (src/sim, src/render) includes this header only; every <<<>>> lives in a launch_*
// function in a .cu file. Every launch_* checks cudaGetLastError() after its launch and throws
// ls::DeviceError (via CUDA_CHECK) on failure. All work is enqueued on `stream`; nothing blocks.
//
// Layouts (all row-major, toroidal, W and H multiples of 32):
//   int32_cells  one int32 per cell (0/1)          — `naive`
//   byte_cells   one uint8 per cell (0/1)           — `global`, `shared`, `iterate`
//   bit_cells    one bit per cell, W/32 uint32 words per row, bit i of word j = cell 32j+i
//                (the host Lattice's layout)        — `bitpacked`
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/rule_masks.hpp"

namespace ls::kernels {

enum class Layout { int32_cells, byte_cells, bit_cells };

/// Bytes one W x H lattice takes in `layout`.
std::size_t layout_bytes(Layout layout, int width, int height);

// One generation per launch, in -> out (out != in).
void launch_step_naive(const std::int32_t* in, std::int32_t* out, int width, int height, RuleMasks rule,
                       cudaStream_t stream);
void launch_step_global(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                        cudaStream_t stream);
void launch_step_shared(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                        cudaStream_t stream);
// k generations (1..64) in one launch, in -> out; the result equals k single steps exactly.
void launch_step_iterate(const std::uint8_t* in, std::uint8_t* out, int width, int height, RuleMasks rule,
                         int k, cudaStream_t stream);
/// `side_by_side`: how many such kernels the caller releases at once (the branches of a frame
/// graph): the launch plans its tiles for that share of the multiprocessors.
void launch_step_bitpacked(const std::uint32_t* in, std::uint32_t* out, int width, int height, RuleMasks rule,
                           int k, cudaStream_t stream, int side_by_side = 1);
/// Steps only rows [first_row, first_row + rows) of a `height`-row torus into `out` (the other
/// rows of `out` are not written): a split band's own rows, exact from its halos, while the
/// exchange writes the halo rows of the same buffer.
void launch_step_bitpacked_rows(const std::uint32_t* in, std::uint32_t* out, int width, int height,
                                int first_row, int rows, RuleMasks rule, int k, cudaStream_t stream);
/// Two lattices of one size in one launch (a split band's two edge windows: one launch's latency).
void launch_step_bitpacked_pair(const std::uint32_t* in_a, std::uint32_t* out_a, const std::uint32_t* in_b,
                                std::uint32_t* out_b, int width, int height, RuleMasks rule, int k,
                                cudaStream_t stream);
/// The blocks a bitpacked launch of this size runs on the current device (one stream alone): its
/// tile (rows, warps), how many, and the rounds they take (blocks per multiprocessor, rounded up).
/// A lattice whose last few blocks spill into one more round pays that round (split bands choose
/// their interior and their halos' depth by it). `cost` is the launcher's modelled time: the tile
/// rows each multiprocessor steps over the share of its logic units its resident warps keep busy,
/// comparable between plans of one width and k on one device; a lattice small enough for the
/// smallest tiles side by side (a few per multiprocessor) costs the same whatever its height.
struct BitpackedPlan {
  int tile_rows = 0;
  int warps = 0;
  long long blocks = 0;
  long long rounds = 0;
  double cost = 0;
};
BitpackedPlan bitpacked_launch_plan(int width, int height, int k);
/// The block shapes the bitpacked launcher chooses from (rows per lane, warps per block): how many,
/// and one by index (0..bitpacked_shape_count() - 1; throws InputError for any other).
struct BitpackedShape {
  int rows_per_warp = 0;
  int warps = 0;
};
int bitpacked_shape_count();
BitpackedShape bitpacked_shape(int shape);
/// The block shape every later bitpacked launch of this process runs (a tuning that a benchmark
/// compares, and tests reach every shape by): 0..bitpacked_shape_count() - 1 runs that shape
/// wherever it fits k (a tile keeps at least 16 rows besides its 2k halo rows; where it does not,
/// the model's choice runs); -1, the default, lets the launcher's model choose by lattice size and
/// k. Throws InputError for any other value and keeps the setting. bitpacked_launch_plan follows
/// it too.
void set_bitpacked_shape(int shape);

// Bitpacked kernels compiled for one rule. B3/S23 has a kernel of its own; any other rule first
// runs a general kernel that evaluates the rule's masks at run time (about 2.5 times B3/S23's
// logic per cell). Meanwhile a worker thread compiles the same kernel with that rule's masks as
// constants (NVRTC; libnvrtc is opened at run time) for each block shape and device the launcher
// asks for, and later launches of that rule there run it. Without libnvrtc the general kernel runs
// throughout. A CUDA graph keeps the kernel it captured.
/// Waits up to `timeout_s` seconds until the kernels compiled for `rule` are loaded on the current
/// device, asking for them first: every block shape, or (width, height, k) the one a launch of that
/// lattice alone takes (bitpacked_launch_plan). True when they are, and at once for B3/S23; false
/// when they cannot be (rule_kernels_unavailable() says why), are switched off, or time ran out.
bool wait_rule_kernels(RuleMasks rule, double timeout_s);
bool wait_rule_kernels(RuleMasks rule, int width, int height, int k, double timeout_s);
/// Whether later bitpacked launches of rules other than B3/S23 may run kernels compiled for their
/// rule (on by default). Off, they run the general kernel and nothing more is asked for: tests
/// compare the two by it.
void set_rule_kernels_enabled(bool on);
/// Why a rule's own kernels may not run, in one line (libnvrtc absent, switched off, the latest
/// kernel that could not be compiled or loaded), or empty. Opens libnvrtc on its first call.
std::string rule_kernels_unavailable();
/// Counts the rule kernels made ready and the switch's changes: a CUDA graph captured at an older
/// count may hold the general kernel where a rule's own kernel is ready now.
std::uint64_t rule_kernels_serial();
/// Stops the rule-kernel worker for good, after the compile under way (queued ones are dropped):
/// a program calls it on leaving main, from that thread, once no other thread launches kernels, so
/// that no compile runs while the process exits. Later launches of other rules run the general
/// kernel. Does nothing where no kernel was asked for.
void halt_rule_kernels();

/// Writes the GPU's global timer (nanoseconds, %globaltimer) to `where` (device memory, or pinned
/// host memory, which the device reaches directly) when the stream gets there: a timestamp that a
/// CUDA graph carries as a cheap kernel node where an event-record node would cost the host more.
void launch_stamp(std::uint64_t* where, cudaStream_t stream);
/// An empty kernel: one node that a frame graph's branches fork from or join into, so that the
/// graph has one root and one sink (its launch then costs the host less, bench/NOTES.md).
void launch_join(cudaStream_t stream);

/// The random fill of splitmix.hpp, written straight into `dst` in `layout`.
void launch_random_fill(Layout layout, void* dst, int width, int height, std::uint64_t threshold, bool all,
                        std::uint64_t seed, cudaStream_t stream);
/// Rows first_row..first_row+rows-1 of the random fill of a lattice `width` wide, written to `dst`
/// (which holds just those rows): a band of a split lattice gets exactly the cells the whole
/// lattice's fill gives there.
void launch_random_fill_rows(Layout layout, void* dst, int width, int rows, int first_row,
                             std::uint64_t threshold, bool all, std::uint64_t seed, cudaStream_t stream);
/// Converts a lattice between layouts (src and dst distinct buffers; same layout = copy).
void launch_convert(Layout from, const void* src, Layout to, void* dst, int width, int height,
                    cudaStream_t stream);
/// Sets one cell (x, y already wrapped into range).
void launch_set_cell(Layout layout, void* cells, int width, int height, int x, int y, bool alive,
                     cudaStream_t stream);

/// Population and state hash of a lattice, accumulated on the device into `result` (device
/// memory, two uint64: [0] population, [1] hash including the W x H base term). `result` is
/// zeroed by the launch itself (memsetAsync on `stream`), so one call gives one answer.
void launch_summary(Layout layout, const void* cells, int width, int height, std::uint64_t* result,
                    cudaStream_t stream);

/// launch_summary adding onto `result` instead of zeroing it first: the caller zeroes it (a frame
/// graph zeroes all its summaries' results with one launch_zero_words, not a memset node each).
void launch_summary_onto(Layout layout, const void* cells, int width, int height, std::uint64_t* result,
                         cudaStream_t stream);

/// Zeroes words[0..n) by one small kernel: a frame graph zeroes its gathered summaries with it, as
/// a memset node there cost the host ~60 us at each launch (bench/NOTES.md).
void launch_zero_words(std::uint64_t* words, std::size_t n, cudaStream_t stream);

/// The summary of `rows` rows at `cells` that are rows first_row.. of a larger lattice: population
/// and the hash terms of their live cells at their lattice coordinates, plus `base` (the W x H base
/// term for one part of a split lattice, 0 for the others). The parts' results summed mod 2^64
/// equal launch_summary of the whole lattice (every term is a sum over cells).
void launch_summary_rows(Layout layout, const void* cells, int width, int rows, int first_row,
                         std::uint64_t base, std::uint64_t* result, cudaStream_t stream);

/// How a tile samples its lattice: texture pixel (px, py) covers lattice cells starting at
/// (origin_x + px * cells_per_pixel, origin_y + py * cells_per_pixel) (wrapping on the torus).
/// cells_per_pixel < 1 zooms in (each cell is 1/cells_per_pixel pixels wide).
struct TileView {
  double origin_x = 0;
  double origin_y = 0;
  double cells_per_pixel = 1;
  bool grid_lines = false;      // zoomed in far enough: draw thin lines between cells
  bool age_shading = false;     // pixels not fully live fade from the surface's current colour
                                // towards dead (the surface is read: it must hold the last frame)
  std::uint32_t live_rgba = 0;  // colours packed as 0xAABBGGRR (RGBA8 in memory order)
  std::uint32_t dead_rgba = 0;
  std::uint32_t grid_rgba = 0;
  int surface_x = 0;  // where pixel (0, 0) goes in the surface (a tile's place in a shared one)
  int surface_y = 0;
};

/// Renders a tile into a CUDA surface bound to an RGBA8 GL texture of tex_width x tex_height.
/// Zoomed out, a pixel shades by the fraction of live cells under it; zoomed in, crisp cells.
/// With view.age_shading, a pixel that is not fully live keeps 13/16 of its previous colour's
/// distance from dead (integer arithmetic, as render_tile_host), unless its colour now is farther.
void launch_render_tile(Layout layout, const void* cells, int width, int height, cudaSurfaceObject_t surface,
                        int tex_width, int tex_height, const TileView& view, cudaStream_t stream);

/// A split lattice's tile, band by band (each band on its own GPU): for every pixel of the tile, the
/// live samples render_tile would count that lie on lattice rows [first_row, first_row + rows),
/// reading only those rows (`band_rows` points at row first_row), into counts[py * tex_width + px].
void launch_count_tile_band(Layout layout, const void* band_rows, int width, int height, int first_row,
                            int rows, std::uint32_t* counts, int tex_width, int tex_height,
                            const TileView& view, cudaStream_t stream);
/// Writes the tile from `bands` count buffers (consecutive, tex_width x tex_height each) of bands
/// that cover the lattice's rows once: exactly the pixels launch_render_tile writes.
void launch_shade_tile(const std::uint32_t* counts, int bands, int width, int height,
                       cudaSurfaceObject_t surface, int tex_width, int tex_height, const TileView& view,
                       cudaStream_t stream);

}  // namespace ls::kernels
