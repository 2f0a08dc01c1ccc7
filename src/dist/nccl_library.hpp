// nccl_library.hpp — NCCL opened at run time: libnccl.so.2 is not a Debian package, so a packaged
// lifestreams starts without it and says it is missing only when a distributed GPU run needs it.
// The header (nccl.h, from the CUDA installation at build time) gives the types and signatures.
#pragma once

#include <nccl.h>

namespace ls::dist {

/// The NCCL entry points lifestreams calls, resolved from libnccl.so.2 (members named as NCCL's
/// functions, so that LS_NCCL_CHECK names the call).
struct NcclLibrary {
  decltype(&::ncclGetErrorString) ncclGetErrorString = nullptr;
  decltype(&::ncclGetUniqueId) ncclGetUniqueId = nullptr;
  decltype(&::ncclCommInitRank) ncclCommInitRank = nullptr;
  decltype(&::ncclCommFinalize) ncclCommFinalize = nullptr;
  decltype(&::ncclCommDestroy) ncclCommDestroy = nullptr;
  decltype(&::ncclCommAbort) ncclCommAbort = nullptr;
  decltype(&::ncclGroupStart) ncclGroupStart = nullptr;
  decltype(&::ncclGroupEnd) ncclGroupEnd = nullptr;
  decltype(&::ncclSend) ncclSend = nullptr;
  decltype(&::ncclRecv) ncclRecv = nullptr;
};

/// The library, opened on the first call (thread-safe). Throws NcclError naming the file and the
/// loader's reason when libnccl.so.2 cannot be opened or lacks one of the entry points.
const NcclLibrary& nccl_library();

}  // namespace ls::dist
