// format.hpp — number formatting for the panel: engineering notation and milliseconds, written
// into caller-owned buffers so that drawing a table allocates nothing.
#pragma once

#include <cstddef>

namespace ls::ui {

/// Writes `value` with three significant digits and an SI prefix ("1.23 T", "456 G", "12.0 k",
/// "0.500"); negative values keep their sign; non-finite values give "—". Returns `out`.
const char* format_si(double value, char* out, std::size_t size);

/// Writes a duration in milliseconds with about three significant digits ("0.0123", "1.23",
/// "12.3", "123", "1234"; 5 decimals below 0.001 ms: "0.00042"). Returns `out`.
const char* format_ms(double ms, char* out, std::size_t size);

}  // namespace ls::ui
