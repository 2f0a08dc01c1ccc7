// nccl_library.hpp — NCCL opened at run time: libnccl.so.2 is not a Debian package, so a packaged
// lifestreams starts without it. A lattice split over the GPUs of one process swaps its halos by
// NCCL where it loads (nccl_band_exchange.hpp) and by peer copies where it does not; a distributed
// GPU run (src/dist) needs it and says so. The header (nccl.h, from the CUDA installation at build
// time) gives the types and signatures. Also NCCL's error path: NcclError names the call.
#pragma once

#include <nccl.h>

#include <string>

#include "core/error.hpp"

namespace ls::multi {

/// The NCCL entry points lifestreams calls, resolved from libnccl.so.2 (members named as NCCL's
/// functions, so that LS_NCCL_CHECK names the call).
struct NcclLibrary {
  decltype(&::ncclGetErrorString) ncclGetErrorString = nullptr;
  decltype(&::ncclGetUniqueId) ncclGetUniqueId = nullptr;
  decltype(&::ncclCommInitRank) ncclCommInitRank = nullptr;
  decltype(&::ncclCommInitAll) ncclCommInitAll = nullptr;
  decltype(&::ncclCommFinalize) ncclCommFinalize = nullptr;
  decltype(&::ncclCommDestroy) ncclCommDestroy = nullptr;
  decltype(&::ncclCommAbort) ncclCommAbort = nullptr;
  decltype(&::ncclGroupStart) ncclGroupStart = nullptr;
  decltype(&::ncclGroupEnd) ncclGroupEnd = nullptr;
  decltype(&::ncclSend) ncclSend = nullptr;
  decltype(&::ncclRecv) ncclRecv = nullptr;
};

/// A failed NCCL call: "ncclSend: <ncclGetErrorString>", or NCCL missing. Exit status 3.
class NcclError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

/// The library, opened on the first call (thread-safe). Throws NcclError naming the file and the
/// loader's reason when libnccl.so.2 cannot be opened or lacks one of the entry points.
const NcclLibrary& nccl_library();
/// Why NCCL cannot be used (the message nccl_library() throws), or empty when it loads. Never throws.
std::string nccl_unavailable();

/// Throws NcclError naming `call` unless rc is ncclSuccess.
void nccl_check(ncclResult_t rc, const char* call);
#define LS_NCCL_CHECK(call, ...) ::ls::multi::nccl_check(::ls::multi::nccl_library().call(__VA_ARGS__), #call)

}  // namespace ls::multi
