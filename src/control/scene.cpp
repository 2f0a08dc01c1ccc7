// scene.cpp — the scene's instances and layout: populating, planning and committing instance
// changes, loading and saving patterns, moving instances between devices, and the tiles' layout
// and mouse views. Commands are applied in scene_execute.cpp.
#include "control/scene.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <new>
#include <optional>
#include <type_traits>
#include <utility>

#include "control/numbered_path.hpp"
#include "control/recovery.hpp"
#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/pattern.hpp"

namespace ls::app {
namespace {

long long round_up_32(long long v) { return (v + 31) / 32 * 32; }

// The view of a pattern just placed centred in a `w` x `h` lattice: fitted to its live cells
// (a glider in a 1024^2 lattice would be two pixels at the whole lattice's fit).
view::View pattern_view(const Pattern& pattern, int w, int h) {
  if (pattern.cells.empty()) return view::View{};
  int x0 = pattern.cells[0].x, y0 = pattern.cells[0].y, x1 = x0, y1 = y0;
  for (const Cell& c : pattern.cells) {
    x0 = std::min(x0, c.x);
    y0 = std::min(y0, c.y);
    x1 = std::max(x1, c.x);
    y1 = std::max(y1, c.y);
  }
  // Where Lattice::place_centred puts the pattern's box.
  const int ox = (w - pattern.width) / 2, oy = (h - pattern.height) / 2;
  return view::fit_region(ox + x0, oy + y0, x1 - x0 + 1, y1 - y0 + 1);
}

}  // namespace

Scene::Scene(Engine& engine, SceneSettings settings) : engine_(engine), settings_(std::move(settings)) {
  refresh_dims();
}

void Scene::refresh_dims() {
  dims_.clear();
  for (std::size_t i = 0; i < engine_.size(); ++i) {
    const InstanceStatus s = engine_.status(i);
    dims_.emplace_back(s.width, s.height);
  }
  views_.resize(engine_.size());
  unsaved_.resize(engine_.size(), false);
}

bool Scene::unsaved() const { return std::find(unsaved_.begin(), unsaved_.end(), true) != unsaved_.end(); }

InstanceSpec Scene::new_spec(std::size_t index, const SceneSettings& settings) const {
  InstanceSpec spec;
  spec.width = settings.width;
  spec.height = settings.height;
  spec.rule = settings.rule;
  spec.variant =
      settings.variant ? *settings.variant : kDefaultVariantCycle[index % std::size(kDefaultVariantCycle)];
  spec.generations_per_launch = settings.generations_per_launch;
  RandomInit r;
  r.density = settings.density;
  r.seed = settings.same_seed ? settings.seed : settings.seed + index;
  spec.init = r;
  return spec;
}

InstanceSpec Scene::spec_of(std::size_t index, InitialState init) const {
  return spec_like(engine_.status(index), std::move(init));
}

void Scene::check_index(std::size_t index) const {
  if (index >= engine_.size()) {
    throw InputError("instance " + std::to_string(index) + " does not exist (there are " +
                     std::to_string(engine_.size()) + ": 0.." + std::to_string(engine_.size() - 1) + ")");
  }
}

std::vector<std::size_t> Scene::targets(const Target& t) const {
  std::vector<std::size_t> out;
  if (t.all) {
    for (std::size_t i = 0; i < engine_.size(); ++i) out.push_back(i);
  } else {
    check_index(t.index);
    out.push_back(t.index);
  }
  return out;
}

void Scene::populate(int count, const std::string& pattern_path, bool keep_rule) {
  std::vector<InstanceSpec> specs;
  for (int i = 0; i < count; ++i) specs.push_back(new_spec(static_cast<std::size_t>(i)));
  engine_.check_room(specs);
  for (int i = 0; i < count; ++i) {
    engine_.add(new_spec(static_cast<std::size_t>(i)));
    refresh_dims();
    if (!pattern_path.empty()) load(static_cast<std::size_t>(i), pattern_path, keep_rule);
  }
  refresh_dims();
  // A pattern loaded from a file at the start is that file's: nothing is lost by quitting.
  std::fill(unsaved_.begin(), unsaved_.end(), false);
}

void Scene::set_instances(int count) {
  if (std::optional<ScenePlan> p = plan(cmd::Instances{count})) {
    build_and_commit(*p);
    return;
  }
  while (engine_.size() > static_cast<std::size_t>(count)) engine_.remove(engine_.size() - 1);
  refresh_dims();
}

namespace {
std::string size_text(int w, int h) { return std::to_string(w) + " \xC3\x97 " + std::to_string(h); }
std::string count_text(std::size_t n, const char* one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}
}  // namespace

std::optional<ScenePlan> Scene::plan(const Command& command) const {
  ScenePlan p;
  p.command = command;
  p.count_before = engine_.size();
  // A rebuilt instance keeps its rule, variant and generations per launch; only its cells are new.
  auto keep = [&](std::size_t i, InstanceSpec spec) {
    const InstanceStatus s = engine_.status(i);
    spec.rule = s.rule;
    spec.variant = s.variant;
    spec.generations_per_launch = s.generations_per_launch;
    p.indices.push_back(i);
    p.specs.push_back(std::move(spec));
  };
  if (const auto* c = std::get_if<cmd::Size>(&command)) {
    check_lattice_size(c->width, c->height);
    SceneSettings after = settings_;
    after.width = c->width;
    after.height = c->height;
    for (std::size_t i = 0; i < engine_.size(); ++i) keep(i, new_spec(i, after));
    p.size = std::make_pair(c->width, c->height);
    p.what = "size " + size_text(c->width, c->height) + " for " + count_text(engine_.size(), "instance");
  } else if (const auto* c = std::get_if<cmd::Reset>(&command)) {
    for (std::size_t i : targets(c->target)) keep(i, new_spec(i));
    p.what = c->target.all ? "new soups for " + count_text(p.indices.size(), "instance")
                           : "a new soup for instance " + std::to_string(c->target.index);
  } else if (const auto* c = std::get_if<cmd::Instances>(&command)) {
    const auto most = static_cast<int>(engine_.max_instances());
    if (c->count < 1 || c->count > most)
      throw InputError("instance count must be 1.." + std::to_string(most) + ", got " +
                       std::to_string(c->count));
    if (static_cast<std::size_t>(c->count) <= engine_.size()) return std::nullopt;
    for (std::size_t i = engine_.size(); i < static_cast<std::size_t>(c->count); ++i) {
      p.indices.push_back(i);
      p.specs.push_back(new_spec(i));
    }
    p.what =
        count_text(p.indices.size(), "new instance") + " of " + size_text(settings_.width, settings_.height);
  } else {
    return std::nullopt;
  }
  for (const InstanceSpec& spec : p.specs)
    p.cells += static_cast<std::uint64_t>(spec.width) * static_cast<std::uint64_t>(spec.height);
  // Refused before anything is built: what is asked and what is free.
  engine_.check_room(p.specs);
  return p;
}

Effects Scene::build_and_commit(const ScenePlan& p) {
  BuildProgress progress;
  std::vector<std::unique_ptr<PreparedInstance>> prepared;
  for (const InstanceSpec& spec : p.specs) prepared.push_back(engine_.prepare(spec, progress));
  return commit(p, std::move(prepared));
}

Effects Scene::commit(const ScenePlan& p, std::vector<std::unique_ptr<PreparedInstance>> prepared) {
  if (engine_.size() != p.count_before)
    throw InputError("the instance count changed while the new instances were built; nothing was changed");
  if (prepared.size() != p.specs.size() ||
      std::any_of(prepared.begin(), prepared.end(), [](const auto& x) { return !x; }))
    throw InputError("the new instances were not all built; nothing was changed");
  // What a person changed on a rebuilt instance while it was built stays changed.
  struct Kept {
    std::size_t index;
    InstanceStatus now;
    const InstanceSpec* planned;
  };
  std::vector<Kept> kept;
  for (std::size_t k = 0; k < p.indices.size(); ++k)
    if (p.indices[k] < p.count_before)
      kept.push_back(Kept{p.indices[k], engine_.status(p.indices[k]), &p.specs[k]});
  std::vector<Installation> batch;
  for (std::size_t k = 0; k < p.indices.size(); ++k)
    batch.push_back(Installation{p.indices[k], std::move(prepared[k])});
  engine_.install(std::move(batch));
  for (const Kept& k : kept) {
    if (k.now.variant != k.planned->variant) engine_.set_variant(k.index, k.now.variant);
    if (k.now.generations_per_launch != k.planned->generations_per_launch)
      engine_.set_generations_per_launch(k.index, k.now.generations_per_launch);
    if (k.now.rule != k.planned->rule) engine_.set_rule(k.index, k.now.rule);
  }
  if (p.size) std::tie(settings_.width, settings_.height) = *p.size;
  refresh_dims();
  for (std::size_t index : p.indices) {
    views_[index] = view::View{};
    unsaved_[index] = false;
  }
  return Effects{};
}

void Scene::load(std::size_t index, const std::string& path, bool keep_rule) {
  check_index(index);
  const Pattern pattern = load_pattern_file(path, /*check_rule=*/!keep_rule);
  const InstanceStatus s = engine_.status(index);
  Rule rule = s.rule;
  long long w = s.width, h = s.height;
  if (pattern.width > w || pattern.height > h) {
    w = round_up_32(pattern.width + 64);
    h = round_up_32(pattern.height + 64);
  }
  if (!pattern.rule_text.empty()) {
    try {
      const RuleSpec rs = parse_rule_spec(pattern.rule_text);
      if (!keep_rule) rule = rs.rule;
      if (rs.torus_width) {
        w = *rs.torus_width;
        h = *rs.torus_height;
      }
    } catch (const InputError& e) {
      if (!keep_rule) throw InputError(path + ": rule '" + pattern.rule_text + "': " + e.what());
    }
  }
  check_lattice_size(w, h);
  // A file may name a torus far larger than memory: say so rather than let bad_alloc end the app.
  try {
    check_host_memory(w, h, 1);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  std::optional<Lattice> lattice;
  try {
    lattice.emplace(static_cast<int>(w), static_cast<int>(h));
  } catch (const std::bad_alloc&) {
    throw InputError(path + ": its " + std::to_string(w) + "x" + std::to_string(h) + " torus needs " +
                     std::to_string((w * h / 8) >> 20) + " MiB of host memory, more than can be had");
  }
  lattice->place_centred(pattern);
  InstanceSpec spec = spec_of(index, std::move(*lattice));
  spec.width = static_cast<int>(w);
  spec.height = static_cast<int>(h);
  spec.rule = rule;
  engine_.replace(index, spec);
  refresh_dims();
  views_[index] = pattern_view(pattern, static_cast<int>(w), static_cast<int>(h));
  unsaved_[index] = true;
}

std::string Scene::save(std::size_t index, const std::string& path) {
  check_index(index);
  const std::string target = path.empty() ? next_numbered_path("", "lifestreams", ".rle") : path;
  const InstanceStatus s = engine_.status(index);
  const Lattice cells = engine_.read(index);
  std::ofstream f(target, std::ios::binary | std::ios::trunc);
  if (!f) throw InputError("save " + target + ": cannot open for writing");
  // The whole torus, its size in the rule: loading the file back gives exactly this lattice.
  write_lattice_rle(f, cells, s.rule, "lifestreams instance " + std::to_string(index),
                    {"generation " + std::to_string(s.generation) + ", " + std::to_string(s.width) + "x" +
                     std::to_string(s.height) + " torus"});
  if (!f.flush()) throw InputError("save " + target + ": write failed");
  unsaved_[index] = false;
  return target;
}

void Scene::set_devices(const Target& target, const std::vector<int>& devices) {
  const auto ids = targets(target);
  if (devices.empty()) throw InputError("devices: the device list is empty");
  // All or nothing: instances already moved go back where they ran when a later one is refused.
  std::vector<std::vector<int>> before;
  for (std::size_t i : ids) before.push_back(engine_.instance_devices(i));
  std::size_t done = 0;
  try {
    for (; done < ids.size(); ++done) engine_.set_instance_devices(ids[done], devices);
  } catch (...) {
    for (std::size_t j = 0; j < done; ++j) engine_.set_instance_devices(ids[j], before[j]);
    throw;
  }
}

std::vector<view::Rect> Scene::tile_rects() const {
  // Asked for several times a frame (placements, the tile under the mouse, labels): laid out once
  // per area and set of lattice sizes.
  std::vector<view::Extent> lattices;
  lattices.reserve(dims_.size());
  for (const auto& [w, h] : dims_) lattices.push_back(view::Extent{w, h});
  const bool same =
      layout_cache_.valid && layout_cache_.area == area_ &&
      layout_cache_.lattices.size() == lattices.size() &&
      std::equal(lattices.begin(), lattices.end(), layout_cache_.lattices.begin(),
                 [](const view::Extent& a, const view::Extent& b) { return a.w == b.w && a.h == b.h; });
  if (!same) layout_cache_ = LayoutCache{true, area_, lattices, view::layout_tiles(area_, lattices)};
  return layout_cache_.rects;
}

std::vector<view::Placement> Scene::placements() const {
  const auto rects = tile_rects();
  std::vector<view::Placement> out;
  out.reserve(rects.size());
  for (std::size_t i = 0; i < rects.size(); ++i)
    out.push_back(view::place(views_[i], rects[i], dims_[i].first, dims_[i].second));
  return out;
}

int Scene::tile_at(double px, double py) const {
  const auto rects = tile_rects();
  for (std::size_t i = 0; i < rects.size(); ++i)
    if (rects[i].contains(px, py)) return static_cast<int>(i);
  return -1;
}

void Scene::zoom_at(std::size_t i, double factor, double px, double py) {
  const auto rects = tile_rects();
  if (i >= rects.size()) return;
  view::zoom_at(views_[i], rects[i], dims_[i].first, dims_[i].second, factor, px, py);
}

void Scene::pan_pixels(std::size_t i, double dx, double dy) {
  const auto rects = tile_rects();
  if (i >= rects.size()) return;
  view::pan_pixels(views_[i], rects[i], dims_[i].first, dims_[i].second, dx, dy);
}

std::optional<std::pair<int, int>> Scene::cell_at(std::size_t i, double px, double py) const {
  const auto rects = tile_rects();
  if (i >= rects.size()) return std::nullopt;
  const view::Placement p = view::place(views_[i], rects[i], dims_[i].first, dims_[i].second);
  const auto cell = view::cell_at(p, dims_[i].first, dims_[i].second, px, py);
  if (!cell) return std::nullopt;
  return std::make_pair(cell->x, cell->y);
}

}  // namespace ls::app
