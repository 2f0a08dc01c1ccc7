// input.cpp — implements input.hpp: the GLFW callbacks and the key and mouse bindings.
#include "app/input.hpp"

#include <imgui.h>

#include "render/gl.hpp"
// GLFW after GLAD (render/gl.hpp): GLAD provides the GL declarations.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ls::app {
namespace {

InputQueue* queue_of(GLFWwindow* w) { return static_cast<InputQueue*>(glfwGetWindowUserPointer(w)); }

void on_key(GLFWwindow* w, int key, int, int action, int mods) {
  if (action != GLFW_REPEAT) queue_of(w)->imgui_keys.push_back(KeyTransition{key, action == GLFW_PRESS});
  InputEvent e;
  e.kind = InputEvent::Kind::key;
  e.key = key;
  e.action = action;
  e.mods = mods;
  queue_of(w)->events.push_back(std::move(e));
}
void on_button(GLFWwindow* w, int button, int action, int mods) {
  InputEvent e;
  e.kind = InputEvent::Kind::button;
  e.key = button;
  e.action = action;
  e.mods = mods;
  glfwGetCursorPos(w, &e.x, &e.y);
  queue_of(w)->events.push_back(std::move(e));
}
void on_scroll(GLFWwindow* w, double, double dy) {
  InputEvent e;
  e.kind = InputEvent::Kind::scroll;
  e.y = dy;
  queue_of(w)->events.push_back(std::move(e));
}
void on_cursor(GLFWwindow* w, double x, double y) {
  InputEvent e;
  e.kind = InputEvent::Kind::cursor;
  e.x = x;
  e.y = y;
  queue_of(w)->events.push_back(std::move(e));
}
void on_drop(GLFWwindow* w, int count, const char** paths) {
  InputEvent e;
  e.kind = InputEvent::Kind::drop;
  for (int i = 0; i < count; ++i) e.paths.emplace_back(paths[i]);
  queue_of(w)->events.push_back(std::move(e));
}

}  // namespace

void InputQueue::attach(GLFWwindow* window) {
  glfwSetWindowUserPointer(window, this);
  glfwSetKeyCallback(window, on_key);
  glfwSetMouseButtonCallback(window, on_button);
  glfwSetScrollCallback(window, on_scroll);
  glfwSetCursorPosCallback(window, on_cursor);
  glfwSetDropCallback(window, on_drop);
}

void InputMapper::draw_to(const Scene& scene, int tile, double px, double py,
                          std::vector<Command>& commands) {
  const auto cell = scene.cell_at(static_cast<std::size_t>(tile), px, py);
  if (!cell) return;
  // Cells along the line from the last one, so a fast stroke leaves no gaps.
  auto [x0, y0] = last_cell_.first < 0 ? *cell : last_cell_;
  const auto [x1, y1] = *cell;
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int stepx = x0 < x1 ? 1 : -1, stepy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (int guard = 0; guard < 4096; ++guard) {
    commands.push_back(cmd::SetCell{static_cast<std::size_t>(tile), x0, y0, draw_mode_ > 0});
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += stepx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += stepy;
    }
  }
  last_cell_ = *cell;
}

void InputQueue::take_keys_from_imgui(GLFWwindow* window) { glfwSetKeyCallback(window, on_key); }

