// test_numbers.cpp — the command-line numbers of every front end are parsed strictly: whole numbers
// within their range, unsigned 64-bit seeds and finite reals, with no sign, space, exponent or
// hex form they do not allow.
#include <gtest/gtest.h>

#include "control/numbers.hpp"
#include "core/error.hpp"

namespace ls {
namespace {

TEST(Cli, NumbersAreParsedStrictly) {
  EXPECT_EQ(parse_whole("--n", "0", 0, 10), 0);
  EXPECT_EQ(parse_whole("--n", "-3", -5, 10), -3);
  EXPECT_EQ(parse_whole("--n", "4611686018427387904", 0, kMaxRunGenerations), kMaxRunGenerations);
  for (const char* bad : {"", " 1", "1 ", "+1", "-0", "11", "1e3", "0x1", "99999999999999999999"})
    EXPECT_THROW(parse_whole("--n", bad, 0, 10), InputError) << bad;
  EXPECT_EQ(parse_unsigned64("--seed", "18446744073709551615"), 18446744073709551615ULL);
  for (const char* bad : {"", "-1", "+1", "18446744073709551616", "1.0", "1x"})
    EXPECT_THROW(parse_unsigned64("--seed", bad), InputError) << bad;
  EXPECT_DOUBLE_EQ(parse_real("--d", "0.25", 0, 1), 0.25);
  EXPECT_DOUBLE_EQ(parse_real("--d", "1", 0, 1), 1.0);
  for (const char* bad : {"", "nan", "inf", "1.5", "-0.1", "0.5x", " 0.5", "0x0.1"})
    EXPECT_THROW(parse_real("--d", bad, 0, 1), InputError) << bad;
}

}  // namespace
}  // namespace ls
