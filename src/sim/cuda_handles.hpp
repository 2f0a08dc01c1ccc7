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

#include "kernels/cuda_check.hpp"

namespace ls::cuda {

/// A non-blocking CUDA stream (it never synchronises with the legacy default stream).
class Stream {
 public:
  Stream() = default;
  /// Creates a stream; `tag` selects the constructor that allocates (Stream{} is empty).
  struct Create {};
  explicit Stream(Create, int priority = 0) {
    CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority));
  }
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      reset();
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { reset(); }

  cudaStream_t get() const { return stream_; }
  explicit operator bool() const { return stream_ != nullptr; }

 private:
  void reset() noexcept {
    // Work still queued on a destroyed stream completes; the driver frees the stream afterwards.
    if (stream_) cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }
  cudaStream_t stream_ = nullptr;
};

/// A CUDA event, with timing (the default) or without (for ordering between streams only).
class Event {
 public:
  Event() = default;
  struct Create {};
  explicit Event(Create, bool timing = true) {
    CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
    live_.fetch_add(1, std::memory_order_relaxed);
  }
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      reset();
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { reset(); }

  cudaEvent_t get() const { return event_; }
  explicit operator bool() const { return event_ != nullptr; }
  void record(cudaStream_t stream) const { CUDA_CHECK(cudaEventRecord(event_, stream)); }
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
      CUDA_CHECK(cudaEventRecordWithFlags(event_, stream, cudaEventRecordExternal));
    } else {
      CUDA_CHECK(cudaEventRecord(event_, stream));
    }
  }

 private:
  void reset() noexcept {
    if (event_) {
      cudaEventDestroy(event_);
      live_.fetch_sub(1, std::memory_order_relaxed);
    }
    event_ = nullptr;
  }
  cudaEvent_t event_ = nullptr;
  static inline std::atomic<std::size_t> live_{0};
};

/// Device memory from cudaMalloc.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates `bytes` (throws DeviceError, e.g. cudaErrorMemoryAllocation, on failure).
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) CUDA_CHECK(cudaMalloc(&ptr_, bytes));
    if (ptr_) live_.fetch_add(bytes_, std::memory_order_relaxed);
  }
  /// Allocates `bytes`, or returns an empty buffer when the device is out of memory (the
  /// non-sticky cudaErrorMemoryAllocation is cleared); other failures throw DeviceError.
  static DeviceBuffer try_allocate(std::size_t bytes) {
    DeviceBuffer buffer;
    if (bytes == 0) return buffer;
    const cudaError_t err = cudaMalloc(&buffer.ptr_, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      buffer.ptr_ = nullptr;
      return buffer;
    }
    if (err != cudaSuccess) throw_cuda_error(err, "cudaMalloc(&buffer.ptr_, bytes)", __FILE__, __LINE__);
    buffer.bytes_ = bytes;
    live_.fetch_add(bytes, std::memory_order_relaxed);
    return buffer;
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }

  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }
  explicit operator bool() const { return ptr_ != nullptr; }

  /// Bytes held by every DeviceBuffer of the process, all devices (tests: what the engines
  /// allocate comes back, apart from what the driver keeps for itself).
  static std::size_t live_bytes() { return live_.load(std::memory_order_relaxed); }

 private:
  void reset() noexcept {
    // cudaFree waits for the device to finish work that may still use the memory.
    if (ptr_) {
      cudaFree(ptr_);
      live_.fetch_sub(bytes_, std::memory_order_relaxed);
    }
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  static inline std::atomic<std::size_t> live_{0};
};

/// Page-locked host memory from cudaMallocHost (target of asynchronous device-to-host copies).
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0) CUDA_CHECK(cudaMallocHost(&ptr_, bytes));
  }
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      ptr_ = std::exchange(other.ptr_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { reset(); }

  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  void reset() noexcept {
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
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
  explicit GraphExec(cudaGraph_t graph) { CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0)); }
  GraphExec(GraphExec&& other) noexcept : exec_(std::exchange(other.exec_, nullptr)) {}
  GraphExec& operator=(GraphExec&& other) noexcept {
    if (this != &other) {
      reset();
      exec_ = std::exchange(other.exec_, nullptr);
    }
    return *this;
  }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  ~GraphExec() { reset(); }

  cudaGraphExec_t get() const { return exec_; }
  explicit operator bool() const { return exec_ != nullptr; }
  /// Enqueues the whole graph on `stream` (ordered after earlier launches of this graph).
  void launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }
  void reset() noexcept {
    // A graph still running is not stopped: the driver frees it once it completes.
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

 private:
  cudaGraphExec_t exec_ = nullptr;
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
