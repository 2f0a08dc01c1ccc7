// validate.hpp — checks of what a person types into the panel, giving the value or the one-line
// reason it is wrong (the panel shows the reason and emits no command).
#pragma once

#include <optional>
#include <string>

#include "core/rule.hpp"

namespace ls::ui {

/// The rule for `text` (B/S, S/B or a preset name; surrounding blanks ignored), or nullopt with
/// `error` set to parse_rule's reason. An empty text is an error too.
std::optional<Rule> check_rule_text(const char* text, std::string& error);

/// True if width x height is a valid lattice size (multiples of 32, 32..kMaxLatticeSide); else
/// false with `error` set.
bool check_size(long long width, long long height, std::string& error);

}  // namespace ls::ui
