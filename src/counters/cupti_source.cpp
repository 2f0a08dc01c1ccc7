// cupti_source.cpp — implements cupti_source.hpp.
#include "counters/cupti_source.hpp"

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <map>

namespace ls::counters {

namespace {

/// A metric asked of CUPTI and where its value goes: CUPTI gives the pct_of_peak metrics in
/// percent and the throughputs in bytes per second; two metrics of one counter (received and
/// transmitted) add up.
struct MetricPlan {
  const char* name;
  Counter counter;
  double scale;
};

constexpr MetricPlan kMetrics[] = {
    {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed", Counter::sm_active, 0.01},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", Counter::occupancy, 0.01},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", Counter::dram_throughput, 0.01},
    {"dram__bytes.sum.per_second", Counter::dram_gbps, 1e-9},
    {"nvlrx__bytes.sum.per_second", Counter::nvlink_gbps, 1e-9},
    {"nvltx__bytes.sum.per_second", Counter::nvlink_gbps, 1e-9},
    {"pcie__read_bytes.sum.per_second", Counter::pcie_gbps, 1e-9},
    {"pcie__write_bytes.sum.per_second", Counter::pcie_gbps, 1e-9},
};

/// A CUPTI parameter struct, zeroed, with its size set (what CUPTI checks the version by).
template <typename Params>
Params sized(std::size_t size) {
  Params p{};
  p.structSize = size;
  return p;
}

constexpr std::uint64_t kIntervalNs = 1'000'000;         // one sample a millisecond
constexpr std::size_t kHardwareBufferBytes = 64u << 20;  // what the GPU writes between decodes
constexpr std::uint32_t kMaxSamples = 4096;              // the counter data image's samples

}  // namespace

#define LS_CUPTI_FUNCTIONS(X)                  \
  X(cuptiGetResultString)                      \
  X(cuptiProfilerInitialize)                   \
  X(cuptiProfilerDeInitialize)                 \
  X(cuptiDeviceGetChipName)                    \
  X(cuptiPmSamplingGetCounterAvailability)     \
  X(cuptiProfilerHostInitialize)               \
  X(cuptiProfilerHostDeinitialize)             \
  X(cuptiProfilerHostConfigAddMetrics)         \
  X(cuptiProfilerHostGetConfigImageSize)       \
  X(cuptiProfilerHostGetConfigImage)           \
  X(cuptiProfilerHostEvaluateToGpuValues)      \
  X(cuptiPmSamplingEnable)                     \
  X(cuptiPmSamplingDisable)                    \
  X(cuptiPmSamplingSetConfig)                  \
  X(cuptiPmSamplingGetCounterDataSize)         \
  X(cuptiPmSamplingCounterDataImageInitialize) \
  X(cuptiPmSamplingStart)                      \
  X(cuptiPmSamplingStop)                       \
  X(cuptiPmSamplingDecodeData)                 \
  X(cuptiPmSamplingGetCounterDataInfo)         \
  X(cuptiPmSamplingCounterDataGetSampleInfo)

struct CuptiSource::Api {
  void* handle = nullptr;
#define LS_DECLARE(f) decltype(&::f) f = nullptr;
  LS_CUPTI_FUNCTIONS(LS_DECLARE)
#undef LS_DECLARE
  bool initialized = false;

  std::string text(CUptiResult r) const {
    const char* s = nullptr;
    if (cuptiGetResultString) cuptiGetResultString(r, &s);
    return s ? s : "CUPTI error " + std::to_string(static_cast<int>(r));
  }
  ~Api() {
    if (!initialized) return;
    auto p = sized<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    cuptiProfilerDeInitialize(&p);
    // libcupti stays loaded: its threads may outlive this object.
  }
};

struct CuptiSource::Device {
  std::shared_ptr<Api> api;
  int gpu = 0;
  CUpti_PmSampling_Object* pm = nullptr;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<const char*> names;
  std::vector<MetricPlan> plans;
  std::vector<std::uint8_t> availability, config, data;
  std::size_t next = 0;  // the first sample of `data` not yet evaluated
  bool started = false;
  const char* failed_call = "";  // the CUPTI call configure() or set_config() stopped at

  ~Device() {
    if (started) {
      auto p = sized<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
      p.pPmSamplingObject = pm;
      api->cuptiPmSamplingStop(&p);
    }
    if (pm) {
      auto p = sized<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
      p.pPmSamplingObject = pm;
      api->cuptiPmSamplingDisable(&p);
    }
    drop_host();
  }

  void drop_host() {
    if (!host) return;
    auto p =
        sized<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = host;
    api->cuptiProfilerHostDeinitialize(&p);
    host = nullptr;
  }

