// dl_symbol.hpp — one symbol of a library opened at run time (dlopen), typed: the libraries the
// program does not link (NVML, libnvrtc) are reached through it.
#pragma once

#include <dlfcn.h>

namespace ls {

/// Sets `fn` to `name` in `handle` (a dlopen handle); false where the library has no such symbol.
template <typename Fn>
bool resolve_symbol(void* handle, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  return fn != nullptr;
}

}  // namespace ls
