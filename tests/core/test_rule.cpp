// test_rule.cpp — Life-like rule text: B/S and S/B notation, presets, Golly's torus suffix, located errors.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "core/rule.hpp"

namespace {

std::uint16_t mask(std::initializer_list<int> counts) {
  std::uint16_t m = 0;
  for (int n : counts) m = static_cast<std::uint16_t>(m | (1u << n));
  return m;
}

// The message of the InputError that parse(text) throws ("" if it does not throw one).
template <typename Parse>
std::string error_of(Parse parse, std::string_view text) {
  try {
    parse(text);
  } catch (const ls::InputError& e) {
    return e.what();
  }
  return "";
}
std::string rule_error(std::string_view text) { return error_of(ls::parse_rule, text); }
std::string spec_error(std::string_view text) { return error_of(ls::parse_rule_spec, text); }

TEST(Rule, DefaultIsConwaysLife) {
  const ls::Rule life = ls::Rule::life();
  EXPECT_TRUE(life.is_life());
  EXPECT_EQ(life.birth, mask({3}));
  EXPECT_EQ(life.survive, mask({2, 3}));
  // The next-state function: birth on 3, survival on 2 or 3, death otherwise.
  for (int n = 0; n <= 8; ++n) {
    EXPECT_EQ(life.next(false, n), n == 3) << n;
    EXPECT_EQ(life.next(true, n), n == 2 || n == 3) << n;
  }
}

TEST(Rule, BSNotationParsesToMasks) {
  EXPECT_EQ(ls::parse_rule("B3/S23"), ls::Rule::life());
  EXPECT_EQ(ls::parse_rule("B36/S23"), (ls::Rule{mask({3, 6}), mask({2, 3})}));
  EXPECT_EQ(ls::parse_rule("B3678/S34678"), (ls::Rule{mask({3, 6, 7, 8}), mask({3, 4, 6, 7, 8})}));
  EXPECT_EQ(ls::parse_rule("B2/S"), (ls::Rule{mask({2}), 0}));
  EXPECT_EQ(ls::parse_rule("B0123478/S01234678"),
            (ls::Rule{mask({0, 1, 2, 3, 4, 7, 8}), mask({0, 1, 2, 3, 4, 6, 7, 8})}));
  EXPECT_EQ(ls::parse_rule("B/S"), (ls::Rule{0, 0}));
}

TEST(Rule, BSNotationIgnoresCaseAndDigitOrder) {
  EXPECT_EQ(ls::parse_rule("b3/s23"), ls::Rule::life());
  EXPECT_EQ(ls::parse_rule("B3/s32"), ls::Rule::life());
  EXPECT_EQ(ls::parse_rule("B63/S32"), ls::parse_rule("B36/S23"));
  EXPECT_EQ(ls::parse_rule("B8763/S87643"), ls::parse_rule("B3678/S34678"));
  // Golly also reads the parts swapped and without the slash.
  EXPECT_EQ(ls::parse_rule("S23/B3"), ls::Rule::life());
  EXPECT_EQ(ls::parse_rule("B3S23"), ls::Rule::life());
  // Blanks around the rule are forgiven (a rule typed in a script or a header).
  EXPECT_EQ(ls::parse_rule("  B3/S23 \r\n"), ls::Rule::life());
}

TEST(Rule, SBNotationIsSurvivalThenBirth) {
  EXPECT_EQ(ls::parse_rule("23/3"), ls::Rule::life());
  EXPECT_EQ(ls::parse_rule("23/36"), ls::parse_rule("B36/S23"));
  EXPECT_EQ(ls::parse_rule("/3"), (ls::Rule{mask({3}), 0}));
  EXPECT_EQ(ls::parse_rule("/2"), ls::parse_rule("B2/S"));
  EXPECT_EQ(ls::parse_rule("23/"), (ls::Rule{0, mask({2, 3})}));
  EXPECT_EQ(ls::parse_rule("34678/3678"), ls::parse_rule("B3678/S34678"));
}

TEST(Rule, PresetsByCaseInsensitiveName) {
  EXPECT_EQ(ls::parse_rule("Life"), ls::parse_rule("B3/S23"));
  EXPECT_EQ(ls::parse_rule("life"), ls::parse_rule("B3/S23"));
  EXPECT_EQ(ls::parse_rule("HighLife"), ls::parse_rule("B36/S23"));
  EXPECT_EQ(ls::parse_rule("HIGHLIFE"), ls::parse_rule("B36/S23"));
  EXPECT_EQ(ls::parse_rule("Day & Night"), ls::parse_rule("B3678/S34678"));
  EXPECT_EQ(ls::parse_rule("day & night"), ls::parse_rule("B3678/S34678"));
  EXPECT_EQ(ls::parse_rule("Seeds"), ls::parse_rule("B2/S"));
  EXPECT_EQ(ls::parse_rule("seeds"), ls::parse_rule("B2/S"));
}

TEST(Rule, NamedRulesAreThePresetsInDisplayOrder) {
  const auto& rules = ls::named_rules();
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[0].name, "Life");
  EXPECT_EQ(rules[0].rule.to_string(), "B3/S23");
  EXPECT_EQ(rules[1].name, "HighLife");
  EXPECT_EQ(rules[1].rule.to_string(), "B36/S23");
  EXPECT_EQ(rules[2].name, "Day & Night");
  EXPECT_EQ(rules[2].rule.to_string(), "B3678/S34678");
  EXPECT_EQ(rules[3].name, "Seeds");
  EXPECT_EQ(rules[3].rule.to_string(), "B2/S");
  for (const auto& named : rules) EXPECT_EQ(ls::parse_rule(named.name), named.rule) << named.name;
}

