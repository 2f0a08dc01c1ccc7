// fuzz_script.cpp — libFuzzer target for the script parser (the command set's text form).
//
// Invariants: every rejection is an InputError "FILE:N:C: ..." with N a line of the text and C a
// column of that line (or one past its end); accepted commands come with increasing line numbers
// and a column inside their line, and format_command gives one line that parses back to a command
// printing the same (parse_command(format_command(c)) is c).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/command.hpp"
#include "core/error.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::size_t> widths{0};  // each line's length
  for (char c : text) {
    if (c == '\n')
      widths.push_back(0);
    else
      ++widths.back();
  }
  const std::size_t lines = widths.size();

  std::vector<ls::ScriptLine> script;
  try {
    script = ls::parse_script(text, "f.script");
  } catch (const ls::InputError& e) {
    const std::string_view what = e.what();
    FUZZ_CHECK(what.rfind("f.script:", 0) == 0);
    char* end = nullptr;
    const long line = std::strtol(e.what() + 9, &end, 10);
    FUZZ_CHECK(line >= 1 && static_cast<std::size_t>(line) <= lines);
    FUZZ_CHECK(*end == ':');
    const long column = std::strtol(end + 1, &end, 10);
    FUZZ_CHECK(column >= 1 && static_cast<std::size_t>(column) <= widths[line - 1] + 1);
    FUZZ_CHECK(end[0] == ':' && end[1] == ' ');
    return 0;
  }
  int previous = 0;
  for (const auto& [line, column, command] : script) {
    FUZZ_CHECK(line > previous && static_cast<std::size_t>(line) <= lines);
    FUZZ_CHECK(column >= 1 && static_cast<std::size_t>(column) <= widths[line - 1]);
    previous = line;
    const std::string formatted = ls::format_command(command);
    FUZZ_CHECK(formatted.find('\n') == std::string::npos);
    std::optional<ls::Command> again;
    try {
      again = ls::parse_command(formatted);
    } catch (const ls::InputError& e) {
      std::fprintf(stderr, "formatted command does not parse: %s\n%s\n", e.what(), formatted.c_str());
      FUZZ_CHECK(false);
    }
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(again->index() == command.index());
    FUZZ_CHECK(ls::format_command(*again) == formatted);
  }
  return 0;
}
