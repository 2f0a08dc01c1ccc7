// nvtx_phase_timer.cpp — an NVTX tool for machines without Nsight Systems (the device machine has
// none): a shared library that NVTX loads through NVTX_INJECTION64_PATH and that times every
// push/pop range of the program by name, per thread, and writes a table at exit to the file named by
// LS_NVTX_TIMES (or stderr): range, count, mean, p50 and p95 in microseconds, total ms.
//   NVTX_INJECTION64_PATH=libls_nvtx_phase_timer.so LS_NVTX_TIMES=t.txt lifestreams --headless ...
// Ranges nest (push/pop); a range's time includes its children's, as in a profiler's tree.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "nvtx_tool.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Named {
  std::string name;
};

struct Timer {
  std::mutex lock;
  std::deque<Named> handles;  // stable addresses: the handles the program holds
  std::map<std::string, std::vector<double>> samples_us;
  std::string path;

  Named* make(const char* name) {
    const std::lock_guard<std::mutex> guard(lock);
    handles.push_back(Named{name != nullptr ? name : ""});
    return &handles.back();
  }
  void add(const std::string& name, double us) {
    const std::lock_guard<std::mutex> guard(lock);
    samples_us[name].push_back(us);
  }
  ~Timer() { write(); }

  void write() {
    std::FILE* out = path.empty() ? stderr : std::fopen(path.c_str(), "w");
    if (out == nullptr) return;
    std::fprintf(out, "%-24s %8s %10s %10s %10s %12s\n", "range", "count", "mean us", "p50 us", "p95 us",
                 "total ms");
    for (auto& [name, v] : samples_us) {
      if (v.empty()) continue;
      std::sort(v.begin(), v.end());
      double total = 0;
      for (double x : v) total += x;
      const auto at = [&](double q) {
        return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
      };
      std::fprintf(out, "%-24s %8zu %10.2f %10.2f %10.2f %12.2f\n", name.c_str(), v.size(),
                   total / static_cast<double>(v.size()), at(0.5), at(0.95), total / 1000.0);
    }
    if (out != stderr) std::fclose(out);
  }
};

Timer& timer() {
  static Timer t;
  return t;
}

struct Open {
  std::string name;
  Clock::time_point start;
};
thread_local std::vector<Open> open_ranges;

std::string message_of(const nvtxEventAttributes_t* a) {
  if (a == nullptr) return "?";
  if (a->messageType == NVTX_MESSAGE_TYPE_REGISTERED && a->message.registered != nullptr)
    return reinterpret_cast<const Named*>(a->message.registered)->name;
  if (a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii != nullptr) return a->message.ascii;
  return "?";
}

nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(timer().make(name));
}
void NVTX_API domain_destroy(nvtxDomainHandle_t) {}
nvtxStringHandle_t NVTX_API register_string(nvtxDomainHandle_t, const char* text) {
  return reinterpret_cast<nvtxStringHandle_t>(timer().make(text));
}
int NVTX_API range_push(nvtxDomainHandle_t, const nvtxEventAttributes_t* a) {
  open_ranges.push_back(Open{message_of(a), Clock::now()});
  return static_cast<int>(open_ranges.size());
}
int NVTX_API range_pop(nvtxDomainHandle_t) {
  if (open_ranges.empty()) return -1;
  const Open o = std::move(open_ranges.back());
  open_ranges.pop_back();
  timer().add(o.name, std::chrono::duration<double, std::micro>(Clock::now() - o.start).count());
  return static_cast<int>(open_ranges.size());
}

}  // namespace

using ls::nvtx_tool::fn;
using ls::nvtx_tool::set_slot;

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr) return 0;
  const char* path = std::getenv("LS_NVTX_TIMES");
  timer().path = path != nullptr ? path : "";
  bool ok = true;
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, fn(domain_create));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainDestroy, fn(domain_destroy));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA, fn(register_string));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, fn(range_push));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, fn(range_pop));
  return ok ? 1 : 0;
}
