// Facts about the panel's helpers: engineering notation, the cross-check grouping and its badge's
// summary, the timeline's axis, rows and hit testing, rule and size validation, the help overlay's
// key list and the notice's short paths.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/rule.hpp"
#include "ui/cross_check.hpp"
#include "ui/format.hpp"
#include "ui/help.hpp"
#include "ui/notice.hpp"
#include "ui/pacer.hpp"
#include "ui/timeline.hpp"
#include "ui/validate.hpp"

namespace ls::ui {
namespace {

std::string si(double v) {
  char buf[32];
  return format_si(v, buf, sizeof buf);
}
std::string ms(double v) {
  char buf[32];
  return format_ms(v, buf, sizeof buf);
}

TEST(Format, EngineeringNotationKeepsThreeSignificantDigits) {
  EXPECT_EQ(si(1.234e12), "1.23 T");
  EXPECT_EQ(si(2.5e13), "25.0 T");
  EXPECT_EQ(si(1.4e11), "140 G");
  EXPECT_EQ(si(123), "123");
  EXPECT_EQ(si(0), "0");
  EXPECT_EQ(si(-2.5e9), "-2.50 G");
  // Rounding carries into the next prefix instead of printing "1000 k".
  EXPECT_EQ(si(999.7e3), "1.00 M");
  EXPECT_EQ(si(3.14159e15), "3.14 P");
  char small[4];  // a short buffer is cut, never overrun
  EXPECT_STREQ(format_si(1.234e12, small, sizeof small), "1.2");
}

TEST(Format, MillisecondsKeepAboutThreeSignificantDigits) {
  EXPECT_EQ(ms(0.0123), "0.0123");
  EXPECT_EQ(ms(0.123), "0.123");
  EXPECT_EQ(ms(1.234), "1.23");
  EXPECT_EQ(ms(12.34), "12.3");
  EXPECT_EQ(ms(123.4), "123");
  EXPECT_EQ(ms(0), "0");
  EXPECT_EQ(ms(0.00042), "0.00042");
  EXPECT_EQ(ms(9.9996), "10.0");
  EXPECT_EQ(ms(-1.5), "-1.50");
  EXPECT_EQ(ms(0.0550), "0.0550");
}

InstanceStatus status(std::uint64_t origin, std::uint64_t generation, std::optional<StateSummary> summary) {
  InstanceStatus s;
  s.origin = origin;
  s.generation = generation;
  s.summary = summary;
  return s;
}

TEST(CrossCheck, EqualHashesAtOneGenerationAgree) {
  const std::vector<InstanceStatus> st = {status(7, 100, StateSummary{100, 5, 0xAA}),
                                          status(7, 100, StateSummary{100, 5, 0xAA}),
                                          status(7, 100, StateSummary{100, 5, 0xAA})};
  std::vector<CrossCheck> out;
  cross_check(st, out);
  ASSERT_EQ(out.size(), 3u);
  for (const CrossCheck& c : out) {
    EXPECT_EQ(c.state, CrossCheck::State::agree);
    EXPECT_EQ(c.group, 0);
    EXPECT_EQ(c.peers, 2);
  }
}

TEST(CrossCheck, OneDifferentHashMarksTheGroupDiverged) {
  const std::vector<InstanceStatus> st = {status(7, 100, StateSummary{100, 5, 0xAA}),
                                          status(7, 100, StateSummary{100, 5, 0xAB})};
  std::vector<CrossCheck> out;
  cross_check(st, out);
  EXPECT_EQ(out[0].state, CrossCheck::State::diverged);
  EXPECT_EQ(out[1].state, CrossCheck::State::diverged);
}

TEST(CrossCheck, SummariesAtDifferentGenerationsAreNotCompared) {
  // Same origin and enqueued generation, but one summary lags: wait, do not call it diverged.
  const std::vector<InstanceStatus> st = {status(7, 116, StateSummary{116, 5, 0xAA}),
                                          status(7, 116, StateSummary{100, 9, 0xBB}),
                                          status(7, 116, std::nullopt)};
  std::vector<CrossCheck> out;
  cross_check(st, out);
  for (const CrossCheck& c : out) EXPECT_EQ(c.state, CrossCheck::State::pending);
}

TEST(CrossCheck, InstancesThatNeverMeetAtOneGenerationShowNothing) {
  const std::vector<InstanceStatus> st = {status(7, 500, StateSummary{500, 5, 0xAA}),
                                          status(7, 20, StateSummary{20, 9, 0xBB})};
  std::vector<CrossCheck> out;
  cross_check(st, out);
  EXPECT_EQ(out[0].state, CrossCheck::State::none);
  EXPECT_EQ(out[1].state, CrossCheck::State::none);
}

TEST(CrossCheck, GroupsAreNumberedByFirstMemberAndLoneOriginsStayOut) {
  const StateSummary s{10, 1, 1};
  const std::vector<InstanceStatus> st = {status(1, 10, s), status(2, 10, s), status(3, 10, s),
                                          status(2, 10, s), status(1, 10, s)};
  std::vector<CrossCheck> out;
  cross_check(st, out);
  EXPECT_EQ(out[0].group, 0);
  EXPECT_EQ(out[4].group, 0);
  EXPECT_EQ(out[1].group, 1);
  EXPECT_EQ(out[3].group, 1);
  EXPECT_EQ(out[2].group, -1);
  EXPECT_EQ(out[2].state, CrossCheck::State::none);
  char label[8];
  EXPECT_STREQ(group_label(0, label, sizeof label), "A");
  EXPECT_STREQ(group_label(25, label, sizeof label), "Z");
  EXPECT_STREQ(group_label(26, label, sizeof label), "AA");
}

// 64 instances of one start: the badge's tooltip counts those that agree and lists only the rest,
// those that differ first.
TEST(CrossCheck, ABadgeSummaryCountsTheAgreeingAndListsOnlyTheOthers) {
  std::vector<InstanceStatus> st(64, status(7, 100, StateSummary{100, 5, 0xAA}));
  st[10] = status(7, 100, StateSummary{96, 5, 0x11});   // a summary behind: pending
  st[20] = status(7, 100, std::nullopt);                // none yet: pending
  st[30] = status(7, 100, StateSummary{100, 6, 0xAB});  // another hash: differs
  std::vector<CrossCheck> checks;
  cross_check(st, checks);
  const BadgeSummary b = summarise_badge(0, st, checks);
  EXPECT_TRUE(b.has_summary);
  EXPECT_EQ(b.generation, 100u);
  EXPECT_EQ(b.agree, 61);
  EXPECT_EQ(b.differ, 1);
  EXPECT_EQ(b.pending, 2);
  EXPECT_EQ(b.differing, (std::vector<std::size_t>{30, 10, 20}));
  // From the instance that differs, the 61 others differ from it.
  EXPECT_EQ(summarise_badge(30, st, checks).differ, 61);
  // An instance in no group has nothing to summarise.
  st.push_back(status(8, 100, StateSummary{100, 5, 0xAA}));
  cross_check(st, checks);
  EXPECT_EQ(summarise_badge(64, st, checks).agree, 0);
  EXPECT_TRUE(summarise_badge(64, st, checks).differing.empty());
}

TEST(Timeline, AxisTicksAreOneTwoOrFiveTimesAPowerOfTenAndCoverTheSpan) {
  const TimelineAxis a = timeline_axis(0.16, 8);
  EXPECT_DOUBLE_EQ(a.tick_ms, 0.02);
  EXPECT_NEAR(a.end_ms, 0.16, 1e-12);
  const TimelineAxis b = timeline_axis(1.3, 5);  // 0.26 per tick -> 0.5, three ticks
  EXPECT_DOUBLE_EQ(b.tick_ms, 0.5);
  EXPECT_DOUBLE_EQ(b.end_ms, 1.5);
  for (double span : {0.0031, 0.7, 4.2, 16.6, 250.0}) {
    for (int max_ticks : {2, 5, 9}) {
      const TimelineAxis t = timeline_axis(span, max_ticks);
      EXPECT_GE(t.end_ms, span);
      EXPECT_LE(t.end_ms / t.tick_ms, max_ticks + 1e-9) << span << " " << max_ticks;
    }
  }
  EXPECT_GT(timeline_axis(0, 5).end_ms, 0);
}

TEST(Timeline, RowsAreTheStreamsInAscendingOrder) {
  using K = TimelineBar::Kind;
  const std::vector<TimelineBar> bars = {{3, 5, K::step, 0, 1},
                                         {1, 2, K::step, 0, 1},
                                         {3, 5, K::display, 1, 2},
                                         {4, 9, K::step, 0, 1},
                                         {6, 9, K::step, 1, 2}};
  TimelineRows rows;
  rows.build(bars);
  ASSERT_EQ(rows.count(), 3);
  EXPECT_EQ(rows.row_of(2), 0);
  EXPECT_EQ(rows.row_of(5), 1);
  EXPECT_EQ(rows.row_of(9), 2);
  EXPECT_EQ(rows.row_of(3), -1);
  EXPECT_EQ(rows.only_instance(1), 3);   // stream 5 holds instance 3 only
  EXPECT_EQ(rows.only_instance(2), -1);  // stream 9 is shared by instances 4 and 6
}

// Bars of two GPUs (rows numbered GPU by GPU, as MultiEngine gives them): a header line before each
// GPU's rows, bars drawn and hit-tested on their row's line; bars of one GPU get no header.
TEST(Timeline, RowsOfSeveralGpusGoUnderAHeaderPerGpu) {
  using K = TimelineBar::Kind;
  const std::vector<TimelineBar> bars = {{0, 0, K::step, 0, 1, 0},
                                         {2, 1, K::step, 0, 1, 0},
                                         {1, 2, K::step, 0, 1, 1},
                                         {3, 3, K::step, 0.5, 1, 1}};
  TimelineRows rows;
  rows.build(bars);
  ASSERT_EQ(rows.count(), 4);
  ASSERT_EQ(rows.lines(), 6);
  ASSERT_EQ(rows.groups().size(), 2u);
  EXPECT_EQ(rows.groups()[0].device, 0);
  EXPECT_EQ(rows.groups()[1].device, 1);
  EXPECT_EQ(rows.groups()[1].first_row, 2);
  EXPECT_EQ(rows.line(0), 1);  // under GPU 0's header
  EXPECT_EQ(rows.line(1), 2);
  EXPECT_EQ(rows.line(2), 4);  // under GPU 1's header on line 3
  EXPECT_EQ(rows.line(3), 5);
  TimelineGeometry g;
  g.x0 = 0;
  g.y0 = 0;
  g.width = 100;
  g.row_height = 10;
  g.row_gap = 0;
  g.axis = timeline_axis(1.0, 5);
  EXPECT_EQ(bar_at(bars, rows, g, 75, 55), 3);   // row 3 is drawn on line 5
  EXPECT_EQ(bar_at(bars, rows, g, 75, 35), -1);  // line 3 is GPU 1's header
  const std::vector<TimelineBar> one_gpu = {{0, 0, K::step, 0, 1, 4}, {1, 1, K::step, 0, 1, 4}};
  rows.build(one_gpu);
  EXPECT_EQ(rows.lines(), 2);
  EXPECT_TRUE(rows.groups().empty());
  EXPECT_EQ(rows.line(1), 1);
}

TEST(Timeline, BarsArePlacedInTimeAndHitTestedWhereDrawn) {
  using K = TimelineBar::Kind;
  const std::vector<TimelineBar> bars = {
      {0, 0, K::step, 0.0, 0.5}, {0, 0, K::display, 0.6, 0.61}, {1, 1, K::step, 0.2, 1.0}};
  TimelineRows rows;
  rows.build(bars);
  TimelineGeometry g;
  g.x0 = 100;
  g.y0 = 10;
  g.width = 400;
  g.row_height = 10;
  g.row_gap = 2;
  g.min_bar_width = 3;
  g.axis = timeline_axis(1.0, 5);
  ASSERT_DOUBLE_EQ(g.axis.end_ms, 1.0);
  EXPECT_FLOAT_EQ(g.x_of(0), 100);
  EXPECT_FLOAT_EQ(g.x_of(0.5), 300);
  EXPECT_FLOAT_EQ(g.x_of(1.0), 500);
  const Rect r = g.bar_rect(bars[2], rows.row_of(1));
  EXPECT_FLOAT_EQ(r.x0, 180);
  EXPECT_FLOAT_EQ(r.x1, 500);
  EXPECT_FLOAT_EQ(r.y0, 22);
  EXPECT_FLOAT_EQ(r.y1, 32);
  // A 0.01 ms bar is 4 px at this scale; shorter ones keep min_bar_width.
  EXPECT_FLOAT_EQ(g.bar_rect({0, 0, K::step, 0.3, 0.3}, 0).x1 - g.x_of(0.3), 3);
  EXPECT_EQ(bar_at(bars, rows, g, 200, 15), 0);
  EXPECT_EQ(bar_at(bars, rows, g, 342, 15), 1);
  EXPECT_EQ(bar_at(bars, rows, g, 320, 15), -1);  // between the step and the display bar
  EXPECT_EQ(bar_at(bars, rows, g, 200, 21), -1);  // in the gap between rows
  EXPECT_EQ(bar_at(bars, rows, g, 200, 25), 2);
  EXPECT_FLOAT_EQ(g.height(2), 22);
}

// Copies go on a lane per GPU and direction after that GPU's stream rows: the halo exchanges of
// the bands on a GPU share its "halo" lane, a snapshot's copy to the host its "D2H" lane; a lane
// is hit where it is drawn, and a stream keeps its row.
TEST(Timeline, CopiesGoOnALanePerGpuAndDirectionAfterThatGpusRows) {
  using K = TimelineBar::Kind;
  using Lane = TimelineRows::Lane;
  const std::vector<TimelineBar> bars = {{0, 0, K::step, 0.0, 1.0, 0},    {0, 0, K::exchange, 0.2, 0.4, 0},
                                         {0, 1, K::step, 0.0, 1.0, 0},    {0, 1, K::exchange, 0.3, 0.5, 0},
                                         {1, 2, K::step, 0.0, 0.5, 1},    {1, 2, K::exchange, 0.6, 0.7, 1},
                                         {1, 2, K::snapshot, 0.7, 0.9, 1}};
  TimelineRows rows;
  rows.build(bars);
  ASSERT_EQ(rows.count(), 6);  // streams 0, 1, GPU 0's halo lane, stream 2, GPU 1's halo and D2H lanes
  EXPECT_EQ(rows.row_of(0), 0);
  EXPECT_EQ(rows.row_of(1), 1);
  EXPECT_EQ(rows.lane(2), Lane::halo_in);
  EXPECT_EQ(rows.row_of(2), 3);
  EXPECT_EQ(rows.lane(4), Lane::halo_in);
  EXPECT_EQ(rows.lane(5), Lane::to_host);
  EXPECT_EQ(rows.row_of(bars[1]), 2);  // both of GPU 0's exchanges on its one halo lane
  EXPECT_EQ(rows.row_of(bars[3]), 2);
  EXPECT_EQ(rows.row_of(bars[5]), 4);
  EXPECT_EQ(rows.row_of(bars[6]), 5);
  EXPECT_EQ(rows.only_instance(2), -1);
  ASSERT_EQ(rows.groups().size(), 2u);
  EXPECT_EQ(rows.groups()[1].first_row, 3);  // GPU 1's header before stream 2, after GPU 0's lane
  TimelineGeometry g;
  g.x0 = 0;
  g.y0 = 0;
  g.width = 100;
  g.row_height = 10;
  g.row_gap = 0;
  g.axis = timeline_axis(1.0, 5);
  EXPECT_EQ(bar_at(bars, rows, g, 35, 35), 3)
      << "GPU 0's halo lane on line 3 (after its header): the later exchange";
  EXPECT_EQ(bar_at(bars, rows, g, 30, 15), 0) << "stream 0's row holds its step only";
  EXPECT_EQ(bar_at(bars, rows, g, 80, 75), 6) << "GPU 1's D2H lane, line 7";
  EXPECT_EQ(bar_at(bars, rows, g, 30, 75), -1);
  EXPECT_EQ(rows.lines(), 8);
  EXPECT_STREQ(timeline_kind_name(K::exchange), "exchange");
  EXPECT_STREQ(timeline_kind_name(K::snapshot), "snapshot");
}

// A GPU's counter lanes go after its copy lanes, before the next GPU's rows.
TEST(Timeline, CounterLanesGoUnderTheirGpusRowsAfterItsCopyLanes) {
  using K = TimelineBar::Kind;
  using Lane = TimelineRows::Lane;
  const std::vector<TimelineBar> bars = {
      {0, 0, K::step, 0.0, 1.0, 0}, {0, 0, K::exchange, 0.2, 0.4, 0}, {1, 1, K::step, 0.0, 0.5, 1}};
  std::vector<PanelModel::CounterLane> lanes(3);
  lanes[0].gpu = 0;
  lanes[1].gpu = 1;
  lanes[2].gpu = 0;
  TimelineRows rows;
  rows.build(bars, lanes);
  ASSERT_EQ(rows.count(), 6);  // stream 0, GPU 0 halo, GPU 0 counters 0 and 2, stream 1, GPU 1 counter 1
  EXPECT_EQ(rows.lane(1), Lane::halo_in);
  EXPECT_EQ(rows.lane(2), Lane::counter);
  EXPECT_EQ(rows.counter(2), 0);
  EXPECT_EQ(rows.counter(3), 2);
  EXPECT_EQ(rows.row_of(1), 4);
  EXPECT_EQ(rows.counter(5), 1);
  ASSERT_EQ(rows.groups().size(), 2u);
  EXPECT_EQ(rows.groups()[1].first_row, 4);
}

TEST(Timeline, RowsShrinkToFitBetweenTheLimits) {
  EXPECT_FLOAT_EQ(timeline_row_height(4, 200, 3, 17), 17);
  EXPECT_FLOAT_EQ(timeline_row_height(20, 200, 3, 17), 10);
  EXPECT_FLOAT_EQ(timeline_row_height(64, 200, 4, 17), 4);
}

TEST(Validate, RuleTextGivesTheRuleOrTheReason) {
  std::string error = "stale";
  const std::optional<Rule> highlife = check_rule_text("B36/S23", error);
  ASSERT_TRUE(highlife.has_value());
  EXPECT_EQ(highlife->birth, (1u << 3) | (1u << 6));
  EXPECT_EQ(highlife->survive, (1u << 2) | (1u << 3));
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(check_rule_text(" HighLife ", error), highlife);

  EXPECT_FALSE(check_rule_text("B3/S2x", error).has_value());
  EXPECT_NE(error.find("column"), std::string::npos) << error;
  EXPECT_FALSE(check_rule_text("   ", error).has_value());
  EXPECT_FALSE(error.empty());
}

TEST(Validate, SizesMustBeMultiplesOf32) {
  std::string error;
  EXPECT_TRUE(check_size(1024, 2048, error));
  EXPECT_TRUE(error.empty());
  EXPECT_FALSE(check_size(1000, 1024, error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(check_size(0, 32, error));
}

TEST(Help, ListsEveryKeyAndMouseActionOfTheApp) {
  std::size_t n = 0;
  const HelpEntry* entries = help_entries(n);
  std::string all;
  for (std::size_t i = 0; i < n; ++i) all += std::string(entries[i].input) + " | " + entries[i].action + "\n";
  for (const char* needed :
       {"Space", "N", "=", "+", "keypad +", "keypad -", "V", "F", "S", "Tab", "F1", "Esc", "wheel", "drag",
        "Double-click", "Ctrl + left-drag", "Ctrl + right-drag", "Ctrl+Q", "close button"}) {
    EXPECT_NE(all.find(needed), std::string::npos) << needed << " missing from\n" << all;
  }
}

// Esc closes the topmost thing open and otherwise does nothing; Ctrl+Q and the window's close
// button quit, asking once first while there is unsaved drawing.
TEST(Help, SaysWhatEscCtrlQAndTheCloseButtonDo) {
  std::size_t n = 0;
  const HelpEntry* entries = help_entries(n);
  auto action = [&](const char* input) {
    for (std::size_t i = 0; i < n; ++i)
      if (std::string(entries[i].input) == input) return std::string(entries[i].action);
    return std::string();
  };
  const std::string esc = action("Esc");
  EXPECT_EQ(esc.find("quit"), std::string::npos) << esc;
  for (const char* part : {"dropdown", "help", "field", "fill", "otherwise nothing"})
    EXPECT_NE(esc.find(part), std::string::npos) << part << " missing from " << esc;
  const std::string quit = action("Ctrl+Q");
  for (const char* part : {"quit", "asks once", "Enter"})
    EXPECT_NE(quit.find(part), std::string::npos) << part << " missing from " << quit;
  EXPECT_NE(action("Window close button").find("quit"), std::string::npos);
}

// A notice names a file by its name: "loaded /abs/path/glider.rle into instance 0" would take
// three lines over the tiles. Rules and other slashes stay.
TEST(Notice, PathsShowAsTheirFileNames) {
  EXPECT_EQ(short_paths("loaded /abs/path/assets/patterns/glider.rle into instance 0"),
            "loaded glider.rle into instance 0");
  EXPECT_EQ(short_paths("screenshot saved to ./shots/lifestreams-0001.png."),
            "screenshot saved to lifestreams-0001.png.");
  EXPECT_EQ(short_paths("load: '/home/a b/my pattern.rle': no such file"),
            "load: 'my pattern.rle': no such file");
  EXPECT_EQ(short_paths("saved instance 2 to assets/patterns/out-0003.rle"),
            "saved instance 2 to out-0003.rle");
  EXPECT_EQ(short_paths("(/tmp/x.cells.gz), then"), "(x.cells.gz), then");
  // Not paths: rules, fractions, words with a slash and no file name.
  for (const char* keep : {"rule: column 5: expected a digit in 'B3/S2x'", "rule B36/S23 for all",
                           "23/3 and 1/4", "host/device sync", "instances 0..3"})
    EXPECT_EQ(short_paths(keep), keep);
}

}  // namespace
}  // namespace ls::ui

namespace ls::ui {
namespace {

TEST(UiPacer, RebuildsAtTheIntervalOnInputAndWhenForced) {
  UiPacer pacer(0.1);
  EXPECT_TRUE(pacer.due(5.00, false));   // first frame
  EXPECT_FALSE(pacer.due(5.05, false));  // 50 ms later: draw the previous frame again
  EXPECT_TRUE(pacer.due(5.06, true));    // input: at once
  EXPECT_FALSE(pacer.due(5.10, false));
  EXPECT_TRUE(pacer.due(5.16, false));  // 100 ms after the last rebuild
  pacer.force();
  EXPECT_TRUE(pacer.due(5.17, false));
  EXPECT_FALSE(pacer.due(5.18, false));
  EXPECT_TRUE(pacer.due(1.00, false));  // a clock that went back never stalls the UI
  // At 1000 frames per second over one second, about 10 of 1000 frames rebuild.
  UiPacer fast(0.1);
  int rebuilt = 0;
  for (int f = 0; f < 1000; ++f) rebuilt += fast.due(f * 0.001, false) ? 1 : 0;
  EXPECT_GE(rebuilt, 10);
  EXPECT_LE(rebuilt, 11);
}

}  // namespace
}  // namespace ls::ui
