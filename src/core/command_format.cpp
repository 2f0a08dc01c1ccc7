// command_format.cpp — commands printed back as their canonical script lines, and which commands
// need a screen.
#include <cstdio>
#include <string>
#include <type_traits>

#include "core/command.hpp"
#include "core/script_words.hpp"

namespace ls {
namespace {

using script::real_text;

std::string quote(const std::string& path) {
  bool plain = !path.empty();
  for (char c : path)
    if (script::is_blank(c) || c == '"' || c == '#' || c == '\\') plain = false;
  if (plain) return path;
  std::string out = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string target_text(const Target& t) { return t.all ? "all" : std::to_string(t.index); }

std::string on_off(bool on) { return on ? "on" : "off"; }

}  // namespace

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
        else if constexpr (std::is_same_v<T, cmd::Save>) {
          std::string line = "save " + std::to_string(c.index);
          if (!c.path.empty()) line.append(" ").append(quote(c.path));
          return line;
        } else if constexpr (std::is_same_v<T, cmd::Zoom>)
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
        else if constexpr (std::is_same_v<T, cmd::Counters>)
          return "counters " + on_off(c.on);
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
               std::is_same_v<T, cmd::Vsync> || std::is_same_v<T, cmd::Counters>;
      },
      command);
}

}  // namespace ls
