// Facts about the panel's helpers: engineering notation, the cross-check grouping and its badge's
// summary, the timeline's axis, rows and hit testing, rule and size validation, the help overlay's
// key list and the notice's short paths.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
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

// A frame of two GPUs (display on GPU 0; instances 0, 1 there, 2, 3, 4 on GPU 1, 4 a split band)
// with copies of every direction: each GPU's copy lanes follow its stream rows in the order D2H,
// H2D, D2D, peer, whatever order the bars come in; a direction without a copy on a GPU has no lane
// there; each copy is on its GPU's lane for its direction, placed at its times and hit there.
TEST(Timeline, CopiesGoOnALanePerGpuAndDirectionInAFixedOrderAfterThatGpusRows) {
  using K = TimelineBar::Kind;
  using C = TimelineBar::Copy;
  using Lane = TimelineRows::Lane;
  const std::vector<TimelineBar> bars = {
      {2, 0, K::tile, 1.5, 1.6, 0, C::peer, 1, 4096},      // 0: instance 2's pixels pulled from GPU 1
      {0, 0, K::step, 0.0, 1.0, 0},                        // 1
      {3, 3, K::snapshot, 1.2, 1.4, 1, C::d2h, -1, 8192},  // 2: instance 3's snapshot to the host
      {1, 1, K::step, 0.1, 0.9, 0},                        // 3
      {2, 2, K::step, 0.0, 1.2, 1},                        // 4
      {0, 0, K::handoff, 1.0, 1.01, 0, C::d2h, -1, 8},     // 5
      {3, 0, K::tile, 1.7, 1.8, 0, C::h2d, 1, 4096},       // 6: instance 3's pixels through the host
      {2, 0, K::tile, 1.6, 1.65, 0, C::d2d, 1, 4096},      // 7: staging to the atlas
      {3, 3, K::step, 0.0, 1.1, 1},                        // 8
      {2, 2, K::tile, 1.3, 1.35, 1, C::d2d, 0, 4096},      // 9: array to outbox on GPU 1
      {4, 4, K::step, 0.0, 1.0, 1},                        // 10
      {4, 4, K::exchange, 0.2, 0.3, 1},                    // 11: the split engine's, no direction
      {3, 3, K::tile, 1.25, 1.3, 1, C::d2h, 0, 4096},      // 12: array to pinned on GPU 1
  };
  TimelineRows rows;
  rows.build(bars);
  // GPU 0: streams 0, 1, then D2H, H2D, D2D, peer; GPU 1: streams 2, 3, 4, then D2H, D2D, peer.
  const std::vector<std::pair<int, Lane>> expected = {
      {0, Lane::none}, {0, Lane::none}, {0, Lane::d2h},  {0, Lane::h2d}, {0, Lane::d2d}, {0, Lane::peer},
      {1, Lane::none}, {1, Lane::none}, {1, Lane::none}, {1, Lane::d2h}, {1, Lane::d2d}, {1, Lane::peer}};
  ASSERT_EQ(rows.count(), static_cast<int>(expected.size()));
  for (int r = 0; r < rows.count(); ++r) {
    EXPECT_EQ(rows.device(r), expected[static_cast<std::size_t>(r)].first) << "row " << r;
    EXPECT_EQ(rows.lane(r), expected[static_cast<std::size_t>(r)].second) << "row " << r;
  }
  EXPECT_EQ(rows.row_of(0), 0);
  EXPECT_EQ(rows.row_of(1), 1);
  EXPECT_EQ(rows.row_of(2), 6);
  EXPECT_EQ(rows.row_of(4), 8);
  ASSERT_EQ(rows.groups().size(), 2u);
  EXPECT_EQ(rows.groups()[1].first_row, 6);  // GPU 1's header after GPU 0's copy lanes
  EXPECT_EQ(rows.lines(), 14);
  // Each copy on its GPU's lane for its direction; two copies of one direction share it.
  EXPECT_EQ(rows.row_of(bars[5]), 2);    // GPU 0 D2H
  EXPECT_EQ(rows.row_of(bars[6]), 3);    // GPU 0 H2D
  EXPECT_EQ(rows.row_of(bars[7]), 4);    // GPU 0 D2D
  EXPECT_EQ(rows.row_of(bars[0]), 5);    // GPU 0 peer
  EXPECT_EQ(rows.row_of(bars[2]), 9);    // GPU 1 D2H
  EXPECT_EQ(rows.row_of(bars[12]), 9);   // GPU 1 D2H, beside the snapshot
  EXPECT_EQ(rows.row_of(bars[9]), 10);   // GPU 1 D2D
  EXPECT_EQ(rows.row_of(bars[11]), 11);  // GPU 1 peer: the halo exchange, by its kind
  EXPECT_EQ(rows.only_instance(9), -1);
  EXPECT_STREQ(timeline_lane_label(rows.lane(2)), "D2H");
  EXPECT_STREQ(timeline_lane_label(rows.lane(3)), "H2D");
  EXPECT_STREQ(timeline_lane_label(rows.lane(4)), "D2D");
  EXPECT_STREQ(timeline_lane_label(rows.lane(5)), "peer");
  EXPECT_STREQ(timeline_lane_label(rows.lane(0)), "");

  TimelineGeometry g;
  g.x0 = 0;
  g.y0 = 0;
  g.width = 200;
  g.row_height = 10;
  g.row_gap = 0;
  g.axis = timeline_axis(2.0, 5);
  ASSERT_DOUBLE_EQ(g.axis.end_ms, 2.0);
  // The peer copy on GPU 0's peer lane (row 5, line 6 under GPU 0's header), 1.5 to 1.6 ms.
  const Rect peer = g.bar_rect(bars[0], rows.line(rows.row_of(bars[0])));
  EXPECT_FLOAT_EQ(peer.x0, 150);
  EXPECT_FLOAT_EQ(peer.x1, 160);
  EXPECT_FLOAT_EQ(peer.y0, 60);
  EXPECT_EQ(bar_at(bars, rows, g, 155, 65), 0);
  EXPECT_EQ(bar_at(bars, rows, g, 162, 65), -1);  // past its end: nothing there
  EXPECT_EQ(bar_at(bars, rows, g, 162, 55), 7) << "GPU 0's D2D lane on line 5: staging to the atlas";
  EXPECT_EQ(bar_at(bars, rows, g, 25, 135), 11) << "GPU 1's peer lane on line 13: the exchange";
  EXPECT_EQ(bar_at(bars, rows, g, 25, 85), 4) << "stream 2's row holds its step only";
  EXPECT_EQ(bar_at(bars, rows, g, 128, 115), 12)
      << "GPU 1's D2H lane (line 11): the tile's copy before the snapshot";
  EXPECT_EQ(bar_at(bars, rows, g, 135, 115), 2);
}

