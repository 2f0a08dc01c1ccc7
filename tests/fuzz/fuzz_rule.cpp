// fuzz_rule.cpp — libFuzzer target for the rule parser (B/S, S/B, presets, Golly's torus suffix).
//
// Invariants: every rejection is an InputError naming a column inside the text (or just past it);
// an accepted rule uses neighbour counts 0..8 only, prints canonically and parses back to itself;
// parse_rule and parse_rule_spec agree on text without a suffix; a torus has two positive sides.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/rule.hpp"
#include "fuzz_check.hpp"

namespace {

void check_error(const ls::InputError& e, std::size_t size) {
  const std::string_view what = e.what();
  FUZZ_CHECK(what.rfind("column ", 0) == 0);
  const long column = std::strtol(e.what() + 7, nullptr, 10);
  FUZZ_CHECK(column >= 1 && static_cast<std::size_t>(column) <= size + 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  bool rule_ok = false;
  ls::Rule rule;
  try {
    rule = ls::parse_rule(text);
    rule_ok = true;
  } catch (const ls::InputError& e) {
    check_error(e, size);
  }
  ls::RuleSpec spec;
  try {
    spec = ls::parse_rule_spec(text);
  } catch (const ls::InputError& e) {
    check_error(e, size);
    FUZZ_CHECK(!rule_ok);  // what parse_rule takes, parse_rule_spec takes too
    return 0;
  }
  FUZZ_CHECK(spec.torus_width.has_value() == spec.torus_height.has_value());
  if (spec.torus_width) {
    FUZZ_CHECK(*spec.torus_width > 0 && *spec.torus_height > 0);
    FUZZ_CHECK(!rule_ok);  // a suffix is refused by parse_rule
  } else {
    FUZZ_CHECK(rule_ok && rule == spec.rule);
  }
  FUZZ_CHECK(spec.rule.birth < 512 && spec.rule.survive < 512);
  const std::string canonical = spec.rule.to_string();
  FUZZ_CHECK(ls::parse_rule(canonical) == spec.rule);
  FUZZ_CHECK(ls::parse_rule(canonical).to_string() == canonical);
  if (spec.torus_width) {
    const std::string with_suffix =
        canonical + ":T" + std::to_string(*spec.torus_width) + "," + std::to_string(*spec.torus_height);
    const ls::RuleSpec again = ls::parse_rule_spec(with_suffix);
    FUZZ_CHECK(again.rule == spec.rule && again.torus_width == spec.torus_width &&
               again.torus_height == spec.torus_height);
  }
  return 0;
}
