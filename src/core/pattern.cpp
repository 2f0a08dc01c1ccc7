// pattern.cpp — reading RLE (as Golly writes it) and plaintext .cells, and writing RLE that Golly reads.
//
// Both parsers are single passes over the text: time is linear in the text plus the live cells
// produced, and memory is bounded by kMaxPatternCells, whatever the input.
#include "core/pattern.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "core/error.hpp"
#include "core/rule.hpp"
#include "core/text_file.hpp"

namespace ls {
namespace {

// A byte as a person can read it in a message: 'x' when printable, else its hex code.
std::string show(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", u);
  return std::string("byte ") + buf;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (is_space(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return s;
}
std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

// Iterates over the lines of a text, keeping line numbers (from 1) for messages.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    // An editor's UTF-8 byte order mark is not part of the pattern.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") {
      text_.remove_prefix(3);
      bom_ = 3;
    }
  }
  // The next line, without its '\n'; a final '\n' does not start another line.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t nl = text_.find('\n', pos_);
    const std::size_t end = nl == std::string_view::npos ? text_.size() : nl;
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }
  // Column (from 1) of a byte of the current line, as the person's editor counts it.
  int column(std::string_view line, const char* p) const {
    return static_cast<int>(p - line.data()) + 1 + (number_ == 1 ? bom_ : 0);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
  int bom_ = 0;
};

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

// Reads an unsigned decimal at p (advancing it); values above `limit` are an error. The caller has
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
      if (*p != ',') throw text_error(ln, col(p), "unexpected " + show(*p) + " in the header (expected ',')");
      ++p;
      skip();
    }
    const char* const key_at = p;
    while (p < end && (std::isalpha(static_cast<unsigned char>(*p)) || *p == '_')) ++p;
    const std::string_view key(key_at, static_cast<std::size_t>(p - key_at));
    if (key.empty())
      throw text_error(ln, col(p),
                       "unexpected " + (p < end ? show(*p) : "end of line") +
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
      const char* const rule_at = p;
      const std::string_view text = trim_right(std::string_view(p, static_cast<std::size_t>(end - p)));
      try {
        // "rule =" with nothing after it means the default rule, as no rule field does.
        if (check_rule && !text.empty()) (void)parse_rule_spec(text);
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
        throw text_error(ln, col(rule_at) + c - 1,
                         "bad rule: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
      }
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

// Rejects a pattern with too many live cells before the memory is taken.
void check_cell_count(std::size_t have, long long more, int line, int column) {
  if (static_cast<unsigned long long>(more) > kMaxPatternCells - have)
    throw text_error(line, column, "too many live cells (at most " + std::to_string(kMaxPatternCells) + ")");
}

// The RLE parser; `check_rule` as for parse_pattern.
Pattern parse_rle_checking(std::string_view text, bool check_rule) {
  Pattern pattern;
  Lines lines(text);
  std::string_view line;

  // Comment lines and blank lines, then the header.
  bool have_header = false;
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
    have_header = true;
    break;
  }
  if (!have_header)
    throw text_error(std::max(lines.number(), 1), 1, "missing RLE header (x = m, y = n, rule = R)");

  // The cells: [count] tag, with blanks and line breaks allowed anywhere between tokens (Golly's
  // reader also lets a count continue across a line break). Rows end with '$', the pattern with '!'.
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
        case 'A': {
          if (y >= pattern.height || x + n > pattern.width) {
            const long long first_out = y >= pattern.height ? x : std::max<long long>(x, pattern.width);
            throw text_error(lines.number(), column,
                             "live cell at (" + std::to_string(first_out) + ", " + std::to_string(y) +
                                 ") is outside the header's " + std::to_string(pattern.width) + " x " +
                                 std::to_string(pattern.height) + " box");
          }
          check_cell_count(pattern.cells.size(), n, lines.number(), column);
          for (long long i = 0; i < n; ++i)
            pattern.cells.push_back(Cell{static_cast<std::int32_t>(x + i), static_cast<std::int32_t>(y)});
          x += n;
          break;
        }
        case '$':
          y += n;
          x = 0;
          break;
        case '!':
          // Anything after '!' is free text (Golly puts nothing there, other programs notes).
          return pattern;
        default:
          if (std::isalpha(static_cast<unsigned char>(c))) {
            throw text_error(
                lines.number(), column,
                "cell state " + show(c) + ": lifestreams is two-state (dead is b or ., live is o or A)");
          }
          throw text_error(lines.number(), column, "unexpected " + show(c) + " in the cells");
      }
    }
  }
  if (count >= 0)
    throw text_error(count_line, count_column, "run count at the end of the file has no cell state after it");
  return pattern;
}

}  // namespace

