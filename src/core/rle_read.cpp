// rle_read.cpp — reading RLE as Golly writes it: '#' lines, the "x = m, y = n, rule = R" header
// and the run-length cells.
//
// One pass over the text: time is linear in the text plus the live cells produced, and memory is
// bounded by kMaxPatternCells, whatever the input.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/pattern_text.hpp"
#include "core/rule.hpp"

namespace ls {
namespace pattern_text {
namespace {

// An RLE '#' line (the marker is at line[0]): name, comments and Golly's #CXRLE position.
void read_hash_line(std::string_view line, Pattern& pattern) {
  if (line.substr(0, 6) == "#CXRLE") {
    // "#CXRLE Pos=x,y Gen=g": only Pos is kept. It is informational (placement ignores it), so a
    // Pos this app cannot hold (Golly's coordinates are unbounded) is dropped rather than an error.
    std::string_view rest = line.substr(6);
    const std::size_t at = rest.find("Pos=");
    if (at == std::string_view::npos) return;
    rest = rest.substr(at + 4);
    long long xy[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      bool negative = false;
      if (!rest.empty() && rest.front() == '-') {
        negative = true;
        rest.remove_prefix(1);
      }
      if (rest.empty() || !is_digit(rest.front())) return;
      long long v = 0;
      while (!rest.empty() && is_digit(rest.front())) {
        v = v * 10 + (rest.front() - '0');
        if (v > (1LL << 31)) return;
        rest.remove_prefix(1);
      }
      v = negative ? -v : v;
      if (v < INT32_MIN || v > INT32_MAX) return;
      xy[k] = v;
      if (k == 0) {
        if (rest.empty() || rest.front() != ',') return;
        rest.remove_prefix(1);
      }
    }
    if (!rest.empty() && !is_space(rest.front())) return;
    pattern.pos = Cell{static_cast<std::int32_t>(xy[0]), static_cast<std::int32_t>(xy[1])};
    return;
  }
  if (line.size() < 2) return;
  const char kind = line[1];
  // The text after the marker, less the one space that separates it (further spaces are the author's).
  std::string_view text = trim_right(line.substr(2));
  if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  if (kind == 'N') {
    pattern.name = std::string(trim_left(text));
  } else if (kind == 'C' || kind == 'c') {
    pattern.comments.emplace_back(text);
  }
  // #O (author), #R and #P (positions of other programs) and anything else are ignored, as Golly does.
}

// checked that *p is a digit.
long long read_number(const char*& p, const char* end, long long limit, int line, int column,
                      const char* what) {
  long long v = 0;
  while (p < end && is_digit(*p)) {
    v = v * 10 + (*p - '0');
    if (v > limit)
      throw text_error(line, column,
                       std::string(what) + " is too large (at most " + std::to_string(limit) + ")");
    ++p;
  }
  return v;
}

// The header's rule text, which starts at column `column` of line `line`.
void check_header_rule(std::string_view text, int line, int column) {
  try {
    // "rule =" with nothing after it means the default rule, as no rule field does.
    if (!text.empty()) (void)parse_rule_spec(text);
  } catch (const InputError& e) {
    // parse_rule_spec says "column C: what"; make C a column of the file's line.
    const std::string what = e.what();
    int c = 1;
    std::size_t colon = what.find(": ");
    if (what.rfind("column ", 0) == 0 && colon != std::string::npos) {
      c = std::atoi(what.c_str() + 7);
    } else {
      colon = std::string::npos;
    }
    throw text_error(line, column + c - 1,
                     "bad rule: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
}

struct Header {
  long long width = -1;
  long long height = -1;
  std::string rule_text;
};

// The header line "x = m, y = n, rule = R" (blanks optional, rule optional).
Header read_header(std::string_view line, const Lines& lines, bool check_rule) {
  const int ln = lines.number();
  const char* p = line.data();
  const char* const end = line.data() + line.size();
  const auto col = [&](const char* at) { return lines.column(line, at); };
  const auto skip = [&] {
    while (p < end && is_space(*p)) ++p;
  };
  Header header;
  bool first = true;
  for (;;) {
    skip();
    if (p >= end) break;
    if (!first) {
      if (*p != ',')
        throw text_error(ln, col(p), "unexpected " + byte_text(*p) + " in the header (expected ',')");
      ++p;
      skip();
    }
    const char* const key_at = p;
    while (p < end && (std::isalpha(static_cast<unsigned char>(*p)) || *p == '_')) ++p;
    const std::string_view key(key_at, static_cast<std::size_t>(p - key_at));
    if (key.empty())
      throw text_error(ln, col(p),
                       "unexpected " + (p < end ? byte_text(*p) : "end of line") +
                           " in the header (expected x = m, y = n, rule = R)");
    skip();
    if (p >= end || *p != '=')
      throw text_error(ln, col(p), "expected '=' after '" + std::string(key) + "' in the header");
    ++p;
    skip();
    if (key == "x" || key == "y") {
      long long& value = key == "x" ? header.width : header.height;
      if (value >= 0)
        throw text_error(ln, col(key_at), "'" + std::string(key) + "' given twice in the header");
      if (p < end && *p == '-') throw text_error(ln, col(p), "negative pattern size in the header");
      if (p >= end || !is_digit(*p))
        throw text_error(ln, col(p), "expected a number after '" + std::string(key) + " =' in the header");
      const char* const number_at = p;
      value = read_number(
          p, end, kMaxPatternSide, ln, col(number_at),
          key == "x" ? "the pattern width (absurd header)" : "the pattern height (absurd header)");
    } else if (key == "rule") {
      // The rule runs to the end of the line; it is checked here (unless the caller replaces it)
      // so that a bad one is located.
      const std::string_view text = trim_right(std::string_view(p, static_cast<std::size_t>(end - p)));
      if (check_rule) check_header_rule(text, ln, col(p));
      header.rule_text = std::string(text);
      break;
    } else {
      throw text_error(ln, col(key_at),
                       "unknown header field '" + std::string(key) + "' (expected x, y, rule)");
    }
    first = false;
  }
  if (header.width < 0) throw text_error(ln, 1, "the header has no 'x = width'");
  if (header.height < 0) throw text_error(ln, 1, "the header has no 'y = height'");
  return header;
}

// Comment lines and blank lines, then the header: the pattern's box and rule.
void read_rle_header_lines(Lines& lines, Pattern& pattern, bool check_rule) {
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view body = trim_left(line);
    if (body.empty() || trim_right(body).empty()) continue;
    if (body.front() == '#') {
      read_hash_line(body, pattern);
      continue;
    }
    if (body.front() != 'x')
      throw text_error(lines.number(), lines.column(line, body.data()),
                       "missing RLE header (expected a line 'x = m, y = n, rule = R' before the cells)");
    const Header header = read_header(body, lines, check_rule);
    pattern.width = static_cast<int>(header.width);
    pattern.height = static_cast<int>(header.height);
    pattern.rule_text = header.rule_text;
    return;
  }
  throw text_error(std::max(lines.number(), 1), 1, "missing RLE header (x = m, y = n, rule = R)");
}

// A run of `n` live cells from (x, y), refused when it leaves the header's box.
void place_live_run(Pattern& pattern, long long x, long long y, long long n, int line, int column) {
  if (y >= pattern.height || x + n > pattern.width) {
    const long long first_out = y >= pattern.height ? x : std::max<long long>(x, pattern.width);
    throw text_error(line, column,
                     "live cell at (" + std::to_string(first_out) + ", " + std::to_string(y) +
                         ") is outside the header's " + std::to_string(pattern.width) + " x " +
                         std::to_string(pattern.height) + " box");
  }
  check_cell_count(pattern.cells.size(), n, line, column);
  for (long long i = 0; i < n; ++i)
    pattern.cells.push_back(Cell{static_cast<std::int32_t>(x + i), static_cast<std::int32_t>(y)});
}

// The cells: [count] tag, with blanks and line breaks allowed anywhere between tokens (Golly's
// reader also lets a count continue across a line break). Rows end with '$', the pattern with '!'.
void read_rle_cells(Lines& lines, Pattern& pattern) {
  std::string_view line;
  long long x = 0;
  long long y = 0;
  long long count = -1;  // -1: no count pending
  int count_line = 0;
  int count_column = 0;
  while (lines.next(line)) {
    const char* p = line.data();
    const char* const end = line.data() + line.size();
    while (p < end && is_space(*p)) ++p;
    if (p < end && *p == '#' && count < 0) {
      read_hash_line(std::string_view(p, static_cast<std::size_t>(end - p)), pattern);
      continue;
    }
    for (; p < end; ++p) {
      const char c = *p;
      if (is_space(c)) continue;
      const int column = lines.column(line, p);
      if (is_digit(c)) {
        if (count < 0) {
          count = 0;
          count_line = lines.number();
          count_column = column;
        }
        count = count * 10 + (c - '0');
        if (count > kMaxPatternSide)
          throw text_error(count_line, count_column,
                           "run count is too large (at most " + std::to_string(kMaxPatternSide) + ")");
        continue;
      }
      // Golly reads a missing or zero count as 1.
      const long long n = count <= 0 ? 1 : count;
      count = -1;
      switch (c) {
        case 'b':
        case '.':
          x += n;
          break;
        case 'o':
        case 'A':
          place_live_run(pattern, x, y, n, lines.number(), column);
          x += n;
          break;
        case '$':
          y += n;
          x = 0;
          break;
        case '!':
          // Anything after '!' is free text (Golly puts nothing there, other programs notes).
          return;
        default:
          if (std::isalpha(static_cast<unsigned char>(c))) {
            throw text_error(
                lines.number(), column,
                "cell state " + byte_text(c) + ": lifestreams is two-state (dead is b or ., live is o or A)");
          }
          throw text_error(lines.number(), column, "unexpected " + byte_text(c) + " in the cells");
      }
    }
  }
  if (count >= 0)
    throw text_error(count_line, count_column, "run count at the end of the file has no cell state after it");
}

}  // namespace

Pattern read_rle(std::string_view text, bool check_rule) {
  Pattern pattern;
  Lines lines(text);
  read_rle_header_lines(lines, pattern, check_rule);
  read_rle_cells(lines, pattern);
  return pattern;
}

}  // namespace pattern_text

Pattern parse_rle(std::string_view text) { return pattern_text::read_rle(text, true); }

}  // namespace ls
