// script_runner.cpp — implements script_runner.hpp.
#include "control/script_runner.hpp"

#include "core/error.hpp"

namespace ls::app {

ScriptRunner ScriptRunner::from_file(const std::string& path) {
  std::string text;
  try {
    text = read_script_file(path);
  } catch (const InputError& e) {
    throw InputError(std::string("--script ") + e.what());
  }
  return ScriptRunner(path, parse_script(text, path));
}

ScriptRunner::ScriptRunner(std::string path, std::vector<ScriptLine> lines)
    : path_(std::move(path)), lines_(std::move(lines)) {}

void ScriptRunner::refuse_screen_commands() const {
  for (const ScriptLine& l : lines_) {
    if (!needs_screen(l.command)) continue;
    const std::string text = format_command(l.command);
    throw InputError(script_location(path_, l.line, l.column) + ": " + text.substr(0, text.find(' ')) +
                     " needs a screen; run the script in the app (lifestreams --headless --script)");
  }
}

void ScriptRunner::advance(Scene& scene, const std::function<void(const Effects&)>& after_line) {
  // A screenshot's still frame not drawn yet (minimised meanwhile) holds the script back.
  while (frames_left_ == 0 && !still_frame_ && !quit_ && next_ < lines_.size()) {
    const ScriptLine& l = lines_[next_++];
    line_ = l.line;
    column_ = l.column;
    try {
      const Effects fx = scene.execute(l.command);
      after_line(fx);
      if (fx.quit) quit_ = true;
      if (fx.frames > 0) frames_left_ = fx.frames;
      // The next frame shows the scene as it is now: no step before it is captured.
      if (fx.screenshot) still_frame_ = true;
    } catch (const ExpectationFailed& e) {
      throw failure(1, e.what());
    } catch (const InputError& e) {
      throw failure(2, e.what());
    }
  }
}

void ScriptRunner::frame_drawn() {
  if (still_frame_)
    still_frame_ = false;
  else if (frames_left_ > 0)
    --frames_left_;
}

ScriptFailure ScriptRunner::failure(int status, const std::string& what) const {
  // Before any line has run (a failure of the frames the scene asked for), the script's start.
  const std::string where = line_ > 0 ? script_location(path_, line_, column_) : path_;
  return ScriptFailure(status, where + ": " + what);
}

}  // namespace ls::app
