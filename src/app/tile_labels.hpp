// tile_labels.hpp — what is written over the tiles: each tile's label (instance, variant, size,
// generation, population, step time), shortened to what its tile has room for, and the readout
// line (the cell under the cursor, the zoom, generations per second). Both go to ImGui's
// background draw list: over the tiles, under every ImGui window (panel, help, tooltips).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "view/view.hpp"

namespace ls::app {

class Scene;

/// The texts instance `index`'s label may show, fullest first: two lines with the step time; the
/// same without the time; "#i  gen G"; "#i". `cpu`: the CPU engine runs it (said after the variant).
std::vector<std::string> label_texts(std::size_t index, const InstanceStatus& status, bool cpu);

/// A tile's label as drawn: its text and box (framebuffer pixels, inside the tile).
struct TileLabel {
  std::string text;
  view::Rect box;
};

/// Each tile's label: the fullest of label_texts that fits its tile (view::place_label, measured
/// in the current ImGui font), nullopt on a tile too small for any. `scale_x/y`: framebuffer
/// pixels per ImGui coordinate.
std::vector<std::optional<TileLabel>> tile_labels(const Scene& scene, float scale_x, float scale_y);
/// The same from `statuses` (one per instance): the panel's own, so that a label and the
/// Instances table never show two summaries of one instance.
std::vector<std::optional<TileLabel>> tile_labels(const Scene& scene,
                                                  const std::vector<InstanceStatus>& statuses, float scale_x,
                                                  float scale_y);

/// Adds tile_labels to the current ImGui frame's background draw list.
void draw_tile_labels(const Scene& scene, float scale_x, float scale_y);
void draw_tile_labels(const Scene& scene, const std::vector<InstanceStatus>& statuses, float scale_x,
                      float scale_y);

/// What the readout line shows.
struct Readout {
  int instance = -1;                   // the tile under the cursor, -1 for none
  std::optional<view::CellPos> cell;   // the cell under the cursor in it
  double pixels_per_cell = 0;          // that tile's zoom
  double generations_per_second = -1;  // of the engine, measured; negative: not yet
  bool paused = false;
};

/// "#2  cell 512, 300  ·  2.5 px/cell  ·  1 234 gen/s": the parts that are known.
std::string readout_text(const Readout& readout);

/// Draws `text` in a small box at the bottom right of `area` (framebuffer pixels) into the
/// background draw list.
void draw_readout(const std::string& text, const view::Rect& area, float scale_x, float scale_y);

}  // namespace ls::app
