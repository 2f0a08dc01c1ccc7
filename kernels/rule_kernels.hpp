// rule_kernels.hpp — the bitpacked kernels compiled for one rule at run time (private to kernels/):
// a process-wide cache per (device, rule, block shape) that one worker thread fills (NVRTC compile,
// cudaLibraryLoadData, a check of its occupancy), and that the bitpacked launcher asks without
// waiting. The public switches and waits are in life_kernels.hpp.
#pragma once

#include "kernels/bitpacked_shapes.hpp"
#include "kernels/rule_masks.hpp"

namespace ls::kernels::detail {

/// The kernel compiled for `rule` at block shape `shape` (an index into kShapes), loaded on
/// `device` (a cudaKernel_t as cudaLaunchKernel takes it), or null: until it is ready, and for
/// good where it cannot be made (no libnvrtc, a failed compile or load, fewer resident blocks per
/// multiprocessor than `general_blocks`, the general kernel's figure that the launch plan
/// assumed), and while rule kernels are switched off. The first call for a kernel asks the worker
/// for it, ahead of kernels only waited for; never waits for a compile.
const void* rule_kernel(int device, RuleMasks rule, int shape, int general_blocks);

/// Asks for the kernels of `rule` at every shape whose bit is set in `shapes` on `device`
/// (`general_blocks`: kShapeCount figures, as above) and waits up to `timeout_s` seconds for each
/// to be ready or to have failed. True when every one is ready.
bool wait_rule_kernels(int device, RuleMasks rule, unsigned shapes, const int* general_blocks,
                       double timeout_s);

}  // namespace ls::kernels::detail
