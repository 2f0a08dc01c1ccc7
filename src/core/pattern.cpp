// pattern.cpp — reading plaintext .cells, choosing a pattern's format by name or content, and
// loading pattern files (gzipped too).
//
// The .cells reader is a single pass over the text: time is linear in the text plus the live cells
// produced, and memory is bounded by kMaxPatternCells, whatever the input.
#include "core/pattern.hpp"

#include <algorithm>
#include <cstdint>

#include "core/error.hpp"
#include "core/pattern_text.hpp"
#include "core/text_file.hpp"

namespace ls {

using pattern_text::Lines;
using pattern_text::trim_left;
using pattern_text::trim_right;

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
        pattern_text::check_cell_count(pattern.cells.size(), 1, lines.number(),
                                       lines.column(line, row.data() + i));
        pattern.cells.push_back(Cell{static_cast<std::int32_t>(i), static_cast<std::int32_t>(rows)});
      } else if (c != '.') {
        throw text_error(
            lines.number(), lines.column(line, row.data() + i),
            "unexpected " + byte_text(c) + " (.cells uses '.' for dead and 'O' for live, '!' for comments)");
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
  if (ends_with_icase(name_hint, ".rle")) return pattern_text::read_rle(text, check_rule);
  if (ends_with_icase(name_hint, ".cells")) return parse_cells(text);
  Lines lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view body = trim_left(trim_right(line));
    if (body.empty()) continue;
    if (body.substr(0, 9) == "#Life 1.0")
      throw text_error(lines.number(), 1,
                       "Life 1.05/1.06 files are not supported (save the pattern as RLE or .cells)");
    if (body.front() == '#' || body.front() == 'x') return pattern_text::read_rle(text, check_rule);
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

}  // namespace ls
