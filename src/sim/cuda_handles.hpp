// cuda_handles.hpp — move-only owners of CUDA resources: Stream, Event, DeviceBuffer, PinnedBuffer,
// GraphExec (with capture(), which records a stream's work into one).
//
// Each type owns exactly one handle, creates it in its constructor (throwing ls::DeviceError via
// CUDA_CHECK on failure) and releases it in a non-throwing destructor. A moved-from object is empty.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <utility>

#include "core/unique_handle.hpp"
#include "kernels/cuda_check.hpp"

namespace ls::cuda {

/// The current device's stream priorities: `greatest` is the most urgent (numerically least).
struct StreamPriorities {
  int least = 0;
  int greatest = 0;
};
inline StreamPriorities stream_priorities() {
  StreamPriorities p;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&p.least, &p.greatest));
  return p;
}

/// A non-blocking CUDA stream (it never synchronises with the legacy default stream).
class Stream {
 public:
  Stream() = default;
  /// Creates a stream; `tag` selects the constructor that allocates (Stream{} is empty).
  struct Create {};
  explicit Stream(Create, int priority = 0) {
    CUDA_CHECK(cudaStreamCreateWithPriority(stream_.out(), cudaStreamNonBlocking, priority));
  }

  cudaStream_t get() const { return stream_.get(); }
  explicit operator bool() const { return static_cast<bool>(stream_); }

 private:
  struct Traits {
    // Work still queued on a destroyed stream completes; the driver frees the stream afterwards.
    static void destroy(cudaStream_t stream) { cudaStreamDestroy(stream); }
  };
  UniqueHandle<cudaStream_t, Traits> stream_;
};

/// A CUDA event, with timing (the default) or without (for ordering between streams only).
class Event {
 public:
  Event() = default;
  struct Create {};
  explicit Event(Create, bool timing = true) {
    CUDA_CHECK(cudaEventCreateWithFlags(event_.out(), timing ? cudaEventDefault : cudaEventDisableTiming));
    live_.fetch_add(1, std::memory_order_relaxed);
  }

  cudaEvent_t get() const { return event_.get(); }
  explicit operator bool() const { return static_cast<bool>(event_); }
  void record(cudaStream_t stream) const { CUDA_CHECK(cudaEventRecord(get(), stream)); }
  /// Events held by every Event of the process, all devices (tests: the engines destroy every
  /// event they made).
  static std::size_t live() { return live_.load(std::memory_order_relaxed); }
  /// Records on `stream`, or, while `stream` is being captured, adds an event-record node to the
  /// graph (so that each launch of the graph records the event, as a plain record would).
  /// `capturing` says whether `stream` is being captured: the caller knows, and
  /// cudaEventRecordExternal is refused outside capture (cudaErrorIllegalState, seen on an H100
  /// with driver 580), so a stream that is not being captured gets a plain record.
  void record_in_graph(cudaStream_t stream, bool capturing) const {
    if (capturing) {
      CUDA_CHECK(cudaEventRecordWithFlags(get(), stream, cudaEventRecordExternal));
    } else {
      CUDA_CHECK(cudaEventRecord(get(), stream));
    }
  }

 private:
  struct Traits {
    static void destroy(cudaEvent_t event) {
      cudaEventDestroy(event);
      live_.fetch_sub(1, std::memory_order_relaxed);
    }
  };
  UniqueHandle<cudaEvent_t, Traits> event_;
  static inline std::atomic<std::size_t> live_{0};
};

/// Memory at `ptr` of `bytes` bytes: the handle of DeviceBuffer and PinnedBuffer.
struct Allocation {
  void* ptr = nullptr;
  std::size_t bytes = 0;
  friend bool operator==(const Allocation& a, const Allocation& b) {
    return a.ptr == b.ptr && a.bytes == b.bytes;
  }
};

/// What DeviceBuffer and PinnedBuffer share: one allocation, released by `Traits::destroy`.
template <class Traits>
class Memory {
 public:
  void* get() const { return memory_.get().ptr; }
  template <class T>
  T* as() const {
    return static_cast<T*>(get());
  }
  std::size_t bytes() const { return memory_.get().bytes; }
  explicit operator bool() const { return get() != nullptr; }

 protected:
  void adopt(void* ptr, std::size_t bytes) {
    memory_ = UniqueHandle<Allocation, Traits>(Allocation{ptr, bytes});
  }

