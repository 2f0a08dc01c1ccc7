// rule_program.cpp — implements rule_program.hpp: libnvrtc opened with dlopen (the program runs
// without it: the general kernel serves every rule), one program per rule and block shape.
#include "kernels/rule_program.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/dl_symbol.hpp"
#include "kernels/bitpacked_shapes.hpp"

namespace ls::kernels::detail {

namespace {

/// The entry points of libnvrtc this file calls, typed by nvrtc.h's own declarations.
struct Nvrtc {
  void* handle = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcGetNumSupportedArchs) arch_count = nullptr;
  decltype(&nvrtcGetSupportedArchs) archs = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcAddNameExpression) add_name = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetLoweredName) lowered_name = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  std::vector<int> supported;  // architectures, ascending
  std::string why;             // empty: usable
};

// Opened once per process and kept: NVRTC may hold threads and caches of its own until exit.
const Nvrtc& nvrtc() {
  static const Nvrtc api = [] {
    Nvrtc a;
    a.handle = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!a.handle) a.handle = dlopen("libnvrtc.so", RTLD_NOW | RTLD_LOCAL);
    if (!a.handle) {
      a.why =
          "NVRTC is not installed (libnvrtc.so.13, in the CUDA Toolkit's lib folder, not on the library "
          "path): every rule but B3/S23 runs the general bitpacked kernel";
      return a;
    }
    if (!resolve_symbol(a.handle, a.error_string, "nvrtcGetErrorString") ||
        !resolve_symbol(a.handle, a.arch_count, "nvrtcGetNumSupportedArchs") ||
        !resolve_symbol(a.handle, a.archs, "nvrtcGetSupportedArchs") ||
        !resolve_symbol(a.handle, a.create, "nvrtcCreateProgram") ||
        !resolve_symbol(a.handle, a.destroy, "nvrtcDestroyProgram") ||
        !resolve_symbol(a.handle, a.add_name, "nvrtcAddNameExpression") ||
        !resolve_symbol(a.handle, a.compile, "nvrtcCompileProgram") ||
        !resolve_symbol(a.handle, a.lowered_name, "nvrtcGetLoweredName") ||
        !resolve_symbol(a.handle, a.log_size, "nvrtcGetProgramLogSize") ||
        !resolve_symbol(a.handle, a.log, "nvrtcGetProgramLog") ||
        !resolve_symbol(a.handle, a.cubin_size, "nvrtcGetCUBINSize") ||
        !resolve_symbol(a.handle, a.cubin, "nvrtcGetCUBIN") ||
        !resolve_symbol(a.handle, a.ptx_size, "nvrtcGetPTXSize") ||
        !resolve_symbol(a.handle, a.ptx, "nvrtcGetPTX")) {
      a.why = "this NVRTC lacks an entry point lifestreams calls (CUDA 11.2 or later has them all)";
      return a;
    }
    int count = 0;
    if (a.arch_count(&count) == NVRTC_SUCCESS && count > 0) {
      a.supported.resize(static_cast<std::size_t>(count));
      if (a.archs(a.supported.data()) != NVRTC_SUCCESS) a.supported.clear();
      std::sort(a.supported.begin(), a.supported.end());
    }
    if (a.supported.empty()) a.why = "NVRTC lists no GPU architecture it compiles for";
    return a;
  }();
  return api;
}

/// Owns one nvrtcProgram.
class Program {
 public:
  explicit Program(const Nvrtc& api) : api_(api) {}
  ~Program() {
    if (program_) api_.destroy(&program_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram* out() { return &program_; }
  nvrtcProgram get() const { return program_; }

 private:
  const Nvrtc& api_;
  nvrtcProgram program_ = nullptr;
};

/// The log's first line that says what went wrong (NVRTC's logs run to many lines).
std::string first_error_line(const std::string& log) {
  std::size_t from = 0;
  std::string first;
  while (from < log.size()) {
    const std::size_t end = std::min(log.find('\n', from), log.size());
    const std::string line = log.substr(from, end - from);
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos) return line;
    from = end + 1;
  }
  return first;
}

}  // namespace

const char* rule_program_source() {
  return "// The bitpacked kernel for one rule: its masks are template arguments (name expressions).\n"
         "#include \"kernels/step_bitpacked.cuh\"\n";
}

std::string rule_kernel_name_expression(RuleMasks rule, int shape) {
  return "ls::kernels::detail::life_step_bits<ls::kernels::detail::FixedRule<" +
         std::to_string(rule.birth & 0x1ffu) + "u, " + std::to_string(rule.survive & 0x1ffu) + "u>, " +
         std::to_string(kShapes[shape].rows_per_warp) + ", " + std::to_string(kShapes[shape].warps) + ">";
}

std::string nvrtc_unavailable() { return nvrtc().why; }

