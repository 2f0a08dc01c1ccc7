// rule.cpp — parsing and printing of Life-like rules: B/S and S/B notation, presets, Golly's torus suffix.
#include "core/rule.hpp"

#include <cctype>

#include "core/error.hpp"

namespace ls {
namespace {

InputError column_error(std::size_t index, const std::string& what) {
  return InputError("column " + std::to_string(index + 1) + ": " + what);
}

// Larger sides could not be allocated anyway; the bound keeps the value inside an int.
constexpr long long kMaxTorusSide = 1 << 30;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

// Reads neighbour-count digits from text[i...] into a mask until a non-digit; `what` names the
// part ("birth" / "survival") for the messages.
std::uint16_t read_digits(std::string_view text, std::size_t& i, const char* what) {
  std::uint16_t mask = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    const int n = text[i] - '0';
    if (n > 8)
      throw column_error(i, std::string("neighbour count 9 in the ") + what + " part (counts are 0..8)");
    if (mask & (1u << n))
      throw column_error(i, "digit " + std::string(1, text[i]) + " repeated in the " + what + " part");
    mask = static_cast<std::uint16_t>(mask | (1u << n));
  }
  return mask;
}

// Parses text[begin, end) (already trimmed): indices stay those of the text the person wrote, so that
// columns in messages point into it.
Rule parse_rule_body(std::string_view text, std::size_t begin, std::size_t end) {
  const std::string_view body = text.substr(0, end);
  if (begin >= end) throw column_error(begin, "empty rule (expected e.g. B3/S23, 23/3 or Life)");

  for (const NamedRule& named : named_rules()) {
    if (iequals(body.substr(begin), named.name)) return named.rule;
  }

  Rule rule;
  std::size_t i = begin;
  const char first = static_cast<char>(std::tolower(static_cast<unsigned char>(body[i])));
  if (first == 'b' || first == 's') {
    // B/S notation; Golly also takes the parts the other way round (S23/B3) and no slash (B3S23).
    bool seen_b = false;
    bool seen_s = false;
    while (i < end) {
      const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(body[i])));
      if (letter == 'b' && !seen_b) {
        ++i;
        rule.birth = read_digits(body, i, "birth");
        seen_b = true;
      } else if (letter == 's' && !seen_s) {
        ++i;
        rule.survive = read_digits(body, i, "survival");
        seen_s = true;
      } else if (letter == 'b' || letter == 's') {
        throw column_error(i, std::string("second ") + (letter == 'b' ? "B" : "S") + " part");
      } else {
        throw column_error(i, "unexpected " + byte_text(body[i]) + " (expected a digit 0..8, '/', B or S)");
      }
      if (i < end && body[i] == '/') {
        if (seen_b && seen_s) throw column_error(i, "unexpected '/' after the rule");
        ++i;
      }
    }
    if (!seen_b) throw column_error(end, "missing the B (birth) part, e.g. B3/S23");
    if (!seen_s) throw column_error(end, "missing the S (survival) part, e.g. B3/S23 (B2/S for none)");
    return rule;
  }
  if (std::isdigit(static_cast<unsigned char>(body[i])) || body[i] == '/') {
    // S/B notation: survival digits, '/', birth digits ("23/3", "/2", "23/").
    rule.survive = read_digits(body, i, "survival");
    if (i >= end) throw column_error(i, "missing '/' (S/B rules read survival/birth, e.g. 23/3)");
    if (body[i] != '/')
      throw column_error(i, "unexpected " + byte_text(body[i]) + " (expected a digit 0..8 or '/')");
    ++i;
    rule.birth = read_digits(body, i, "birth");
    if (i < end) throw column_error(i, "unexpected " + byte_text(body[i]) + " (expected a digit 0..8)");
    return rule;
  }
  throw column_error(begin,
                     "unexpected " + byte_text(body[begin]) +
                         " (expected B/S notation like B3/S23, S/B like 23/3, or a name: Life, HighLife, "
                         "Day & Night, Seeds)");
}

