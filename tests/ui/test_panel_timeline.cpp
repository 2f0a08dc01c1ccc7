// Facts about the timeline as the panel draws it, read back from the panel's draw list (what a
// screenshot would show): a frame of two GPUs with copies puts each copy on its GPU's lane for its
// direction under that GPU's stream rows, at its times on the frame's axis, with no lane drawn for
// a direction the frame does not copy in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "panel_fixture.hpp"
#include "ui/style.hpp"

namespace ls::ui {
namespace {

/// The box around the filled shapes of one colour in the panel's draw list below `below`: around
/// their opaque vertices, which anti-aliasing puts half a pixel inside the shape's edge (the
/// transparent fringe half a pixel outside it).
struct Box {
  float x0 = FLT_MAX, y0 = FLT_MAX, x1 = -FLT_MAX, y1 = -FLT_MAX;
  int vertices = 0;
};

Box box_of(ImU32 col, float below) {
  Box b;
  const ImGuiWindow* window = ImGui::FindWindowByName("lifestreams##panel");
  if (window == nullptr) return b;
  for (const ImDrawVert& v : window->DrawList->VtxBuffer) {
    if (v.col != col || v.pos.y <= below) continue;
    b.x0 = std::min(b.x0, v.pos.x);
    b.x1 = std::max(b.x1, v.pos.x);
    b.y0 = std::min(b.y0, v.pos.y);
    b.y1 = std::max(b.y1, v.pos.y);
    ++b.vertices;
  }
  b.x0 -= 0.5f;
  b.y0 -= 0.5f;
  b.x1 += 0.5f;
  b.y1 += 0.5f;
  return b;
}

/// The bar of colour `col` in the timeline: its shape below the legend's square of that colour.
/// The legend starts at its display square (no display bar in these frames) and may take two
/// lines; its squares are 0.7 of a text line tall.
Box bar_of(ImU32 col) {
  const float legend_top = box_of(colour::display, 0).y0 - 1;
  const Box square = box_of(col, legend_top);
  return box_of(col, square.y0 + 0.7f * ImGui::GetTextLineHeight() + 1);
}

class PanelTimelineTest : public PanelTest {};

// One bar of each colour, so that each colour's shapes are its legend square and one bar: GPU 0
// runs instance 0's step (0 to 1 ms), its handoff pulse (D2H) and pulls instance 2's tile from
// GPU 1 (peer); GPU 1 runs instance 2's summary kernel, its snapshot's copy to the host (D2H) and
// a split band's halo exchange (the split engine's, no direction: the peer lane).
TEST_F(PanelTimelineTest, CopiesAreDrawnOnTheirGpusLanesUnderItsRowsAtTheirTimes) {
  frame();
  with_engine_ = false;
  ImGui::GetIO().DisplaySize = ImVec2(1600, 2400);
  using K = TimelineBar::Kind;
  using C = TimelineBar::Copy;
  model_.timeline = {{0, 0, K::step, 0.0, 1.0, 0},
                     {0, 0, K::handoff, 1.0, 1.1, 0, C::d2h, -1, 8},
                     {2, 0, K::tile, 1.5, 1.6, 0, C::peer, 1, 1 << 20, 1},
                     {2, 1, K::summary, 0.0, 1.2, 1},
                     {2, 1, K::snapshot, 1.2, 1.4, 1, C::d2h, -1, 8192},
                     {3, 2, K::exchange, 0.2, 0.3, 1}};
  frame();
  frame();
  const Box step = bar_of(colour::step);
  const Box handoff = bar_of(colour::handoff);
  const Box tile = bar_of(colour::tile);
  const Box summary = bar_of(colour::summary);
  const Box snapshot = bar_of(colour::snapshot);
  const Box exchange = bar_of(colour::exchange);
  for (const Box* b : {&step, &handoff, &tile, &summary, &snapshot, &exchange}) ASSERT_GT(b->vertices, 0);

  // Lines from the top: GPU 0's header, stream 0, its D2H lane, its peer lane (no H2D or D2D lane:
  // it copies in neither), GPU 1's header, stream 1, its D2H lane, its peer lane.
  const float pitch = handoff.y0 - step.y0;
  ASSERT_GT(pitch, 0.f) << "GPU 0's D2H lane under its stream row";
  EXPECT_NEAR(tile.y0 - handoff.y0, pitch, 0.5f) << "GPU 0's peer lane right after its D2H lane";
  EXPECT_NEAR(summary.y0 - tile.y0, 2 * pitch, 0.5f) << "GPU 1's header, then its stream row";
  EXPECT_NEAR(snapshot.y0 - summary.y0, pitch, 0.5f);
  EXPECT_NEAR(exchange.y0 - snapshot.y0, pitch, 0.5f);
  // A lane is one row tall.
  EXPECT_NEAR(tile.y1 - tile.y0, step.y1 - step.y0, 0.5f);
  EXPECT_NEAR(exchange.y1 - exchange.y0, step.y1 - step.y0, 0.5f);

  // On the frame's axis: the step's 0 to 1 ms gives the scale.
  const float ms = step.x1 - step.x0;
  ASSERT_GT(ms, 10.f);
  EXPECT_NEAR(handoff.x0, step.x0 + 1.0f * ms, 0.5f);
  EXPECT_NEAR(handoff.x1, step.x0 + 1.1f * ms, 0.5f);
  EXPECT_NEAR(tile.x0, step.x0 + 1.5f * ms, 0.5f);
  EXPECT_NEAR(tile.x1, step.x0 + 1.6f * ms, 0.5f);
  EXPECT_NEAR(snapshot.x0, step.x0 + 1.2f * ms, 0.5f);
  EXPECT_NEAR(exchange.x0, step.x0 + 0.2f * ms, 0.5f);
  EXPECT_NEAR(exchange.x1, step.x0 + 0.3f * ms, 0.5f);
}

}  // namespace
}  // namespace ls::ui
