// rule_kernels.cpp — implements rule_kernels.hpp and the rule-kernel switches of life_kernels.hpp:
// the cache of kernels compiled for one rule, its worker thread, and the loaded libraries.
#include "kernels/rule_kernels.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/rule.hpp"
#include "core/unique_handle.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/life_kernels.hpp"
#include "kernels/rule_program.hpp"

namespace ls::kernels {
namespace detail {
namespace {

/// What the switches and queries read: no CUDA handle, so that it may be made before the CUDA
/// runtime and outlive it.
struct Status {
  std::atomic<bool> enabled{true};
  std::atomic<std::uint64_t> serial{0};
  std::mutex mutex;
  std::string last_failure;  // the latest kernel that could not be made, and why
};

Status& status() {
  static Status s;
  return s;
}

struct LibraryTraits {
  static void destroy(cudaLibrary_t library) noexcept { cudaLibraryUnload(library); }
};
using Library = UniqueHandle<cudaLibrary_t, LibraryTraits>;

class Cache;
std::atomic<Cache*> made_cache{nullptr};  // the cache while it lives (halt_rule_kernels makes none)
void halt_at_exit();

enum class State { pending, ready, failed };  // pending: queued, or being made

/// One kernel: a rule at one block shape on one device.
struct Entry {
  int device = 0;
  RuleMasks rule{};
  int shape = 0;
  int general_blocks = 1;
  bool urgent = false;                       // a launch asked for it (else only a wait)
  State state = State::pending;              // guarded by the cache's mutex
  std::atomic<const void*> kernel{nullptr};  // set once, when ready
  Library library;                           // the worker's, until process exit
};

std::uint64_t key_of(int device, RuleMasks rule, int shape) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(device)) << 32 |
         static_cast<std::uint64_t>(rule.birth) << 20 | static_cast<std::uint64_t>(rule.survive) << 8 |
         static_cast<std::uint64_t>(shape);
}

/// The process's kernels compiled for a rule: made first by a launch or a wait (after the CUDA
/// runtime has started, so that it goes before the runtime at exit), filled by one worker thread.
///
/// At exit the compile under way must finish before NVRTC's own state is destroyed. NVRTC registers
/// that state's destruction (std::atexit order: the latest first) in its compiles, some of it in its
/// first compile for each architecture, so no one moment of registration comes after all of it:
/// - NVRTC's entry points (a function-local static of rule_program.cpp) and the state of its first
///   compile (warm_up_nvrtc: an empty kernel, once, ~0.05-0.1 s on the first caller) are made
///   before the cache, so that they are destroyed after it (its destructor halts the worker);
/// - after each compile the worker registers halt_at_exit, which halts the worker before whatever
///   that compile registered is destroyed;
/// - halt_rule_kernels() halts it before the exit handlers run at all, for a program leaving main
///   while the first compile for its architecture may still be under way. A program that does not
///   call it (the test binaries, on gtest's main) is covered from that first compile's end on.
class Cache {
 public:
  Cache() {
    (void)nvrtc_unavailable();
    warm_up_nvrtc();
    made_cache.store(this, std::memory_order_release);
  }
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  ~Cache() {
    made_cache.store(nullptr, std::memory_order_release);
    halt();
  }

  /// Stops the worker for good: at most the compile under way is waited for (about a second); the
  /// queued ones are dropped.
  void halt() noexcept {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    done_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  const void* kernel(int device, RuleMasks rule, int shape, int general_blocks) {
    // Launches of one rule come from the same host threads over and over: the mutex and the map
    // only on a change.
    struct Memo {
      const Cache* cache = nullptr;
      std::uint64_t key = 0;
      const Entry* entry = nullptr;
    };
    thread_local Memo memo;
    const std::uint64_t key = key_of(device, rule, shape);
    if (memo.cache != this || memo.key != key) {
      std::lock_guard lock(mutex_);
      memo = {this, key, &ask(key, device, rule, shape, general_blocks, true)};
    }
    return memo.entry->kernel.load(std::memory_order_acquire);
  }

  bool wait(int device, RuleMasks rule, unsigned shapes, const int* general_blocks, double timeout_s) {
    std::unique_lock lock(mutex_);
    std::vector<const Entry*> asked;
    for (int s = 0; s < kShapeCount; ++s)
      if (shapes >> s & 1u)
        asked.push_back(&ask(key_of(device, rule, s), device, rule, s, general_blocks[s], false));
    const auto settled = [&] {
      return stop_ || std::all_of(asked.begin(), asked.end(),
                                  [](const Entry* e) { return e->state != State::pending; });
    };
    done_.wait_for(lock, std::chrono::duration<double>(std::max(0.0, timeout_s)), settled);
    return std::all_of(asked.begin(), asked.end(), [](const Entry* e) { return e->state == State::ready; });
  }

 private:
  /// The entry of `key`, queued for the worker when new; a launch's ask goes ahead of the waits'.
  /// Called with the mutex held.
  Entry& ask(std::uint64_t key, int device, RuleMasks rule, int shape, int general_blocks, bool urgent) {
    auto [it, added] = entries_.try_emplace(key);
    if (added) {
      it->second = std::make_unique<Entry>();
      Entry& e = *it->second;
      e.device = device;
      e.rule = rule;
      e.shape = shape;
      e.general_blocks = std::max(1, general_blocks);
      e.urgent = urgent;
      if (stop_) {  // halted (the process is ending): nothing more is made
        e.state = State::failed;
        return e;
      }
      if (urgent)
        queue_.push_front(&e);
      else
        queue_.push_back(&e);
      if (!worker_.joinable()) worker_ = std::thread([this] { run(); });
      work_.notify_one();
    } else if (urgent && !it->second->urgent) {
      // Still waiting in the queue (not taken by the worker): to the front.
      Entry* e = it->second.get();
      e->urgent = true;
      if (const auto queued = std::find(queue_.begin(), queue_.end(), e); queued != queue_.end()) {
        queue_.erase(queued);
        queue_.push_front(e);
      }
    }
    return *it->second;
  }

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      Entry& e = *queue_.front();
      queue_.pop_front();
      lock.unlock();
      std::string why;
      const bool made = make(e, why);
      std::atexit(halt_at_exit);  // after what the compile registered (see the class comment)
      lock.lock();
      e.state = made ? State::ready : State::failed;
      if (!made) {
        std::lock_guard failure(status().mutex);
        status().last_failure =
            Rule{static_cast<std::uint16_t>(e.rule.birth), static_cast<std::uint16_t>(e.rule.survive)}
                .to_string() +
            " at block shape " + std::to_string(e.shape) + ": " + why;
      } else {
        status().serial.fetch_add(1, std::memory_order_relaxed);
      }
      done_.notify_all();
    }
  }

