// rule_program.hpp — the NVRTC program that compiles the bitpacked kernel for one rule (private to
// kernels/; rule_kernels.cpp runs it off the frame loop): its embedded sources, libnvrtc opened at
// run time, and one compile. Plain C++: no CUDA runtime and no device, so it runs anywhere libnvrtc
// does (the tests compile for sm_90 on machines without a GPU).
#pragma once

#include <string>
#include <vector>

#include "kernels/rule_masks.hpp"

namespace ls::kernels::detail {

/// One header of the program, by the name its #include lines give, with its text as it was in
/// the source tree at build time (kernels/embed_sources.cmake writes them into the build tree).
struct EmbeddedFile {
  const char* name;
  const char* text;
};
extern const EmbeddedFile kRuleProgramHeaders[];
extern const int kRuleProgramHeaderCount;

/// The program's own source: it includes kernels/step_bitpacked.cuh, the header nvcc compiles too.
const char* rule_program_source();

/// The name expression of life_step_bits compiled for `rule` at block shape `shape` (an index
/// into kShapes), as nvrtcAddNameExpression takes it.
std::string rule_kernel_name_expression(RuleMasks rule, int shape);

/// Why libnvrtc cannot be used in this process (tried once: "libnvrtc.so.13", then "libnvrtc.so"),
/// or empty where it can.
std::string nvrtc_unavailable();

/// Compiles an empty kernel, ignoring any failure: NVRTC makes most of its process-wide state in
/// its first compile and registers it for destruction at exit then (more in its first compile for
/// each architecture). An object whose destructor stops a thread that compiles must call this
/// before it is made, so that that state outlives it; rule_kernels.cpp says how the rest is kept.
void warm_up_nvrtc();

/// The code of one kernel compiled for one rule and shape.
struct RuleKernelImage {
  std::vector<char> code;   // a cubin, or NUL-terminated PTX for the driver to compile
  bool ptx = false;         // NVRTC does not know the device's architecture: PTX of an older one
  int target = 0;           // the architecture compiled for (sm_ or compute_, major * 10 + minor)
  std::string kernel_name;  // its lowered (mangled) name, for cudaLibraryGetKernel
  double seconds = 0;       // how long NVRTC took
};

/// Compiles life_step_bits for `rule` at block shape `shape` for compute capability `arch`
/// (major * 10 + minor): a cubin where this NVRTC knows sm_<arch>, else PTX for the newest
/// architecture it knows below that. Returns false with a one-line reason where it cannot
/// (libnvrtc absent, an architecture older than any NVRTC knows, a compile error).
bool compile_rule_kernel(RuleMasks rule, int shape, int arch, RuleKernelImage& out, std::string& why);

}  // namespace ls::kernels::detail
