// script_words.cpp — the words of a script line: tokenizer, argument reader, number and instance
// readers.
#include "core/script_words.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace ls::script {

namespace {
// Messages echo the offending words; a hostile line must still give a one-line error.
constexpr std::size_t kMaxMessage = 200;
}  // namespace

std::string cut(std::string_view what) {
  return what.size() > kMaxMessage ? std::string(what.substr(0, kMaxMessage)) + "..." : std::string(what);
}

std::string real_text(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  return std::string(buf, ptr);
}

LineError at(int column, const std::string& what) { return LineError(column, cut(what)); }

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    if (is_blank(line[i])) {
      ++i;
      continue;
    }
    if (line[i] == '#') break;
    Token token;
    token.column = static_cast<int>(i) + 1;
    if (line[i] == '"') {
      token.quoted = true;
      ++i;
      bool closed = false;
      while (i < line.size()) {
        const char c = line[i];
        if (c == '"') {
          closed = true;
          ++i;
          break;
        }
        if (c == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
          token.text += line[i + 1];
          i += 2;
          continue;
        }
        token.text += c;
        ++i;
      }
      if (!closed) throw at(token.column, "unterminated quoted string");
      if (i < line.size() && !is_blank(line[i]) && line[i] != '#')
        throw at(static_cast<int>(i) + 1, "expected a blank after the closing quote");
    } else {
      while (i < line.size() && !is_blank(line[i]) && line[i] != '#') {
        if (line[i] == '"') throw at(static_cast<int>(i) + 1, "a quote may only start a word");
        token.text += line[i];
        ++i;
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

const Token& Args::next(const char* what) {
  if (pos_ >= tokens_.size())
    throw at(end_column_, std::string(name_) + ": missing " + what + usage_suffix());
  return tokens_[pos_++];
}

void Args::done() const {
  if (pos_ < tokens_.size())
    throw at(tokens_[pos_].column, std::string(name_) + ": unexpected extra argument '" + tokens_[pos_].text +
                                       "'" + usage_suffix());
}

namespace {

/// An integer as written (an optional sign). InputError when it is not one; `fits` false (and the
/// value the nearest 64-bit one) when it is one beyond 64 bits.
long long parse_integer(const Token& t, const char* what, bool& fits) {
  const std::string& s = t.text;
  long long value = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (!s.empty() && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (s.empty() || ec == std::errc::invalid_argument || ptr != last)
    throw at(t.column, std::string(what) + " must be an integer, got '" + s + "'");
  fits = ec != std::errc::result_out_of_range;
  if (!fits)
    value = s[0] == '-' ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  return value;
}

}  // namespace

long long ranged_integer(const Token& t, const char* what, void (*check)(long long, std::string_view)) {
  bool fits = true;
  const long long value = parse_integer(t, what, fits);
  checked_at(t.column, [&] { check(value, t.text); });
  return value;
}

long long free_integer(const Token& t, const char* what, long long lo, long long hi, int bits) {
  bool fits = true;
  const long long value = parse_integer(t, what, fits);
  if (!fits || value < lo || value > hi)
    throw at(t.column,
             std::string(what) + " " + t.text + " does not fit in " + std::to_string(bits) + " bits");
  return value;
}

std::uint64_t parse_u64(const Token& t, const char* what, bool hex_only) {
  std::string_view s = t.text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  } else if (hex_only) {
    throw at(t.column, std::string(what) + " must be hexadecimal with a 0x prefix, got '" + t.text + "'");
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (s.empty() || ec == std::errc::invalid_argument || ptr != s.data() + s.size())
    throw at(t.column, std::string(what) + " must be an unsigned 64-bit number, got '" + t.text + "'");
  if (ec == std::errc::result_out_of_range)
    throw at(t.column, std::string(what) + " does not fit in 64 bits: " + t.text);
  return value;
}

double parse_real(const Token& t, const char* what) {
  const std::string& s = t.text;
  double value = 0;
  const char* first = s.data();
  if (!s.empty() && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(value))
    throw at(t.column, std::string(what) + " must be a finite number, got '" + s + "'");
  return value;
}

std::size_t parse_index(const Token& t, const char* expected) {
  const std::string& s = t.text;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (!s.empty() && *first == '+') ++first;
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (first == last || !std::isdigit(static_cast<unsigned char>(*first)) ||
      ec == std::errc::invalid_argument || ptr != last)
    throw at(t.column, std::string(expected) + ", got '" + s + "'");
  static_assert(sizeof(std::size_t) >= sizeof(std::uint64_t), "an instance number is a 64-bit number");
  if (ec == std::errc::result_out_of_range)
    throw at(t.column, "instance number " + s + " does not fit in 64 bits");
  return static_cast<std::size_t>(value);
}

Target parse_target(const Token& t) {
  if (t.text == "all") return Target{true, 0};
  return Target{false, parse_index(t, "expected an instance number or 'all'")};
}

bool parse_on_off(const Token& t) {
  if (t.text == "on") return true;
  if (t.text == "off") return false;
  throw at(t.column, "expected 'on' or 'off', got '" + t.text + "'");
}

}  // namespace ls::script
