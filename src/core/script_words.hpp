// script_words.hpp — the words of a script line: the tokenizer, the argument reader and the readers
// of numbers, instance numbers and on/off, each refusing a word with "column C: reason". Internal to
// the script grammar (command*.cpp); not for other layers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/command.hpp"
#include "core/error.hpp"

namespace ls::script {

/// One word of a line.
struct Token {
  std::string text;
  int column = 1;  // 1-based column of the token's first character
  bool quoted = false;
};

/// A word echoed in a message, cut so that a hostile line (a megabyte-long number) still gives a
/// readable one-line error.
std::string cut(std::string_view what);

/// The shortest text that reads back as exactly `v`.
std::string real_text(double v);

/// A refused line: what() is parse_command's "column C: reason"; parse_script puts the file and
/// line in front of the reason.
class LineError : public InputError {
 public:
  LineError(int column, const std::string& reason)
      : InputError("column " + std::to_string(column) + ": " + reason), column_(column), reason_(reason) {}
  int column() const { return column_; }
  const std::string& reason() const { return reason_; }

 private:
  int column_;
  std::string reason_;
};

/// The refusal of the word at `column`, its words cut.
LineError at(int column, const std::string& what);

/// Runs one of the range checks for the word at `column`: its refusal located there.
template <typename Check>
void checked_at(int column, Check check) {
  try {
    check();
  } catch (const LineError&) {
    throw;
  } catch (const InputError& e) {
    throw at(column, e.what());
  }
}

/// The blanks that separate words.
bool is_blank(char c);

/// Splits a line into words; `"..."` holds blanks (with \" and \\ escapes); `#` outside quotes
/// ends the line.
std::vector<Token> tokenize(std::string_view line);

/// Reads the arguments of one command in order, with errors that name the argument and column.
class Args {
 public:
  Args(const std::vector<Token>& tokens, std::string_view name, int end_column)
      : tokens_(tokens), name_(name), end_column_(end_column) {}

  const Token& next(const char* what);
  bool more() const { return pos_ < tokens_.size(); }
  void done() const;
  void set_usage(std::string usage) { usage_ = std::move(usage); }
  std::size_t position() const { return pos_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  void skip_rest() { pos_ = tokens_.size(); }

 private:
  std::string usage_suffix() const { return usage_.empty() ? "" : " (usage: " + usage_ + ")"; }
  const std::vector<Token>& tokens_;
  std::string_view name_;
  int end_column_;
  std::size_t pos_ = 1;  // token 0 is the command name
  std::string usage_;
};

/// An integer whose range `check` states (one of the check_* functions): refused at its column with
/// the check's words, the value as written.
long long ranged_integer(const Token& t, const char* what, void (*check)(long long, std::string_view));

/// An integer whose range is the run's (the executor checks it): only its form, and that it fits in
/// [lo, hi], the `bits`-bit type that holds it, are checked here.
long long free_integer(const Token& t, const char* what, long long lo, long long hi, int bits);

/// An unsigned 64-bit number, decimal or 0x hexadecimal (`hex_only`: hexadecimal alone).
std::uint64_t parse_u64(const Token& t, const char* what, bool hex_only);

/// A finite real number (an optional '+').
double parse_real(const Token& t, const char* what);

/// An instance number: the executor checks it against the instances there are.
std::size_t parse_index(const Token& t, const char* expected = "expected an instance number");

/// An instance number or `all`.
Target parse_target(const Token& t);

/// `on` or `off`.
bool parse_on_off(const Token& t);

}  // namespace ls::script
