// command.hpp — the one command set that changes the app: the panel, the keys, --script files and
// the command line all produce these, and the app's executor applies them.
//
// Script grammar: one command per line; `#` starts a comment; blank lines are ignored; words are
// separated by blanks; instances are numbered from 0 and `all` means every instance; paths are
// relative to the working directory and may be quoted ("a b.rle") to hold spaces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/engine.hpp"
#include "core/rule.hpp"

namespace ls {

/// An instance number or `all`.
struct Target {
  bool all = false;
  std::size_t index = 0;
};

namespace cmd {
struct Instances {
  int count;
};  // instances N (1..64)
struct SetVariant {
  Target target;
  Variant variant;
};  // variant I|all NAME
struct SetRule {
  Target target;
  Rule rule;
};                // rule I|all RULE
struct Pause {};  // pause
struct Run {};    // run
struct Step {
  long long generations;
};  // step N
struct Frames {
  long long count;
};  // frames N
struct Load {
  std::size_t index;
  std::string path;
};  // load I FILE
struct Save {
  std::size_t index;
  std::string path;
};  // save I FILE ("" = numbered)
struct Zoom {
  Target target;
  double pixels_per_cell;
};  // zoom I|all F
struct Pan {
  Target target;
  double dx;
  double dy;
};  // pan I|all DX DY (cells)
struct Fit {
  Target target;
};  // fit I|all
struct SetCell {
  std::size_t index;
  long long x;
  long long y;
  bool alive;
};  // set I X Y 0|1
struct SetStreamMode {
  StreamMode mode;
};  // stream-mode per-instance|shared|graph
struct Screenshot {
  std::string path;
};                      // screenshot FILE ("" = numbered)
struct ExpectAgree {};  // expect-agree
struct ExpectHash {
  std::size_t index;
  std::uint64_t hash;
};               // expect-hash I 0x...
struct Quit {};  // quit
struct Size {
  int width;
  int height;
};  // size W H (resets every instance)
struct Density {
  double p;
};  // density P (0..1)
struct Seed {
  std::uint64_t seed;
};  // seed S
struct SameSeed {
  bool on;
};  // same-seed on|off
struct GensPerFrame {
  int n;
};  // generations-per-frame N (1..1024)
struct GensPerLaunch {
  Target target;
  int k;
};  // generations-per-launch I|all K (1..64)
struct Reset {
  Target target;
};  // reset I|all (new soup, generation 0)
struct Vsync {
  bool on;
};  // vsync on|off
struct Grid {
  bool on;
};  // grid on|off (cell grid lines when zoomed in)
struct Age {
  bool on;
};  // age on|off (dead cells fade out over a few frames)
struct Panel {
  bool on;
};  // panel on|off (hide the ImGui panel)
struct TimingPeriod {
  int frames;
};  // timing-period N (1..1000: time one frame in N)
struct Devices {
  Target target;
  std::vector<int> devices;
};  // devices I|all LIST (CUDA ordinals, comma-separated, no repeat: one moves, several split)
}  // namespace cmd

using Command =
    std::variant<cmd::Instances, cmd::SetVariant, cmd::SetRule, cmd::Pause, cmd::Run, cmd::Step, cmd::Frames,
                 cmd::Load, cmd::Save, cmd::Zoom, cmd::Pan, cmd::Fit, cmd::SetCell, cmd::SetStreamMode,
                 cmd::Screenshot, cmd::ExpectAgree, cmd::ExpectHash, cmd::Quit, cmd::Size, cmd::Density,
                 cmd::Seed, cmd::SameSeed, cmd::GensPerFrame, cmd::GensPerLaunch, cmd::Reset, cmd::Vsync,
                 cmd::Grid, cmd::Age, cmd::Panel, cmd::TimingPeriod, cmd::Devices>;

/// Parses one script line. nullopt for a blank or comment-only line. Throws InputError with the
/// reason ("column C: ..." where it helps) for anything else that is not a valid command.
/// Instance numbers are checked against the running app by the executor, not here.
std::optional<Command> parse_command(std::string_view line);

/// A whole script: (line number from 1, command) pairs. Throws InputError "line N: reason" at the
/// first bad line.
std::vector<std::pair<int, Command>> parse_script(std::string_view text);

/// The text of a script file, refused (InputError "PATH: why", one line) when it is missing, a
/// directory or other non-regular file, larger than 16 MiB, empty, or binary (control bytes other
/// than tab, CR, LF and form feed).
std::string read_script_file(const std::string& path);

/// The canonical script line for a command (parse_command(format_command(c)) gives c back).
std::string format_command(const Command& command);

/// Whether `command` only changes what a screen shows or when it draws (zoom, pan, fit, frames,
/// screenshot, grid, panel, age, vsync): `lifestreams run --script`, which has no screen, refuses
/// these.
bool needs_screen(const Command& command);

}  // namespace ls
