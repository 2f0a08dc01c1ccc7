// test_command.cpp — the script grammar: every command parses, prints back canonically, and bad
// lines fail with "FILE:LINE:COLUMN: reason"; a range the parser states reads as the executor's.
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
    parse_script(text, "s.script");
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
                         "counters off",
                         "counters on",
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
  EXPECT_EQ(error_of("devices 0"), "s.script:1:10: devices: missing device list (usage: devices I|all LIST)");
  EXPECT_EQ(error_of("devices 0 0,0"), "s.script:1:13: devices: device 0 is listed twice in '0,0'");
  EXPECT_EQ(error_of("devices 0 0,,1"), "s.script:1:13: devices: empty entry in device list '0,,1'");
  EXPECT_EQ(error_of("devices 0 1,"), "s.script:1:13: devices: empty entry in device list '1,'");
  EXPECT_EQ(error_of("devices 0 -1"), "s.script:1:11: device must be a CUDA device number, got '-1'");
  EXPECT_EQ(error_of("devices 0 all"), "s.script:1:11: device must be a CUDA device number, got 'all'");
  EXPECT_EQ(error_of("devices 0 1,x"), "s.script:1:13: device must be a CUDA device number, got 'x'");
  EXPECT_EQ(error_of("devices 0 0,99999999999"), "s.script:1:13: device 99999999999 does not fit in 32 bits");
  // Which devices a run has is the executor's to say: any device number parses.
  EXPECT_EQ(std::get<cmd::Devices>(parse("devices 0 2048")).devices, std::vector<int>{2048});
  EXPECT_EQ(error_of("devices 0 0 1"),
            "s.script:1:13: devices: unexpected extra argument '1' (usage: devices I|all LIST)");
  EXPECT_NE(error_of("devices gpu 0").find("s.script:1:9: expected an instance number or 'all'"),
            std::string::npos);
}

TEST(Command, BlankAndCommentLinesAreNotCommands) {
  EXPECT_FALSE(parse_command("").has_value());
  EXPECT_FALSE(parse_command("   \t ").has_value());
  EXPECT_FALSE(parse_command("# instances 3").has_value());
  const auto script = parse_script("# header\n\npause\r\n  step 2 # two\nquit", "s.script");
  ASSERT_EQ(script.size(), 3u);
  EXPECT_EQ(script[0].line, 3);
  EXPECT_EQ(script[0].column, 1);
  EXPECT_EQ(script[1].line, 4);
  EXPECT_EQ(script[1].column, 3);
  EXPECT_EQ(std::get<cmd::Step>(script[1].command).generations, 2);
  EXPECT_EQ(script[2].line, 5);
}

TEST(Command, BadLinesNameFileLineColumnAndReason) {
  EXPECT_EQ(error_of("pause\nfly 3\n"), "s.script:2:1: unknown command 'fly'");
  EXPECT_EQ(error_of("pause\n\nvariant 0 turbo"),
            "s.script:3:11: unknown variant 'turbo' (one of naive, global, shared, iterate, bitpacked)");
  EXPECT_EQ(error_of("step"), "s.script:1:5: step: missing generation count (usage: step N)");
  EXPECT_EQ(error_of("  quit now"), "s.script:1:8: quit: unexpected extra argument 'now'");
  EXPECT_NE(error_of("rule 0 B3/S29").find("s.script:1:8: bad rule 'B3/S29'"), std::string::npos);
  EXPECT_EQ(error_of("load 0 \"open"), "s.script:1:8: unterminated quoted string");
  EXPECT_EQ(error_of("expect-hash 0 1234"),
            "s.script:1:15: hash must be hexadecimal with a 0x prefix, got '1234'");
  EXPECT_EQ(error_of("zoom 0 nan"), "s.script:1:8: zoom must be a finite number, got 'nan'");
  EXPECT_EQ(error_of("set 0 1 2 3"), "s.script:1:11: cell state must be 0 or 1, got '3'");
  EXPECT_EQ(error_of("age 1"), "s.script:1:5: expected 'on' or 'off', got '1'");
  EXPECT_EQ(error_of("variant x global"), "s.script:1:9: expected an instance number or 'all', got 'x'");
  EXPECT_EQ(error_of("load -1 a.rle"), "s.script:1:6: expected an instance number, got '-1'");
  EXPECT_EQ(error_of("expect-hash 0 0x1ffffffffffffffff"),
            "s.script:1:15: hash does not fit in 64 bits: 0x1ffffffffffffffff");
  EXPECT_EQ(error_of("instances many"), "s.script:1:11: instance count must be an integer, got 'many'");
}

