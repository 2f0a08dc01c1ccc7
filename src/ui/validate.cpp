// validate.cpp — rule text and lattice size checks for the panel's input fields.
#include "ui/validate.hpp"

#include <string_view>

#include "core/error.hpp"
#include "core/lattice.hpp"

namespace ls::ui {

std::optional<Rule> check_rule_text(const char* text, std::string& error) {
  std::string_view s(text);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (s.empty()) {
    error = "type a rule: B3/S23, 23/3 or a name such as HighLife";
    return std::nullopt;
  }
  try {
    Rule rule = parse_rule(s);
    error.clear();
    return rule;
  } catch (const InputError& e) {
    error = e.what();
    return std::nullopt;
  }
}

bool check_size(long long width, long long height, std::string& error) {
  try {
    check_lattice_size(width, height);
    error.clear();
    return true;
  } catch (const InputError& e) {
    error = e.what();
    return false;
  }
}

}  // namespace ls::ui
