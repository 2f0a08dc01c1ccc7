// trace.cpp — implements trace.hpp on nvtx3 (the header-only NVTX that ships with the CUDA
// Toolkit), or as nothing when its headers were not found.
#include "core/trace.hpp"

#include <array>
#include <cstdint>

#if defined(LIFESTREAMS_HAVE_NVTX)
#include <nvtx3/nvToolsExt.h>
#endif

namespace ls::trace {

namespace {

constexpr std::array<const char*, kPhaseCount> kPhaseNames = {
    "frame",  "wait",    "input",     "panel",   "step enqueue",
    "labels", "display", "composite", "present", "run step"};

}  // namespace

std::string_view phase_name(Phase p) { return kPhaseNames[static_cast<std::size_t>(p)]; }

#if defined(LIFESTREAMS_HAVE_NVTX)

namespace {

/// Colours (ARGB) that tell the phases apart on a timeline: the frame grey, work blue, drawing
/// green, waiting orange.
constexpr std::array<std::uint32_t, kPhaseCount> kPhaseColours = {
    0xFF808080, 0xFFE69F00, 0xFF56B4E9, 0xFFCC79A7, 0xFF0072B2,
    0xFF999933, 0xFF009E73, 0xFF44AA99, 0xFFD55E00, 0xFF0072B2};
constexpr std::uint32_t kOneOffColour = 0xFF332288;

/// The domain and the phases' registered names: made at the first range (NVTX loads the tool, if
/// NVTX_INJECTION64_PATH names one, at its first call). A process-wide table because the domain
/// itself is: NVTX keeps one per process and name.
struct Registry {
  nvtxDomainHandle_t domain = nvtxDomainCreateA(kDomain);
  std::array<nvtxStringHandle_t, kPhaseCount> names{};
  Registry() {
    for (std::size_t i = 0; i < kPhaseCount; ++i)
      names[i] = nvtxDomainRegisterStringA(domain, kPhaseNames[i]);
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

nvtxEventAttributes_t attributes(std::uint32_t colour) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.colorType = NVTX_COLOR_ARGB;
  a.color = colour;
  return a;
}

}  // namespace

Scope::Scope(Phase phase) noexcept {
  const Registry& r = registry();
  const auto i = static_cast<std::size_t>(phase);
  nvtxEventAttributes_t a = attributes(kPhaseColours[i]);
  a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  a.message.registered = r.names[i];
  nvtxDomainRangePushEx(r.domain, &a);
}

Scope::Scope(const std::string& name) noexcept {
  nvtxEventAttributes_t a = attributes(kOneOffColour);
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = name.c_str();
  nvtxDomainRangePushEx(registry().domain, &a);
}

Scope::~Scope() { nvtxDomainRangePop(registry().domain); }

#else

Scope::Scope(Phase) noexcept {}
Scope::Scope(const std::string&) noexcept {}
Scope::~Scope() = default;

#endif

}  // namespace ls::trace
