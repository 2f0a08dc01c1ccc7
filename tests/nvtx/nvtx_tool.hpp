// nvtx_tool.hpp — what an NVTX tool (a library NVTX loads through NVTX_INJECTION64_PATH) needs to
// attach its callbacks: setting a slot of the program's NVTX export table. Shared by the tests'
// recorder (nvtx_recorder.cpp) and bench/nvtx_phase_timer.cpp. Include after nvToolsExt.h with
// NVTX_NO_IMPL defined.
#pragma once

namespace ls::nvtx_tool {

/// Sets slot `id` of module `module`'s table to `fn`; false when the program's NVTX lacks it.
inline bool set_slot(const NvtxExportTableCallbacks* callbacks, NvtxCallbackModule module, unsigned id,
                     NvtxFunctionPointer fn) {
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (callbacks->GetModuleFunctionTable(module, &table, &size) == 0 || table == nullptr || id >= size)
    return false;
  *table[id] = fn;
  return true;
}

template <typename F>
NvtxFunctionPointer fn(F f) {
  return reinterpret_cast<NvtxFunctionPointer>(f);
}

}  // namespace ls::nvtx_tool
