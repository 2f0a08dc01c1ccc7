// notice.hpp — messages where the person looks: a short-lived notice over the tiles (bottom
// centre of the tile area) instead of a line at the top of the panel, which is out of sight when
// the panel is scrolled and moves its layout. Errors stay until the app clears them. A file path
// in a notice is shown as its file name (the whole path would take lines of the tiles).
#pragma once

#include <string>
#include <string_view>

#include "ui/panel_model.hpp"

namespace ls::ui {

/// Seconds a message stays; it fades out over the last kNoticeFadeSeconds of them.
inline constexpr double kNoticeSeconds = 4.0;
inline constexpr double kNoticeFadeSeconds = 1.0;

/// `text` with each file path in it shortened to its file name: "loaded /a/b/glider.rle into
/// instance 0" gives "loaded glider.rle into instance 0". A path is a word (or a quoted span) that
/// begins with '/', "./", "../" or "~/", or that holds a '/' and ends in a name with an extension;
/// rules (B3/S23, 23/3) and other words stay as they are, as do the quotes and punctuation around
/// a path.
std::string short_paths(std::string_view text);

class Notice {
 public:
  /// Draws the notice window for `error` (while it is not empty) and `message` (for
  /// kNoticeSeconds after it last changed) at the bottom centre of `area`; no window when both
  /// are out. The window takes no input. `now_s`: ImGui's clock (ImGui::GetTime()).
  void draw(const std::string& error, const std::string& message, const Area& area, double now_s);
  /// Whether the notice window was drawn in the newest draw().
  bool shown() const { return shown_; }

 private:
  std::string message_;  // the message last seen
  double since_s_ = 0;   // when it was first seen
  bool shown_ = false;
  // What is shown of the error and the message (short_paths), made when they change.
  std::string error_seen_;
  std::string error_shown_;
  std::string message_shown_;
};

}  // namespace ls::ui