// Lanes come and go with the copies: a frame without copies has stream rows only, a GPU without a
// copy of a direction has no lane for it, and a rebuild drops the lanes of the frame before.
TEST(Timeline, OnlyTheDirectionsAFrameCopiesInHaveLanes) {
  using K = TimelineBar::Kind;
  using C = TimelineBar::Copy;
  using Lane = TimelineRows::Lane;
  const std::vector<TimelineBar> kernels = {{0, 0, K::step, 0.0, 1.0, 0},
                                            {0, 0, K::summary, 1.0, 1.1, 0},
                                            {0, 0, K::display, 1.1, 1.3, 0},
                                            {1, 1, K::step, 0.0, 0.5, 1}};
  TimelineRows rows;
  rows.build(kernels);
  ASSERT_EQ(rows.count(), 2);
  for (int r = 0; r < rows.count(); ++r) EXPECT_EQ(rows.lane(r), Lane::none);
  std::vector<TimelineBar> with_copy = kernels;
  with_copy.push_back({1, 1, K::snapshot, 0.5, 0.7, 1, C::d2h, -1, 1024});
  rows.build(with_copy);
  ASSERT_EQ(rows.count(), 3);  // GPU 0 none, GPU 1 its D2H lane only
  EXPECT_EQ(rows.lane(2), Lane::d2h);
  EXPECT_EQ(rows.device(2), 1);
  rows.build(kernels);
  EXPECT_EQ(rows.count(), 2);
  EXPECT_EQ(rows.lines(), 4);
}

// Kernels keep their stream's row whatever their kind: a bar without a copy direction is on a
// lane only when it is a halo exchange (which the split engine times with no direction). A split
// band's snapshot (a conversion kernel and the copy to the host, timed together) and a one-GPU
// snapshot's staging kernel stay on their rows.
TEST(Timeline, AKernelNeverLandsOnACopyLane) {
  using K = TimelineBar::Kind;
  using Lane = TimelineRows::Lane;
  for (const K kind : {K::step, K::display, K::summary, K::snapshot, K::tile, K::handoff}) {
    const std::vector<TimelineBar> bars = {{0, 0, K::step, 0.0, 1.0, 0}, {0, 0, kind, 1.0, 1.2, 0}};
    EXPECT_EQ(TimelineRows::lane_of(bars[1]), Lane::none) << timeline_kind_name(kind);
    TimelineRows rows;
    rows.build(bars);
    EXPECT_EQ(rows.count(), 1) << timeline_kind_name(kind);
    EXPECT_EQ(rows.row_of(bars[1]), rows.row_of(0)) << timeline_kind_name(kind);
  }
  EXPECT_EQ(TimelineRows::lane_of({0, 0, K::exchange, 0.0, 1.0, 0}), Lane::peer);
  EXPECT_STREQ(timeline_kind_name(K::exchange), "exchange");
  EXPECT_STREQ(timeline_kind_name(K::tile), "tile copy");
  EXPECT_STREQ(timeline_kind_name(K::handoff), "handoff");
}

// A GPU's counter lanes go after its copy lanes, before the next GPU's rows.
TEST(Timeline, CounterLanesGoUnderTheirGpusRowsAfterItsCopyLanes) {
  using K = TimelineBar::Kind;
  using C = TimelineBar::Copy;
  using Lane = TimelineRows::Lane;
  const std::vector<TimelineBar> bars = {{0, 0, K::step, 0.0, 1.0, 0},
                                         {0, 0, K::exchange, 0.2, 0.4, 0},
                                         {0, 0, K::handoff, 1.0, 1.01, 0, C::d2h, -1, 8},
                                         {1, 1, K::step, 0.0, 0.5, 1}};
  std::vector<PanelModel::CounterLane> lanes(3);
  lanes[0].gpu = 0;
  lanes[1].gpu = 1;
  lanes[2].gpu = 0;
  TimelineRows rows;
  rows.build(bars, lanes);
  ASSERT_EQ(rows.count(), 7);  // stream 0, GPU 0 D2H and peer, its counters 0 and 2, stream 1, counter 1
  EXPECT_EQ(rows.lane(1), Lane::d2h);
  EXPECT_EQ(rows.lane(2), Lane::peer);
  EXPECT_EQ(rows.lane(3), Lane::counter);
  EXPECT_EQ(rows.counter(3), 0);
  EXPECT_EQ(rows.counter(4), 2);
  EXPECT_EQ(rows.row_of(1), 5);
  EXPECT_EQ(rows.counter(6), 1);
  ASSERT_EQ(rows.groups().size(), 2u);
  EXPECT_EQ(rows.groups()[1].first_row, 5);
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
