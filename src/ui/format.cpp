// format.cpp — engineering-notation and millisecond formatting for the panel's tables.
#include "ui/format.hpp"

#include <cmath>
#include <cstdio>

namespace ls::ui {

const char* format_si(double value, char* out, std::size_t size) {
  if (!std::isfinite(value)) {
    std::snprintf(out, size, "\xE2\x80\x94");  // em dash
    return out;
  }
  static constexpr const char* kPrefixes[] = {"", " k", " M", " G", " T", " P", " E"};
  constexpr int kLast = static_cast<int>(sizeof(kPrefixes) / sizeof(kPrefixes[0])) - 1;
  const double magnitude = std::fabs(value);
  int p = 0;
  double scaled = magnitude;
  while (scaled >= 1000.0 && p < kLast) {
    scaled /= 1000.0;
    ++p;
  }
  // Rounding to three significant digits may carry into the next prefix (999.7 k -> 1.00 M).
  if (scaled >= 999.5 && p < kLast) {
    scaled /= 1000.0;
    ++p;
  }
  const char* sign = value < 0 ? "-" : "";
  if (magnitude == 0.0) {
    std::snprintf(out, size, "0");
  } else if (scaled >= 99.95) {
    std::snprintf(out, size, "%s%.0f%s", sign, scaled, kPrefixes[p]);
  } else if (scaled >= 9.995) {
    std::snprintf(out, size, "%s%.1f%s", sign, scaled, kPrefixes[p]);
  } else {
    std::snprintf(out, size, "%s%.2f%s", sign, scaled, kPrefixes[p]);
  }
  return out;
}

const char* format_ms(double ms, char* out, std::size_t size) {
  const double a = std::fabs(ms);
  if (!std::isfinite(ms)) {
    std::snprintf(out, size, "\xE2\x80\x94");
  } else if (a == 0.0) {
    std::snprintf(out, size, "0");
  } else if (a >= 99.95) {
    std::snprintf(out, size, "%.0f", ms);
  } else if (a >= 9.995) {
    std::snprintf(out, size, "%.1f", ms);
  } else if (a >= 0.9995) {
    std::snprintf(out, size, "%.2f", ms);
  } else if (a >= 0.09995) {
    std::snprintf(out, size, "%.3f", ms);
  } else {
    std::snprintf(out, size, "%.4f", ms);
  }
  return out;
}

}  // namespace ls::ui
