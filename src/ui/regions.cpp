// regions.cpp — the ImGui draw commands' boxes and disjoint rectangles that cover them.
#include "ui/regions.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace ls::ui {

std::vector<Region> draw_command_boxes(const ImDrawData& data) {
  std::vector<Region> boxes;
  const ImVec2 origin = data.DisplayPos;
  const ImVec2 scale = data.FramebufferScale;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback != nullptr || cmd.ElemCount == 0) continue;
      float x0 = cmd.ClipRect.z, y0 = cmd.ClipRect.w, x1 = cmd.ClipRect.x, y1 = cmd.ClipRect.y;
      for (unsigned int i = 0; i < cmd.ElemCount; ++i) {
        const ImDrawVert& v = list.VtxBuffer[static_cast<int>(
            cmd.VtxOffset + list.IdxBuffer[static_cast<int>(cmd.IdxOffset + i)])];
        x0 = std::min(x0, v.pos.x);
        y0 = std::min(y0, v.pos.y);
        x1 = std::max(x1, v.pos.x);
        y1 = std::max(y1, v.pos.y);
      }
      x0 = std::max(x0, cmd.ClipRect.x);
      y0 = std::max(y0, cmd.ClipRect.y);
      x1 = std::min(x1, cmd.ClipRect.z);
      y1 = std::min(y1, cmd.ClipRect.w);
      if (x1 <= x0 || y1 <= y0) continue;
      const int px0 = static_cast<int>(std::floor((x0 - origin.x) * scale.x));
      const int py0 = static_cast<int>(std::floor((y0 - origin.y) * scale.y));
      const int px1 = static_cast<int>(std::ceil((x1 - origin.x) * scale.x));
      const int py1 = static_cast<int>(std::ceil((y1 - origin.y) * scale.y));
      boxes.push_back(Region{px0, py0, px1 - px0, py1 - py0});
    }
  }
  return boxes;
}

std::vector<Region> covering_regions(const std::vector<Region>& boxes, int width, int height, int cell) {
  std::vector<Region> out;
  if (width <= 0 || height <= 0 || cell <= 0) return out;
  const int cols = (width + cell - 1) / cell;
  const int rows = (height + cell - 1) / cell;
  std::vector<unsigned char> covered(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows), 0);
  for (const Region& b : boxes) {
    if (b.w <= 0 || b.h <= 0 || b.x + b.w <= 0 || b.y + b.h <= 0) continue;
    const int c0 = std::max(0, b.x / cell), c1 = std::min(cols - 1, (b.x + b.w - 1) / cell);
    const int r0 = std::max(0, b.y / cell), r1 = std::min(rows - 1, (b.y + b.h - 1) / cell);
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) covered[static_cast<std::size_t>(r) * cols + c] = 1;
  }
  // Runs along each row; a run with the same columns as one in the row above extends it.
  struct Run {
    int c0, c1, r0, r1;
  };
  std::vector<Run> open, done;
  for (int r = 0; r < rows; ++r) {
    std::vector<Run> next;
    for (int c = 0; c < cols;) {
      if (!covered[static_cast<std::size_t>(r) * cols + c]) {
        ++c;
        continue;
      }
      int e = c;
      while (e + 1 < cols && covered[static_cast<std::size_t>(r) * cols + e + 1]) ++e;
      auto same =
          std::find_if(open.begin(), open.end(), [&](const Run& o) { return o.c0 == c && o.c1 == e; });
      if (same != open.end()) {
        next.push_back(Run{c, e, same->r0, r});
        open.erase(same);
      } else {
        next.push_back(Run{c, e, r, r});
      }
      c = e + 1;
    }
    done.insert(done.end(), open.begin(), open.end());
    open = std::move(next);
  }
  done.insert(done.end(), open.begin(), open.end());
  for (const Run& run : done) {
    const int x = run.c0 * cell, y = run.r0 * cell;
    out.push_back(
        Region{x, y, std::min(width, (run.c1 + 1) * cell) - x, std::min(height, (run.r1 + 1) * cell) - y});
  }
  return out;
}

}  // namespace ls::ui
