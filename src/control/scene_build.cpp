// scene_build.cpp — implements scene_build.hpp.
#include "control/scene_build.hpp"

#include <algorithm>
#include <new>

#include "core/error.hpp"

namespace ls::app {

SceneBuild::SceneBuild(const Simulation& engine, ScenePlan plan) : engine_(engine), plan_(std::move(plan)) {
  worker_ = std::thread([this] { work(); });
}

SceneBuild::~SceneBuild() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

void SceneBuild::work() {
  try {
    for (const InstanceSpec& spec : plan_.specs) {
      // Each instance counts its own rows; the fraction adds the instances already built.
      progress_.done.store(0);
      progress_.total.store(0);
      std::unique_ptr<PreparedInstance> p = engine_.prepare(spec, progress_);
      if (!p) break;
      prepared_.push_back(std::move(p));
      progress_.total.store(0);  // before the count moves on, so that nothing is counted twice
      built_.fetch_add(1);
    }
  } catch (const InputError&) {
    error_ = std::current_exception();
  } catch (const std::bad_alloc&) {
    error_ = std::make_exception_ptr(InputError(plan_.what + ": not enough host memory"));
  } catch (const std::exception& e) {
    // Whatever else the build met (a thread that could not start): the change is refused, the
    // app and its state go on.
    error_ = std::make_exception_ptr(InputError(plan_.what + ": " + e.what()));
  }
  finished_.store(true);
}

double SceneBuild::fraction() const {
  const double n = static_cast<double>(std::max<std::size_t>(plan_.specs.size(), 1));
  const double total = static_cast<double>(progress_.total.load());
  const double part = total > 0 ? static_cast<double>(progress_.done.load()) / total : 0.0;
  return std::min(1.0, (static_cast<double>(built_.load()) + (finished_.load() ? 0.0 : part)) / n);
}

Effects SceneBuild::commit(Scene& scene) {
  if (worker_.joinable()) worker_.join();
  if (error_) std::rethrow_exception(error_);
  if (cancelled()) throw InputError(plan_.what + ": cancelled; nothing was changed");
  try {
    return scene.commit(plan_, std::move(prepared_));
  } catch (const std::bad_alloc&) {
    throw InputError(plan_.what + ": not enough host memory; nothing was changed");
  }
}

}  // namespace ls::app
