// fuzz_rle.cpp — libFuzzer target for the RLE reader and writer.
//
// Invariants: every rejection is an InputError located by line and column; an accepted pattern has
// sorted, unique cells inside its box; write_rle of it keeps body lines within 70 columns and parses
// back to the same pattern; writing is then a fixed point.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "fuzz_check.hpp"

namespace {

// An upper bound on the live cells the text could produce: runs of digits (and the blanks Golly lets
// a count continue across) bound a run's length, and each other byte is at most one cell.
std::uint64_t cell_bound(std::string_view text) {
  std::uint64_t bound = 0;
  std::uint64_t run = 0;
  int digits = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      ++digits;
      run = digits >= 7 ? (std::uint64_t{1} << 20) + 1 : run * 10 + 9;
    } else if (digits > 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
      continue;
    } else {
      bound += run + 1;
      run = 0;
      digits = 0;
    }
  }
  return bound + run;
}

bool located(const char* message) { return std::string_view(message).rfind("line ", 0) == 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Patterns of more than 16M cells are legal (up to kMaxPatternCells) but would test the allocator,
  // not the parser: skip the inputs that could make one.
  if (cell_bound(text) > (std::uint64_t{1} << 24)) return -1;

  ls::Pattern p;
  try {
    p = ls::parse_rle(text);
  } catch (const ls::InputError& e) {
    FUZZ_CHECK(located(e.what()));
    return 0;
  }
  FUZZ_CHECK(p.width >= 0 && p.width <= ls::kMaxPatternSide);
  FUZZ_CHECK(p.height >= 0 && p.height <= ls::kMaxPatternSide);
  for (std::size_t i = 0; i < p.cells.size(); ++i) {
    const ls::Cell c = p.cells[i];
    FUZZ_CHECK(c.x >= 0 && c.x < p.width && c.y >= 0 && c.y < p.height);
    if (i > 0) {
      const ls::Cell b = p.cells[i - 1];
      FUZZ_CHECK(b.y < c.y || (b.y == c.y && b.x < c.x));
    }
  }
  // Choosing the format by extension gives the same pattern.
  FUZZ_CHECK(ls::parse_pattern(text, "fuzz.rle").cells == p.cells);

  const std::string written = ls::write_rle(p, p.rule_text);
  std::size_t begin = 0;
  while (begin < written.size()) {
    std::size_t end = written.find('\n', begin);
    FUZZ_CHECK(end != std::string::npos);  // every line ends with '\n'
    const std::string_view line(written.data() + begin, end - begin);
    // '#' lines carry the author's text unchanged; the header holds the author's rule text.
    if (!line.empty() && line[0] != '#' && line[0] != 'x') FUZZ_CHECK(line.size() <= 70);
    begin = end + 1;
  }
  ls::Pattern q;
  try {
    q = ls::parse_rle(written);
  } catch (const ls::InputError& e) {
    std::fprintf(stderr, "written RLE does not parse: %s\n%s\n", e.what(), written.c_str());
    FUZZ_CHECK(false);
  }
  FUZZ_CHECK(q.name == p.name);
  FUZZ_CHECK(q.comments == p.comments);
  FUZZ_CHECK(q.rule_text == p.rule_text);
  FUZZ_CHECK(q.width == p.width && q.height == p.height);
  FUZZ_CHECK(q.cells == p.cells);
  FUZZ_CHECK(q.pos.has_value() == p.pos.has_value());
  if (p.pos) FUZZ_CHECK(*q.pos == *p.pos);
  FUZZ_CHECK(ls::write_rle(q, q.rule_text) == written);
  return 0;
}
