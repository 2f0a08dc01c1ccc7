// test_command.cpp — the script grammar: every command parses, prints back canonically, and bad
// lines fail with their line, column and reason.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "core/command.hpp"
#include "core/error.hpp"

namespace ls {
namespace {

Command parse(const std::string& line) {
  auto c = parse_command(line);
  EXPECT_TRUE(c.has_value()) << line;
  return c.value_or(Command{cmd::Quit{}});
}

std::string error_of(const std::string& text) {
  try {
    parse_script(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Command, EveryCanonicalLinePrintsBackUnchanged) {
  const char* lines[] = {"instances 7",
                         "variant 2 shared",
                         "variant all bitpacked",
                         "rule 1 B36/S23",
                         "rule all B3/S23",
                         "pause",
                         "run",
                         "step 1000",
                         "frames 30",
                         "load 0 glider.rle",
                         "load 1 \"my file.rle\"",
                         "save 2 out.rle",
                         "save 3",
                         "zoom 1 8",
                         "zoom all 0.25",
                         "pan 0 -12.5 3",
                         "fit all",
                         "fit 3",
                         "set 0 10 20 1",
                         "set 0 10 20 0",
                         "stream-mode shared",
                         "stream-mode per-instance",
                         "stream-mode graph",
                         "screenshot a.png",
                         "screenshot",
                         "expect-agree",
                         "expect-hash 0 0x2adf3324ca22bed1",
                         "quit",
                         "size 512 256",
                         "density 0.5",
                         "seed 42",
                         "same-seed off",
                         "generations-per-frame 4",
                         "generations-per-launch all 8",
                         "reset all",
                         "reset 2",
                         "vsync off",
                         "grid on",
                         "age on",
                         "age off",
                         "panel off",
                         "timing-period 8",
                         "devices 3 1",
                         "devices all 0",
                         "devices 0 0,1",
                         "devices all 2,0,1"};
  for (const char* line : lines) {
    const Command c = parse(line);
    EXPECT_EQ(format_command(c), line);
    EXPECT_EQ(format_command(parse(format_command(c))), line);
  }
}

TEST(Command, ArgumentsMeanWhatTheySay) {
  const auto v = std::get<cmd::SetVariant>(parse("variant 3 iterate"));
  EXPECT_FALSE(v.target.all);
  EXPECT_EQ(v.target.index, 3u);
  EXPECT_EQ(v.variant, Variant::iterate);
  EXPECT_TRUE(std::get<cmd::Fit>(parse("fit all")).target.all);
  EXPECT_EQ(std::get<cmd::ExpectHash>(parse("expect-hash 1 0xff")).hash, 0xffu);
  EXPECT_EQ(std::get<cmd::Seed>(parse("seed 0x10")).seed, 16u);
  const auto rule = std::get<cmd::SetRule>(parse("rule 0 Day & Night"));  // a preset with blanks
  EXPECT_EQ(rule.rule.to_string(), "B3678/S34678");
  const auto load = std::get<cmd::Load>(parse("load 2 \"a \\\"q\\\" b.rle\"  # comment"));
  EXPECT_EQ(load.path, "a \"q\" b.rle");
  const auto pan = std::get<cmd::Pan>(parse("pan all 1.5 -2"));
  EXPECT_DOUBLE_EQ(pan.dx, 1.5);
  EXPECT_DOUBLE_EQ(pan.dy, -2);
  EXPECT_TRUE(std::get<cmd::Age>(parse("age on")).on);
  EXPECT_FALSE(std::get<cmd::Age>(parse("age off  # plain colours")).on);
  EXPECT_EQ(std::get<cmd::TimingPeriod>(parse("timing-period 16")).frames, 16);
}

TEST(Command, DevicesNamesTheInstancesAndTheGpuOrdinalsInOrder) {
  const auto one = std::get<cmd::Devices>(parse("devices 5 1"));
  EXPECT_FALSE(one.target.all);
  EXPECT_EQ(one.target.index, 5u);
  EXPECT_EQ(one.devices, std::vector<int>{1});
  const auto split = std::get<cmd::Devices>(parse("devices all 3,0  # a split"));
  EXPECT_TRUE(split.target.all);
  EXPECT_EQ(split.devices, (std::vector<int>{3, 0}));
  EXPECT_FALSE(needs_screen(split));
}

TEST(Command, ABadDeviceListNamesItsColumnAndReason) {
  EXPECT_EQ(error_of("devices 0"),
            "line 1, column 10: devices: missing device list (usage: devices I|all LIST)");
  EXPECT_EQ(error_of("devices 0 0,0"), "line 1, column 13: devices: device 0 is listed twice in '0,0'");
  EXPECT_EQ(error_of("devices 0 0,,1"), "line 1, column 13: devices: empty entry in device list '0,,1'");
  EXPECT_EQ(error_of("devices 0 1,"), "line 1, column 13: devices: empty entry in device list '1,'");
  EXPECT_EQ(error_of("devices 0 -1"), "line 1, column 11: device must be a CUDA device number, got '-1'");
  EXPECT_EQ(error_of("devices 0 all"), "line 1, column 11: device must be a CUDA device number, got 'all'");
  EXPECT_EQ(error_of("devices 0 1,x"), "line 1, column 13: device must be a CUDA device number, got 'x'");
  EXPECT_EQ(error_of("devices 0 2048"), "line 1, column 11: device must be in 0..1023, got 2048");
  EXPECT_EQ(error_of("devices 0 0 1"),
            "line 1, column 13: devices: unexpected extra argument '1' (usage: devices I|all LIST)");
  EXPECT_NE(error_of("devices gpu 0").find("column 9: expected an instance number or 'all'"),
            std::string::npos);
}

TEST(Command, BlankAndCommentLinesAreNotCommands) {
  EXPECT_FALSE(parse_command("").has_value());
  EXPECT_FALSE(parse_command("   \t ").has_value());
  EXPECT_FALSE(parse_command("# instances 3").has_value());
  const auto script = parse_script("# header\n\npause\r\n  step 2 # two\nquit");
  ASSERT_EQ(script.size(), 3u);
  EXPECT_EQ(script[0].first, 3);
  EXPECT_EQ(script[1].first, 4);
  EXPECT_EQ(std::get<cmd::Step>(script[1].second).generations, 2);
  EXPECT_EQ(script[2].first, 5);
}

TEST(Command, BadLinesNameLineColumnAndReason) {
  EXPECT_EQ(error_of("pause\nfly 3\n"), "line 2, column 1: unknown command 'fly'");
  // The count's limit is the engine's (64 per GPU): the parser only refuses what no engine takes.
  EXPECT_EQ(error_of("instances 0"), "line 1, column 11: instance count must be in 1..65536, got 0");
  EXPECT_EQ(error_of("instances 65537"), "line 1, column 11: instance count must be in 1..65536, got 65537");
  EXPECT_EQ(error_of("pause\n\nvariant 0 turbo"),
            "line 3, column 11: unknown variant 'turbo' (one of naive, global, shared, iterate, bitpacked)");
  EXPECT_NE(error_of("step").find("line 1, column 5: step: missing generation count"), std::string::npos);
  EXPECT_NE(error_of("quit now").find("column 6: quit: unexpected extra argument 'now'"), std::string::npos);
  EXPECT_NE(error_of("rule 0 B3/S29").find("line 1, column 8: bad rule 'B3/S29'"), std::string::npos);
  EXPECT_NE(error_of("load 0 \"open").find("unterminated quoted string"), std::string::npos);
  EXPECT_NE(error_of("size 100 64").find("width must be a multiple of 32"), std::string::npos);
  EXPECT_NE(error_of("density 1.5").find("density must be in 0..1"), std::string::npos);
  EXPECT_NE(error_of("expect-hash 0 1234").find("hexadecimal with a 0x prefix"), std::string::npos);
  EXPECT_NE(error_of("zoom 0 nan").find("finite number"), std::string::npos);
  EXPECT_NE(error_of("set 0 1 2 3").find("cell state must be 0 or 1"), std::string::npos);
  EXPECT_NE(error_of("timing-period 0").find("timing period must be in 1..1000, got 0"), std::string::npos);
  EXPECT_NE(error_of("age 1").find("column 5: expected 'on' or 'off', got '1'"), std::string::npos);
  EXPECT_NE(error_of("variant x global").find("instance number or 'all'"), std::string::npos);
  EXPECT_NE(error_of("expect-hash 0 0x1ffffffffffffffff").find("does not fit in 64 bits"), std::string::npos);
}

TEST(Command, AHugeBadWordGivesAShortOneLineError) {
  const std::string huge(1 << 20, '7');
  const std::string e = error_of("step 1\nzoom 0 " + huge + "x\n");
  EXPECT_EQ(e.rfind("line 2, column 8: ", 0), 0u) << e.substr(0, 80);
  EXPECT_LT(e.size(), 300u);
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace ls
