// scene.hpp — the executor: applies ls::Command (from the panel, keys, scripts and the command
// line) to the engine, the tiles' views and the scene settings, all through one function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/command.hpp"
#include "core/engine.hpp"
#include "core/rule.hpp"
#include "core/scene_settings.hpp"
#include "view/view.hpp"

namespace ls::app {

/// Instances at the start unless the command line says otherwise (the app and `run --script`).
inline constexpr int kDefaultInstances = 4;

/// The variants instance i gets by default, cyclically.
inline constexpr Variant kDefaultVariantCycle[] = {Variant::global, Variant::shared, Variant::iterate,
                                                   Variant::bitpacked};

using ls::SceneSettings;

/// An `expect-agree` or `expect-hash` that does not hold (the script exits with status 1).
class ExpectationFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a command asks of the frame loop beyond the scene itself.
struct Effects {
  long long frames = 0;                   // render this many frames before the next script line
  std::optional<std::string> screenshot;  // take one of the next frame ("" = numbered name)
  bool quit = false;
  std::optional<bool> vsync;
  std::optional<bool> counters;  // sample the GPUs' hardware counters, or stop
  std::string message;           // a status line for the panel ("saved x.rle")
};

/// A command that makes new instances (a size, a reset, a larger instance count), checked and
/// planned at once: its instances are built next (Engine::prepare, possibly on another thread
/// while the frame loop goes on) and then put in place by Scene::commit in one quick step.
struct ScenePlan {
  Command command;
  std::string what;  // for a progress notice: "size 65536 x 65536 for 3 instances"
  /// Per new instance: the index it replaces, or, from the present count on, an appended one.
  std::vector<std::size_t> indices;
  std::vector<InstanceSpec> specs;
  std::uint64_t cells = 0;  // cells of the new instances together
  /// The lattice size new instances get after it (a size command); the other settings are
  /// whatever they are at the commit.
  std::optional<std::pair<int, int>> size;
  std::size_t count_before = 0;  // the instance count it was planned for
};

class Scene {
 public:
  Scene(Engine& engine, SceneSettings settings);

  /// Adds `count` instances from the settings, or loaded with `pattern_path` when not empty.
  /// `keep_rule` (the user gave a rule, `--rule`): the settings' rule wins over the file's, as in
  /// `lifestreams run`; a bad rule in the file then does not matter, and its ":Tw,h" torus size
  /// still sets the size when it can be read.
  void populate(int count, const std::string& pattern_path, bool keep_rule = false);

  /// The plan of a command that makes new instances, checked (bad input and memory that cannot be
  /// had throw InputError, changing nothing); nullopt for any other command (and for an instance
  /// count that only removes).
  std::optional<ScenePlan> plan(const Command& command) const;
  /// Puts the instances built for `plan` in place (Engine::install, all or nothing) with the
  /// settings and views it asks for. Settings changed since the plan (an instance's rule, variant
  /// or generations per launch) are kept. Throws InputError when the instances changed in between.
  Effects commit(const ScenePlan& plan, std::vector<std::unique_ptr<PreparedInstance>> prepared);
  /// Whether cells were drawn or a pattern loaded into any instance since it was last saved (or
  /// made anew): a quit then asks first.
  bool unsaved() const;
  /// Cells times generations advanced by step commands since the last call (for the delivered
  /// rate); the frame loop counts its own steps.
  double take_stepped_cells() {
    const double c = stepped_cells_;
    stepped_cells_ = 0;
    return c;
  }

  /// Applies one command. Throws InputError (bad input: the scene is unchanged), DeviceError, or
  /// ExpectationFailed. Instance numbers are checked here.
  Effects execute(const Command& command);

  Engine& engine() { return engine_; }
  const Engine& engine() const { return engine_; }
  const SceneSettings& settings() const { return settings_; }
  bool paused() const { return paused_; }
  bool grid() const { return grid_; }
  bool age() const { return age_; }
  bool panel_visible() const { return panel_visible_; }

  // Layout: the framebuffer area the tiles use (right of the panel), in framebuffer pixels.
  void set_area(const view::Rect& area) { area_ = area; }
  const view::Rect& area() const { return area_; }
  /// One tile per instance, each of its lattice's shape and all of one area (view::layout_tiles).
  std::vector<view::Rect> tile_rects() const;
  std::vector<view::Placement> placements() const;
  /// The instance whose tile contains framebuffer pixel (px, py), or -1.
  int tile_at(double px, double py) const;
  /// Lattice size of instance i (as of the last command).
  int lattice_width(std::size_t i) const { return dims_[i].first; }
  int lattice_height(std::size_t i) const { return dims_[i].second; }

  // Mouse view changes (not script commands: they are relative to the cursor).
  void zoom_at(std::size_t i, double factor, double px, double py);
  void pan_pixels(std::size_t i, double dx, double dy);
  /// The lattice cell under framebuffer pixel (px, py) in instance i's tile (wrapped), if any.
  std::optional<std::pair<int, int>> cell_at(std::size_t i, double px, double py) const;

 private:
  Effects apply(const Command& command);
  InstanceSpec new_spec(std::size_t index) const { return new_spec(index, settings_); }
  InstanceSpec new_spec(std::size_t index, const SceneSettings& settings) const;
  /// Builds the plan's instances here and now, then commits them.
  Effects build_and_commit(const ScenePlan& plan);
  InstanceSpec spec_of(std::size_t index, InitialState init) const;
  void check_index(std::size_t index) const;
  std::vector<std::size_t> targets(const Target& t) const;
  void refresh_dims();
  void set_instances(int count);
  void load(std::size_t index, const std::string& path, bool keep_rule = false);
  std::string save(std::size_t index, const std::string& path);
  /// `devices I|all LIST`: one device moves the instances there (Engine::set_instance_devices).
  void set_devices(const Target& target, const std::vector<int>& devices);
  void expect_agree();
  void expect_hash(std::size_t index, std::uint64_t hash);
  // Commands with steps of their own (scene_execute.cpp).
  /// Every target's variant, or none of them (rolled back when one is refused).
  void set_variant(const cmd::SetVariant& c);
  void set_rule(const cmd::SetRule& c);
  /// `generations` more, in chunks; counted for take_stepped_cells.
  void step(long long generations);
  void set_generations_per_launch(const cmd::GensPerLaunch& c);
  void zoom(const cmd::Zoom& c);
  void pan(const cmd::Pan& c);
  void set_cell(const cmd::SetCell& c);

  Engine& engine_;
  SceneSettings settings_;
  std::vector<view::View> views_;
  std::vector<std::pair<int, int>> dims_;
  std::vector<bool> unsaved_;  // per instance: drawn on or loaded since last saved
  double stepped_cells_ = 0;   // take_stepped_cells
  view::Rect area_{0, 0, 1600, 900};
  bool paused_ = false;
  bool grid_ = true;
  bool age_ = false;
  bool panel_visible_ = true;
  struct LayoutCache {
    bool valid = false;
    view::Rect area;
    std::vector<view::Extent> lattices;
    std::vector<view::Rect> rects;
  };
  mutable LayoutCache layout_cache_;
};

}  // namespace ls::app