TEST(Rule, PrintsCanonicalBSWithDigitsAscending) {
  EXPECT_EQ(ls::parse_rule("b3/s32").to_string(), "B3/S23");
  EXPECT_EQ(ls::parse_rule("23/3").to_string(), "B3/S23");
  EXPECT_EQ(ls::parse_rule("/2").to_string(), "B2/S");
  EXPECT_EQ(ls::parse_rule("B63/S32").to_string(), "B36/S23");
  EXPECT_EQ(ls::parse_rule("Day & Night").to_string(), "B3678/S34678");
  EXPECT_EQ(ls::parse_rule("B8743210/S87643210").to_string(), "B0123478/S01234678");
  EXPECT_EQ(ls::Rule({0, 0}).to_string(), "B/S");
}

TEST(Rule, EveryMaskPrintsAndParsesBack) {
  // All 2^18 rules: to_string is a bijection onto the canonical texts that parse_rule inverts.
  for (std::uint32_t bits = 0; bits < (1u << 18); ++bits) {
    const ls::Rule rule{static_cast<std::uint16_t>(bits & 0x1ff), static_cast<std::uint16_t>(bits >> 9)};
    ASSERT_EQ(ls::parse_rule(rule.to_string()), rule) << rule.to_string();
  }
}

TEST(Rule, MalformedRulesNameTheColumn) {
  EXPECT_EQ(rule_error("B39/S23"), "column 3: neighbour count 9 in the birth part (counts are 0..8)");
  EXPECT_EQ(rule_error("B3/S239"), "column 7: neighbour count 9 in the survival part (counts are 0..8)");
  EXPECT_EQ(rule_error("B33/S23"), "column 3: digit 3 repeated in the birth part");
  EXPECT_EQ(rule_error("B3/S223"), "column 6: digit 2 repeated in the survival part");
  EXPECT_EQ(rule_error("233/3"), "column 3: digit 3 repeated in the survival part");
  EXPECT_EQ(rule_error("23/39"), "column 5: neighbour count 9 in the birth part (counts are 0..8)");
  EXPECT_EQ(rule_error("B3/X23").rfind("column 4: unexpected 'X'", 0), 0u) << rule_error("B3/X23");
  EXPECT_EQ(rule_error("B3/S2x3").rfind("column 6: unexpected 'x'", 0), 0u) << rule_error("B3/S2x3");
  EXPECT_EQ(rule_error("B3/S23/").rfind("column 7: unexpected '/'", 0), 0u) << rule_error("B3/S23/");
  EXPECT_EQ(rule_error("23/3x").rfind("column 5: unexpected 'x'", 0), 0u) << rule_error("23/3x");
  EXPECT_EQ(rule_error("23").rfind("column 3: missing '/'", 0), 0u) << rule_error("23");
  EXPECT_EQ(rule_error("B3").rfind("column 3: missing the S (survival) part", 0), 0u) << rule_error("B3");
  EXPECT_EQ(rule_error("S23").rfind("column 4: missing the B (birth) part", 0), 0u) << rule_error("S23");
  EXPECT_EQ(rule_error("B3/B3").rfind("column 4: second B part", 0), 0u) << rule_error("B3/B3");
  EXPECT_EQ(rule_error("Conway").rfind("column 1: unexpected 'C'", 0), 0u) << rule_error("Conway");
  EXPECT_EQ(rule_error("").rfind("column 1: empty rule", 0), 0u) << rule_error("");
  EXPECT_EQ(rule_error("   ").rfind("column 4: empty rule", 0), 0u) << rule_error("   ");
  // Columns count from the text as written, blanks included.
  EXPECT_EQ(rule_error("  B9/S23").rfind("column 4: ", 0), 0u) << rule_error("  B9/S23");
  EXPECT_EQ(rule_error(std::string("B3/S2\x01", 6)).rfind("column 6: unexpected byte 0x01", 0), 0u);
}

