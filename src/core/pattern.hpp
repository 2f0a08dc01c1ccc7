// pattern.hpp — Life patterns in RLE (as Golly reads and writes it) and plaintext .cells.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ls {

struct Cell {
  std::int32_t x = 0;
  std::int32_t y = 0;
  friend bool operator==(const Cell& a, const Cell& b) { return a.x == b.x && a.y == b.y; }
};

/// A pattern: a w x h box and the live cells in it (coordinates relative to the box's top-left,
/// sorted by y then x, no duplicates).
struct Pattern {
  std::string name;                   // from #N
  std::vector<std::string> comments;  // from #C / #c / .cells '!' lines (text after the marker)
  std::string rule_text;              // the header's rule = ... text as written ("" if absent)
  int width = 0;
  int height = 0;
  std::vector<Cell> cells;
  /// `#CXRLE Pos=x,y` if the file had one (informational: placement ignores it).
  std::optional<Cell> pos;
};

/// Largest accepted box side; larger headers or .cells files are an InputError ("absurd").
inline constexpr int kMaxPatternSide = 1 << 20;
/// Largest accepted number of live cells in one file (protects memory from hostile input).
inline constexpr std::size_t kMaxPatternCells = std::size_t{1} << 28;

/// Parses RLE. Throws InputError "line L, column C: what" for: another cell letter (two-state
/// app), counts that overflow, a negative or absurd header, cells outside the header's box,
/// a missing header, a bad rule in the header. A missing final '!' is accepted at end of file.
Pattern parse_rle(std::string_view text);

/// Parses plaintext .cells ('.' dead, 'O' live, '!' comment lines). Throws InputError.
Pattern parse_cells(std::string_view text);

/// Parses by content: RLE if the first non-comment line starts with "x", else .cells.
/// `name_hint` (a file name) chooses by extension when it is .rle or .cells, also before a final
/// ".gz" (".rle.gz" is RLE). `check_rule` false:
/// the RLE header's rule is kept as text unchecked (for a caller that replaces the file's rule).
Pattern parse_pattern(std::string_view text, std::string_view name_hint = {}, bool check_rule = true);

/// Reads and parses a file, gzip-compressed too (Golly's .rle.gz and .cells.gz: gzip data is
/// recognised by its magic bytes and inflated). InputError for a missing, unreadable, empty, binary
/// or huge file, or a directory, and for gzip data that is corrupt, truncated or inflates past the
/// same size limit (refused while inflating), naming the path. `check_rule` as for parse_pattern.
Pattern load_pattern_file(const std::string& path, bool check_rule = true);

/// Whether a file name is one a pattern list offers (folders, drops): .rle, .cells, .rle.gz or
/// .cells.gz, in any case.
bool is_pattern_file_name(std::string_view name);

/// Writes RLE that Golly reads back: #N / #C lines, an optional "#CXRLE Pos=x,y" line when
/// `pattern.pos` is set, the header "x = w, y = h, rule = R", lines of at most 70 columns,
/// trailing dead cells omitted, final '!'.
std::string write_rle(const Pattern& pattern, std::string_view rule_text);

}  // namespace ls
