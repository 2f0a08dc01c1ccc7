// nvml_source.cpp — implements nvml_source.hpp.
#include "counters/nvml_source.hpp"

#include <chrono>

#include <dlfcn.h>

#include <utility>

#include "core/dl_symbol.hpp"

namespace ls::counters {

namespace {

// From NVML's documentation (nvml.h): return codes are an int enum with NVML_SUCCESS = 0; devices
// are opaque handles; NVML_CLOCK_SM = 1 among nvmlClockType_t.
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

}  // namespace

struct NvmlSource::Api {
  void* handle = nullptr;
  int (*init)() = nullptr;                             // nvmlInit_v2
  int (*shutdown)() = nullptr;                         // nvmlShutdown
  const char* (*error_string)(int) = nullptr;          // nvmlErrorString
  int (*by_bus_id)(const char*, void**) = nullptr;     // nvmlDeviceGetHandleByPciBusId_v2
  int (*clock_info)(void*, int, unsigned*) = nullptr;  // nvmlDeviceGetClockInfo
  int (*power_usage)(void*, unsigned*) = nullptr;      // nvmlDeviceGetPowerUsage (mW)
  bool initialized = false;

  std::string error(int rc) const {
    return error_string ? error_string(rc) : "NVML error " + std::to_string(rc);
  }

  ~Api() {
    if (initialized && shutdown) shutdown();
    // The library stays loaded: NVML may keep threads of its own until the process ends.
  }
};

std::unique_ptr<NvmlSource> NvmlSource::open(const std::vector<NvmlGpu>& gpus, std::string& why) {
  auto api = std::make_unique<Api>();
  api->handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!api->handle) {
    why = "NVML is not installed (libnvidia-ml.so.1 comes with the NVIDIA driver)";
    return nullptr;
  }
  if (!resolve_symbol(api->handle, api->init, "nvmlInit_v2") ||
      !resolve_symbol(api->handle, api->shutdown, "nvmlShutdown") ||
      !resolve_symbol(api->handle, api->by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2") ||
      !resolve_symbol(api->handle, api->clock_info, "nvmlDeviceGetClockInfo") ||
      !resolve_symbol(api->handle, api->power_usage, "nvmlDeviceGetPowerUsage")) {
    why = "NVML lacks an entry point lifestreams reads (an older driver)";
    return nullptr;
  }
  resolve_symbol(api->handle, api->error_string, "nvmlErrorString");
  if (const int rc = api->init(); rc != kNvmlSuccess) {
    why = "NVML did not start: " + api->error(rc);
    return nullptr;
  }
  api->initialized = true;
  std::unique_ptr<NvmlSource> source(new NvmlSource());
  for (const NvmlGpu& g : gpus) {
    void* device = nullptr;
    if (api->by_bus_id(g.pci_bus_id.c_str(), &device) == kNvmlSuccess)
      source->devices_.emplace_back(g.cuda_device, device);
  }
  if (source->devices_.empty()) {
    why = "NVML knows none of the GPUs in use";
    return nullptr;
  }
  source->api_ = std::move(api);
  return source;
}

NvmlSource::~NvmlSource() = default;

bool NvmlSource::read(double t_ms, std::vector<Sample>& out) {
  const auto now_ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                     std::chrono::system_clock::now().time_since_epoch())
                                                     .count());
  const std::uint64_t from_ns =
      last_read_ns_ != 0 ? last_read_ns_ : now_ns - static_cast<std::uint64_t>(period_ms() * 1e6);
  last_read_ns_ = now_ns;
  bool any = false;
  for (const auto& [gpu, device] : devices_) {
    unsigned mhz = 0, mw = 0;
    if (const int rc = api_->clock_info(device, kNvmlClockSm, &mhz); rc == kNvmlSuccess) {
      out.push_back(
          Sample{t_ms, gpu, Counter::sm_clock_mhz, static_cast<double>(mhz), from_ns, now_ns, true});
      any = true;
    } else {
      why_ = "nvmlDeviceGetClockInfo: " + api_->error(rc);
    }
    if (const int rc = api_->power_usage(device, &mw); rc == kNvmlSuccess) {
      out.push_back(Sample{t_ms, gpu, Counter::power_w, mw / 1000.0, from_ns, now_ns, true});
      any = true;
    } else {
      why_ = "nvmlDeviceGetPowerUsage: " + api_->error(rc);
    }
  }
  if (any) why_.clear();
  return any;
}

}  // namespace ls::counters