 private:
  UniqueHandle<Allocation, Traits> memory_;
};

struct DeviceFree {
  // cudaFree waits for the device to finish work that may still use the memory.
  static void destroy(const Allocation& a);
};

/// Device memory from cudaMalloc.
class DeviceBuffer : public Memory<DeviceFree> {
 public:
  DeviceBuffer() = default;
  /// Allocates `bytes` (throws DeviceError, e.g. cudaErrorMemoryAllocation, on failure).
  explicit DeviceBuffer(std::size_t bytes) {
    if (bytes == 0) return;
    void* ptr = nullptr;
    CUDA_CHECK(cudaMalloc(&ptr, bytes));
    adopt_counted(ptr, bytes);
  }
  /// Allocates `bytes`, or returns an empty buffer when the device is out of memory (the
  /// non-sticky cudaErrorMemoryAllocation is cleared); other failures throw DeviceError.
  static DeviceBuffer try_allocate(std::size_t bytes) {
    DeviceBuffer buffer;
    if (bytes == 0) return buffer;
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return buffer;
    }
    if (err != cudaSuccess) throw_cuda_error(err, "cudaMalloc(&ptr, bytes)", __FILE__, __LINE__);
    buffer.adopt_counted(ptr, bytes);
    return buffer;
  }

  /// Bytes held by every DeviceBuffer of the process, all devices (tests: what the engines
  /// allocate comes back, apart from what the driver keeps for itself).
  static std::size_t live_bytes() { return live_.load(std::memory_order_relaxed); }

 private:
  friend struct DeviceFree;
  void adopt_counted(void* ptr, std::size_t bytes) {
    adopt(ptr, bytes);
    live_.fetch_add(bytes, std::memory_order_relaxed);
  }
  static inline std::atomic<std::size_t> live_{0};
};

inline void DeviceFree::destroy(const Allocation& a) {
  cudaFree(a.ptr);
  DeviceBuffer::live_.fetch_sub(a.bytes, std::memory_order_relaxed);
}

struct PinnedFree {
  static void destroy(const Allocation& a) { cudaFreeHost(a.ptr); }
};

/// Page-locked host memory from cudaMallocHost (target of asynchronous device-to-host copies).
class PinnedBuffer : public Memory<PinnedFree> {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes) {
    if (bytes == 0) return;
    void* ptr = nullptr;
    CUDA_CHECK(cudaMallocHost(&ptr, bytes));
    adopt(ptr, bytes);
  }
};

/// Makes a CUDA device current for a scope and restores the caller's device on the way out (setup
/// and teardown of per-device resources from the caller's thread).
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    CUDA_CHECK(cudaGetDevice(&previous_));
    if (device != previous_) CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

/// An executable CUDA graph: a fixed sequence of work launched as a whole with one call.
class GraphExec {
 public:
  GraphExec() = default;
  /// Instantiates `graph` (which the caller still owns).
  explicit GraphExec(cudaGraph_t graph) { CUDA_CHECK(cudaGraphInstantiate(exec_.out(), graph, 0)); }

  cudaGraphExec_t get() const { return exec_.get(); }
  explicit operator bool() const { return static_cast<bool>(exec_); }
  /// Enqueues the whole graph on `stream` (ordered after earlier launches of this graph).
  void launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(get(), stream)); }
  void reset() noexcept { exec_.reset(); }

 private:
  struct Traits {
    // A graph still running is not stopped: the driver frees it once it completes.
    static void destroy(cudaGraphExec_t exec) { cudaGraphExecDestroy(exec); }
  };
  UniqueHandle<cudaGraphExec_t, Traits> exec_;
};

/// Runs `enqueue(stream)` with `stream` in capture mode and returns the captured work as an
/// executable graph; nothing runs now. `stream` must be idle and used by this thread only. Work
/// that should record events uses Event::record_in_graph. On an exception the capture is ended and
/// dropped, and `stream` is usable again.
template <class Enqueue>
GraphExec capture(cudaStream_t stream, Enqueue&& enqueue) {
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    enqueue(stream);
  } catch (...) {
    if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
    cudaGetLastError();  // an invalidated capture leaves its error behind
    throw;
  }
  CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  struct Owner {
    cudaGraph_t graph;
    ~Owner() { cudaGraphDestroy(graph); }
  } owner{graph};
  return GraphExec(graph);
}

}  // namespace ls::cuda
