// fuzz_gzip.cpp — libFuzzer target for the gzip reader (Golly's .rle.gz, .cells.gz) and the pattern
// parsers behind it.
//
// Invariants: every rejection is an InputError; accepted text is no longer than the limit however
// far the input would inflate (a gzip bomb stops at the limit); the text then parses as a pattern
// or is refused with a located error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/pattern.hpp"
#include "core/text_file.hpp"
#include "fuzz_check.hpp"

namespace {
// Small, so that bombs the fuzzer builds hit it quickly; the loader's is 64 MiB.
constexpr std::uintmax_t kLimit = std::uintmax_t{1} << 20;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string text;
  try {
    text = ls::inflate_gzip(bytes, kLimit, "pattern");
  } catch (const ls::InputError& e) {
    FUZZ_CHECK(std::string_view(e.what()).size() > 0);
    return 0;
  }
  FUZZ_CHECK(text.size() <= kLimit);
  FUZZ_CHECK(size >= 18);  // a gzip member is at least a 10-byte header, a block and an 8-byte trailer
  try {
    ls::parse_pattern(text);
  } catch (const ls::InputError& e) {
    FUZZ_CHECK(std::string_view(e.what()).rfind("line ", 0) == 0);
  }
  return 0;
}
