// script_runner.hpp — runs a --script file through the command executor: its lines in order, the
// frames a line asks for, and the exit status of a failing line. The app runs it between frames;
// `lifestreams run --script` runs it with no screen at all. Plain C++: no GL.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "control/scene.hpp"
#include "core/command.hpp"

namespace ls::app {

/// A script line that failed: exit status 1 (an expect-agree or expect-hash that does not hold) or
/// 2 (bad input); what() says where, as every message about a script line does: "FILE:LINE:COLUMN:
/// why" (core/command.hpp's script_location; COLUMN that of the command's first character).
class ScriptFailure : public std::runtime_error {
 public:
  ScriptFailure(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

class ScriptRunner {
 public:
  /// Reads and parses the script at `path`; nothing runs yet. InputError "PATH:LINE:COLUMN: why" at
  /// its first bad line, "--script PATH: why" when it cannot be read.
  static ScriptRunner from_file(const std::string& path);

  /// `lines` as parse_script gives them; `path` names the script in messages.
  ScriptRunner(std::string path, std::vector<ScriptLine> lines);

  /// For a run without a screen, before anything runs: InputError "PATH:LINE:COLUMN: zoom needs a
  /// screen ..." at the first line whose command needs_screen.
  void refuse_screen_commands() const;

  /// Runs lines through `scene` until one asks for frames (`frames N`: the next N frames step), for
  /// a screenshot (the next frame is drawn without a step), or quits, or the script ends.
  /// `after_line` gets each line's Effects and may throw InputError as the line would. Throws
  /// ScriptFailure at a failing line (status 1 or 2); the lines after it do not run.
  void advance(Scene& scene, const std::function<void(const Effects&)>& after_line);

  /// The coming frame is a screenshot's: it shows the scene as the script left it, without a step.
  bool still_frame_due() const { return still_frame_; }
  /// A frame was drawn (not one skipped while the window was minimised): the still frame is done,
  /// or one of the frames a `frames N` asked for.
  void frame_drawn();
  /// Every line has run (or one quit) and no frame the script asked for is left.
  bool over() const { return (quit_ || next_ >= lines_.size()) && frames_left_ == 0 && !still_frame_; }

  /// The failure of the line last run, for what goes wrong in the frame it asked for (a
  /// screenshot that cannot be written).
  ScriptFailure failure(int status, const std::string& what) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<ScriptLine> lines_;
  std::size_t next_ = 0;
  int line_ = 0;  // where the line last run starts (0: none has run)
  int column_ = 0;
  long long frames_left_ = 0;
  bool still_frame_ = false;
  bool quit_ = false;
};

}  // namespace ls::app