Pattern parse_rle(std::string_view text) { return parse_rle_checking(text, true); }

Pattern parse_cells(std::string_view text) {
  Pattern pattern;
  Lines lines(text);
  std::string_view line;
  bool named = false;
  long long width = 0;
  long long rows = 0;  // rows read so far, blank ones included
  long long last_nonblank = 0;
  while (lines.next(line)) {
    if (!line.empty() && line.front() == '!') {
      std::string_view comment = trim_right(line.substr(1));
      if (!named && comment.substr(0, 5) == "Name:") {
        pattern.name = std::string(trim_left(comment.substr(5)));
        named = true;
      } else {
        if (!comment.empty() && comment.front() == ' ') comment.remove_prefix(1);
        pattern.comments.emplace_back(comment);
      }
      continue;
    }
    // Trailing blanks (and a CR from Windows) are not cells.
    const std::string_view row = trim_right(line);
    if (rows >= kMaxPatternSide)
      throw text_error(lines.number(), 1, "too many rows (at most " + std::to_string(kMaxPatternSide) + ")");
    if (static_cast<long long>(row.size()) > kMaxPatternSide)
      throw text_error(lines.number(), kMaxPatternSide + 1,
                       "row too long (at most " + std::to_string(kMaxPatternSide) + " cells)");
    for (std::size_t i = 0; i < row.size(); ++i) {
      const char c = row[i];
      if (c == 'O' || c == '*') {
        check_cell_count(pattern.cells.size(), 1, lines.number(), lines.column(line, row.data() + i));
        pattern.cells.push_back(Cell{static_cast<std::int32_t>(i), static_cast<std::int32_t>(rows)});
      } else if (c != '.') {
        throw text_error(
            lines.number(), lines.column(line, row.data() + i),
            "unexpected " + show(c) + " (.cells uses '.' for dead and 'O' for live, '!' for comments)");
      }
    }
    ++rows;
    if (!row.empty()) {
      width = std::max<long long>(width, static_cast<long long>(row.size()));
      last_nonblank = rows;
    }
  }
  // Blank lines at the end of the file are not rows of the pattern.
  pattern.width = static_cast<int>(width);
  pattern.height = static_cast<int>(last_nonblank);
  return pattern;
}

Pattern parse_pattern(std::string_view text, std::string_view name_hint, bool check_rule) {
  // "glider.rle.gz" holds RLE: the format is the name's before the compression's suffix.
  if (ends_with_icase(name_hint, ".gz")) name_hint.remove_suffix(3);
  if (ends_with_icase(name_hint, ".rle")) return parse_rle_checking(text, check_rule);
  if (ends_with_icase(name_hint, ".cells")) return parse_cells(text);
  Lines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view body = trim_left(trim_right(line));
    if (body.empty()) continue;
    if (body.substr(0, 9) == "#Life 1.0")
      throw text_error(lines.number(), 1,
                       "Life 1.05/1.06 files are not supported (save the pattern as RLE or .cells)");
    if (body.front() == '#' || body.front() == 'x') return parse_rle_checking(text, check_rule);
    return parse_cells(text);
  }
  return parse_cells(text);
}

