// test_panel_history.cpp — the timing history in the panel: the timings table ends with a
// "history" column that plots each instance's own step times, and the span's history is plotted
// under the totals.
#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "panel_fixture.hpp"
#include "ui/history_plot.hpp"

namespace ls::ui {
namespace {

/// A display tall enough that the panel shows the timings without scrolling.
constexpr float kTallDisplay = 2400;

ImGuiTable* timings_table() {
  ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
  if (window == nullptr) return nullptr;
  return ImGui::TableFindByID(ImHashStr("##timings", 0, window->ID));
}

class PanelHistoryTest : public PanelTest {
 protected:
  void SetUp() override {
    PanelTest::SetUp();
    ImGui::GetIO().DisplaySize.y = kTallDisplay;
  }
};

TEST_F(PanelHistoryTest, TimingsTableEndsWithAHistoryColumn) {
  frame();
  ImGuiTable* table = timings_table();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->ColumnsCount, 10);
  EXPECT_STREQ(ImGui::TableGetColumnName(table, table->ColumnsCount - 1), "history");
}

TEST_F(PanelHistoryTest, HistoryColumnPlotsEachInstancesOwnStepTimes) {
  panel_.set_width(1000);  // every column in view, no horizontal scrolling
  frame();
  with_engine_ = false;
  model_.statuses[0].step_history = {1.f, 1.5f, 1.f, 7.25f};
  model_.statuses[1].step_history = {2.f, 2.5f, 2.f, 9.5f};
  frame();
  ImGuiTable* table = timings_table();
  ASSERT_NE(table, nullptr);
  // The mouse over the right end of row 0's plot: its tooltip gives the newest two samples (the
  // panel's text then ends with the tooltip's: ImGui's log closes at that window's End).
  const ImGuiTableColumn& history = table->Columns[table->ColumnsCount - 1];
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const ImVec2 at(history.MaxX - style.CellPadding.x - 6, table->OuterRect.Min.y + row_h * 1.5f);
  // Moved there, as a person's mouse is (ImGui hovers nothing for a pointer that never moved).
  ImGui::GetIO().MousePos = ImVec2(at.x - 8, at.y);
  frame();
  ImGui::GetIO().MousePos = at;
  frame();
  const std::string text = panel_text();
  EXPECT_NE(text.find("7.25"), std::string::npos) << text;
  EXPECT_EQ(text.find("9.5"), std::string::npos) << text;
}

TEST_F(PanelHistoryTest, SpanHistoryIsPlottedUnderTheTotals) {
  frame();
  const std::vector<FrameSeries> series = frame_series(model_);
  ASSERT_FALSE(series.empty());
  EXPECT_STREQ(series[0].label, "span");  // the CPU engine's span (a GPU engine's is "GPU span")
  EXPECT_EQ(series[0].samples, &model_.frame.span_history);
  // The CPU engine closed two timed frames in the fixture's three steps.
  EXPECT_EQ(model_.frame.span_history.size(), 2u);
}

TEST_F(PanelHistoryTest, HostEnqueueHistoryIsPlottedBesideTheSpan) {
  frame();
  const std::vector<FrameSeries> series = frame_series(model_);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_STREQ(series[1].label, "host enqueue");
  EXPECT_EQ(series[1].samples, &model_.host_enqueue_history);
  // One sample per step of the fixture's three, the newest the engine's last host enqueue time.
  ASSERT_EQ(model_.host_enqueue_history.size(), 3u);
  EXPECT_FLOAT_EQ(model_.host_enqueue_history.back(), static_cast<float>(model_.host_enqueue_ms.last));
}

}  // namespace
}  // namespace ls::ui
