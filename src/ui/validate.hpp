// validate.hpp — checks of what a person types into the panel, giving the value or the one-line
// reason it is wrong (the panel shows the reason and emits no command).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rule.hpp"

namespace ls::ui {

/// The rule for `text` (B/S, S/B or a preset name; surrounding blanks ignored), or nullopt with
/// `error` set to parse_rule's reason. An empty text is an error too.
std::optional<Rule> check_rule_text(const char* text, std::string& error);

/// The CUDA device ordinals `text` lists ("1", "0,1"), read as the script command `devices I LIST`
/// reads its LIST (one grammar for both), or nullopt with `error` set to the script parser's reason.
std::optional<std::vector<int>> check_device_list_text(const char* text, std::string& error);

/// True if width x height is a valid lattice size (multiples of 32, 32..kMaxLatticeSide); else
/// false with `error` set.
bool check_size(long long width, long long height, std::string& error);

/// The whole number `text` holds (surrounding blanks ignored) if it lies in lo..hi, or nullopt
/// with `error` naming `what` and the range.
std::optional<long long> check_integer_text(const char* text, long long lo, long long hi, const char* what,
                                            std::string& error);

/// The number `text` holds (surrounding blanks ignored) if it lies in lo..hi, or nullopt with
/// `error` naming `what` and the range (a slider's typed value is checked, not clamped).
std::optional<double> check_number_text(const char* text, double lo, double hi, const char* what,
                                        std::string& error);

/// The seed `text` holds: a whole number 0..2^64-1, or nullopt with `error` set.
std::optional<std::uint64_t> check_seed_text(const char* text, std::string& error);

/// True if `text` names a regular file (the pattern path field); else false with `error` set.
bool check_pattern_path(const char* text, std::string& error);

}  // namespace ls::ui
