// tile_labels.hpp — the label over each tile (instance, variant, size, generation, population),
// drawn with ImGui's foreground draw list when the UI is rebuilt.
#pragma once

namespace ls::app {

class Scene;

/// Adds each tile's label to the current ImGui frame. `scale_x/y`: framebuffer pixels per ImGui
/// coordinate.
void draw_tile_labels(const Scene& scene, float scale_x, float scale_y);

}  // namespace ls::app
