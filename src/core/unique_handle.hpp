// unique_handle.hpp — UniqueHandle: the one move-only owner of an API handle (a GL object name or
// fence; a CUDA stream, event, graph, allocation, registration or surface). The types in render,
// sim and interop hold one and say how their handle is made and used; this says how it is moved
// and released.
#pragma once

#include <utility>

namespace ls {

/// Owns one `Handle` value, released by `Traits::destroy(handle)` (which must not throw). The empty
/// value is `Handle{}`; a moved-from owner is empty, and an empty one releases nothing.
template <class Handle, class Traits>
class UniqueHandle {
 public:
  UniqueHandle() = default;
  explicit UniqueHandle(Handle handle) noexcept : handle_(handle) {}
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;
  ~UniqueHandle() { reset(); }

  const Handle& get() const { return handle_; }
  /// Where a creating call writes the new handle (`cudaStreamCreate(stream.out())`): releases what
  /// is held first, so the owner is empty when the call writes.
  Handle* out() noexcept {
    reset();
    return &handle_;
  }
  explicit operator bool() const { return !(handle_ == Handle{}); }
  void reset() noexcept {
    if (*this) Traits::destroy(handle_);
    handle_ = Handle{};
  }

 private:
  Handle handle_{};
};

}  // namespace ls
