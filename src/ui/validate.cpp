// validate.cpp — rule text, number, seed, lattice size and path checks for the panel's fields.
#include "ui/validate.hpp"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/command.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"

namespace ls::ui {

namespace {

std::string_view trimmed(const char* text) {
  std::string_view s(text);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::vector<int>> check_device_list_text(const char* text, std::string& error) {
  const std::string_view s = trimmed(text);
  if (s.empty()) {
    error = "type the GPUs the instance runs on: 1, or 0,1";
    return std::nullopt;
  }
  // The script's own parser, on the line the field stands for: the same list, the same reasons.
  constexpr std::string_view kHead = "devices 0 ";
  try {
    const std::optional<Command> c = parse_command(std::string(kHead) + std::string(s));
    if (const auto* d = c ? std::get_if<cmd::Devices>(&*c) : nullptr) {
      error.clear();
      return d->devices;
    }
    error = "type device numbers separated by commas";
  } catch (const InputError& e) {
    // "column N: reason": the column counts in the script line, not in the field.
    const std::string what = e.what();
    const std::size_t colon = what.rfind("column ", 0) == 0 ? what.find(": ") : std::string::npos;
    error = colon == std::string::npos ? what : what.substr(colon + 2);
  }
  return std::nullopt;
}

std::optional<Rule> check_rule_text(const char* text, std::string& error) {
  const std::string_view s = trimmed(text);
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

std::optional<long long> check_integer_text(const char* text, long long lo, long long hi, const char* what,
                                            std::string& error) {
  const std::string s(trimmed(text));
  char* end = nullptr;
  errno = 0;
  const long long v = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || v < lo || v > hi) {
    error =
        std::string(what) + ": type a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    return std::nullopt;
  }
  error.clear();
  return v;
}

std::optional<double> check_number_text(const char* text, double lo, double hi, const char* what,
                                        std::string& error) {
  const std::string s(trimmed(text));
  char* end = nullptr;
  const double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || v < lo || v > hi) {
    char range[64];
    std::snprintf(range, sizeof range, "%g to %g", lo, hi);
    error = std::string(what) + ": type a number from " + range;
    return std::nullopt;
  }
  error.clear();
  return v;
}

std::optional<std::uint64_t> check_seed_text(const char* text, std::string& error) {
  const std::string s(trimmed(text));
  char* end = nullptr;
  errno = 0;
  // strtoull accepts a sign ("-1" wraps to 2^64-1): digits only.
  const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  const unsigned long long v = digits ? std::strtoull(s.c_str(), &end, 10) : 0;
  if (!digits || errno == ERANGE) {
    error = "seed: type a whole number from 0 to 18446744073709551615";
    return std::nullopt;
  }
  error.clear();
  return static_cast<std::uint64_t>(v);
}

bool check_pattern_path(const char* text, std::string& error) {
  const std::string s(text);  // as typed: a file name may begin or end with a blank
  std::error_code ec;
  if (trimmed(text).empty()) {
    error = "type the path of a .rle or .cells file";
    return false;
  }
  if (!std::filesystem::is_regular_file(s, ec)) {
    error = "no such file: " + s;
    return false;
  }
  error.clear();
  return true;
}

}  // namespace ls::ui