TEST(Rule, ParseRuleRejectsATopologySuffix) {
  EXPECT_EQ(rule_error("B3/S23:T10,10").rfind("column 7: a ':' topology suffix", 0), 0u)
      << rule_error("B3/S23:T10,10");
}

TEST(RuleSpec, TorusSuffixGivesTheSize) {
  const ls::RuleSpec plain = ls::parse_rule_spec("B36/S23");
  EXPECT_EQ(plain.rule, ls::parse_rule("B36/S23"));
  EXPECT_FALSE(plain.torus_width.has_value());
  EXPECT_FALSE(plain.torus_height.has_value());

  const ls::RuleSpec torus = ls::parse_rule_spec("B3/S23:T256,128");
  EXPECT_EQ(torus.rule, ls::Rule::life());
  EXPECT_EQ(torus.torus_width, 256);
  EXPECT_EQ(torus.torus_height, 128);

  const ls::RuleSpec sb = ls::parse_rule_spec("23/3:T64,32");
  EXPECT_EQ(sb.rule, ls::Rule::life());
  EXPECT_EQ(sb.torus_width, 64);
  EXPECT_EQ(sb.torus_height, 32);

  const ls::RuleSpec named = ls::parse_rule_spec("HighLife:t1,1");
  EXPECT_EQ(named.rule, ls::parse_rule("B36/S23"));
  EXPECT_EQ(named.torus_width, 1);
}

TEST(RuleSpec, OtherTopologiesAreRefused) {
  const std::string only = "only the torus :Tw,h is supported";
  for (const char* text :
       {"B3/S23:T0,0", "B3/S23:T100,0", "B3/S23:T0,100", "B3/S23:P100,100", "B3/S23:K100,100",
        "B3/S23:C100,100", "B3/S23:S100", "B3/S23:T100*,100", "B3/S23:T100,100+", "B3/S23:T100", "B3/S23:T",
        "B3/S23:", "B3/S23:T-5,5", "B3/S23:X"}) {
    const std::string e = spec_error(text);
    EXPECT_NE(e.find(only), std::string::npos) << text << " -> " << e;
    EXPECT_EQ(e.rfind("column ", 0), 0u) << text << " -> " << e;
  }
  EXPECT_EQ(spec_error("B3/S23:P100,100").rfind("column 8: ", 0), 0u);
  EXPECT_EQ(spec_error("B3/S23:T100,0").rfind("column 13: ", 0), 0u);
  // A size that cannot be held is an error, not an overflow.
  EXPECT_EQ(spec_error("B3/S23:T99999999999999999999,8").rfind("column 9: torus width is too large", 0), 0u);
  // The rule before the suffix is still checked.
  EXPECT_EQ(spec_error("B9/S23:T8,8").rfind("column 2: ", 0), 0u) << spec_error("B9/S23:T8,8");
}

}  // namespace