  /// A host object for this chip holding `metrics`, and its config image; the CUPTI result.
  CUptiResult configure(const char* chip, const std::vector<const char*>& metrics) {
    drop_host();
    auto hi = sized<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    hi.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    hi.pChipName = chip;
    hi.pCounterAvailabilityImage = availability.data();
    failed_call = "cuptiProfilerHostInitialize";
    if (const CUptiResult r = api->cuptiProfilerHostInitialize(&hi); r != CUPTI_SUCCESS) return r;
    host = hi.pHostObject;
    auto am = sized<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    am.pHostObject = host;
    am.ppMetricNames = const_cast<const char**>(metrics.data());
    am.numMetrics = metrics.size();
    failed_call = "cuptiProfilerHostConfigAddMetrics";
    if (const CUptiResult r = api->cuptiProfilerHostConfigAddMetrics(&am); r != CUPTI_SUCCESS) return r;
    auto cs = sized<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    cs.pHostObject = host;
    failed_call = "cuptiProfilerHostGetConfigImageSize";
    if (const CUptiResult r = api->cuptiProfilerHostGetConfigImageSize(&cs); r != CUPTI_SUCCESS) return r;
    config.assign(cs.configImageSize, 0);
    auto ci = sized<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    ci.pHostObject = host;
    ci.configImageSize = config.size();
    ci.pConfigImage = config.data();
    failed_call = "cuptiProfilerHostGetConfigImage";
    return api->cuptiProfilerHostGetConfigImage(&ci);
  }

  CUptiResult set_config() {
    auto p = sized<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
    p.pPmSamplingObject = pm;
    p.configSize = config.size();
    p.pConfig = config.data();
    p.hardwareBufferSize = kHardwareBufferBytes;
    p.samplingInterval = kIntervalNs;
    p.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    p.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_LATEST;
    failed_call = "cuptiPmSamplingSetConfig";
    return api->cuptiPmSamplingSetConfig(&p);
  }

  CUptiResult reset_data() {
    auto p = sized<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    p.pPmSamplingObject = pm;
    p.counterDataSize = data.size();
    p.pCounterData = data.data();
    next = 0;
    return api->cuptiPmSamplingCounterDataImageInitialize(&p);
  }

