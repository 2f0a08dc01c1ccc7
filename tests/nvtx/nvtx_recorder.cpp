// nvtx_recorder.cpp — an NVTX tool for the tests: a shared library that NVTX loads through
// NVTX_INJECTION64_PATH and that writes every domain, registered string, range and CUDA stream
// name the program gives to the file named by LS_NVTX_RECORD, one tab-separated line each:
//   domain  NAME
//   push    DOMAIN  registered|ascii  MESSAGE      (nvtxDomainRangePushEx)
//   pop     DOMAIN                                  (nvtxDomainRangePop)
//   start   DOMAIN  registered|ascii  MESSAGE  ID  (nvtxDomainRangeStartEx)
//   end     ID                                      (nvtxDomainRangeEnd)
//   stream  HANDLE  NAME                            (nvtxNameCudaStreamA; HANDLE in hex)
// It fills only the NVTX export table's slots that lifestreams uses (nvtxDetail/nvtxInit.h: the
// tool's InitializeInjectionNvtx2 asks for the callback tables by module and sets their pointers).
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>

#include "nvtx_tool.hpp"

namespace {

/// What a handle points to: the tool decides what domains and registered strings are.
struct Named {
  std::string name;
};

struct Recorder {
  std::mutex lock;
  std::FILE* out = nullptr;
  std::deque<Named> handles;  // stable addresses: the handles the program holds
  std::uint64_t next_range = 1;

  /// One line, flushed at once: the program may end without running destructors.
  void line(const std::string& text) {
    if (out == nullptr) return;
    std::fputs(text.c_str(), out);
    std::fputc('\n', out);
    std::fflush(out);
  }
  Named* make(const char* name) {
    handles.push_back(Named{name != nullptr ? name : ""});
    return &handles.back();
  }
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

std::string domain_name(nvtxDomainHandle_t domain) {
  return domain == nullptr ? std::string("(default)") : reinterpret_cast<const Named*>(domain)->name;
}

std::string message_of(const nvtxEventAttributes_t* a) {
  if (a == nullptr) return "ascii\t";
  switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return "registered\t" + (a->message.registered == nullptr
                                   ? std::string()
                                   : reinterpret_cast<const Named*>(a->message.registered)->name);
    case NVTX_MESSAGE_TYPE_ASCII:
      return std::string("ascii\t") + (a->message.ascii != nullptr ? a->message.ascii : "");
    default:
      return "other\t";
  }
}

nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  r.line(std::string("domain\t") + (name != nullptr ? name : ""));
  return reinterpret_cast<nvtxDomainHandle_t>(r.make(name));
}

void NVTX_API domain_destroy(nvtxDomainHandle_t) {}

nvtxStringHandle_t NVTX_API register_string(nvtxDomainHandle_t, const char* text) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  return reinterpret_cast<nvtxStringHandle_t>(r.make(text));
}

int NVTX_API range_push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  r.line("push\t" + domain_name(domain) + "\t" + message_of(a));
  return 0;
}

int NVTX_API range_pop(nvtxDomainHandle_t domain) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  r.line("pop\t" + domain_name(domain));
  return 0;
}

nvtxRangeId_t NVTX_API range_start(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  const std::uint64_t id = r.next_range++;
  r.line("start\t" + domain_name(domain) + "\t" + message_of(a) + "\t" + std::to_string(id));
  return id;
}

void NVTX_API range_end(nvtxDomainHandle_t, nvtxRangeId_t id) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  r.line("end\t" + std::to_string(id));
}

void NVTX_API name_stream(void* stream, const char* name) {
  Recorder& r = recorder();
  const std::lock_guard<std::mutex> guard(r.lock);
  char handle[32];
  std::snprintf(handle, sizeof handle, "%" PRIxPTR, reinterpret_cast<std::uintptr_t>(stream));
  r.line(std::string("stream\t") + handle + "\t" + (name != nullptr ? name : ""));
}

}  // namespace

using ls::nvtx_tool::fn;
using ls::nvtx_tool::set_slot;

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_table) {
  const char* path = std::getenv("LS_NVTX_RECORD");
  if (path == nullptr || *path == '\0') return 0;  // nothing to record to: attach nothing
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr) return 0;
  Recorder& r = recorder();
  r.out = std::fopen(path, "a");
  if (r.out == nullptr) return 0;
  bool ok = true;
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, fn(domain_create));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainDestroy, fn(domain_destroy));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA, fn(register_string));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, fn(range_push));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, fn(range_pop));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx, fn(range_start));
  ok &= set_slot(callbacks, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeEnd, fn(range_end));
  // A program without the CUDA runtime part of NVTX has no such table: streams go unnamed.
  set_slot(callbacks, NVTX_CB_MODULE_CUDART, NVTX_CBID_CUDART_NameCudaStreamA, fn(name_stream));
  r.line(ok ? "attached" : "attached-partly");
  return 1;
}
