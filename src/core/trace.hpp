// trace.hpp — lifestreams' own names in a profiler: ranges on the calling thread in the NVTX domain
// "lifestreams" (Nsight Systems shows them beside the CUDA work). Plain C++: NVTX's core is
// header-only and needs no CUDA; without its headers, or with no tool attached, a range costs a
// call and a test of a null pointer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ls::trace {

/// The fixed ranges lifestreams marks. Their names are registered with the tool once, so that a
/// frame's ranges pass a handle rather than a string.
enum class Phase {
  frame,         // one frame of the app's loop
  wait,          // waiting for the frame two before (its GL fence)
  input,         // input mapped to commands
  panel,         // the panel built from the engine's figures, its commands executed
  step_enqueue,  // Engine::step: the frame's work enqueued
  labels,        // tile labels, the readout, ImGui's draw lists
  display,       // every tile filled from its lattice
  composite,     // tiles and the ImGui layer drawn into the frame
  present,       // screenshot, fence, swap
  run_step,      // `lifestreams run`: one step() of up to a chunk of generations
  count
};
inline constexpr std::size_t kPhaseCount = static_cast<std::size_t>(Phase::count);

/// The name Phase `p` carries in the profiler ("frame", "step enqueue", ...).
std::string_view phase_name(Phase p);

/// The NVTX domain of every lifestreams range and name.
inline constexpr const char* kDomain = "lifestreams";

/// A range in the lifestreams domain on this thread, from construction to destruction (NVTX push
/// and pop: ranges nest as scopes do). Never throws.
class Scope {
 public:
  explicit Scope(Phase phase) noexcept;
  /// A range of a one-off name (a bench row); the text is copied by the tool.
  explicit Scope(const std::string& name) noexcept;
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
};

}  // namespace ls::trace
