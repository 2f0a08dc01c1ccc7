// nccl_library.cpp — implements nccl_library.hpp.
#include "dist/nccl_library.hpp"

#include <dlfcn.h>

#include <string>

#include "dist/nccl_comm.hpp"

namespace ls::dist {
namespace {

constexpr const char* kLibraryFile = "libnccl.so.2";

std::string loader_reason() {
  const char* e = dlerror();
  return e ? e : "unknown reason";
}

template <typename Fn>
void resolve(void* handle, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!fn)
    throw NcclError(std::string("NCCL: ") + kLibraryFile + " has no " + name + " (" + loader_reason() +
                    "); a distributed GPU run needs NCCL 2.14 or later");
}

NcclLibrary open_library() {
  void* handle = dlopen(kLibraryFile, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw NcclError(std::string("NCCL is not installed: cannot load ") + kLibraryFile + " (" +
                    loader_reason() +
                    "); a distributed GPU run needs it (NVIDIA's libnccl2 package, or the CUDA "
                    "installation's lib folder on LD_LIBRARY_PATH); --backend cpu runs without it");
  NcclLibrary lib;
  resolve(handle, lib.ncclGetErrorString, "ncclGetErrorString");
  resolve(handle, lib.ncclGetUniqueId, "ncclGetUniqueId");
  resolve(handle, lib.ncclCommInitRank, "ncclCommInitRank");
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

}  // namespace

const NcclLibrary& nccl_library() {
  static const NcclLibrary lib = open_library();
  return lib;
}

}  // namespace ls::dist
