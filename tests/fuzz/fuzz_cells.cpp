// fuzz_cells.cpp — libFuzzer target for the plaintext .cells reader.
//
// Invariants: every rejection is an InputError located by line and column; an accepted pattern has
// one live cell per 'O' or '*' outside comment lines, sorted and inside its box; as RLE it reads back
// the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ls::Pattern p;
  try {
    p = ls::parse_cells(text);
  } catch (const ls::InputError& e) {
    FUZZ_CHECK(std::string_view(e.what()).rfind("line ", 0) == 0);
    return 0;
  }
  // Count the live cells the simple way: 'O' and '*' on lines that are not '!' comments (a byte
  // order mark at the start of the file is not part of line 1).
  std::string_view body = text;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  std::size_t live = 0;
  bool comment = !body.empty() && body[0] == '!';
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\n') {
      comment = i + 1 < body.size() && body[i + 1] == '!';
    } else if (!comment && (body[i] == 'O' || body[i] == '*')) {
      ++live;
    }
  }
  FUZZ_CHECK(p.cells.size() == live);
  for (std::size_t i = 0; i < p.cells.size(); ++i) {
    const ls::Cell c = p.cells[i];
    FUZZ_CHECK(c.x >= 0 && c.x < p.width && c.y >= 0 && c.y < p.height);
    if (i > 0) {
      const ls::Cell b = p.cells[i - 1];
      FUZZ_CHECK(b.y < c.y || (b.y == c.y && b.x < c.x));
    }
  }
  const ls::Pattern q = ls::parse_rle(ls::write_rle(p, "B3/S23"));
  FUZZ_CHECK(q.name == p.name);
  FUZZ_CHECK(q.comments == p.comments);
  FUZZ_CHECK(q.width == p.width && q.height == p.height);
  FUZZ_CHECK(q.cells == p.cells);
  return 0;
}
