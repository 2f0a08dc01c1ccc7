// scene_execute.cpp — the command executor: every change to the running app (panel, keys, scripts,
// command line) passes through Scene::execute, which applies one command and keeps the scene
// unchanged when it fails; each command's own steps and the expectations scripts check.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <new>
#include <type_traits>
#include <utility>

#include "control/scene.hpp"
#include "core/error.hpp"

namespace ls::app {
namespace {

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

}  // namespace

void Scene::expect_agree() {
  // (origin, generation) -> (first instance, its hash)
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<std::size_t, std::uint64_t>> seen;
  int pairs = 0;
  for (std::size_t i = 0; i < engine_.size(); ++i) {
    const InstanceStatus st = engine_.status(i);
    const StateSummary s = engine_.summarize(i);
    const auto key = std::make_pair(st.origin, s.generation);
    auto it = seen.find(key);
    if (it == seen.end()) {
      seen.emplace(key, std::make_pair(i, s.hash));
      continue;
    }
    ++pairs;
    if (it->second.second != s.hash) {
      throw ExpectationFailed("expect-agree: instances " + std::to_string(it->second.first) + " and " +
                              std::to_string(i) + " started from one state but differ at generation " +
                              std::to_string(s.generation) + ": " + hex(it->second.second) + " vs " +
                              hex(s.hash));
    }
  }
  if (pairs == 0)
    throw ExpectationFailed("expect-agree: no two instances started from one state are at one generation");
}

void Scene::expect_hash(std::size_t index, std::uint64_t hash) {
  check_index(index);
  const StateSummary s = engine_.summarize(index);
  if (s.hash != hash) {
    throw ExpectationFailed("expect-hash " + std::to_string(index) + ": the hash at generation " +
                            std::to_string(s.generation) + " is " + hex(s.hash) + ", expected " + hex(hash));
  }
}

Effects Scene::execute(const Command& command) {
  try {
    return apply(command);
  } catch (const std::bad_alloc&) {
    // The engines and the commands above keep their state on any exception; the app keeps running.
    throw InputError("not enough host memory for that");
  }
}

Effects Scene::apply(const Command& command) {
  Effects fx;
  std::visit(
      [&](const auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, cmd::Instances>) {
          set_instances(c.count);
        } else if constexpr (std::is_same_v<T, cmd::SetVariant>) {
          set_variant(c);
        } else if constexpr (std::is_same_v<T, cmd::SetRule>) {
          set_rule(c);
        } else if constexpr (std::is_same_v<T, cmd::Pause>) {
          paused_ = true;
        } else if constexpr (std::is_same_v<T, cmd::Run>) {
          paused_ = false;
        } else if constexpr (std::is_same_v<T, cmd::Step>) {
          step(c.generations);
        } else if constexpr (std::is_same_v<T, cmd::Frames>) {
          check_frame_count(c.count);
          fx.frames = c.count;
        } else if constexpr (std::is_same_v<T, cmd::Load>) {
          load(c.index, c.path);
          fx.message = "loaded " + c.path + " into instance " + std::to_string(c.index);
        } else if constexpr (std::is_same_v<T, cmd::Save>) {
          fx.message = "saved instance " + std::to_string(c.index) + " to " + save(c.index, c.path);
        } else if constexpr (std::is_same_v<T, cmd::Zoom>) {
          zoom(c);
        } else if constexpr (std::is_same_v<T, cmd::Pan>) {
          pan(c);
        } else if constexpr (std::is_same_v<T, cmd::Fit>) {
          for (std::size_t i : targets(c.target)) views_[i] = view::View{};
        } else if constexpr (std::is_same_v<T, cmd::SetCell>) {
          set_cell(c);
        } else if constexpr (std::is_same_v<T, cmd::SetStreamMode>) {
          engine_.set_stream_mode(c.mode);
        } else if constexpr (std::is_same_v<T, cmd::Screenshot>) {
          fx.screenshot = c.path;
        } else if constexpr (std::is_same_v<T, cmd::ExpectAgree>) {
          expect_agree();
        } else if constexpr (std::is_same_v<T, cmd::ExpectHash>) {
          expect_hash(c.index, c.hash);
        } else if constexpr (std::is_same_v<T, cmd::Quit>) {
          fx.quit = true;
        } else if constexpr (std::is_same_v<T, cmd::Size>) {
          build_and_commit(*plan(c));
        } else if constexpr (std::is_same_v<T, cmd::Density>) {
          check_density(c.p);
          settings_.density = c.p;
        } else if constexpr (std::is_same_v<T, cmd::Seed>) {
          settings_.seed = c.seed;
        } else if constexpr (std::is_same_v<T, cmd::SameSeed>) {
          settings_.same_seed = c.on;
        } else if constexpr (std::is_same_v<T, cmd::GensPerFrame>) {
          check_generations_per_frame(c.n);
          settings_.generations_per_frame = c.n;
        } else if constexpr (std::is_same_v<T, cmd::GensPerLaunch>) {
          set_generations_per_launch(c);
        } else if constexpr (std::is_same_v<T, cmd::Reset>) {
          build_and_commit(*plan(c));
        } else if constexpr (std::is_same_v<T, cmd::Vsync>) {
          fx.vsync = c.on;
        } else if constexpr (std::is_same_v<T, cmd::Grid>) {
          grid_ = c.on;
        } else if constexpr (std::is_same_v<T, cmd::Age>) {
          age_ = c.on;
        } else if constexpr (std::is_same_v<T, cmd::Panel>) {
          panel_visible_ = c.on;
        } else if constexpr (std::is_same_v<T, cmd::Counters>) {
          fx.counters = c.on;
        } else if constexpr (std::is_same_v<T, cmd::TimingPeriod>) {
          engine_.set_timing_period(c.frames);
        } else if constexpr (std::is_same_v<T, cmd::Devices>) {
          set_devices(c.target, c.devices);
        } else {
          static_assert(sizeof(T) == 0, "Scene::execute: unhandled command");
        }
      },
      command);
  return fx;
}