// Each range the parser states is the executor's check of the same command (core/command.hpp), in
// one form: "WHAT must be LO..HI, got VALUE" with the value as written.
TEST(Command, EachRangeReadsWhatMustBeLoHiGotValue) {
  EXPECT_EQ(error_of("step 0"), "s.script:1:6: generation count must be 1..1000000000, got 0");
  EXPECT_EQ(error_of("step 99999999999999999999"),
            "s.script:1:6: generation count must be 1..1000000000, got 99999999999999999999");
  EXPECT_EQ(error_of("frames 0"), "s.script:1:8: frame count must be 1..100000000, got 0");
  EXPECT_EQ(error_of("zoom 0 5000"), "s.script:1:8: zoom must be 1/4096..4096 pixels per cell, got 5000");
  EXPECT_EQ(error_of("density 1.5"), "s.script:1:9: density must be 0..1, got 1.5");
  EXPECT_EQ(error_of("generations-per-frame +1025"),
            "s.script:1:23: generations per frame must be 1..1024, got +1025");
  EXPECT_EQ(error_of("generations-per-launch all 65"),
            "s.script:1:28: generations per launch must be 1..64, got 65");
  EXPECT_EQ(error_of("timing-period 0"), "s.script:1:15: timing period must be 1..1000, got 0");
  // A size is the lattice's own check, the one the executor and --width/--height use, at the side
  // it refuses.
  EXPECT_EQ(
      error_of("size 100 64"),
      "s.script:1:6: lattice size 100x64 is not allowed: width and height must be multiples of 32 from 32 "
      "to 1048576");
  EXPECT_EQ(
      error_of("size 64 16"),
      "s.script:1:9: lattice size 64x16 is not allowed: width and height must be multiples of 32 from 32 "
      "to 1048576");
  // The checks themselves, as the executor calls them: the same words, the value printed.
  auto message = [](auto check) {
    try {
      check();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message([] { check_step_generations(0); }), "generation count must be 1..1000000000, got 0");
  EXPECT_EQ(message([] { check_frame_count(-2); }), "frame count must be 1..100000000, got -2");
  EXPECT_EQ(message([] { check_zoom(5000); }), "zoom must be 1/4096..4096 pixels per cell, got 5000");
  EXPECT_EQ(message([] { check_density(1.5); }), "density must be 0..1, got 1.5");
  EXPECT_EQ(message([] { check_generations_per_frame(1025); }),
            "generations per frame must be 1..1024, got 1025");
  EXPECT_EQ(message([] { check_generations_per_launch(65); }),
            "generations per launch must be 1..64, got 65");
  EXPECT_EQ(message([] { check_timing_period_frames(1001); }), "timing period must be 1..1000, got 1001");
  EXPECT_EQ(message([] { check_zoom(4096); }), "(no error)");
}

// Where the range is the run's (the instance count: 64 per GPU; an instance number; a cell inside
// its lattice), the parser takes any number and leaves the range to the executor.
TEST(Command, RangesOfTheRunAreLeftToTheExecutor) {
  EXPECT_EQ(std::get<cmd::Instances>(parse("instances -3")).count, -3);
  EXPECT_EQ(std::get<cmd::Instances>(parse("instances 0")).count, 0);
  EXPECT_EQ(std::get<cmd::Instances>(parse("instances 100")).count, 100);
  EXPECT_EQ(std::get<cmd::Instances>(parse("instances 65537")).count, 65537);
  EXPECT_EQ(error_of("instances 99999999999"),
            "s.script:1:11: instance count 99999999999 does not fit in 32 bits");
  EXPECT_EQ(std::get<cmd::Load>(parse("load 2000000 a.rle")).index, 2000000u);
  const auto cell = std::get<cmd::SetCell>(parse("set 0 -1 2000000 1"));
  EXPECT_EQ(cell.x, -1);
  EXPECT_EQ(cell.y, 2000000);
}

TEST(Command, AHugeBadWordGivesAShortOneLineError) {
  const std::string huge(1 << 20, '7');
  const std::string e = error_of("step 1\nzoom 0 " + huge + "x\n");
  EXPECT_EQ(e.rfind("s.script:2:8: ", 0), 0u) << e.substr(0, 80);
  EXPECT_LT(e.size(), 300u);
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace ls
