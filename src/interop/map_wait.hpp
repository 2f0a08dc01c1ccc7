// map_wait.hpp — how long the render stream waits in the frame's one map call (GL releasing the
// textures), timed by events around the call and read a few frames later without blocking.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/stats.hpp"
#include "kernels/cuda_check.hpp"
#include "sim/cuda_handles.hpp"

namespace ls::interop {

class MapWaitTimer {
 public:
  /// Events around one frame's map call on the render stream.
  struct Slot {
    cuda::Event before{cuda::Event::Create{}};
    cuda::Event after{cuda::Event::Create{}};
    bool pending = false;
  };

  /// Records the start event on `stream` (before the map call) and returns the frame's slot, or
  /// nullptr when that slot is still in flight: then the frame goes unmeasured. Harvests finished
  /// slots first.
  Slot* begin(cudaStream_t stream) {
    harvest();
    Slot& slot = slots_[frame_++ % kSlots];
    if (slot.pending) return nullptr;
    slot.before.record(stream);
    return &slot;
  }
  /// Records the end event on `stream` (after the map call).
  static void end(Slot* slot, cudaStream_t stream) {
    if (!slot) return;
    slot->after.record(stream);
    slot->pending = true;
  }
  StatSummary summary() const { return waits_.summary(); }

 private:
  void harvest() {
    for (Slot& slot : slots_) {
      if (!slot.pending) continue;
      // Not finished yet: read in a later frame (cudaEventQuery never blocks).
      if (cudaEventQuery(slot.after.get()) != cudaSuccess) continue;
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, slot.before.get(), slot.after.get()));
      waits_.add(ms);
      slot.pending = false;
    }
  }

  /// Frames whose events may be in flight at once; a slot still pending skips its frame.
  static constexpr std::size_t kSlots = 4;
  std::array<Slot, kSlots> slots_;
  std::uint64_t frame_ = 0;
  RollingStats waits_;
};

}  // namespace ls::interop
