// regions.hpp — where the ImGui layer has anything to show: the boxes ImGui's draw commands
// cover, and a few disjoint rectangles that cover them all (the app blends its cached ImGui layer
// over the frame only there; overlapping rectangles would blend a pixel twice).
#pragma once

#include <vector>

#include "view/view.hpp"

struct ImDrawData;

namespace ls::ui {

/// A rectangle in framebuffer pixels, y from the top: the rectangles OverlayLayer::set_regions takes.
using Region = view::Rect;

/// The framebuffer pixels each draw command of `data` can touch: the bounds of its vertices within
/// its clip rectangle, scaled by the draw data's framebuffer scale.
std::vector<Region> draw_command_boxes(const ImDrawData& data);

/// Disjoint rectangles, inside width x height, that cover every pixel of `boxes`: the cells of a
/// `cell`-pixel grid that any box touches, as runs along each row of cells, runs of equal extent
/// in consecutive rows joined.
std::vector<Region> covering_regions(const std::vector<Region>& boxes, int width, int height, int cell);

}  // namespace ls::ui
