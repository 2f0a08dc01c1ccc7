// command.cpp — the script grammar: parses script lines into ls::Command and prints them back.
#include "core/command.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <system_error>
#include <type_traits>

#include "core/error.hpp"
#include "core/lattice.hpp"
#include "core/text_file.hpp"

namespace ls {
namespace {

struct Token {
  std::string text;
  int column = 1;  // 1-based column of the token's first character
  bool quoted = false;
};

// Messages echo the offending words; a hostile line (a megabyte-long number) must still give a
// readable one-line error, so the message is cut.
constexpr std::size_t kMaxMessage = 200;

std::string cut(std::string_view what) {
  return what.size() > kMaxMessage ? std::string(what.substr(0, kMaxMessage)) + "..." : std::string(what);
}

/// A refused line: what() is parse_command's "column C: reason"; parse_script puts the file and
/// line in front of the reason.
class LineError : public InputError {
 public:
  LineError(int column, const std::string& reason)
      : InputError("column " + std::to_string(column) + ": " + reason), column_(column), reason_(reason) {}
  int column() const { return column_; }
  const std::string& reason() const { return reason_; }

 private:
  int column_;
  std::string reason_;
};

LineError at(int column, const std::string& what) { return LineError(column, cut(what)); }

/// Runs one of the range checks for the word at `column`: its refusal located there.
template <typename Check>
void checked_at(int column, Check check) {
  try {
    check();
  } catch (const LineError&) {
    throw;
  } catch (const InputError& e) {
    throw at(column, e.what());
  }
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/// Splits a line into words; `"..."` holds blanks (with \" and \\ escapes); `#` outside quotes
/// ends the line.
std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    if (is_blank(line[i])) {
      ++i;
      continue;
    }
    if (line[i] == '#') break;
    Token token;
    token.column = static_cast<int>(i) + 1;
    if (line[i] == '"') {
      token.quoted = true;
      ++i;
      bool closed = false;
      while (i < line.size()) {
        const char c = line[i];
        if (c == '"') {
          closed = true;
          ++i;
          break;
        }
        if (c == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
          token.text += line[i + 1];
          i += 2;
          continue;
        }
        token.text += c;
        ++i;
      }
      if (!closed) throw at(token.column, "unterminated quoted string");
      if (i < line.size() && !is_blank(line[i]) && line[i] != '#')
        throw at(static_cast<int>(i) + 1, "expected a blank after the closing quote");
    } else {
      while (i < line.size() && !is_blank(line[i]) && line[i] != '#') {
        if (line[i] == '"') throw at(static_cast<int>(i) + 1, "a quote may only start a word");
        token.text += line[i];
        ++i;
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

/// Reads the arguments of one command in order, with errors that name the argument and column.
class Args {
 public:
  Args(const std::vector<Token>& tokens, std::string_view name, int end_column)
      : tokens_(tokens), name_(name), end_column_(end_column) {}

  const Token& next(const char* what) {
    if (pos_ >= tokens_.size())
      throw at(end_column_, std::string(name_) + ": missing " + what + usage_suffix());
    return tokens_[pos_++];
  }
  bool more() const { return pos_ < tokens_.size(); }
  void done() const {
    if (pos_ < tokens_.size())
      throw at(tokens_[pos_].column, std::string(name_) + ": unexpected extra argument '" +
                                         tokens_[pos_].text + "'" + usage_suffix());
  }
  void set_usage(std::string usage) { usage_ = std::move(usage); }
  std::size_t position() const { return pos_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  void skip_rest() { pos_ = tokens_.size(); }

 private:
  std::string usage_suffix() const { return usage_.empty() ? "" : " (usage: " + usage_ + ")"; }
  const std::vector<Token>& tokens_;
  std::string_view name_;
  int end_column_;
  std::size_t pos_ = 1;  // token 0 is the command name
  std::string usage_;
};

/// An integer as written (an optional sign). InputError when it is not one; `fits` false (and the
/// value the nearest 64-bit one) when it is one beyond 64 bits.
long long parse_integer(const Token& t, const char* what, bool& fits) {
  const std::string& s = t.text;
  long long value = 0;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (!s.empty() && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (s.empty() || ec == std::errc::invalid_argument || ptr != last)
    throw at(t.column, std::string(what) + " must be an integer, got '" + s + "'");
  fits = ec != std::errc::result_out_of_range;
  if (!fits)
    value = s[0] == '-' ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  return value;
}

/// An integer whose range `check` states (one of the check_* functions): refused at its column with
/// the check's words, the value as written.
long long ranged_integer(const Token& t, const char* what, void (*check)(long long, std::string_view)) {
  bool fits = true;
  const long long value = parse_integer(t, what, fits);
  checked_at(t.column, [&] { check(value, t.text); });
  return value;
}

/// An integer whose range is the run's (the executor checks it): only its form, and that it fits in
/// [lo, hi], the `bits`-bit type that holds it, are checked here.
long long free_integer(const Token& t, const char* what, long long lo, long long hi, int bits) {
  bool fits = true;
  const long long value = parse_integer(t, what, fits);
  if (!fits || value < lo || value > hi)
    throw at(t.column,
             std::string(what) + " " + t.text + " does not fit in " + std::to_string(bits) + " bits");
  return value;
}

std::uint64_t parse_u64(const Token& t, const char* what, bool hex_only) {
  std::string_view s = t.text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  } else if (hex_only) {
    throw at(t.column, std::string(what) + " must be hexadecimal with a 0x prefix, got '" + t.text + "'");
  }
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (s.empty() || ec == std::errc::invalid_argument || ptr != s.data() + s.size())
    throw at(t.column, std::string(what) + " must be an unsigned 64-bit number, got '" + t.text + "'");
  if (ec == std::errc::result_out_of_range)
    throw at(t.column, std::string(what) + " does not fit in 64 bits: " + t.text);
  return value;
}

double parse_real(const Token& t, const char* what) {
  const std::string& s = t.text;
  double value = 0;
  const char* first = s.data();
  if (!s.empty() && *first == '+') ++first;
  auto [ptr, ec] = std::from_chars(first, s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(value))
    throw at(t.column, std::string(what) + " must be a finite number, got '" + s + "'");
  return value;
}

/// An instance number: the executor checks it against the instances there are.
std::size_t parse_index(const Token& t, const char* expected = "expected an instance number") {
  const std::string& s = t.text;
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (!s.empty() && *first == '+') ++first;
  std::uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (first == last || !std::isdigit(static_cast<unsigned char>(*first)) ||
      ec == std::errc::invalid_argument || ptr != last)
    throw at(t.column, std::string(expected) + ", got '" + s + "'");
  static_assert(sizeof(std::size_t) >= sizeof(std::uint64_t), "an instance number is a 64-bit number");
  if (ec == std::errc::result_out_of_range)
    throw at(t.column, "instance number " + s + " does not fit in 64 bits");
  return static_cast<std::size_t>(value);
}

Target parse_target(const Token& t) {
  if (t.text == "all") return Target{true, 0};
  return Target{false, parse_index(t, "expected an instance number or 'all'")};
}

bool parse_on_off(const Token& t) {
  if (t.text == "on") return true;
  if (t.text == "off") return false;
  throw at(t.column, "expected 'on' or 'off', got '" + t.text + "'");
}

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

Command parse_tokens(const std::vector<Token>& tokens, int end_column) {
  const Token& head = tokens[0];
  const std::string& name = head.text;
  Args a(tokens, name, end_column);
  auto finish = [&](Command c) {
    a.done();
    return c;
  };

  if (name == "instances") {
    a.set_usage("instances N");
    // The limit is the run's (64 per GPU its engine runs on): the executor states it, for 0 and
    // -3 as for 100, so the parser only takes the number.
    return finish(cmd::Instances{
        static_cast<int>(free_integer(a.next("count"), "instance count", std::numeric_limits<int>::min(),
                                      std::numeric_limits<int>::max(), 32))});
  }
  if (name == "variant") {
    a.set_usage("variant I|all NAME");
    Target t = parse_target(a.next("instance"));
    return finish(cmd::SetVariant{t, parse_variant_token(a.next("variant name"))});
  }
  if (name == "rule") {
    a.set_usage("rule I|all RULE");
    Target t = parse_target(a.next("instance"));
    return finish(cmd::SetRule{t, parse_rule_rest(a)});
  }
  if (name == "pause") return finish(cmd::Pause{});
  if (name == "run") return finish(cmd::Run{});
  if (name == "step") {
    a.set_usage("step N");
    return finish(
        cmd::Step{ranged_integer(a.next("generation count"), "generation count", check_step_generations)});
  }
  if (name == "frames") {
    a.set_usage("frames N");
    return finish(cmd::Frames{ranged_integer(a.next("frame count"), "frame count", check_frame_count)});
  }
  if (name == "load") {
    a.set_usage("load I FILE");
    std::size_t i = parse_index(a.next("instance"));
    const Token& path = a.next("file");
    if (path.text.empty()) throw at(path.column, "load: empty file name");
    return finish(cmd::Load{i, path.text});
  }
  if (name == "save") {
    a.set_usage("save I [FILE]");
    std::size_t i = parse_index(a.next("instance"));
    std::string path = a.more() ? a.next("file").text : std::string();
    return finish(cmd::Save{i, path});
  }
  if (name == "zoom") {
    a.set_usage("zoom I|all F");
    Target t = parse_target(a.next("instance"));
    const Token& f = a.next("pixels per cell");
    const double z = parse_real(f, "zoom");
    checked_at(f.column, [&] { check_zoom(z, f.text); });
    return finish(cmd::Zoom{t, z});
  }
  if (name == "pan") {
    a.set_usage("pan I|all DX DY");
    Target t = parse_target(a.next("instance"));
    double dx = parse_real(a.next("DX"), "DX");
    double dy = parse_real(a.next("DY"), "DY");
    return finish(cmd::Pan{t, dx, dy});
  }
  if (name == "fit") {
    a.set_usage("fit I|all");
    return finish(cmd::Fit{parse_target(a.next("instance"))});
  }
  if (name == "set") {
    a.set_usage("set I X Y 0|1");
    std::size_t i = parse_index(a.next("instance"));
    // Whether the cell is inside the lattice is the executor's: the instance's size.
    constexpr long long lo = std::numeric_limits<long long>::min(),
                        hi = std::numeric_limits<long long>::max();
    long long x = free_integer(a.next("X"), "X", lo, hi, 64);
    long long y = free_integer(a.next("Y"), "Y", lo, hi, 64);
    const Token& v = a.next("state (0 or 1)");
    if (v.text != "0" && v.text != "1") throw at(v.column, "cell state must be 0 or 1, got '" + v.text + "'");
    return finish(cmd::SetCell{i, x, y, v.text == "1"});
  }
  if (name == "stream-mode") {
    a.set_usage("stream-mode per-instance|shared|graph");
    const Token& m = a.next("mode");
    auto mode = parse_stream_mode(m.text);
    if (!mode) throw at(m.column, "unknown stream mode '" + m.text + "' (per-instance, shared or graph)");
    return finish(cmd::SetStreamMode{*mode});
  }
  if (name == "screenshot") {
    a.set_usage("screenshot [FILE]");
    std::string path = a.more() ? a.next("file").text : std::string();
    return finish(cmd::Screenshot{path});
  }
  if (name == "expect-agree") return finish(cmd::ExpectAgree{});
  if (name == "expect-hash") {
    a.set_usage("expect-hash I 0x...");
    std::size_t i = parse_index(a.next("instance"));
    return finish(cmd::ExpectHash{i, parse_u64(a.next("hash"), "hash", true)});
  }
  if (name == "quit") return finish(cmd::Quit{});
  if (name == "size") {
    a.set_usage("size W H");
    const Token& tw = a.next("width");
    const Token& th = a.next("height");
    constexpr long long lo = std::numeric_limits<long long>::min(),
                        hi = std::numeric_limits<long long>::max();
    const long long w = free_integer(tw, "width", lo, hi, 64);
    const long long h = free_integer(th, "height", lo, hi, 64);
    // The lattice's own check, as the executor's and the command line's: one wording of the sizes,
    // at the first side it refuses.
    const bool w_good = w >= kLatticeAlign && w <= kMaxLatticeSide && w % kLatticeAlign == 0;
    checked_at(w_good ? th.column : tw.column, [&] { check_lattice_size(w, h); });
    return finish(cmd::Size{static_cast<int>(w), static_cast<int>(h)});
  }
  if (name == "density") {
    a.set_usage("density P");
    const Token& t = a.next("density");
    const double p = parse_real(t, "density");
    checked_at(t.column, [&] { check_density(p, t.text); });
    return finish(cmd::Density{p});
  }
  if (name == "seed") {
    a.set_usage("seed S");
    return finish(cmd::Seed{parse_u64(a.next("seed"), "seed", false)});
  }
  if (name == "same-seed") {
    a.set_usage("same-seed on|off");
    return finish(cmd::SameSeed{parse_on_off(a.next("on or off"))});
  }
  if (name == "generations-per-frame") {
    a.set_usage("generations-per-frame N");
    return finish(cmd::GensPerFrame{static_cast<int>(
        ranged_integer(a.next("count"), "generations per frame", check_generations_per_frame))});
  }
  if (name == "generations-per-launch") {
    a.set_usage("generations-per-launch I|all K");
    Target t = parse_target(a.next("instance"));
    return finish(
        cmd::GensPerLaunch{t, static_cast<int>(ranged_integer(a.next("count"), "generations per launch",
                                                              check_generations_per_launch))});
  }
  if (name == "reset") {
    a.set_usage("reset I|all");
    return finish(cmd::Reset{parse_target(a.next("instance"))});
  }
  if (name == "vsync") {
    a.set_usage("vsync on|off");
    return finish(cmd::Vsync{parse_on_off(a.next("on or off"))});
  }
  if (name == "grid") {
    a.set_usage("grid on|off");
    return finish(cmd::Grid{parse_on_off(a.next("on or off"))});
  }
  if (name == "age") {
    a.set_usage("age on|off");
    return finish(cmd::Age{parse_on_off(a.next("on or off"))});
  }
  if (name == "panel") {
    a.set_usage("panel on|off");
    return finish(cmd::Panel{parse_on_off(a.next("on or off"))});
  }
  if (name == "timing-period") {
    a.set_usage("timing-period N");
    return finish(cmd::TimingPeriod{
        static_cast<int>(ranged_integer(a.next("count"), "timing period", check_timing_period_frames))});
  }
  if (name == "devices") {
    a.set_usage("devices I|all LIST");
    Target t = parse_target(a.next("instance"));
    return finish(cmd::Devices{t, parse_device_list(a.next("device list"))});
  }
  throw at(head.column, "unknown command '" + name + "'");
}

std::string quote(const std::string& path) {
  bool plain = !path.empty();
  for (char c : path)
    if (is_blank(c) || c == '"' || c == '#' || c == '\\') plain = false;
  if (plain) return path;
  std::string out = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string target_text(const Target& t) { return t.all ? "all" : std::to_string(t.index); }

std::string real_text(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
  (void)ec;
  return std::string(buf, ptr);
}

std::string on_off(bool on) { return on ? "on" : "off"; }

}  // namespace

InputError range_error(std::string_view what, std::string_view range, std::string_view value) {
  return InputError(std::string(what) + " must be " + std::string(range) + ", got " + cut(value));
}

namespace {

std::string range_text(long long lo, long long hi) { return std::to_string(lo) + ".." + std::to_string(hi); }

void check_whole(const char* what, long long n, long long lo, long long hi, std::string_view as_written) {
  if (n < lo || n > hi)
    throw range_error(what, range_text(lo, hi),
                      as_written.empty() ? std::to_string(n) : std::string(as_written));
}

void check_real(const char* what, double v, double lo, double hi, std::string_view range,
                std::string_view as_written) {
  if (!(v >= lo && v <= hi))
    throw range_error(what, range, as_written.empty() ? real_text(v) : std::string(as_written));
}

}  // namespace

void check_step_generations(long long n, std::string_view as_written) {
  check_whole("generation count", n, 1, kMaxStepGenerations, as_written);
}

void check_frame_count(long long n, std::string_view as_written) {
  check_whole("frame count", n, 1, kMaxFrameCount, as_written);
}

void check_zoom(double pixels_per_cell, std::string_view as_written) {
  check_real("zoom", pixels_per_cell, 1 / kMaxZoom, kMaxZoom, "1/4096..4096 pixels per cell", as_written);
}

void check_density(double p, std::string_view as_written) {
  check_real("density", p, 0, 1, "0..1", as_written);
}

void check_generations_per_frame(long long n, std::string_view as_written) {
  check_whole("generations per frame", n, 1, kMaxGenerationsPerFrame, as_written);
}

void check_generations_per_launch(long long k, std::string_view as_written) {
  check_whole("generations per launch", k, 1, kMaxGenerationsPerLaunch, as_written);
}

void check_timing_period_frames(long long n, std::string_view as_written) {
  check_whole("timing period", n, 1, kMaxTimingPeriod, as_written);
}

std::string script_location(std::string_view file, int line, int column) {
  return std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::optional<Command> parse_command(std::string_view line) {
  std::vector<Token> tokens = tokenize(line);
  if (tokens.empty()) return std::nullopt;
  return parse_tokens(tokens, static_cast<int>(line.size()) + 1);
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
      const std::vector<Token> tokens = tokenize(line);
      if (!tokens.empty())
        script.push_back(
            ScriptLine{number, tokens[0].column, parse_tokens(tokens, static_cast<int>(line.size()) + 1)});
    } catch (const LineError& e) {
      throw InputError(script_location(file, number, e.column()) + ": " + e.reason());
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return script;
}

std::string format_command(const Command& command) {
  return std::visit(
      [](const auto& c) -> std::string {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, cmd::Instances>)
          return "instances " + std::to_string(c.count);
        else if constexpr (std::is_same_v<T, cmd::SetVariant>)
          return "variant " + target_text(c.target) + " " + std::string(variant_name(c.variant));
        else if constexpr (std::is_same_v<T, cmd::SetRule>)
          return "rule " + target_text(c.target) + " " + c.rule.to_string();
        else if constexpr (std::is_same_v<T, cmd::Pause>)
          return "pause";
        else if constexpr (std::is_same_v<T, cmd::Run>)
          return "run";
        else if constexpr (std::is_same_v<T, cmd::Step>)
          return "step " + std::to_string(c.generations);
        else if constexpr (std::is_same_v<T, cmd::Frames>)
          return "frames " + std::to_string(c.count);
        else if constexpr (std::is_same_v<T, cmd::Load>)
          return "load " + std::to_string(c.index) + " " + quote(c.path);
        else if constexpr (std::is_same_v<T, cmd::Save>)
          return "save " + std::to_string(c.index) + (c.path.empty() ? "" : " " + quote(c.path));
        else if constexpr (std::is_same_v<T, cmd::Zoom>)
          return "zoom " + target_text(c.target) + " " + real_text(c.pixels_per_cell);
        else if constexpr (std::is_same_v<T, cmd::Pan>)
          return "pan " + target_text(c.target) + " " + real_text(c.dx) + " " + real_text(c.dy);
        else if constexpr (std::is_same_v<T, cmd::Fit>)
          return "fit " + target_text(c.target);
        else if constexpr (std::is_same_v<T, cmd::SetCell>)
          return "set " + std::to_string(c.index) + " " + std::to_string(c.x) + " " + std::to_string(c.y) +
                 (c.alive ? " 1" : " 0");
        else if constexpr (std::is_same_v<T, cmd::SetStreamMode>)
          return "stream-mode " + std::string(stream_mode_name(c.mode));
        else if constexpr (std::is_same_v<T, cmd::Screenshot>)
          return c.path.empty() ? std::string("screenshot") : "screenshot " + quote(c.path);
        else if constexpr (std::is_same_v<T, cmd::ExpectAgree>)
          return "expect-agree";
        else if constexpr (std::is_same_v<T, cmd::ExpectHash>) {
          char buf[32];
          std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(c.hash));
          return "expect-hash " + std::to_string(c.index) + " " + buf;
        } else if constexpr (std::is_same_v<T, cmd::Quit>)
          return "quit";
        else if constexpr (std::is_same_v<T, cmd::Size>)
          return "size " + std::to_string(c.width) + " " + std::to_string(c.height);
        else if constexpr (std::is_same_v<T, cmd::Density>)
          return "density " + real_text(c.p);
        else if constexpr (std::is_same_v<T, cmd::Seed>)
          return "seed " + std::to_string(c.seed);
        else if constexpr (std::is_same_v<T, cmd::SameSeed>)
          return "same-seed " + on_off(c.on);
        else if constexpr (std::is_same_v<T, cmd::GensPerFrame>)
          return "generations-per-frame " + std::to_string(c.n);
        else if constexpr (std::is_same_v<T, cmd::GensPerLaunch>)
          return "generations-per-launch " + target_text(c.target) + " " + std::to_string(c.k);
        else if constexpr (std::is_same_v<T, cmd::Reset>)
          return "reset " + target_text(c.target);
        else if constexpr (std::is_same_v<T, cmd::Vsync>)
          return "vsync " + on_off(c.on);
        else if constexpr (std::is_same_v<T, cmd::Grid>)
          return "grid " + on_off(c.on);
        else if constexpr (std::is_same_v<T, cmd::Age>)
          return "age " + on_off(c.on);
        else if constexpr (std::is_same_v<T, cmd::Panel>)
          return "panel " + on_off(c.on);
        else if constexpr (std::is_same_v<T, cmd::TimingPeriod>)
          return "timing-period " + std::to_string(c.frames);
        else if constexpr (std::is_same_v<T, cmd::Devices>)
          return "devices " + target_text(c.target) + " " + device_list_text(c.devices);
        else
          static_assert(sizeof(T) == 0, "format_command: unhandled command");
      },
      command);
}

bool needs_screen(const Command& command) {
  return std::visit(
      [](const auto& c) {
        using T = std::decay_t<decltype(c)>;
        return std::is_same_v<T, cmd::Zoom> || std::is_same_v<T, cmd::Pan> || std::is_same_v<T, cmd::Fit> ||
               std::is_same_v<T, cmd::Frames> || std::is_same_v<T, cmd::Screenshot> ||
               std::is_same_v<T, cmd::Grid> || std::is_same_v<T, cmd::Panel> || std::is_same_v<T, cmd::Age> ||
               std::is_same_v<T, cmd::Vsync>;
      },
      command);
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
