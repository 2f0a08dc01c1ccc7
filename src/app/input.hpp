// input.hpp — the window's keys, buttons, wheel, cursor and dropped files: GLFW callbacks queue raw
// events, and once per frame InputMapper turns them into commands (and the mouse's direct view
// changes), going to the scene only where ImGui does not want the mouse or keyboard.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control/scene.hpp"
#include "core/command.hpp"

struct GLFWwindow;
struct ImGuiIO;

namespace ls::app {

/// Raw window events, queued by the GLFW callbacks and handled once per frame.
struct InputEvent {
  enum class Kind { key, button, scroll, cursor, drop };
  Kind kind = Kind::key;
  int key = 0;
  int action = 0;
  int mods = 0;
  double x = 0;
  double y = 0;
  std::vector<std::string> paths;
};

/// A key going down or up, on its way to Dear ImGui.
struct KeyTransition {
  int key = 0;
  bool down = false;
};

struct InputQueue {
  std::vector<InputEvent> events;
  /// Key transitions not yet given to ImGui (deliver_keys).
  std::vector<KeyTransition> imgui_keys;

  /// Installs the GLFW callbacks of `window` that fill this queue (which must outlive them), before
  /// ImGui's GLFW backend installs its own, which chain to these.
  void attach(GLFWwindow* window);
  /// Once ImGui's backend is installed: keys come to this queue only, and reach ImGui through
  /// deliver_keys. Dear ImGui 1.86 reads key state once a frame, so a key pressed and released
  /// within one frame (End, Home at a low frame rate) would never reach a text field.
  void take_keys_from_imgui(GLFWwindow* window);
  /// Before ImGui::NewFrame: gives ImGui the queued key transitions in order, at most one per key
  /// per frame (a press and its release reach it in two frames), keeping the rest for later.
  void deliver_keys(ImGuiIO& io);
};

/// What the events of a frame asked for beyond commands.
struct InputOutcome {
  bool toggle_help = false;  // F1 (Tab, the panel, is a command: cmd::Panel, as in scripts)
  bool quit = false;         // Ctrl+Q (the app asks first when there is unsaved work)
  bool escape = false;       // Esc outside a text field: closes the topmost open thing (App)
  bool enter = false;        // Enter outside a text field: confirms a pending quit
  std::string error;         // for the panel: a drop that missed every tile
  int hovered_instance = -1;
  std::optional<view::CellPos> hovered_cell;  // the cell under the cursor in that tile
};

/// The mouse's state between frames (framebuffer pixels) and the mapping of events to commands.
class InputMapper {
 public:
  /// Maps `events` (then cleared) to `commands`; pans and zooms `scene` directly (relative to the
  /// cursor, not script commands). `scale_x/y`: framebuffer pixels per window coordinate.
  InputOutcome map(std::vector<InputEvent>& events, Scene& scene, const ImGuiIO& io, float scale_x,
                   float scale_y, std::vector<Command>& commands);

 private:
  /// A key press: F1, Ctrl+Q, Esc and Enter into `out`, the scene's shortcut keys into `commands`.
  void map_key(const InputEvent& e, const Scene& scene, const ImGuiIO& io, InputOutcome& out,
               std::vector<Command>& commands) const;
  /// The scene's shortcut keys (Space, N, +/-, V, F, S, Tab), once ImGui does not want the keyboard.
  void map_shortcut(int key, int mods, const Scene& scene, std::vector<Command>& commands) const;
  /// The cursor moved to (px, py) framebuffer pixels: pans or draws in the tile being dragged.
  void map_cursor(double px, double py, Scene& scene, std::vector<Command>& commands);
  /// A mouse button: Ctrl+left/right draws, left pans, a double click fits the tile; a release
  /// ends any drag.
  void map_button(const InputEvent& e, double px, double py, const Scene& scene, const ImGuiIO& io,
                  std::vector<Command>& commands);
  void draw_to(const Scene& scene, int tile, double px, double py, std::vector<Command>& commands);
  int hovered(const Scene& scene) const;

  double cursor_x_ = -1;
  double cursor_y_ = -1;
  int drag_tile_ = -1;
  bool panning_ = false;
  int draw_mode_ = 0;  // 1 sets cells, -1 clears, 0 off
  std::pair<int, int> last_cell_{-1, -1};
  double last_click_time_ = -1;
  double last_click_x_ = 0;
  double last_click_y_ = 0;
};

}  // namespace ls::app
