// command.cpp — the script grammar: each command's parser, script lines and files into ls::Command.
#include "core/command.hpp"

#include <cctype>
#include <limits>

#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/script_words.hpp"
#include "core/text_file.hpp"

namespace ls {
namespace {

using script::Args;
using script::at;
using script::checked_at;
using script::free_integer;
using script::LineError;
using script::parse_index;
using script::parse_on_off;
using script::parse_real;
using script::parse_target;
using script::parse_u64;
using script::ranged_integer;
using script::Token;

Variant parse_variant_token(const Token& t) {
  if (auto v = parse_variant(t.text)) return *v;
  std::string names;
  for (Variant v : kAllVariants) names += (names.empty() ? "" : ", ") + std::string(variant_name(v));
  throw at(t.column, "unknown variant '" + t.text + "' (one of " + names + ")");
}

/// "0" or "0,1,3": CUDA device ordinals, comma-separated, each once.
std::vector<int> parse_device_list(const Token& t) {
  std::vector<int> devices;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = t.text.find(',', start);
    const std::size_t end = comma == std::string::npos ? t.text.size() : comma;
    const int column = t.column + static_cast<int>(start);
    if (end == start) throw at(column, "devices: empty entry in device list '" + t.text + "'");
    const Token item{t.text.substr(start, end - start), column, false};
    if (!std::isdigit(static_cast<unsigned char>(item.text[0])))
      throw at(column, "device must be a CUDA device number, got '" + item.text + "'");
    // Which devices there are is the run's: the executor refuses one it does not have.
    const int d = static_cast<int>(free_integer(item, "device", 0, std::numeric_limits<int>::max(), 32));
    for (int seen : devices)
      if (seen == d)
        throw at(column, "devices: device " + item.text + " is listed twice in '" + t.text + "'");
    devices.push_back(d);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return devices;
}

/// The rest of the line as one rule text, so that presets with blanks ("Day & Night") work
/// unquoted.
Rule parse_rule_rest(Args& args) {
  const Token& first = args.next("rule");
  std::string text = first.text;
  const auto& tokens = args.tokens();
  for (std::size_t i = args.position(); i < tokens.size(); ++i) text += " " + tokens[i].text;
  args.skip_rest();
  try {
    return parse_rule(text);
  } catch (const InputError& e) {
    throw at(first.column, "bad rule '" + text + "': " + e.what());
  }
}

constexpr long long kLowest = std::numeric_limits<long long>::min();
constexpr long long kHighest = std::numeric_limits<long long>::max();

// The parsers of each command family: each reads its command's arguments from `a`.

template <typename C>
Command bare(Args&) {
  return C{};
}

template <typename C>
Command of_target(Args& a) {
  return C{parse_target(a.next("instance"))};
}

template <typename C>
Command of_on_off(Args& a) {
  return C{parse_on_off(a.next("on or off"))};
}

Command instances(Args& a) {
  // The limit is the run's (64 per GPU its engine runs on): the executor states it, for 0 and
  // -3 as for 100, so the parser only takes the number.
  return cmd::Instances{
      static_cast<int>(free_integer(a.next("count"), "instance count", std::numeric_limits<int>::min(),
                                    std::numeric_limits<int>::max(), 32))};
}

Command variant(Args& a) {
  Target t = parse_target(a.next("instance"));
  return cmd::SetVariant{t, parse_variant_token(a.next("variant name"))};
}

Command rule(Args& a) {
  Target t = parse_target(a.next("instance"));
  return cmd::SetRule{t, parse_rule_rest(a)};
}

Command step(Args& a) {
  return cmd::Step{ranged_integer(a.next("generation count"), "generation count", check_step_generations)};
}

Command frames(Args& a) {
  return cmd::Frames{ranged_integer(a.next("frame count"), "frame count", check_frame_count)};
}

Command load(Args& a) {
  std::size_t i = parse_index(a.next("instance"));
  const Token& path = a.next("file");
  if (path.text.empty()) throw at(path.column, "load: empty file name");
  return cmd::Load{i, path.text};
}

Command save(Args& a) {
  std::size_t i = parse_index(a.next("instance"));
  std::string path = a.more() ? a.next("file").text : std::string();
  return cmd::Save{i, path};
}

Command zoom(Args& a) {
  Target t = parse_target(a.next("instance"));
  const Token& f = a.next("pixels per cell");
  const double z = parse_real(f, "zoom");
  checked_at(f.column, [&] { check_zoom(z, f.text); });
  return cmd::Zoom{t, z};
}

Command pan(Args& a) {
  Target t = parse_target(a.next("instance"));
  double dx = parse_real(a.next("DX"), "DX");
  double dy = parse_real(a.next("DY"), "DY");
  return cmd::Pan{t, dx, dy};
}

Command set_cell(Args& a) {
  std::size_t i = parse_index(a.next("instance"));
  // Whether the cell is inside the lattice is the executor's: the instance's size.
  long long x = free_integer(a.next("X"), "X", kLowest, kHighest, 64);
  long long y = free_integer(a.next("Y"), "Y", kLowest, kHighest, 64);
  const Token& v = a.next("state (0 or 1)");
  if (v.text != "0" && v.text != "1") throw at(v.column, "cell state must be 0 or 1, got '" + v.text + "'");
  return cmd::SetCell{i, x, y, v.text == "1"};
}

Command stream_mode(Args& a) {
  const Token& m = a.next("mode");
  auto mode = parse_stream_mode(m.text);
  if (!mode) throw at(m.column, "unknown stream mode '" + m.text + "' (per-instance, shared or graph)");
  return cmd::SetStreamMode{*mode};
}

Command screenshot(Args& a) { return cmd::Screenshot{a.more() ? a.next("file").text : std::string()}; }

Command expect_hash(Args& a) {
  std::size_t i = parse_index(a.next("instance"));
  return cmd::ExpectHash{i, parse_u64(a.next("hash"), "hash", true)};
}

Command size(Args& a) {
  const Token& tw = a.next("width");
  const Token& th = a.next("height");
  const long long w = free_integer(tw, "width", kLowest, kHighest, 64);
  const long long h = free_integer(th, "height", kLowest, kHighest, 64);
  // The lattice's own check, as the executor's and the command line's: one wording of the sizes,
  // at the first side it refuses.
  const bool w_good = w >= kLatticeAlign && w <= kMaxLatticeSide && w % kLatticeAlign == 0;
  checked_at(w_good ? th.column : tw.column, [&] { check_lattice_size(w, h); });
  return cmd::Size{static_cast<int>(w), static_cast<int>(h)};
}

Command density(Args& a) {
  const Token& t = a.next("density");
  const double p = parse_real(t, "density");
  checked_at(t.column, [&] { check_density(p, t.text); });
  return cmd::Density{p};
}

Command seed(Args& a) { return cmd::Seed{parse_u64(a.next("seed"), "seed", false)}; }

Command generations_per_frame(Args& a) {
  return cmd::GensPerFrame{static_cast<int>(
      ranged_integer(a.next("count"), "generations per frame", check_generations_per_frame))};
}

Command generations_per_launch(Args& a) {
  Target t = parse_target(a.next("instance"));
  return cmd::GensPerLaunch{t, static_cast<int>(ranged_integer(a.next("count"), "generations per launch",
                                                               check_generations_per_launch))};
}

Command timing_period(Args& a) {
  return cmd::TimingPeriod{
      static_cast<int>(ranged_integer(a.next("count"), "timing period", check_timing_period_frames))};
}

Command devices(Args& a) {
  Target t = parse_target(a.next("instance"));
  return cmd::Devices{t, parse_device_list(a.next("device list"))};
}

/// A command's name, its usage ("" for a command without arguments) and its parser.
struct Grammar {
  std::string_view name;
  std::string_view usage;
  Command (*parse)(Args&);
};

constexpr Grammar kGrammar[] = {
    {"instances", "instances N", instances},
    {"variant", "variant I|all NAME", variant},
    {"rule", "rule I|all RULE", rule},
    {"pause", "", bare<cmd::Pause>},
    {"run", "", bare<cmd::Run>},
    {"step", "step N", step},
    {"frames", "frames N", frames},
    {"load", "load I FILE", load},
    {"save", "save I [FILE]", save},
    {"zoom", "zoom I|all F", zoom},
    {"pan", "pan I|all DX DY", pan},
    {"fit", "fit I|all", of_target<cmd::Fit>},
    {"set", "set I X Y 0|1", set_cell},
    {"stream-mode", "stream-mode per-instance|shared|graph", stream_mode},
    {"screenshot", "screenshot [FILE]", screenshot},
    {"expect-agree", "", bare<cmd::ExpectAgree>},
    {"expect-hash", "expect-hash I 0x...", expect_hash},
    {"quit", "", bare<cmd::Quit>},
    {"size", "size W H", size},
    {"density", "density P", density},
    {"seed", "seed S", seed},
    {"same-seed", "same-seed on|off", of_on_off<cmd::SameSeed>},
    {"generations-per-frame", "generations-per-frame N", generations_per_frame},
    {"generations-per-launch", "generations-per-launch I|all K", generations_per_launch},
    {"reset", "reset I|all", of_target<cmd::Reset>},
    {"vsync", "vsync on|off", of_on_off<cmd::Vsync>},
    {"grid", "grid on|off", of_on_off<cmd::Grid>},
    {"age", "age on|off", of_on_off<cmd::Age>},
    {"panel", "panel on|off", of_on_off<cmd::Panel>},
    {"counters", "counters on|off", of_on_off<cmd::Counters>},
    {"timing-period", "timing-period N", timing_period},
    {"devices", "devices I|all LIST", devices},
};

/// The command of a line's words (at least one); `end_column` is the line's end, where a missing
/// argument is reported.
Command parse_words(const std::vector<Token>& tokens, int end_column) {
  const Token& head = tokens[0];
  for (const Grammar& g : kGrammar) {
    if (head.text != g.name) continue;
    Args a(tokens, head.text, end_column);
    a.set_usage(std::string(g.usage));
    Command c = g.parse(a);
    a.done();
    return c;
  }
  throw at(head.column, "unknown command '" + head.text + "'");
}

}  // namespace

std::string script_location(std::string_view file, int line, int column) {
  return std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::optional<Command> parse_command(std::string_view line) {
  std::vector<Token> tokens = script::tokenize(line);
  if (tokens.empty()) return std::nullopt;
  return parse_words(tokens, static_cast<int>(line.size()) + 1);
}

std::vector<ScriptLine> parse_script(std::string_view text, std::string_view file) {
  std::vector<ScriptLine> script;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    ++number;
    try {
      const std::vector<Token> tokens = script::tokenize(line);
      if (!tokens.empty())
        script.push_back(
            ScriptLine{number, tokens[0].column, parse_words(tokens, static_cast<int>(line.size()) + 1)});
    } catch (const LineError& e) {
      throw InputError(script_location(file, number, e.column()) + ": " + e.reason());
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return script;
}

std::string read_script_file(const std::string& path) {
  const std::string text = read_text_file(path, "script", "text lines of commands", std::uintmax_t{16} << 20);
  // Stricter than a pattern: any control byte but tab, CR, LF and form feed.
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f)
      throw InputError(path + ": binary file, not a script (text lines of commands)");
  }
  return text;
}

}  // namespace ls