  std::string open(int device);
  std::string choose_metrics(const char* chip);
  bool read(double t_ms, std::vector<Sample>& out, std::string& why);
};

std::string CuptiSource::Device::choose_metrics(const char* chip) {
  // The metrics this chip has, each tried alone; then the largest prefix of them that samples in
  // one pass (PM sampling takes no other).
  std::vector<MetricPlan> valid;
  for (const MetricPlan& m : kMetrics)
    if (configure(chip, {m.name}) == CUPTI_SUCCESS) valid.push_back(m);
  if (valid.empty()) return "the GPU offers none of the metrics sampled";
  CUptiResult r = CUPTI_ERROR_UNKNOWN;
  while (!valid.empty()) {
    names.clear();
    for (const MetricPlan& m : valid) names.push_back(m.name);
    r = configure(chip, names);
    if (r == CUPTI_SUCCESS) r = set_config();
    if (r == CUPTI_SUCCESS) break;
    valid.pop_back();
  }
  if (valid.empty()) return std::string(failed_call) + ": " + api->text(r);
  plans = valid;
  return {};
}

std::string CuptiSource::Device::open(int device) {
  gpu = device;
  auto ca = sized<CUpti_PmSampling_GetCounterAvailability_Params>(
      CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
  ca.deviceIndex = static_cast<std::size_t>(device);
  if (const CUptiResult r = api->cuptiPmSamplingGetCounterAvailability(&ca); r != CUPTI_SUCCESS)
    return "cuptiPmSamplingGetCounterAvailability: " + api->text(r);
  availability.assign(ca.counterAvailabilityImageSize, 0);
  ca.pCounterAvailabilityImage = availability.data();
  if (const CUptiResult r = api->cuptiPmSamplingGetCounterAvailability(&ca); r != CUPTI_SUCCESS)
    return "cuptiPmSamplingGetCounterAvailability: " + api->text(r);
  auto cn = sized<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  cn.deviceIndex = static_cast<std::size_t>(device);
  if (const CUptiResult r = api->cuptiDeviceGetChipName(&cn); r != CUPTI_SUCCESS)
    return "cuptiDeviceGetChipName: " + api->text(r);
  auto en = sized<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
  en.deviceIndex = static_cast<std::size_t>(device);
  if (const CUptiResult r = api->cuptiPmSamplingEnable(&en); r != CUPTI_SUCCESS)
    return "cuptiPmSamplingEnable: " + api->text(r);
  pm = en.pPmSamplingObject;
  if (std::string why = choose_metrics(cn.pChipName); !why.empty()) return why;
  auto ds = sized<CUpti_PmSampling_GetCounterDataSize_Params>(
      CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
  ds.pPmSamplingObject = pm;
  ds.pMetricNames = names.data();
  ds.numMetrics = names.size();
  ds.maxSamples = kMaxSamples;
  if (const CUptiResult r = api->cuptiPmSamplingGetCounterDataSize(&ds); r != CUPTI_SUCCESS)
    return "cuptiPmSamplingGetCounterDataSize: " + api->text(r);
  data.assign(ds.counterDataSize, 0);
  if (const CUptiResult r = reset_data(); r != CUPTI_SUCCESS)
    return "cuptiPmSamplingCounterDataImageInitialize: " + api->text(r);
  auto st = sized<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
  st.pPmSamplingObject = pm;
  if (const CUptiResult r = api->cuptiPmSamplingStart(&st); r != CUPTI_SUCCESS)
    return "cuptiPmSamplingStart: " + api->text(r);
  started = true;
  return {};
}

bool CuptiSource::Device::read(double t_ms, std::vector<Sample>& out, std::string& why) {
  auto dd = sized<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
  dd.pPmSamplingObject = pm;
  dd.pCounterDataImage = data.data();
  dd.counterDataImageSize = data.size();
  if (const CUptiResult r = api->cuptiPmSamplingDecodeData(&dd);
      r != CUPTI_SUCCESS && r != CUPTI_ERROR_OUT_OF_MEMORY) {
    why = "cuptiPmSamplingDecodeData: " + api->text(r);
    return false;
  }
  auto info = sized<CUpti_PmSampling_GetCounterDataInfo_Params>(
      CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  if (const CUptiResult r = api->cuptiPmSamplingGetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
    why = "cuptiPmSamplingGetCounterDataInfo: " + api->text(r);
    return false;
  }
  struct Row {
    std::uint64_t start_ns;
    std::uint64_t end_ns;
    std::map<Counter, double> values;
  };
  std::vector<Row> rows;
  std::vector<double> values(names.size());
  for (std::size_t i = next; i < info.numCompletedSamples; ++i) {
    auto si = sized<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
    si.pPmSamplingObject = pm;
    si.pCounterDataImage = data.data();
    si.counterDataImageSize = data.size();
    si.sampleIndex = i;
    if (api->cuptiPmSamplingCounterDataGetSampleInfo(&si) != CUPTI_SUCCESS) continue;
    auto ev = sized<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = host;
    ev.pCounterDataImage = data.data();
    ev.counterDataImageSize = data.size();
    ev.rangeIndex = i;
    ev.ppMetricNames = names.data();
    ev.numMetrics = names.size();
    ev.pMetricValues = values.data();
    if (api->cuptiProfilerHostEvaluateToGpuValues(&ev) != CUPTI_SUCCESS) continue;
    Row row{si.startTimestamp, si.endTimestamp, {}};
    for (std::size_t m = 0; m < plans.size(); ++m) row.values[plans[m].counter] += values[m] * plans[m].scale;
    rows.push_back(std::move(row));
  }
  next = info.numCompletedSamples;
  // The newest sample ended about now: the others are placed before it by the GPU's own clock.
  const std::uint64_t newest = rows.empty() ? 0 : rows.back().end_ns;
  for (const Row& row : rows)
    for (const auto& [counter, value] : row.values)
      out.push_back(Sample{t_ms - static_cast<double>(newest - row.end_ns) * 1e-6, gpu, counter, value,
                           row.start_ns, row.end_ns});
  if (dd.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL ||
      info.numCompletedSamples >= info.numTotalSamples) {
    if (const CUptiResult r = reset_data(); r != CUPTI_SUCCESS) {
      why = "cuptiPmSamplingCounterDataImageInitialize: " + api->text(r);
      return false;
    }
  }
  return true;
}

std::unique_ptr<CuptiSource> CuptiSource::open(const std::vector<int>& gpus, std::string& why) {
  auto api = std::make_shared<Api>();
  api->handle = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL);
  if (!api->handle) api->handle = dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL);
  if (!api->handle) {
    why =
        "CUPTI is not installed (libcupti.so.13, in the CUDA Toolkit's lib folder, not on the library path)";
    return nullptr;
  }
  bool complete = true;
#define LS_RESOLVE(f) \
  complete = complete && (api->f = reinterpret_cast<decltype(api->f)>(dlsym(api->handle, #f)));
  LS_CUPTI_FUNCTIONS(LS_RESOLVE)
#undef LS_RESOLVE
  if (!complete) {
    why = "this CUPTI has no PM sampling (CUDA 12.6 or later has it)";
    return nullptr;
  }
  auto ip = sized<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (const CUptiResult r = api->cuptiProfilerInitialize(&ip); r != CUPTI_SUCCESS) {
    why = "cuptiProfilerInitialize: " + api->text(r);
    return nullptr;
  }
  api->initialized = true;
  std::unique_ptr<CuptiSource> source(new CuptiSource());
  source->api_ = api;
  for (const int g : gpus) {
    auto device = std::make_unique<Device>();
    device->api = api;
    if (std::string failed = device->open(g); !failed.empty()) {
      why = "GPU " + std::to_string(g) + ": " + failed;
      return nullptr;
    }
    source->devices_.push_back(std::move(device));
  }
  return source;
}

CuptiSource::~CuptiSource() = default;

std::vector<Counter> CuptiSource::counters() const {
  std::vector<Counter> out;
  for (const auto& d : devices_)
    for (const MetricPlan& m : d->plans)
      if (std::find(out.begin(), out.end(), m.counter) == out.end()) out.push_back(m.counter);
  return out;
}

bool CuptiSource::read(double t_ms, std::vector<Sample>& out) {
  bool any = false;
  why_.clear();
  for (const auto& d : devices_) any = d->read(t_ms, out, why_) || any;
  return any;
}

}  // namespace ls::counters
