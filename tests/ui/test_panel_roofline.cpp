// The panel's roofline view (ui/roofline_section.hpp): its axes show every point and ridge, and the
// section draws the instances it is given, or the note saying why there are none.
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>

#include "panel_fixture.hpp"
#include "ui/roofline_section.hpp"

namespace ls::ui {
namespace {

PanelModel::RooflineRow row(std::size_t i, Variant v, int k, double cups, const GpuLimits& g) {
  PanelModel::RooflineRow r;
  r.instance = i;
  r.variant = v;
  r.devices = {0};
  r.limits = g;
  r.point = roofline_point(v, Rule::life(), k, cups, g);
  return r;
}

const GpuLimits kGpu{132, 1.98e9, 3000};

TEST(RooflineAxes, EveryPointAndTheRidgeLieInsideWholeDecades) {
  const std::vector<PanelModel::RooflineRow> rows = {row(0, Variant::global, 1, 1.3e12, kGpu),
                                                     row(1, Variant::bitpacked, 16, 2.7e13, kGpu),
                                                     row(2, Variant::naive, 1, 1.4e11, kGpu)};
  const RooflineAxes a = roofline_axes(rows);
  const double ridge = kGpu.alu_ops_per_s() / (kGpu.copy_gbps * 1e9);
  for (const auto& r : rows) {
    const double x = r.point.alu_per_cell / r.point.bytes_per_cell, y = r.point.cups * r.point.alu_per_cell;
    EXPECT_LT(a.x_lo, x);
    EXPECT_GT(a.x_hi, x);
    EXPECT_LT(a.y_lo, y);
    EXPECT_GT(a.y_hi, y);
  }
  EXPECT_LT(a.x_lo, ridge);
  EXPECT_GT(a.x_hi, ridge);
  EXPECT_GT(a.y_hi, kGpu.alu_ops_per_s());
  for (double v : {a.x_lo, a.x_hi, a.y_lo, a.y_hi})
    EXPECT_DOUBLE_EQ(std::log10(v), std::round(std::log10(v))) << v;
  EXPECT_GE(a.y_lo, a.y_hi / 1e5);  // a slow instance does not squash the others into a line
}

TEST_F(PanelTest, TheRooflineSectionDrawsAPointPerInstanceOrSaysWhyNone) {
  ImGui::GetIO().DisplaySize = ImVec2(1600, 4000);  // every section in view: a clipped table is not made
  model_.roofline_note = "instances in host memory have no roofline: it is drawn for the CUDA kernels";
  frame();
  ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
  ASSERT_NE(window, nullptr);
  EXPECT_EQ(ImGui::TableFindByID(ImHashStr("##roofline_table", 0, window->ID)),
            nullptr);  // no rows, no table
  const int empty_vertices = ImGui::GetDrawData()->TotalVtxCount;

  model_.roofline_note.clear();
  model_.roofline = {row(0, Variant::global, 1, 1.3e12, kGpu), row(1, Variant::bitpacked, 16, 2.7e13, kGpu)};
  frame();
  const int drawn_vertices = ImGui::GetDrawData()->TotalVtxCount;
  // Two filled circles, the roofs, the grid and the table: far more than the note alone.
  EXPECT_GT(drawn_vertices, empty_vertices + 100);
  const ImGuiTable* table = ImGui::TableFindByID(ImHashStr("##roofline_table", 0, window->ID));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->ColumnsCount, 7);
}

}  // namespace
}  // namespace ls::ui
