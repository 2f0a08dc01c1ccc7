// rle_write.cpp — writing RLE that Golly reads back: '#' lines, the header, rows of runs wrapped
// before 70 columns.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/pattern.hpp"
#include "core/pattern_text.hpp"

namespace ls {
namespace {

using pattern_text::trim_left;
using pattern_text::trim_right;

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
