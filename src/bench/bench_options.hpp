// bench_options.hpp — the options every `lifestreams bench` driver reads, through CLI11: the sweep's
// lists (variants, sizes, instances, stream modes, generations per launch, timing periods), the
// rule, --json and the devices; each parsed strictly, a bad one refused in one line of ours.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/engine.hpp"
#include "core/rule.hpp"

namespace CLI {
class App;
}

namespace ls::bench {

/// The options as given on the command line (text), as add_sweep_options stores them.
struct SweepArgs {
  std::optional<std::string> variants, sizes, instances, stream_mode, ks, timing_period, rule, json, device,
      devices;
};

/// Registers --variants, --sizes, --instances, --stream-mode, --generations-per-launch,
/// --timing-period, --rule, --json, --device and --devices on `app`, stored into `args`.
void add_sweep_options(CLI::App& app, SweepArgs& args);

/// Refuses a value that starts with "--" (`--json --bogus`: the file name is missing): InputError
/// "--json needs a value". Called after parse_command_line, which lets through values that are no
/// option of `app`.
void refuse_options_as_values(const CLI::App& app);

/// The sweep as the options give it: an absent list takes the driver's default.
struct Sweep {
  std::optional<std::vector<Variant>> variants;
  std::optional<std::vector<std::pair<int, int>>> sizes;
  std::optional<std::vector<int>> instances;
  std::optional<std::vector<StreamMode>> modes;
  std::optional<std::vector<int>> ks;
  std::optional<std::vector<int>> timing_periods;
  Rule rule = Rule::life();
  std::string json_path;

  /// No list given: the driver runs its default sweep.
  bool defaults() const { return !variants && !sizes && !instances && !modes && !ks && !timing_periods; }
};

/// Every option of `args` but the devices, parsed (sizes as WxH or N). InputError on a bad one.
Sweep parse_sweep(const SweepArgs& args);

/// --variants LIST: names of kernel variants.
std::vector<Variant> parse_variants(const std::string& text);
/// --generations-per-launch LIST: 1..kMaxGenerationsPerLaunch each.
std::vector<int> parse_generations_per_launch(const std::string& text);
/// --rule R, its error prefixed by the option.
Rule parse_rule_option(const std::string& text);
/// --json FILE: a non-empty file name.
std::string parse_json_option(const std::string& text);

/// A --json path that cannot be written is a bad argument, said before minutes of measuring.
void check_json_writable(const std::string& path);

}  // namespace ls::bench
