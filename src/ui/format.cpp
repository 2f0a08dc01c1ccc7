// format.cpp — engineering-notation and millisecond formatting for the panel's tables, without
// printf (the timings table formats about a hundred numbers per frame, and the panel must cost
// nothing visible).
#include "ui/format.hpp"

#include <cmath>
#include <cstdint>

namespace ls::ui {

namespace {

/// Appends `s` at out[pos...] within `size` (always NUL-terminated); returns the new length.
std::size_t put(char* out, std::size_t size, std::size_t pos, const char* s) {
  while (*s != '\0' && pos + 1 < size) out[pos++] = *s++;
  if (pos < size) out[pos] = '\0';
  return pos;
}

/// Writes |value| rounded to `decimals` decimals (value < 1e15), with a leading '-' if negative.
std::size_t put_fixed(char* out, std::size_t size, std::size_t pos, double value, int decimals) {
  static constexpr double kPow10[] = {1, 10, 100, 1000, 10000, 100000};
  if (value < 0) {
    pos = put(out, size, pos, "-");
    value = -value;
  }
  const std::uint64_t scaled = static_cast<std::uint64_t>(std::llround(value * kPow10[decimals]));
  char digits[24];
  int n = 0;
  std::uint64_t v = scaled;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 || n <= decimals);  // at least one digit before the point
  char text[32];
  std::size_t t = 0;
  for (int i = n - 1; i >= 0; --i) {
    text[t++] = digits[i];
    if (i == decimals && decimals > 0) text[t++] = '.';
  }
  text[t] = '\0';
  return put(out, size, pos, text);
}

}  // namespace

const char* format_si(double value, char* out, std::size_t size) {
  if (size == 0) return out;
  out[0] = '\0';
  if (!std::isfinite(value)) {
    put(out, size, 0, "\xE2\x80\x94");  // em dash
    return out;
  }
  static constexpr const char* kPrefixes[] = {"", " k", " M", " G", " T", " P", " E"};
  constexpr int kLast = static_cast<int>(sizeof(kPrefixes) / sizeof(kPrefixes[0])) - 1;
  double scaled = std::fabs(value);
  int p = 0;
  while (scaled >= 1000.0 && p < kLast) {
    scaled /= 1000.0;
    ++p;
  }
  // Rounding to three significant digits may carry into the next prefix (999.7 k -> 1.00 M).
  if (scaled >= 999.5 && p < kLast) {
    scaled /= 1000.0;
    ++p;
  }
  if (scaled == 0.0) {
    put(out, size, 0, "0");
    return out;
  }
  const int decimals = scaled >= 99.95 ? 0 : scaled >= 9.995 ? 1 : 2;
  const std::size_t pos = put_fixed(out, size, 0, value < 0 ? -scaled : scaled, decimals);
  put(out, size, pos, kPrefixes[p]);
  return out;
}

const char* format_ms(double ms, char* out, std::size_t size) {
  if (size == 0) return out;
  out[0] = '\0';
  const double a = std::fabs(ms);
  if (!std::isfinite(ms)) {
    put(out, size, 0, "\xE2\x80\x94");
  } else if (a == 0.0) {
    put(out, size, 0, "0");
  } else if (a >= 1e12) {
    put(out, size, 0, "\xE2\x88\x9E");  // beyond any frame: infinity sign
  } else {
    const int decimals = a >= 99.95       ? 0
                         : a >= 9.995     ? 1
                         : a >= 0.9995    ? 2
                         : a >= 0.09995   ? 3
                         : a >= 0.0009995 ? 4
                                          : 5;
    put_fixed(out, size, 0, ms, decimals);
  }
  return out;
}

}  // namespace ls::ui
