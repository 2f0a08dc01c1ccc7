// tiles.cpp — the tile textures (made when the layout changes, filled through the TileFiller) and
// their drawing as textured quads; the display path names and the tiles' sampling.
#include "render/tiles.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/error.hpp"
#include "render/shader.hpp"

namespace ls::render {
using view::Placement;
using view::Rect;

std::string_view display_path_name(DisplayPath path) {
  return path == DisplayPath::interop ? "interop" : "textbook";
}

std::string display_path_text(DisplayPath path, std::string_view remote_copy) {
  std::string text(display_path_name(path));
  if (path == DisplayPath::interop && !remote_copy.empty()) {
    text += '+';
    text.append(remote_copy);
  }
  return text;
}

std::optional<DisplayPath> parse_display_path(std::string_view name) {
  if (name == "interop") return DisplayPath::interop;
  if (name == "textbook") return DisplayPath::textbook;
  return std::nullopt;
}

Sampling sampling_for(const Placement& p, const DisplayOptions& options) {
  Sampling s;
  s.origin_x = p.origin_x;
  s.origin_y = p.origin_y;
  s.cells_per_pixel = 1.0 / p.pixels_per_cell;
  s.grid_lines = options.grid_lines && p.pixels_per_cell >= kGridMinPixelsPerCell;
  s.age_shading = options.age_shading;
  return s;
}

Sampling tile_sampling(const Placement& p, const DisplayOptions& options, bool history) {
  Sampling s = sampling_for(p, options);
  s.age_shading = s.age_shading && history;
  return s;
}

TileRenderer::TileRenderer(const std::string& shader_dir, std::unique_ptr<TileFiller> filler)
    : filler_(std::move(filler)) {
  if (!filler_) throw std::invalid_argument("TileRenderer: no tile filler");
  program_ = load_program(shader_dir, "tile.vert", "tile.frag");
  rect_location_ = glGetUniformLocation(program_.get(), "u_rect");
  origin_location_ = glGetUniformLocation(program_.get(), "u_origin");
  offset_location_ = glGetUniformLocation(program_.get(), "u_offset");
  const GLint texture_location = glGetUniformLocation(program_.get(), "u_texture");
  glProgramUniform1i(program_.get(), texture_location, 0);
  GLuint vao = 0;
  glCreateVertexArrays(1, &vao);
  vao_ = GlVertexArray(vao);
  check_gl("creating the tile program");
}

TileRenderer::~TileRenderer() {
  // Deleting a texture the filler's device work may still write would be a hazard; a destructor
  // cannot report a failed wait, and the textures go either way.
  try {
    filler_->finish_writes();
  } catch (const std::exception&) {
  }
  tiles_.clear();
}

void TileRenderer::sync(const std::vector<Placement>& placements) {
  bool changes = tiles_.size() != placements.size();
  for (std::size_t i = 0; i < placements.size() && i < tiles_.size() && !changes; ++i)
    changes = tiles_[i]->width != placements[i].quad.w || tiles_[i]->height != placements[i].quad.h;
  if (!changes) return;
  // Only when the layout changes (resize, instance count): let the last frame's fill finish
  // before textures it writes are deleted or remade.
  filler_->finish_writes();
  tiles_.resize(std::min(tiles_.size(), placements.size()));
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const int w = std::max(1, placements[i].quad.w);
    const int h = std::max(1, placements[i].quad.h);
    if (i < tiles_.size() && tiles_[i]->width == w && tiles_[i]->height == h) continue;
    auto tile = std::make_unique<Tile>();
    tile->width = w;
    tile->height = h;
    tile->texture = make_rgba8_texture(w, h);
    tile->attachment = filler_->attach(*tile);
    if (i < tiles_.size())
      tiles_[i] = std::move(tile);
    else
      tiles_.push_back(std::move(tile));
  }
}

void TileRenderer::update(const std::vector<Placement>& placements, const DisplayOptions& options,
                          const Palette& palette) {
  sync(placements);
  filler_->fill(tiles_, placements, options, palette, path_);
}

DisplayCost TileRenderer::measure(const std::vector<Placement>& placements, const DisplayOptions& options,
                                  const Palette& palette, DisplayPath path, double min_seconds,
                                  int max_frames) {
  sync(placements);
  return filler_->measure(tiles_, placements, options, palette, path, min_seconds, max_frames);
}

void TileRenderer::draw(const std::vector<Placement>& placements, int fb_width, int fb_height) {
  if (fb_width <= 0 || fb_height <= 0) return;
  glUseProgram(program_.get());
  glBindVertexArray(vao_.get());
  const std::size_t n = std::min(placements.size(), tiles_.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Rect& q = placements[i].quad;
    const float left = 2.f * q.x / fb_width - 1.f;
    const float right = 2.f * (q.x + tiles_[i]->width) / fb_width - 1.f;
    const float top = 1.f - 2.f * q.y / fb_height;
    const float bottom = 1.f - 2.f * (q.y + tiles_[i]->height) / fb_height;
    glUniform4f(rect_location_, left, bottom, right, top);
    glUniform2i(origin_location_, q.x, fb_height - 1 - q.y);
    const Tile& tile = *tiles_[i];
    glUniform2i(offset_location_, tile.source ? tile.source_x : 0, tile.source ? tile.source_y : 0);
    glBindTextureUnit(0, tile.source ? tile.source : tile.texture.get());
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace ls::render
