// nvtx_names.hpp — the names the CUDA engine's streams carry in a profiler (Nsight Systems): each
// instance's stream "#i variant WxH", named again whenever its index, variant or size changes.
#pragma once

#include <cstddef>
#include <limits>
#include <string>

#include "core/engine.hpp"

namespace ls::sim {

class Instances;

/// "#i variant WxH", e.g. "#3 bitpacked 1024x1024".
std::string stream_name(std::size_t index, Variant variant, int width, int height);

/// Names the own streams of `count` instances from `first` (at most up to the last one) and the
/// shared stream: after an add, the new one; after a remove, all from the removed index (the later
/// ones were renumbered); after a variant or size change, that one. A no-op without a tool attached.
void name_streams(const Instances& instances, std::size_t first,
                  std::size_t count = std::numeric_limits<std::size_t>::max());

}  // namespace ls::sim
