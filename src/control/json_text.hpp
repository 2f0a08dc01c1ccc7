// json_text.hpp — the two pieces of JSON text that the report and the benches write by hand: a
// quoted, escaped string and a number (%.6g; null where JSON has no number: NaN, infinities).
#pragma once

#include <string>
#include <string_view>

namespace ls::app {

std::string json_string(std::string_view s);
std::string json_number(double v);

}  // namespace ls::app
