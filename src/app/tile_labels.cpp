// tile_labels.cpp — implements tile_labels.hpp.
#include "app/tile_labels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "app/scene.hpp"

namespace ls::app {

void draw_tile_labels(const Scene& scene, float sx, float sy) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const Engine& engine = scene.engine();
  const auto rects = scene.tile_rects();
  const bool cpu = engine.backend() == "cpu";
  char text[160];
  for (std::size_t i = 0; i < rects.size() && i < engine.size(); ++i) {
    const InstanceStatus s = engine.status(i);
    const std::uint64_t gen = s.summary ? s.summary->generation : s.generation;
    char pop[32] = "...";
    if (s.summary) std::snprintf(pop, sizeof pop, "%" PRIu64, s.summary->population);
    // Two short lines, so that small tiles still show everything.
    std::snprintf(text, sizeof text, "#%zu %s%s\n%dx%d  gen %" PRIu64 "  pop %s", i,
                  std::string(variant_name(s.variant)).c_str(), cpu ? " (cpu)" : "", s.width, s.height, gen,
                  pop);
    const view::Rect& r = rects[i];
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float pad = 3.f;
    const ImVec2 lo(r.x / sx, r.y / sy);
    // A tile thinner than its label (a very wide, short lattice) still shows it, over the space
    // below the tile.
    const ImVec2 hi((r.x + r.w) / sx, std::max((r.y + r.h) / sy, lo.y + ts.y + 2 * pad));
    dl->PushClipRect(lo, hi, true);
    dl->AddRectFilled(lo, ImVec2(lo.x + ts.x + 2 * pad, lo.y + ts.y + 2 * pad), IM_COL32(0, 0, 0, 170));
    dl->AddText(ImVec2(lo.x + pad, lo.y + pad), IM_COL32(230, 235, 240, 255), text);
    dl->PopClipRect();
  }
}

}  // namespace ls::app