void InputQueue::deliver_keys(ImGuiIO& io) {
  std::vector<int> changed;
  std::size_t taken = 0;
  for (; taken < imgui_keys.size(); ++taken) {
    const KeyTransition& k = imgui_keys[taken];
    if (std::find(changed.begin(), changed.end(), k.key) != changed.end()) break;
    changed.push_back(k.key);
    if (k.key >= 0 && k.key < IM_ARRAYSIZE(io.KeysDown)) io.KeysDown[k.key] = k.down;
  }
  imgui_keys.erase(imgui_keys.begin(), imgui_keys.begin() + static_cast<std::ptrdiff_t>(taken));
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

int InputMapper::hovered(const Scene& scene) const { return scene.tile_at(cursor_x_, cursor_y_); }

InputOutcome InputMapper::map(std::vector<InputEvent>& events, Scene& scene, const ImGuiIO& io, float sx,
                              float sy, std::vector<Command>& commands) {
  InputOutcome out;
  for (const InputEvent& e : events) {
    switch (e.kind) {
      case InputEvent::Kind::key:
        map_key(e, scene, io, out, commands);
        break;
      case InputEvent::Kind::cursor:
        map_cursor(e.x * sx, e.y * sy, scene, commands);
        break;
      case InputEvent::Kind::button:
        map_button(e, e.x * sx, e.y * sy, scene, io, commands);
        break;
      case InputEvent::Kind::scroll: {
        if (io.WantCaptureMouse) break;
        const int t = hovered(scene);
        if (t >= 0) scene.zoom_at(static_cast<std::size_t>(t), std::pow(1.2, e.y), cursor_x_, cursor_y_);
        break;
      }
      case InputEvent::Kind::drop: {
        const int t = hovered(scene);
        if (e.paths.empty()) break;
        if (t < 0) {
          out.error = "drop a pattern file onto a tile to load it there";
          break;
        }
        commands.push_back(cmd::Load{static_cast<std::size_t>(t), e.paths.front()});
        break;
      }
    }
  }
  events.clear();
  out.hovered_instance = hovered(scene);
  if (out.hovered_instance >= 0) {
    if (const auto cell = scene.cell_at(static_cast<std::size_t>(out.hovered_instance), cursor_x_, cursor_y_))
      out.hovered_cell = view::CellPos{cell->first, cell->second};
  }
  return out;
}

void InputMapper::map_key(const InputEvent& e, const Scene& scene, const ImGuiIO& io, InputOutcome& out,
                          std::vector<Command>& commands) const {
  if (e.action == GLFW_RELEASE) return;
  // F1 and Ctrl+Q always work; Esc closes what is open unless a text field is being edited (there
  // it cancels the edit, as ImGui does); the rest only when ImGui does not want the keyboard. Esc
  // never quits: a stray press must not lose a person's work.
  if (e.key == GLFW_KEY_F1 && e.action == GLFW_PRESS) {
    out.toggle_help = !out.toggle_help;
    return;
  }
  if (e.key == GLFW_KEY_Q && (e.mods & GLFW_MOD_CONTROL) && e.action == GLFW_PRESS) {
    out.quit = true;
    return;
  }
  if (e.key == GLFW_KEY_ESCAPE && e.action == GLFW_PRESS && !io.WantTextInput) {
    out.escape = true;
    return;
  }
  if ((e.key == GLFW_KEY_ENTER || e.key == GLFW_KEY_KP_ENTER) && e.action == GLFW_PRESS &&
      !io.WantTextInput) {
    out.enter = true;
    return;
  }
  if (io.WantCaptureKeyboard) return;
  const bool repeatable = e.key == GLFW_KEY_N;
  if (e.action == GLFW_REPEAT && !repeatable) return;
  map_shortcut(e.key, e.mods, scene, commands);
}

void InputMapper::map_shortcut(int key, int mods, const Scene& scene, std::vector<Command>& commands) const {
  const Engine& engine = scene.engine();
  const int n = static_cast<int>(engine.size());
  switch (key) {
    case GLFW_KEY_SPACE:
      commands.push_back(scene.paused() ? Command{cmd::Run{}} : Command{cmd::Pause{}});
      break;
    case GLFW_KEY_N:
      commands.push_back(cmd::Step{1});
      break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
      if (n < static_cast<int>(engine.max_instances())) commands.push_back(cmd::Instances{n + 1});
      break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
      if (n > 1) commands.push_back(cmd::Instances{n - 1});
      break;
    case GLFW_KEY_V: {
      const int t = hovered(scene);
      if (t < 0) break;
      const Variant v = engine.status(static_cast<std::size_t>(t)).variant;
      std::size_t k = 0;
      while (kAllVariants[k] != v) ++k;
      commands.push_back(cmd::SetVariant{Target{false, static_cast<std::size_t>(t)},
                                         kAllVariants[(k + 1) % kAllVariants.size()]});
      break;
    }
    case GLFW_KEY_F: {
      const int t = hovered(scene);
      commands.push_back(cmd::Fit{t < 0 ? Target{true, 0} : Target{false, static_cast<std::size_t>(t)}});
      break;
    }
    case GLFW_KEY_S:
      commands.push_back(cmd::Screenshot{""});
      break;
    case GLFW_KEY_TAB:
      if (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) break;  // ImGui's window keys
      // The script's `panel on|off`: the scene holds the one flag. (With a text field active ImGui
      // wants the keyboard, and Tab moves to the next field instead.)
      commands.push_back(cmd::Panel{!scene.panel_visible()});
      break;
    default:
      break;
  }
}

void InputMapper::map_cursor(double px, double py, Scene& scene, std::vector<Command>& commands) {
  if (drag_tile_ >= 0 && drag_tile_ < static_cast<int>(scene.engine().size())) {
    if (panning_) scene.pan_pixels(static_cast<std::size_t>(drag_tile_), px - cursor_x_, py - cursor_y_);
    if (draw_mode_ != 0) draw_to(scene, drag_tile_, px, py, commands);
  }
  cursor_x_ = px;
  cursor_y_ = py;
}

void InputMapper::map_button(const InputEvent& e, double px, double py, const Scene& scene, const ImGuiIO& io,
                             std::vector<Command>& commands) {
  cursor_x_ = px;
  cursor_y_ = py;
  if (e.action == GLFW_RELEASE) {
    drag_tile_ = -1;
    panning_ = false;
    draw_mode_ = 0;
    last_cell_ = {-1, -1};
    return;
  }
  if (io.WantCaptureMouse) return;
  const int t = scene.tile_at(px, py);
  if (t < 0) return;
  const bool ctrl = (e.mods & GLFW_MOD_CONTROL) != 0;
  if (ctrl && (e.key == GLFW_MOUSE_BUTTON_LEFT || e.key == GLFW_MOUSE_BUTTON_RIGHT)) {
    drag_tile_ = t;
    draw_mode_ = e.key == GLFW_MOUSE_BUTTON_LEFT ? 1 : -1;
    last_cell_ = {-1, -1};
    draw_to(scene, t, px, py, commands);
  } else if (e.key == GLFW_MOUSE_BUTTON_LEFT) {
    const double now = glfwGetTime();
    if (now - last_click_time_ < 0.35 && std::abs(px - last_click_x_) < 5 &&
        std::abs(py - last_click_y_) < 5) {
      commands.push_back(cmd::Fit{Target{false, static_cast<std::size_t>(t)}});
      last_click_time_ = -1;
      return;
    }
    last_click_time_ = now;
    last_click_x_ = px;
    last_click_y_ = py;
    drag_tile_ = t;
    panning_ = true;
  }
}

}  // namespace ls::app
