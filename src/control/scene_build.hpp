// scene_build.hpp — a Scene change whose instances are built beside the frame loop: the plan's
// instances are made on a worker thread (Engine::prepare) while the app keeps drawing and using the
// old ones; the frame loop commits them once they are ready, or cancels.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "control/scene.hpp"
#include "core/engine.hpp"

namespace ls::app {

/// Changes that make at least this many cells are built beside the frame loop in the app (a
/// 4096 x 4096 lattice fills in a few tens of milliseconds on one core; anything larger would show
/// as a stalled frame).
inline constexpr std::uint64_t kBackgroundBuildCells = std::uint64_t{1} << 24;

class SceneBuild {
 public:
  /// Starts building `plan`'s instances with `engine` (which must outlive this) on a worker thread.
  SceneBuild(const Simulation& engine, ScenePlan plan);
  /// Cancels and waits for the worker.
  ~SceneBuild();
  SceneBuild(const SceneBuild&) = delete;
  SceneBuild& operator=(const SceneBuild&) = delete;

  const ScenePlan& plan() const { return plan_; }
  /// 0..1 of the work done.
  double fraction() const;
  /// The worker has finished (built, failed or cancelled).
  bool finished() const { return finished_.load(); }
  /// Asks the worker to stop soon; commit() then refuses.
  void cancel() { progress_.cancel.store(true); }
  bool cancelled() const { return progress_.cancel.load(); }
  /// After finished(): puts the instances in place (Scene::commit). Rethrows the worker's error
  /// (InputError: the scene is unchanged).
  Effects commit(Scene& scene);

 private:
  void work();

  const Simulation& engine_;
  ScenePlan plan_;
  BuildProgress progress_;
  std::vector<std::unique_ptr<PreparedInstance>> prepared_;
  std::exception_ptr error_;
  std::atomic<std::size_t> built_{0};
  std::atomic<bool> finished_{false};
  std::thread worker_;
};

}  // namespace ls::app
