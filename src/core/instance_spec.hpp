// instance_spec.hpp — what an engine instance is made from: its variant, rule, size and start
// (a random soup, a given lattice or a copy), the stream modes and the limits every front end checks,
// and the cross-check origins that say which instances must agree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/lattice.hpp"
#include "core/rule.hpp"

namespace ls {

enum class Variant { naive, global, shared, iterate, bitpacked };
inline constexpr std::array<Variant, 5> kAllVariants = {Variant::naive, Variant::global, Variant::shared,
                                                        Variant::iterate, Variant::bitpacked};
std::string_view variant_name(Variant v);
std::optional<Variant> parse_variant(std::string_view name);
/// Variants that run several generations per launch (generations_per_launch applies).
inline bool variant_iterates(Variant v) { return v == Variant::iterate || v == Variant::bitpacked; }

enum class StreamMode { per_instance, shared, graph };
inline constexpr std::array<StreamMode, 3> kAllStreamModes = {StreamMode::per_instance, StreamMode::shared,
                                                              StreamMode::graph};
std::string_view stream_mode_name(StreamMode m);  // "per-instance" | "shared" | "graph"
std::optional<StreamMode> parse_stream_mode(std::string_view name);

inline constexpr int kMaxGenerationsPerLaunch = 64;
/// Instances one device runs at most (the panel's, the scripts' and --instances' limit on one GPU);
/// an engine over several GPUs takes this many per GPU (Engine::max_instances).
inline constexpr int kMaxInstancesPerDevice = 64;
/// The highest CUDA device ordinal the command line and scripts accept (the machine's own count is
/// checked where a device is used).
inline constexpr int kMaxDeviceOrdinal = 1023;
/// Largest timing period (Engine::set_timing_period).
inline constexpr int kMaxTimingPeriod = 1000;
/// Throws InputError naming the range when `period` is outside 1..kMaxTimingPeriod.
void check_timing_period(int period);
/// CUDA device ordinals as the command line and scripts write them: "0,1" ("" for none).
std::string device_list_text(const std::vector<int>& devices);

struct RandomInit {
  double density = 0.25;
  std::uint64_t seed = 1;
};
/// Start from another instance's current state (and generation).
struct CopyInit {
  std::size_t source = 0;
};
/// Initial state: a random soup, a given lattice (its size wins over the spec's), or a copy.
using InitialState = std::variant<RandomInit, Lattice, CopyInit>;

struct InstanceSpec {
  int width = 1024;
  int height = 1024;
  Rule rule;
  Variant variant = Variant::bitpacked;
  int generations_per_launch = 16;
  InitialState init = RandomInit{};
};

/// The cross-check origin of a random or lattice start: equal for equal starts (size, density,
/// seed or cells) under equal rules, so instances started alike can be compared. A copy takes its
/// source's origin; an edit (set_cell, set_rule, replace) gives an instance a fresh unique one.
std::uint64_t start_origin(const InstanceSpec& spec);
/// A unique origin for edited instances (never equal to a start_origin value).
std::uint64_t unique_origin();
/// The origin of an instance whose rule changed to `rule` at `generation`: instances that stood
/// in one state (one origin at one generation) and change to one rule stay one group, so that
/// `rule all` keeps them comparable. Never equal to a start_origin value.
std::uint64_t rule_change_origin(std::uint64_t origin, const Rule& rule, std::uint64_t generation);

}  // namespace ls