void warm_up_nvrtc() {
  const Nvrtc& api = nvrtc();
  if (!api.why.empty() || api.supported.empty()) return;
  Program program(api);
  if (api.create(program.out(), "extern \"C\" __global__ void lifestreams_warm_up() {}", "warm_up.cu", 0,
                 nullptr, nullptr) != NVRTC_SUCCESS)
    return;
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(api.supported.back());
  const char* options[] = {arch.c_str()};
  static_cast<void>(api.compile(program.get(), 1, options));
}

namespace {

/// The architecture to compile for a device of `arch`: itself where NVRTC knows it (a cubin), else
/// the newest NVRTC knows below it (PTX, which the driver compiles for the device: a GPU newer than
/// this NVRTC). 0 where NVRTC knows none as old.
int target_of(const Nvrtc& api, int arch) {
  if (std::binary_search(api.supported.begin(), api.supported.end(), arch)) return arch;
  const auto above = std::upper_bound(api.supported.begin(), api.supported.end(), arch);
  return above == api.supported.begin() ? 0 : *(above - 1);
}

/// The compiled program's cubin, or its PTX (NUL-terminated), into out.code.
bool read_code(const Nvrtc& api, nvrtcProgram program, bool ptx, RuleKernelImage& out, std::string& why) {
  std::size_t size = 0;
  const nvrtcResult sized = ptx ? api.ptx_size(program, &size) : api.cubin_size(program, &size);
  if (sized != NVRTC_SUCCESS || size == 0) {
    why = std::string(ptx ? "nvrtcGetPTXSize: " : "nvrtcGetCUBINSize: ") + api.error_string(sized);
    return false;
  }
  out.code.resize(size);
  const nvrtcResult got = ptx ? api.ptx(program, out.code.data()) : api.cubin(program, out.code.data());
  if (got != NVRTC_SUCCESS) {
    why = std::string(ptx ? "nvrtcGetPTX: " : "nvrtcGetCUBIN: ") + api.error_string(got);
    return false;
  }
  return true;
}

/// The log of a program NVRTC did not compile.
std::string log_of(const Nvrtc& api, nvrtcProgram program) {
  std::size_t size = 0;
  std::string log;
  if (api.log_size(program, &size) == NVRTC_SUCCESS && size > 1) {
    log.resize(size);
    if (api.log(program, log.data()) != NVRTC_SUCCESS) log.clear();
  }
  return log;
}

}  // namespace

bool compile_rule_kernel(RuleMasks rule, int shape, int arch, RuleKernelImage& out, std::string& why) {
  const Nvrtc& api = nvrtc();
  if (!api.why.empty()) {
    why = api.why;
    return false;
  }
  if (shape < 0 || shape >= kShapeCount) {
    why = "no bitpacked block shape " + std::to_string(shape);
    return false;
  }
  const int target = target_of(api, arch);
  if (target == 0) {
    why = "NVRTC compiles for no architecture as old as sm_" + std::to_string(arch);
    return false;
  }
  const bool ptx = target != arch;

  std::vector<const char*> names, texts;
  for (int i = 0; i < kRuleProgramHeaderCount; ++i) {
    names.push_back(kRuleProgramHeaders[i].name);
    texts.push_back(kRuleProgramHeaders[i].text);
  }
  Program program(api);
  if (const nvrtcResult r = api.create(program.out(), rule_program_source(), "rule_kernel.cu",
                                       kRuleProgramHeaderCount, texts.data(), names.data());
      r != NVRTC_SUCCESS) {
    why = std::string("nvrtcCreateProgram: ") + api.error_string(r);
    return false;
  }
  const std::string expression = rule_kernel_name_expression(rule, shape);
  if (const nvrtcResult r = api.add_name(program.get(), expression.c_str()); r != NVRTC_SUCCESS) {
    why = std::string("nvrtcAddNameExpression: ") + api.error_string(r);
    return false;
  }
  // -default-device: the device headers' unannotated inline helpers (host-side rule tables) are
  // compiled as device functions, which NVRTC requires of every function it sees.
  const std::string gpu =
      std::string(ptx ? "--gpu-architecture=compute_" : "--gpu-architecture=sm_") + std::to_string(target);
  const char* options[] = {gpu.c_str(), "-std=c++17", "-default-device"};
  const auto start = std::chrono::steady_clock::now();
  const nvrtcResult compiled = api.compile(program.get(), 3, options);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (compiled != NVRTC_SUCCESS) {
    why = std::string("NVRTC: ") + api.error_string(compiled) + ": " +
          first_error_line(log_of(api, program.get()));
    return false;
  }
  const char* lowered = nullptr;
  if (const nvrtcResult r = api.lowered_name(program.get(), expression.c_str(), &lowered);
      r != NVRTC_SUCCESS || !lowered) {
    why = std::string("nvrtcGetLoweredName: ") + api.error_string(r);
    return false;
  }
  out.kernel_name = lowered;  // owned by the program: copied before it goes
  out.ptx = ptx;
  out.target = target;
  return read_code(api, program.get(), ptx, out, why);
}

}  // namespace ls::kernels::detail