void Scene::set_rule(const cmd::SetRule& c) {
  for (std::size_t i : targets(c.target)) engine_.set_rule(i, c.rule);
  if (c.target.all) settings_.rule = c.rule;
}

void Scene::set_variant(const cmd::SetVariant& c) {
  const auto ids = targets(c.target);
  std::vector<Variant> old;
  for (std::size_t i : ids) old.push_back(engine_.status(i).variant);
  std::size_t k = 0;
  try {
    for (; k < ids.size(); ++k) engine_.set_variant(ids[k], c.variant);
  } catch (...) {
    for (std::size_t j = 0; j < k; ++j) engine_.set_variant(ids[j], old[j]);
    throw;
  }
  if (c.target.all) settings_.variant = c.variant;
}

void Scene::step(long long generations) {
  // Commands from the panel skip the script parser's range checks: the executor checks too.
  check_step_generations(generations);
  // Chunks bound how much work one call enqueues.
  for (long long left = generations; left > 0;) {
    const int n = static_cast<int>(std::min<long long>(left, 4096));
    engine_.step(n);
    left -= n;
  }
  for (const auto& [w, h] : dims_)
    stepped_cells_ += static_cast<double>(w) * static_cast<double>(h) * static_cast<double>(generations);
}

void Scene::set_generations_per_launch(const cmd::GensPerLaunch& c) {
  check_generations_per_launch(c.k);
  for (std::size_t i : targets(c.target)) engine_.set_generations_per_launch(i, c.k);
  if (c.target.all) settings_.generations_per_launch = c.k;
}

void Scene::zoom(const cmd::Zoom& c) {
  check_zoom(c.pixels_per_cell);
  const auto rects = tile_rects();
  for (std::size_t i : targets(c.target)) {
    const view::Rect r = i < rects.size() ? rects[i] : area_;
    view::set_zoom(views_[i], r, dims_[i].first, dims_[i].second, c.pixels_per_cell);
  }
}

void Scene::pan(const cmd::Pan& c) {
  if (!std::isfinite(c.dx) || !std::isfinite(c.dy)) throw InputError("pan: DX and DY must be finite numbers");
  const auto rects = tile_rects();
  for (std::size_t i : targets(c.target)) {
    const view::Rect r = i < rects.size() ? rects[i] : area_;
    view::pan_cells(views_[i], r, dims_[i].first, dims_[i].second, c.dx, c.dy);
  }
}

void Scene::set_cell(const cmd::SetCell& c) {
  check_index(c.index);
  const auto [w, h] = dims_[c.index];
  if (c.x < 0 || c.y < 0 || c.x >= w || c.y >= h) {
    throw InputError("set: cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                     ") is outside instance " + std::to_string(c.index) + "'s " + std::to_string(w) + "x" +
                     std::to_string(h) + " lattice");
  }
  engine_.set_cell(c.index, static_cast<int>(c.x), static_cast<int>(c.y), c.alive);
  unsaved_[c.index] = true;
}

}  // namespace ls::app
