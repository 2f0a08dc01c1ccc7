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
#include "core/error.hpp"
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
};  // instances N (1..64 per GPU the run's engine runs on: Engine::max_instances)
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
struct Counters {
  bool on;
};  // counters on|off (sample the GPUs' hardware counters)
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
                 cmd::Grid, cmd::Age, cmd::Panel, cmd::Counters, cmd::TimingPeriod, cmd::Devices>;

// The ranges of the commands' arguments, each stated in one place and in one form, "WHAT must be
// LO..HI, got VALUE": the parser refuses a script line with these checks and the executor a command
// from anywhere else with the same. A range that depends on the run (the instance count: 64 per GPU
// the engine runs on; an instance number; a cell inside its lattice; a device of the run) is the
// executor's alone: the parser checks only that such an argument is a number.

/// `step N`: generations advanced by one command.
inline constexpr long long kMaxStepGenerations = 1'000'000'000;
/// `frames N`.
inline constexpr long long kMaxFrameCount = 100'000'000;
/// `generations-per-frame N` (and --generations-per-frame).
inline constexpr int kMaxGenerationsPerFrame = 1024;
/// `zoom I F`: screen pixels per cell, 1/kMaxZoom..kMaxZoom.
inline constexpr double kMaxZoom = 4096;

/// "WHAT must be RANGE, got VALUE": how every argument's range reads.
InputError range_error(std::string_view what, std::string_view range, std::string_view value);

/// Each throws range_error outside its range. `as_written`, when given, is the value as the script
/// wrote it (so that "+5" or a number past 64 bits reads back as written); else the value is printed.
void check_step_generations(long long n, std::string_view as_written = {});
void check_frame_count(long long n, std::string_view as_written = {});
void check_zoom(double pixels_per_cell, std::string_view as_written = {});
void check_density(double p, std::string_view as_written = {});
void check_generations_per_frame(long long n, std::string_view as_written = {});
void check_generations_per_launch(long long k, std::string_view as_written = {});
void check_timing_period_frames(long long n, std::string_view as_written = {});

/// One command of a script and where it stands in the file (both from 1; `column` is that of the
/// command's first character).
struct ScriptLine {
  int line = 0;
  int column = 0;
  Command command;
};

/// "FILE:LINE:COLUMN", as compilers write it: what every message about a script line starts with,
/// whichever front end runs the script (FILE as the user gave it).
std::string script_location(std::string_view file, int line, int column);

/// Parses one script line. nullopt for a blank or comment-only line. Throws InputError
/// "column C: reason" (C from 1: the offending word's, or the line's end for a missing one) for
/// anything else that is not a valid command.
std::optional<Command> parse_command(std::string_view line);

/// A whole script; `file` names it in messages. Throws InputError "FILE:LINE:COLUMN: reason" at the
/// first bad line, COLUMN as parse_command's.
std::vector<ScriptLine> parse_script(std::string_view text, std::string_view file);

/// The text of a script file, refused (InputError "PATH: why", one line) when it is missing, a
/// directory or other non-regular file, larger than 16 MiB, empty, or binary (control bytes other
/// than tab, CR, LF and form feed).
std::string read_script_file(const std::string& path);

/// The canonical script line for a command (parse_command(format_command(c)) gives c back).
std::string format_command(const Command& command);

/// Whether `command` only changes what a screen shows or when it draws (zoom, pan, fit, frames,
/// screenshot, grid, panel, age, vsync) or the app's GPU counters: `lifestreams run --script`, which
/// has no screen, refuses these.
bool needs_screen(const Command& command);

}  // namespace ls
