// kernel_costs.hpp — what one generation of each kernel variant costs per cell, and the roofline
// those costs give on a GPU: the memory roof (the lattice's compulsory bytes at the GPU's measured
// copy bandwidth) and the issue roof (the kernel's ALU-pipe instructions at the GPU's integer
// throughput). The table describes kernels/; it is here so that every program and the tests read
// it without CUDA. Whoever changes a kernel measures it again and updates its row (bench/NOTES.md,
// "Instruction counts for the roofline", says how).
#pragma once

#include <string>

#include "core/instance_spec.hpp"
#include "core/rule.hpp"

namespace ls {

/// One variant's cost per cell and generation.
struct KernelCost {
  /// The lattice read and written once per launch: the bytes one launch must move per cell.
  double bytes_per_cell_per_launch;
  /// ALU-pipe instructions (per thread, so one per lane) per cell and generation, as executed: the
  /// B3/S23 kernel, and the kernels other rules run (for `bitpacked`, a kernel compiled for the
  /// rule, its network's cost measured on B36/S23). Counted at 16384², k = 16 for the
  /// kernels that iterate (what a launch recomputes in its halo included), k = 1 for the others.
  double alu_per_cell_life;
  double alu_per_cell_other;
};

/// The table: ncu's smsp__inst_executed_pipe_alu.sum x 32 / (cells x generations) of one launch
/// on an H100 (sm_90, CUDA 13.0).
KernelCost kernel_cost(Variant v);

/// ALU-pipe lanes per SM and clock for 32-bit logic, shifts and integer adds (LOP3, SHF, IADD3):
/// 64 on every GPU the build targets (Turing to Hopper).
inline constexpr int kAluLanesPerSm = 64;

/// What the roofline needs of a GPU: its SMs and clock (the issue roof) and its measured
/// device-to-device copy bandwidth (bytes read plus written; the memory roof).
struct GpuLimits {
  int sms = 0;
  double sm_clock_hz = 0;
  double copy_gbps = 0;  // 0: not measured
  double alu_ops_per_s() const { return static_cast<double>(sms) * kAluLanesPerSm * sm_clock_hz; }
};

/// The wall that binds an instance: the lower of its two roofs.
enum class RoofWall { memory, issue };

/// One instance against its GPU's roofs (cell updates per second).
struct RooflinePoint {
  double cups = 0;         // measured
  double memory_roof = 0;  // copy bandwidth / (bytes per launch / generations per launch)
  double issue_roof = 0;   // ALU ops/s / ALU instructions per cell and generation
  double alu_per_cell = 0;
  double bytes_per_cell = 0;  // per generation: a launch's bytes shared by its generations
  RoofWall wall = RoofWall::memory;
  double roof() const { return wall == RoofWall::memory ? memory_roof : issue_roof; }
  /// The measured rate over the binding roof (0..1 where the model holds).
  double fraction() const { return roof() > 0 ? cups / roof() : 0; }
};

/// The point of an instance of `variant` under `rule` stepping `generations_per_launch` per launch
/// at `cups` on a GPU with `limits`. A memory roof needs a measured bandwidth (0 without one).
RooflinePoint roofline_point(Variant variant, const Rule& rule, double generations_per_launch, double cups,
                             const GpuLimits& limits);

const char* wall_name(RoofWall wall);

}  // namespace ls
