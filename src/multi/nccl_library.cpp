// nccl_library.cpp — implements nccl_library.hpp.
#include "multi/nccl_library.hpp"

#include <dlfcn.h>

#include <string>
#include <variant>

#include "core/dl_symbol.hpp"

namespace ls::multi {
namespace {

constexpr const char* kLibraryFile = "libnccl.so.2";

std::string loader_reason() {
  const char* e = dlerror();
  return e ? e : "unknown reason";
}

template <typename Fn>
void resolve(void* handle, Fn& fn, const char* name) {
  if (!resolve_symbol(handle, fn, name))
    throw NcclError(std::string("NCCL: ") + kLibraryFile + " has no " + name + " (" + loader_reason() +
                    "); lifestreams needs NCCL 2.14 or later");
}

NcclLibrary open_library() {
  void* handle = dlopen(kLibraryFile, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw NcclError(std::string("NCCL is not installed: cannot load ") + kLibraryFile + " (" +
                    loader_reason() +
                    "); NVIDIA's libnccl2 package, or the CUDA installation's lib folder on "
                    "LD_LIBRARY_PATH, provides it");
  NcclLibrary lib;
  resolve(handle, lib.ncclGetErrorString, "ncclGetErrorString");
  resolve(handle, lib.ncclGetUniqueId, "ncclGetUniqueId");
  resolve(handle, lib.ncclCommInitRank, "ncclCommInitRank");
  resolve(handle, lib.ncclCommInitAll, "ncclCommInitAll");
  resolve(handle, lib.ncclCommFinalize, "ncclCommFinalize");
  resolve(handle, lib.ncclCommDestroy, "ncclCommDestroy");
  resolve(handle, lib.ncclCommAbort, "ncclCommAbort");
  resolve(handle, lib.ncclGroupStart, "ncclGroupStart");
  resolve(handle, lib.ncclGroupEnd, "ncclGroupEnd");
  resolve(handle, lib.ncclSend, "ncclSend");
  resolve(handle, lib.ncclRecv, "ncclRecv");
  // The handle stays open for the process: NCCL's own threads may outlive any owner here.
  return lib;
}

/// The library, or why it cannot be had; opened once.
const std::variant<NcclLibrary, std::string>& opened() {
  static const std::variant<NcclLibrary, std::string> lib = []() -> std::variant<NcclLibrary, std::string> {
    try {
      return open_library();
    } catch (const NcclError& e) {
      return std::string(e.what());
    }
  }();
  return lib;
}

}  // namespace

const NcclLibrary& nccl_library() {
  if (const auto* why = std::get_if<std::string>(&opened())) throw NcclError(*why);
  return std::get<NcclLibrary>(opened());
}

std::string nccl_unavailable() {
  const auto* why = std::get_if<std::string>(&opened());
  return why ? *why : std::string();
}

void nccl_check(ncclResult_t rc, const char* call) {
  if (rc == ncclSuccess) return;
  throw NcclError(std::string(call) + ": " + nccl_library().ncclGetErrorString(rc));
}

}  // namespace ls::multi