  /// Compiles (once per architecture) and loads one kernel on its device, on the worker thread.
  bool make(Entry& e, std::string& why) {
    try {
      CUDA_CHECK(cudaSetDevice(e.device));
      int major = 0, minor = 0;
      CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, e.device));
      CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, e.device));
      const int arch = major * 10 + minor;
      // Two devices of one architecture share the compile (the key's device field holds it).
      std::shared_ptr<const RuleKernelImage>& image = images_[key_of(arch, e.rule, e.shape)];
      if (!image) {
        auto compiled = std::make_shared<RuleKernelImage>();
        if (!compile_rule_kernel(e.rule, e.shape, arch, *compiled, why)) return false;
        image = std::move(compiled);
      }
      Library library;
      CUDA_CHECK(
          cudaLibraryLoadData(library.out(), image->code.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
      cudaKernel_t kernel = nullptr;
      CUDA_CHECK(cudaLibraryGetKernel(&kernel, library.get(), image->kernel_name.c_str()));
      // Also loads the kernel into this device's context here rather than at its first launch.
      int blocks = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(kernel),
                                                               32 * kShapes[e.shape].warps, 0));
      if (blocks < e.general_blocks) {
        // The launch plan counts the general kernel's resident blocks; fewer would void its model.
        why = "keeps " + std::to_string(blocks) + " blocks per multiprocessor resident, the general kernel " +
              std::to_string(e.general_blocks);
        return false;
      }
      e.library = std::move(library);
      e.kernel.store(reinterpret_cast<const void*>(kernel), std::memory_order_release);
      return true;
    } catch (const std::exception& x) {
      why = x.what();
      return false;
    }
  }

  std::mutex mutex_;
  std::condition_variable work_;                                       // the worker waits for the queue
  std::condition_variable done_;                                       // waits for entries to settle
  std::unordered_map<std::uint64_t, std::unique_ptr<Entry>> entries_;  // kept until exit
  std::deque<Entry*> queue_;
  std::map<std::uint64_t, std::shared_ptr<const RuleKernelImage>> images_;  // the worker's only
  bool stop_ = false;
  std::thread worker_;  // started by the first ask, never again once halted
};

Cache& cache() {
  static Cache c;
  return c;
}

void halt_at_exit() {
  if (Cache* c = made_cache.load(std::memory_order_acquire)) c->halt();
}

}  // namespace

const void* rule_kernel(int device, RuleMasks rule, int shape, int general_blocks) {
  if (!status().enabled.load(std::memory_order_relaxed)) return nullptr;
  return cache().kernel(device, RuleMasks{rule.birth & 0x1ffu, rule.survive & 0x1ffu}, shape, general_blocks);
}

bool wait_rule_kernels(int device, RuleMasks rule, unsigned shapes, const int* general_blocks,
                       double timeout_s) {
  if (!status().enabled.load(std::memory_order_relaxed)) return false;
  return cache().wait(device, RuleMasks{rule.birth & 0x1ffu, rule.survive & 0x1ffu}, shapes, general_blocks,
                      timeout_s);
}

}  // namespace detail

void set_rule_kernels_enabled(bool on) {
  if (detail::status().enabled.exchange(on) != on) detail::status().serial.fetch_add(1);
}

std::string rule_kernels_unavailable() {
  detail::Status& s = detail::status();
  if (!s.enabled.load()) return "kernels compiled for a rule are switched off (set_rule_kernels_enabled)";
  if (std::string why = detail::nvrtc_unavailable(); !why.empty()) return why;
  std::lock_guard lock(s.mutex);
  return s.last_failure.empty() ? std::string() : "could not make the kernel for " + s.last_failure;
}

std::uint64_t rule_kernels_serial() { return detail::status().serial.load(); }

void halt_rule_kernels() { detail::halt_at_exit(); }

}  // namespace ls::kernels
