// tile_labels.cpp — implements tile_labels.hpp.
#include "app/tile_labels.hpp"

#include <imgui.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <utility>

#include "control/scene.hpp"

namespace ls::app {
namespace {

constexpr float kPad = 3.f;  // ImGui pixels between a label's text and its box
const ImU32 kBoxColour = IM_COL32(0, 0, 0, 170);
const ImU32 kTextColour = IM_COL32(230, 235, 240, 255);

// The box and text in ImGui coordinates from a box in framebuffer pixels.
void draw_box(ImDrawList* dl, const view::Rect& box, const std::string& text, float sx, float sy) {
  const ImVec2 lo(box.x / sx, box.y / sy);
  const ImVec2 hi((box.x + box.w) / sx, (box.y + box.h) / sy);
  dl->AddRectFilled(lo, hi, kBoxColour);
  dl->PushClipRect(lo, hi, true);
  dl->AddText(ImVec2(lo.x + kPad, lo.y + kPad), kTextColour, text.c_str());
  dl->PopClipRect();
}

}  // namespace

std::vector<std::string> label_texts(std::size_t index, const InstanceStatus& s, bool cpu) {
  // A fresh summary: the generation shown is the summary's, so that it and the population agree.
  // An old one (paced on a huge lattice): the engine's generation, and the population says which
  // generation it counted and how many frames ago that was.
  const bool old = summary_is_old(s);
  const std::uint64_t gen = s.summary && !old ? s.summary->generation : s.generation;
  char pop[96] = "...";
  if (old)
    std::snprintf(pop, sizeof pop, "%" PRIu64 " (gen %" PRIu64 ", %" PRIu64 " frames ago)",
                  s.summary->population, s.summary->generation, s.summary_frames_ago);
  else if (s.summary)
    std::snprintf(pop, sizeof pop, "%" PRIu64, s.summary->population);
  const std::string variant = std::string(variant_name(s.variant)) + (cpu ? " (cpu)" : "");
  char second[192];
  std::snprintf(second, sizeof second, "%dx%d  gen %" PRIu64 "  pop %s", s.width, s.height, gen, pop);
  char id[32];
  std::snprintf(id, sizeof id, "#%zu", index);
  char timing[48] = "";
  // step_ms times a frame's step, however many generations it holds: per frame.
  if (s.step_ms.samples > 0) std::snprintf(timing, sizeof timing, "  %.2f ms/frame", s.step_ms.mean);
  char short_gen[64];
  std::snprintf(short_gen, sizeof short_gen, "#%zu  gen %" PRIu64, index, gen);
  std::vector<std::string> texts;
  // Two short lines, so that middling tiles still show everything.
  if (*timing) texts.push_back(std::string(id) + " " + variant + timing + "\n" + second);
  texts.push_back(std::string(id) + " " + variant + "\n" + second);
  texts.push_back(short_gen);
  texts.push_back(id);
  return texts;
}

std::vector<std::optional<TileLabel>> tile_labels(const Scene& scene, float sx, float sy) {
  std::vector<InstanceStatus> statuses;
  for (std::size_t i = 0; i < scene.engine().size(); ++i) statuses.push_back(scene.engine().status(i));
  return tile_labels(scene, statuses, sx, sy);
}

std::vector<std::optional<TileLabel>> tile_labels(const Scene& scene,
                                                  const std::vector<InstanceStatus>& statuses, float sx,
                                                  float sy) {
  const Engine& engine = scene.engine();
  const auto rects = scene.tile_rects();
  const bool cpu = engine.backend() == "cpu";
  std::vector<std::optional<TileLabel>> labels;
  for (std::size_t i = 0; i < rects.size() && i < statuses.size(); ++i) {
    std::vector<std::string> texts = label_texts(i, statuses[i], cpu);
    std::vector<std::pair<double, double>> sizes;
    for (const std::string& t : texts) {
      const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      sizes.emplace_back(ts.x * sx, ts.y * sy);
    }
    const auto label = view::place_label(rects[i], sizes, kPad * sx);
    labels.push_back(label ? std::optional<TileLabel>(TileLabel{std::move(texts[label->choice]), label->box})
                           : std::nullopt);
  }
  return labels;
}

void draw_tile_labels(const Scene& scene, float sx, float sy) {
  std::vector<InstanceStatus> statuses;
  for (std::size_t i = 0; i < scene.engine().size(); ++i) statuses.push_back(scene.engine().status(i));
  draw_tile_labels(scene, statuses, sx, sy);
}

void draw_tile_labels(const Scene& scene, const std::vector<InstanceStatus>& statuses, float sx, float sy) {
  // The background list: ImGui draws it before every window, so the panel, the help and tooltips
  // cover the labels rather than the other way round.
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  for (const auto& label : tile_labels(scene, statuses, sx, sy))
    if (label) draw_box(dl, label->box, label->text, sx, sy);
}

std::string readout_text(const Readout& r) {
  std::string text;
  char buf[96];
  if (r.instance >= 0) {
    std::snprintf(buf, sizeof buf, "#%d", r.instance);
    text += buf;
    if (r.cell) {
      std::snprintf(buf, sizeof buf, "  cell %d, %d", r.cell->x, r.cell->y);
      text += buf;
    }
    // Zoomed out, a pixel shows several cells: two significant digits say how many.
    std::snprintf(buf, sizeof buf,
                  r.pixels_per_cell >= 10 ? "  \xC2\xB7  %.0f px/cell" : "  \xC2\xB7  %.2g px/cell",
                  r.pixels_per_cell);
    text += buf;
    text += "  \xC2\xB7  ";
  }
  if (r.paused) {
    text += "paused";
  } else if (r.generations_per_second < 0) {
    text += "measuring gen/s";
  } else {
    std::snprintf(buf, sizeof buf, r.generations_per_second >= 100 ? "%.0f gen/s" : "%.1f gen/s",
                  r.generations_per_second);
    text += buf;
  }
  return text;
}

void draw_readout(const std::string& text, const view::Rect& area, float sx, float sy) {
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  const int w = static_cast<int>(std::ceil((ts.x + 2 * kPad) * sx));
  const int h = static_cast<int>(std::ceil((ts.y + 2 * kPad) * sy));
  if (w > area.w || h > area.h) return;
  const view::Rect box{area.x + area.w - w, area.y + area.h - h, w, h};
  draw_box(ImGui::GetBackgroundDrawList(), box, text, sx, sy);
}

}  // namespace ls::app
