// rule.hpp — Life-like rules (outer totalistic, Moore neighbourhood) as birth/survival masks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ls {

/// A Life-like rule: bit n of `birth` set means a dead cell with n live neighbours is born;
/// bit n of `survive` set means a live cell with n live neighbours stays alive (n = 0..8).
struct Rule {
  std::uint16_t birth = 1u << 3;
  std::uint16_t survive = (1u << 2) | (1u << 3);

  static Rule life() { return Rule{}; }
  bool is_life() const { return *this == Rule{}; }
  /// The next state of a cell that is `alive` with `neighbours` live neighbours.
  bool next(bool alive, int neighbours) const { return ((alive ? survive : birth) >> neighbours) & 1u; }
  /// Canonical B/S text, e.g. "B3/S23", "B2/S".
  std::string to_string() const;
  friend bool operator==(const Rule& a, const Rule& b) {
    return a.birth == b.birth && a.survive == b.survive;
  }
  friend bool operator!=(const Rule& a, const Rule& b) { return !(a == b); }
};

/// A rule plus Golly's optional torus suffix ("B3/S23:T256,256").
struct RuleSpec {
  Rule rule;
  std::optional<int> torus_width;
  std::optional<int> torus_height;
};

/// Parses B/S ("B36/S23", "b3/s23", "B2/S"), S/B ("23/3", "/2") or a preset name
/// (Life, HighLife, "Day & Night", Seeds; case-insensitive). Throws InputError saying what is
/// wrong and at which character ("column C: ..."). A ':' suffix is an error here.
Rule parse_rule(std::string_view text);

/// As parse_rule, plus Golly's ":Tw,h" torus suffix. Other Golly topologies (":P", ":K", ":C",
/// ":S", plain ":T" with a zero size...) are an InputError.
RuleSpec parse_rule_spec(std::string_view text);

struct NamedRule {
  std::string name;
  Rule rule;
};
/// The presets, in display order: Life, HighLife, Day & Night, Seeds.
const std::vector<NamedRule>& named_rules();

}  // namespace ls