bool is_pattern_file_name(std::string_view name) {
  if (ends_with_icase(name, ".gz")) name.remove_suffix(3);
  return ends_with_icase(name, ".rle") || ends_with_icase(name, ".cells");
}

Pattern load_pattern_file(const std::string& path, bool check_rule) {
  // The limit keeps a dropped disk image or log from taking the app's memory; real patterns are far smaller.
  // Gzipped files (Golly's .rle.gz, .cells.gz) are inflated under the same limit.
  const std::string text =
      read_text_file(path, "pattern", "RLE or .cells text", std::uintmax_t{64} << 20, Gzip::inflate);
  try {
    return parse_pattern(text, path, check_rule);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

namespace {

// Appends RLE tokens, wrapping lines before they pass 70 columns as Golly does.
class RleBody {
 public:
  explicit RleBody(std::string& out) : out_(out) {}
  void run(long long n, char tag) {
    if (n <= 0) return;
    std::string token = n > 1 ? std::to_string(n) : std::string();
    token += tag;
    if (column_ + token.size() > 70) {
      out_ += '\n';
      column_ = 0;
    }
    out_ += token;
    column_ += token.size();
  }
  void finish() {
    run(1, '!');
    out_ += '\n';
  }

 private:
  std::string& out_;
  std::size_t column_ = 0;
};

// One line of free text for a '#' line: no line breaks, no trailing blanks (a reader would drop them).
std::string one_line(std::string_view text) {
  std::string s(text);
  std::replace(s.begin(), s.end(), '\n', ' ');
  return std::string(trim_right(s));
}

}  // namespace

std::string write_rle(const Pattern& pattern, std::string_view rule_text) {
  std::string out;
  const std::string name = std::string(trim_left(one_line(pattern.name)));
  if (!name.empty()) out += "#N " + name + "\n";
  for (const std::string& comment : pattern.comments) {
    const std::string c = one_line(comment);
    out += c.empty() ? "#C\n" : "#C " + c + "\n";
  }
  if (pattern.pos)
    out += "#CXRLE Pos=" + std::to_string(pattern.pos->x) + "," + std::to_string(pattern.pos->y) + "\n";
  out += "x = " + std::to_string(pattern.width) + ", y = " + std::to_string(pattern.height);
  const std::string rule = one_line(trim_left(rule_text));
  if (!rule.empty()) out += ", rule = " + rule;
  out += "\n";

  for (const Cell& c : pattern.cells) {
    if (c.x < 0 || c.y < 0 || c.x >= pattern.width || c.y >= pattern.height)
      throw std::invalid_argument("write_rle: a live cell is outside the pattern's box");
  }
  // The cells should come sorted and unique; a pattern built by hand may not be.
  const std::vector<Cell>* cells = &pattern.cells;
  std::vector<Cell> sorted;
  const auto less = [](const Cell& a, const Cell& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
  if (!std::is_sorted(pattern.cells.begin(), pattern.cells.end(), less) ||
      std::adjacent_find(pattern.cells.begin(), pattern.cells.end()) != pattern.cells.end()) {
    sorted = pattern.cells;
    std::sort(sorted.begin(), sorted.end(), less);
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    cells = &sorted;
  }

  RleBody body(out);
  long long y = 0;  // the row the writer is on
  long long x = 0;  // the next column in that row
  std::size_t i = 0;
  while (i < cells->size()) {
    const Cell first = (*cells)[i];
    if (first.y != y) {
      body.run(first.y - y, '$');
      y = first.y;
      x = 0;
    }
    // A run of consecutive live cells in this row.
    std::size_t j = i + 1;
    while (j < cells->size() && (*cells)[j].y == first.y && (*cells)[j].x == (*cells)[j - 1].x + 1) ++j;
    body.run(first.x - x, 'b');
    body.run(static_cast<long long>(j - i), 'o');
    x = static_cast<long long>(first.x) + static_cast<long long>(j - i);
    i = j;
  }
  body.finish();
  return out;
}

}  // namespace ls