// Leading/trailing blanks are forgiven (a rule typed into a script or a header).
void trim(std::string_view text, std::size_t& begin, std::size_t& end) {
  begin = 0;
  end = text.size();
  while (begin < end && is_blank(text[begin])) ++begin;
  while (end > begin && is_blank(text[end - 1])) --end;
}

// A positive torus side from text[i...]; advances i past the digits.
// `only` ends the messages about unsupported topologies.
int read_torus_size(std::string_view text, std::size_t& i, std::size_t end, const char* what,
                    const std::string& only) {
  const std::size_t start = i;
  long long value = 0;
  while (i < end && std::isdigit(static_cast<unsigned char>(text[i]))) {
    value = value * 10 + (text[i] - '0');
    if (value > kMaxTorusSide)
      throw column_error(start, std::string("torus ") + what + " is too large (at most " +
                                    std::to_string(kMaxTorusSide) + ")");
    ++i;
  }
  if (i == start) throw column_error(i, std::string("missing the torus ") + what + only);
  if (value == 0)
    throw column_error(start, std::string("torus ") + what + " 0 is a plane or cylinder" + only);
  return static_cast<int>(value);
}

}  // namespace

std::string Rule::to_string() const {
  std::string text = "B";
  for (int n = 0; n <= 8; ++n)
    if (birth & (1u << n)) text += static_cast<char>('0' + n);
  text += "/S";
  for (int n = 0; n <= 8; ++n)
    if (survive & (1u << n)) text += static_cast<char>('0' + n);
  return text;
}

const std::vector<NamedRule>& named_rules() {
  static const std::vector<NamedRule> rules = {
      {"Life", Rule{1u << 3, (1u << 2) | (1u << 3)}},
      {"HighLife", Rule{(1u << 3) | (1u << 6), (1u << 2) | (1u << 3)}},
      {"Day & Night", Rule{(1u << 3) | (1u << 6) | (1u << 7) | (1u << 8),
                           (1u << 3) | (1u << 4) | (1u << 6) | (1u << 7) | (1u << 8)}},
      {"Seeds", Rule{1u << 2, 0}},
  };
  return rules;
}

Rule parse_rule(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = 0;
  trim(text, begin, end);
  const std::size_t colon = text.substr(0, end).find(':', begin);
  if (colon != std::string_view::npos)
    throw column_error(colon, "a ':' topology suffix is not accepted here (give the lattice size instead)");
  return parse_rule_body(text, begin, end);
}

RuleSpec parse_rule_spec(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = 0;
  trim(text, begin, end);
  const std::size_t colon = text.substr(0, end).find(':', begin);
  RuleSpec spec;
  std::size_t rule_end = colon == std::string_view::npos ? end : colon;
  while (rule_end > begin && is_blank(text[rule_end - 1])) --rule_end;
  spec.rule = parse_rule_body(text, begin, rule_end);
  if (colon == std::string_view::npos) return spec;

  // Golly's ":Tw,h" with positive sizes is a torus; a zero size means a plane or a cylinder, '*'
  // a twist, and P/K/C/S other topologies: none of those is supported.
  const std::string only = " (only the torus :Tw,h is supported, e.g. B3/S23:T256,256)";
  std::size_t i = colon + 1;
  if (i >= end || (text[i] != 'T' && text[i] != 't')) {
    throw column_error(i, i >= end ? "missing topology after ':'" + only
                                   : "topology " + byte_text(text[i]) + " is not supported" + only);
  }
  ++i;
  spec.torus_width = read_torus_size(text, i, end, "width", only);
  if (i >= end || text[i] != ',') {
    throw column_error(i, i >= end ? "missing ',' and the torus height" + only
                                   : "unexpected " + byte_text(text[i]) + " after the torus width" + only);
  }
  ++i;
  spec.torus_height = read_torus_size(text, i, end, "height", only);
  if (i < end) throw column_error(i, "unexpected " + byte_text(text[i]) + " after the torus height" + only);
  return spec;
}

}  // namespace ls
