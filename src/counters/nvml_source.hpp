// nvml_source.hpp — clocks and power from NVML, the driver's management library
// (libnvidia-ml.so.1), opened at run time: its header is not part of the CUDA Toolkit, so the few
// entry points used are declared here from NVML's documented API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "counters/counter_source.hpp"

namespace ls::counters {

struct NvmlGpu {
  int cuda_device = 0;
  std::string pci_bus_id;  ///< as cudaDeviceGetPCIBusId gives it ("0000:1B:00.0")
};

class NvmlSource final : public CounterSource {
 public:
  /// Opens NVML and finds each GPU by its PCI bus id. Returns null, with `why` set to one line,
  /// when NVML is missing or knows none of them.
  static std::unique_ptr<NvmlSource> open(const std::vector<NvmlGpu>& gpus, std::string& why);
  ~NvmlSource() override;

  std::string name() const override { return "NVML"; }
  std::vector<Counter> counters() const override { return {Counter::sm_clock_mhz, Counter::power_w}; }
  /// Each reading's interval (Sample::gpu_start_ns, gpu_end_ns, host_clock) runs from the previous
  /// read to this one on the host's system clock, which the GPUs' %globaltimer followed to within a
  /// millisecond (0.38 ms apart on an H100, bench/NOTES.md "Counters on the timeline's axis"):
  /// close enough to place a reading of every 5 ms under a frame's bars. The power is NVML's
  /// reading, which on recent GPUs (Ampere and later) is itself a mean over the last second.
  bool read(double t_ms, std::vector<Sample>& out) override;
  std::string why() const override { return why_; }
  /// NVML's power reading is updated every few milliseconds at best.
  double period_ms() const override { return 5.0; }

  struct Api;

 private:
  NvmlSource() = default;
  std::unique_ptr<Api> api_;
  std::vector<std::pair<int, void*>> devices_;  // CUDA device, nvmlDevice_t
  std::uint64_t last_read_ns_ = 0;              // the previous read, on the host's system clock
  std::string why_;
};

}  // namespace ls::counters
