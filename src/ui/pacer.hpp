// pacer.hpp — when the app rebuilds its ImGui frame. Building the panel costs a few tenths of a
// millisecond of CPU; at hundreds of frames per second that is more than the timings may cost
// (nothing visible), and nobody reads figures faster than a display refreshes.
// So the app rebuilds (ImGui::NewFrame, Panel::draw, ImGui::Render) only when due() says so and
// otherwise renders the previous ImGui::GetDrawData() again, which stays valid until the next
// NewFrame.
#pragma once

namespace ls::ui {

class UiPacer {
 public:
  /// `interval_s`: the longest time between rebuilds (default: 60 per second).
  explicit UiPacer(double interval_s = 1.0 / 60.0) : interval_s_(interval_s) {}

  /// True when the UI must be rebuilt now: on the first call, after force(), when `input` is
  /// true (any window event since the last frame: mouse, keys, text, scroll, resize, drop), or
  /// when `interval_s` has passed since the last rebuild. A true answer counts as a rebuild.
  bool due(double now_s, bool input) {
    if (input || forced_ || !started_ || now_s - last_s_ >= interval_s_ || now_s < last_s_) {
      started_ = true;
      forced_ = false;
      last_s_ = now_s;
      return true;
    }
    return false;
  }
  /// Makes the next due() true (e.g. after a command changed the scene, or for a screenshot).
  void force() { forced_ = true; }
  double interval_s() const { return interval_s_; }

 private:
  double interval_s_;
  double last_s_ = 0;
  bool started_ = false;
  bool forced_ = false;
};

}  // namespace ls::ui
