// cupti_source.hpp — SM activity, occupancy, DRAM, NVLink and PCIe throughput from CUPTI's PM
// sampling (cupti_pmsampling.h: the counters behind Nsight Systems' GPU metrics). The GPU samples
// its performance monitors every millisecond into a hardware buffer; each read() decodes what
// came since and evaluates every completed sample. libcupti is opened at run time (it is not a
// Debian package), so the program starts without it and says so.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "counters/counter_source.hpp"

namespace ls::counters {

class CuptiSource final : public CounterSource {
 public:
  /// Starts PM sampling on each CUDA device of `gpus`. Null, with `why` in one line, when CUPTI
  /// is missing, profiling is restricted (NVreg_RestrictProfilingToAdminUsers), another profiler
  /// holds the counters, or the GPU offers none of the metrics.
  static std::unique_ptr<CuptiSource> open(const std::vector<int>& gpus, std::string& why);
  ~CuptiSource() override;

  std::string name() const override { return "CUPTI PM sampling"; }
  std::vector<Counter> counters() const override;
  bool read(double t_ms, std::vector<Sample>& out) override;
  std::string why() const override { return why_; }
  /// Samples come every millisecond; they are decoded in batches this often.
  double period_ms() const override { return 10.0; }

  struct Api;
  struct Device;

 private:
  CuptiSource() = default;
  std::shared_ptr<Api> api_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::string why_;
};

}  // namespace ls::counters
