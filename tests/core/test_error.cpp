// test_error.cpp — how input errors read: located text errors and the bytes they show.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

namespace ls {
namespace {

TEST(ByteText, APrintableByteIsShownQuoted) {
  EXPECT_EQ(byte_text('x'), "'x'");
  EXPECT_EQ(byte_text(' '), "' '");
  EXPECT_EQ(byte_text('~'), "'~'");
}

TEST(ByteText, AControlOrHighByteIsShownByItsHexCode) {
  EXPECT_EQ(byte_text('\t'), "byte 0x09");
  EXPECT_EQ(byte_text('\x7f'), "byte 0x7f");
  EXPECT_EQ(byte_text('\xEF'), "byte 0xef");
  EXPECT_EQ(byte_text('\0'), "byte 0x00");
}

TEST(TextError, NamesTheLineAndColumnBeforeTheReason) {
  EXPECT_STREQ(text_error(3, 14, "unexpected 'q'").what(), "line 3, column 14: unexpected 'q'");
}

}  // namespace
}  // namespace ls
