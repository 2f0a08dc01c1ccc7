// bench_options.cpp — the options of every bench driver (bench_options.hpp): CLI11 takes them as
// text, and each is parsed here by the same strict rules `lifestreams run` uses.
#include "bench/bench_options.hpp"

#include <CLI/CLI.hpp>

#include <fstream>

#include "control/numbers.hpp"
#include "core/error.hpp"

namespace ls::bench {

namespace {

struct OptionText {
  const char* name;
  std::optional<std::string> SweepArgs::*field;
  const char* value;
  const char* description;
};

constexpr OptionText kOptions[] = {
    {"--variants", &SweepArgs::variants, "LIST",
     "CUDA kernels, comma-separated: naive, global, shared, iterate, bitpacked"},
    {"--sizes", &SweepArgs::sizes, "LIST", "lattices WxH or N (N x N), comma-separated"},
    {"--instances", &SweepArgs::instances, "LIST", "instance counts, comma-separated, 1..1024"},
    {"--stream-mode", &SweepArgs::stream_mode, "LIST", "per-instance, shared or graph, comma-separated"},
    {"--generations-per-launch", &SweepArgs::ks, "LIST",
     "k for iterate and bitpacked, comma-separated (1..64)"},
    {"--timing-period", &SweepArgs::timing_period, "LIST",
     "the engine's timing events go around one frame in N (1..1000), comma-separated"},
    {"--rule", &SweepArgs::rule, "R", "B/S or S/B rule (default B3/S23)"},
    {"--json", &SweepArgs::json, "FILE", "also write the rows as JSON"},
    {"--device", &SweepArgs::device, "N", "CUDA device number (default 0); the same as --devices N"},
    {"--devices", &SweepArgs::devices, "LIST", "CUDA devices, comma-separated, or all"},
};

}  // namespace

void add_sweep_options(CLI::App& app, SweepArgs& a) {
  for (const OptionText& o : kOptions) app.add_option(o.name, a.*o.field, o.description)->type_name(o.value);
}

void refuse_options_as_values(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& value : opt->results())
      if (value.rfind("--", 0) == 0) throw InputError(opt->get_name() + " needs a value");
}

std::vector<Variant> parse_variants(const std::string& text) {
  std::vector<Variant> list;
  for (const auto& item : split_list("--variants", text)) {
    const auto v = parse_variant(item);
    if (!v)
      throw InputError("--variants: unknown variant \"" + item +
                       "\" (naive, global, shared, iterate, bitpacked)");
    list.push_back(*v);
  }
  return list;
}

std::vector<int> parse_generations_per_launch(const std::string& text) {
  std::vector<int> list;
  for (const auto& item : split_list("--generations-per-launch", text))
    list.push_back(
        static_cast<int>(parse_whole("--generations-per-launch", item, 1, kMaxGenerationsPerLaunch)));
  return list;
}

Rule parse_rule_option(const std::string& text) {
  try {
    return parse_rule(text);
  } catch (const InputError& e) {
    throw InputError(std::string("--rule: ") + e.what());
  }
}

std::string parse_json_option(const std::string& text) {
  if (text.empty()) throw InputError("--json needs a file name");
  return text;
}

void check_json_writable(const std::string& path) {
  if (!path.empty() && !std::ofstream(path, std::ios::app))
    throw InputError("--json: cannot write \"" + path + "\"");
}

namespace {

std::vector<int> parse_wholes(const char* flag, const std::string& text, int min, int max) {
  std::vector<int> list;
  for (const auto& item : split_list(flag, text))
    list.push_back(static_cast<int>(parse_whole(flag, item, min, max)));
  return list;
}

std::vector<StreamMode> parse_stream_modes(const std::string& text) {
  std::vector<StreamMode> list;
  for (const auto& item : split_list("--stream-mode", text)) {
    const auto m = parse_stream_mode(item);
    if (!m) throw InputError("--stream-mode: unknown mode \"" + item + "\" (per-instance, shared, graph)");
    list.push_back(*m);
  }
  return list;
}

}  // namespace

Sweep parse_sweep(const SweepArgs& a) {
  Sweep s;
  if (a.variants) s.variants = parse_variants(*a.variants);
  if (a.sizes) {
    s.sizes.emplace();
    for (const auto& item : split_list("--sizes", *a.sizes))
      s.sizes->push_back(parse_lattice_size("--sizes", item));
  }
  if (a.instances) s.instances = parse_wholes("--instances", *a.instances, 1, 1024);
  if (a.stream_mode) s.modes = parse_stream_modes(*a.stream_mode);
  if (a.ks) s.ks = parse_generations_per_launch(*a.ks);
  if (a.timing_period)
    s.timing_periods = parse_wholes("--timing-period", *a.timing_period, 1, kMaxTimingPeriod);
  if (a.rule) s.rule = parse_rule_option(*a.rule);
  if (a.json) s.json_path = parse_json_option(*a.json);
  return s;
}

}  // namespace ls::bench
