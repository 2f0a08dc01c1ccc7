// cli_numbers.cpp — strict command-line numbers and our wording of CLI11's parse errors.
#include "control/numbers.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/lattice.hpp"

namespace ls {

std::string shown(std::string_view text) { return text.empty() ? std::string("''") : std::string(text); }

namespace {

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

long long parse_whole(std::string_view flag, std::string_view text, long long min, long long max) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = negative ? text.substr(1) : text;
  long long value = 0;
  bool ok = all_digits(digits) && (!negative || min < 0);
  if (ok) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    ok = ec == std::errc() && end == text.data() + text.size() && value >= min && value <= max;
  }
  if (!ok) {
    throw InputError(std::string(flag) + " " + shown(text) + ": expected a whole number " +
                     std::to_string(min) + ".." + std::to_string(max));
  }
  return value;
}

std::uint64_t parse_unsigned64(std::string_view flag, std::string_view text) {
  std::uint64_t value = 0;
  bool ok = all_digits(text);
  if (ok) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    ok = ec == std::errc() && end == text.data() + text.size();
  }
  if (!ok) {
    throw InputError(std::string(flag) + " " + shown(text) + ": expected an unsigned 64-bit number (0.." +
                     std::to_string(std::numeric_limits<std::uint64_t>::max()) + ")");
  }
  return value;
}

std::pair<int, int> parse_lattice_size(std::string_view flag, std::string_view text) {
  const std::size_t x = text.find_first_of("xX");
  const long long w = parse_whole(flag, text.substr(0, x), 32, kMaxLatticeSide);
  const long long h =
      x == std::string_view::npos ? w : parse_whole(flag, text.substr(x + 1), 32, kMaxLatticeSide);
  try {
    check_lattice_size(w, h);
  } catch (const InputError& e) {
    throw InputError(std::string(flag) + ": " + e.what());
  }
  return {static_cast<int>(w), static_cast<int>(h)};
}

double parse_real(std::string_view flag, std::string_view text, double min, double max) {
  // strtod (from_chars for double needs a newer libstdc++ than some builders have); the text must be
  // a plain decimal number: no blanks, no hex, no inf/nan.
  const std::string s(text);
  bool ok = !s.empty() && s.find_first_not_of("0123456789.eE+-") == std::string::npos;
  double value = 0;
  if (ok) {
    char* end = nullptr;
    value = std::strtod(s.c_str(), &end);
    ok = end == s.c_str() + s.size() && std::isfinite(value) && value >= min && value <= max;
  }
  if (!ok) {
    throw InputError(std::string(flag) + " " + shown(text) + ": expected a value from " + number_text(min) +
                     " to " + number_text(max));
  }
  return value;
}

bool parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  app.allow_extras();
  // Every option keeps its last value as far as CLI11 is concerned; "given twice" is ours below.
  for (CLI::Option* opt : app.get_options()) opt->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return false;
  } catch (const CLI::ArgumentMismatch& e) {
    // "NAME: 1 required TEXT missing" and its kin: a value is missing (CLI11 2.x names the option
    // before the first ": ").
    const std::string what = e.what();
    const std::size_t colon = what.find(": ");
    const std::string name = colon == std::string::npos ? std::string() : what.substr(0, colon);
    if (what.find("missing") != std::string::npos && !name.empty()) throw InputError(name + " needs a value");
    throw InputError(name.empty() ? std::string("bad arguments; see --help")
                                  : name + ": bad value; see --help");
  } catch (const CLI::ConversionError& e) {
    // Only flags convert here (every option takes text): "--headless=maybe".
    const std::string what = e.what();
    const std::size_t at = what.find("--");
    const std::size_t end = what.find_first_of(" :=", at);
    const std::string name = at == std::string::npos ? std::string("a flag") : what.substr(at, end - at);
    throw InputError(name + " takes no value");
  } catch (const CLI::ParseError&) {
    throw InputError("bad arguments; see --help");
  }
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->count() > 1) throw InputError(opt->get_name() + " given twice");
    // CLI11 takes the next argument as the value even when it is another option ("--pattern
    // --width 32"): the value is missing.
    for (const std::string& value : opt->results()) {
      if (value.rfind("--", 0) == 0 && app.get_option_no_throw(value.substr(0, value.find('='))) != nullptr)
        throw InputError(opt->get_name() + " needs a value");
    }
  }
  const std::vector<std::string> extra = app.remaining();
  if (!extra.empty()) {
    const std::string& first = extra.front();
    if (first.size() > 1 && first[0] == '-') {
      throw InputError("unknown option " + first.substr(0, first.find('=')) + "; see --help");
    }
    throw InputError("unexpected argument " + shown(first) + "; see --help");
  }
  return true;
}

std::vector<std::string> split_list(std::string_view flag, std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty())
      throw InputError(std::string(flag) + ": empty item in list \"" + std::string(text) + "\"");
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace ls
