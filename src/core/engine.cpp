// engine.cpp — names of variants and stream modes; cross-check origins.
#include "core/engine.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "core/splitmix.hpp"

namespace ls {

InstanceSpec spec_like(const InstanceStatus& s, InitialState init) {
  InstanceSpec spec;
  spec.width = s.width;
  spec.height = s.height;
  spec.rule = s.rule;
  spec.variant = s.variant;
  spec.generations_per_launch = s.generations_per_launch;
  spec.init = std::move(init);
  return spec;
}

namespace {

// Names in enum order (kAllVariants and kAllStreamModes list the enums in that order).
constexpr std::array<std::string_view, kAllVariants.size()> kVariantNames = {"naive", "global", "shared",
                                                                             "iterate", "bitpacked"};
constexpr std::array<std::string_view, kAllStreamModes.size()> kStreamModeNames = {"per-instance", "shared",
                                                                                   "graph"};
static_assert(static_cast<std::size_t>(Variant::bitpacked) + 1 == kVariantNames.size());
static_assert(static_cast<std::size_t>(StreamMode::graph) + 1 == kStreamModeNames.size());

template <typename Enum, std::size_t N>
std::string_view name_of(Enum value, const std::array<std::string_view, N>& names) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> parse_name(std::string_view name, const std::array<std::string_view, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  return std::nullopt;
}

}  // namespace

std::string_view variant_name(Variant v) { return name_of(v, kVariantNames); }

std::optional<Variant> parse_variant(std::string_view name) {
  return parse_name<Variant>(name, kVariantNames);
}

std::string_view stream_mode_name(StreamMode m) { return name_of(m, kStreamModeNames); }

std::optional<StreamMode> parse_stream_mode(std::string_view name) {
  return parse_name<StreamMode>(name, kStreamModeNames);
}

void check_timing_period(int period) {
  if (period < 1 || period > kMaxTimingPeriod) {
    throw InputError("timing period must be 1.." + std::to_string(kMaxTimingPeriod) + ", got " +
                     std::to_string(period));
  }
}

std::string device_list_text(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) {
    if (!out.empty()) out += ',';
    out += std::to_string(d);
  }
  return out;
}

void DevicePlacement::set_instance_devices(std::size_t index, const std::vector<int>& devices) {
  const std::vector<int> now = instance_devices(index);
  if (devices == now) return;
  throw InputError("instance " + std::to_string(index) + " cannot run on GPU " + device_list_text(devices) +
                   ": this engine runs on one device (" +
                   (now.empty() ? "host memory" : "GPU " + device_list_text(now)) +
                   "); list the GPUs with --devices");
}

void Engine::add_moved(const InstanceSpec& spec, std::uint64_t generation, std::uint64_t origin) {
  (void)spec;
  (void)generation;
  (void)origin;
  throw InputError("this engine (" + backend() + ") cannot take an instance moved from another device");
}

std::unique_ptr<PreparedInstance> Simulation::prepare(const InstanceSpec& spec,
                                                      BuildProgress& progress) const {
  if (progress.cancel.load()) return nullptr;
  return std::make_unique<PreparedInstance>(spec);
}

void Engine::install(std::vector<Installation> batch) {
  // The add or replace happens here: keep what each replaced instance was, so that a failure
  // part-way (memory) puts every instance back. One entry alone has add's or replace's own
  // guarantee, and needs no copy (a copy of a GPU lattice is a blocking download).
  const std::size_t size_before = size();
  if (batch.size() == 1) {
    if (batch[0].index < size_before)
      replace(batch[0].index, batch[0].prepared->spec);
    else
      add(batch[0].prepared->spec);
    return;
  }
  std::vector<std::pair<std::size_t, InstanceSpec>> before;
  for (const Installation& in : batch)
    if (in.index < size_before) before.emplace_back(in.index, spec_like(status(in.index), read(in.index)));
  std::size_t done = 0;
  try {
    for (; done < batch.size(); ++done) {
      const Installation& in = batch[done];
      if (in.index < size_before)
        replace(in.index, in.prepared->spec);
      else
        add(in.prepared->spec);
    }
  } catch (...) {
    while (size() > size_before) remove(size() - 1);
    std::size_t k = 0;
    for (std::size_t i = 0; i < done; ++i)
      if (batch[i].index < size_before) replace(batch[i].index, before[k++].second);
    throw;
  }
}

namespace {
// Start origins have the top bit clear, unique origins have it set: the two never collide.
constexpr std::uint64_t kUniqueBit = 1ull << 63;
std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return splitmix64(h ^ v); }
}  // namespace

std::uint64_t start_origin(const InstanceSpec& spec) {
  std::uint64_t h = mix(0x6c69666573747265ull, (std::uint64_t{spec.rule.birth} << 16) | spec.rule.survive);
  if (const auto* r = std::get_if<RandomInit>(&spec.init)) {
    h = mix(h, (static_cast<std::uint64_t>(spec.width) << 32) | static_cast<std::uint32_t>(spec.height));
    h = mix(h, std::bit_cast<std::uint64_t>(r->density));
    h = mix(h, r->seed);
  } else if (const auto* l = std::get_if<Lattice>(&spec.init)) {
    h = mix(h, 0x4c41545449434521ull);
    h = mix(h, l->hash());
  } else {
    h = mix(h, 0x434f505921ull);  // copies take their source's origin; callers handle CopyInit
  }
  return h & ~kUniqueBit;
}

std::uint64_t rule_change_origin(std::uint64_t origin, const Rule& rule, std::uint64_t generation) {
  std::uint64_t h = mix(origin, 0x52554c452d544f21ull);
  h = mix(h, (std::uint64_t{rule.birth} << 16) | rule.survive);
  h = mix(h, generation);
  return kUniqueBit | h;
}

std::uint64_t unique_origin() {
  static std::atomic<std::uint64_t> next{1};
  return kUniqueBit | next.fetch_add(1);
}

std::vector<int> devices_in_use(const Engine& engine) {
  std::vector<int> out;
  const auto add = [&](int d) {
    if (d >= 0 && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  };
  add(engine.cuda_device());
  for (std::size_t i = 0; i < engine.size(); ++i)
    for (const int d : engine.instance_devices(i)) add(d);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ls
