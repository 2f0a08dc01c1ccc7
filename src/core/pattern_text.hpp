// pattern_text.hpp — what the pattern readers share: blanks, trimming, a line reader that keeps
// line numbers and columns for messages, the live-cell limit, and the RLE reader that parse_pattern
// calls with or without its rule check. Internal to the pattern files (pattern.cpp, rle_*.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/pattern.hpp"

namespace ls::pattern_text {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

inline std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (is_space(s.back()) || s.back() == '\n')) s.remove_suffix(1);
  return s;
}
inline std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

/// Iterates over the lines of a text, keeping line numbers (from 1) for messages.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    // An editor's UTF-8 byte order mark is not part of the pattern.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") {
      text_.remove_prefix(3);
      bom_ = 3;
    }
  }
  /// The next line, without its '\n'; a final '\n' does not start another line.
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
  /// Column (from 1) of a byte of the current line, as the person's editor counts it.
  int column(std::string_view line, const char* p) const {
    return static_cast<int>(p - line.data()) + 1 + (number_ == 1 ? bom_ : 0);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
  int bom_ = 0;
};

/// Rejects a pattern with too many live cells before the memory is taken.
inline void check_cell_count(std::size_t have, long long more, int line, int column) {
  if (static_cast<unsigned long long>(more) > kMaxPatternCells - have)
    throw text_error(line, column, "too many live cells (at most " + std::to_string(kMaxPatternCells) + ")");
}

/// parse_rle, its header's rule checked only when `check_rule` (as for parse_pattern).
Pattern read_rle(std::string_view text, bool check_rule);

}  // namespace ls::pattern_text
