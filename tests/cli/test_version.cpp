// test_version.cpp — `lifestreams --version`: one line naming the version and the commit built, exit 0.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/app_test_util.hpp"

namespace ls {
namespace {

using test::Outcome;
using test::run_app;
using test::ScratchDir;

TEST(Version, PrintsOneLineWithTheVersionAndCommitAndExits0) {
  ScratchDir dir;
  const Outcome r = run_app(dir, "--version");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::regex line(R"(lifestreams 0\.1 \(commit ([0-9a-f]{7,}|unknown)\)\n)");
  EXPECT_TRUE(std::regex_match(r.out, line)) << r.out;
}

}  // namespace
}  // namespace ls
