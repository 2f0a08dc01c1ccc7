// nvtx_names.cpp — implements nvtx_names.hpp with nvtxNameCudaStreamA (nvtx3, CUDA runtime part).
#include "sim/nvtx_names.hpp"

#include <algorithm>

#if defined(LIFESTREAMS_HAVE_NVTX)
#include <nvtx3/nvToolsExtCudaRt.h>
#endif

#include "sim/instance.hpp"

namespace ls::sim {

std::string stream_name(std::size_t index, Variant variant, int width, int height) {
  std::string name = "#";
  name += std::to_string(index);
  name += ' ';
  name += variant_name(variant);
  name += ' ';
  name += std::to_string(width);
  name += 'x';
  name += std::to_string(height);
  return name;
}

void name_streams(const Instances& instances, std::size_t first, std::size_t count) {
#if defined(LIFESTREAMS_HAVE_NVTX)
  // Instances share this stream in the shared stream mode: its name says so, not an instance's.
  nvtxNameCudaStreamA(instances.shared_stream(), "shared");
  const std::size_t start = std::min(first, instances.size());
  const std::size_t end = start + std::min(count, instances.size() - start);
  for (std::size_t i = start; i < end; ++i) {
    const Instance& inst = *instances.all()[i];
    nvtxNameCudaStreamA(inst.stream.get(), stream_name(i, inst.variant, inst.width, inst.height).c_str());
  }
#else
  (void)instances;
  (void)first;
  (void)count;
#endif
}

}  // namespace ls::sim
