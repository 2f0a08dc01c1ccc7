// app.cpp — implements app.hpp: the frame loop, and one frame as a list of steps (wait for the frame
// two back, input and UI, step, display, composite, screenshot and present, figures). The set-up is
// app_setup.cpp's; Esc, quitting and background builds app_requests.cpp's.
#include "app/app.hpp"

#include <imgui.h>

#include "render/gl.hpp"
// GLFW after GLAD (render/gl.hpp): GLAD provides the GL declarations.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>

#include "app/report.hpp"
#include "app/tile_labels.hpp"
#include "control/numbered_path.hpp"
#include "core/error.hpp"
#include "core/trace.hpp"
#include "render/image.hpp"
#include "render/paths.hpp"
#include "ui/engine_figures.hpp"
#include "ui/regions.hpp"

namespace ls::app {

namespace {

/// Points per counter strip in the panel: one a 50 ms bucket of the 10 s shown.
constexpr int kCounterPoints = 200;

/// How long a frame waits for the frame two before it: far longer than any frame takes, short
/// enough that a hung driver does not hang the app silently for ever.
constexpr std::uint64_t kFrameFenceTimeoutNs = 1'000'000'000;

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int App::run() {
  setup();
  // A fatal device error from here on: save the newest snapshots, say where, exit 3.
  try {
    return loop();
  } catch (const DeviceError& e) {
    return recovery_->save_after_fault(e, std::cerr);
  }
}

int App::loop() {
  const long long frame_limit = options_.frames.value_or(options_.headless && !script_ ? 120 : -1);
  // The report's counter means are over the frames it reports, not the set-up before them.
  if (counters_ && counters_->sampler()) counters_->sampler()->reset_means();
  const auto loop_start = Clock::now();
  while (true) {
    // Poll: the window's events (queued for the frame's input step), then the script's lines up
    // to the next one that needs a frame.
    if (window_) {
      window_->poll_events();
      if (window_->should_close()) {
        if (window_->lost()) {
          quit_ = true;
        } else {
          window_->cancel_close();
          ask_quit();
        }
      }
    }
    poll_build();
    // A script's next line waits for a change being built.
    if (script_ && !quit_ && !build_) run_script_lines();
    if (quit_) break;
    if (script_ && script_->over() && !window_) break;
    if (frame_limit > 0 && figures_.frames() >= frame_limit) break;
    // Minimised: nothing to draw (some platforms give a zero-size framebuffer); wait for events
    // rather than spin, and let the simulation rest until the window is back.
    if (window_ && window_->nothing_to_draw()) {
      glfwWaitEventsTimeout(0.05);
      continue;
    }

    const bool still = script_ && script_->still_frame_due();
    // The last frame is the one --screenshot keeps: its labels and panel must be current.
    if (frame_limit > 0 && figures_.frames() + 1 == frame_limit) pacer_.force();
    bool drawn = false;
    try {
      drawn = frame(!still, std::nullopt);
    } catch (const render::GlError&) {
      // A GL call that failed because another client destroyed the window mid-frame is a close,
      // not a device fault. A frame that stepped counts, so the report's frames and generations
      // still agree.
      if (!window_ || !window_->lost()) throw;
      if (stepped_in_frame_) ++figures_.run().frames;
      break;
    }
    if (!drawn) continue;  // a still frame stays due
    recovery_->after_frame(figures_.frames(),
                           std::chrono::duration<double>(Clock::now() - loop_start).count());
    if (script_) script_->frame_drawn();
  }
  remember_panel_width(/*at_exit=*/true);
  if (!write_outputs(std::chrono::duration<double>(Clock::now() - loop_start).count())) {
    std::cerr << "lifestreams: --screenshot " << options_.screenshot
              << " was not written: at the end the window was minimised or gone\n";
    return 3;
  }
  return 0;
}

bool App::frame(bool step, const std::optional<std::string>& capture) {
  // Each step below marks its own range inside this one, for Nsight Systems (core/trace.hpp).
  const trace::Scope frame_range(trace::Phase::frame);
  const auto start = Clock::now();
  wait_for_frame_two_back();
  int fw = 0, fh = 0;
  if (!drawable_size(fw, fh)) return false;
  const bool rebuild = ui_due(fw, fh, capture.has_value());

  // 1. Input, new frame, UI: keys and mouse, the panel, and the commands they gave.
  const auto build_start = Clock::now();
  if (rebuild) build_ui();
  // 2. Step the engine (and ask for the summaries later frames show).
  const std::vector<view::Placement> placements = step_engine(step);
  // 3. The tile labels, after the step: they show the newest finished summaries.
  if (rebuild) finish_ui(build_start);
  // 4. Display: fill every tile from its lattice.
  update_tiles(placements);
  // 5. Composite: the tiles, then the ImGui layer over them.
  composite(placements, fw, fh, rebuild);
  // 6. Screenshot (read before the swap), fence, present.
  screenshot_and_present(capture, fw, fh);
  // 7. Figures.
  figures_.add_frame(ms_since(start), engine_->frame_timings());
  return true;
}

void App::wait_for_frame_two_back() {
  const trace::Scope range(trace::Phase::wait);
  frame_fences_[static_cast<std::size_t>(figures_.frames() % 2)].wait_and_reset(kFrameFenceTimeoutNs);
}

bool App::drawable_size(int& fw, int& fh) const {
  framebuffer_size(fw, fh);
  // Minimised or destroyed since the loop looked: no frame (and no step), as when minimised.
  return !(window_ && (fw <= 0 || fh <= 0));
}

bool App::ui_due(int fw, int fh, bool capture) {
  // The ImGui frame (panel and tile labels) is rebuilt on input, after a command, for a
  // screenshot or a resize, and otherwise at most 60 times a second; in between the previous
  // draw data is drawn again, so the panel costs nothing visible at hundreds of frames a second.
  if (capture || screenshot_next_ || fw != last_fb_w_ || fh != last_fb_h_) pacer_.force();
  last_fb_w_ = fw;
  last_fb_h_ = fh;
  const double now_s = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  return pacer_.due(now_s, !input_.events.empty());
}

void App::build_ui() {
  // Headless, ImGui's display is the offscreen size; a lost window keeps the last good size.
  std::vector<Command> commands;
  {
    const trace::Scope input_range(trace::Phase::input);
    if (window_) input_.deliver_keys(ImGui::GetIO());
    imgui_->new_frame(window_ ? last_fb_w_ : setup_.width, window_ ? last_fb_h_ : setup_.height);
    if (window_) {
      float sx = 1, sy = 1;
      window_->framebuffer_scale(sx, sy);
      const InputOutcome in = mapper_.map(input_.events, *scene_, ImGui::GetIO(), sx, sy, commands);
      if (in.toggle_help) panel_.toggle_help();
      if (in.escape) escape();
      if (in.quit) ask_quit();
      if (in.enter && quit_pending_) quit_ = true;
      if (!in.error.empty()) model_.error = in.error;
      model_.hovered_instance = in.hovered_instance;
      hovered_cell_ = in.hovered_cell;
    }
  }
  const trace::Scope panel_range(trace::Phase::panel);
  update_area();
  fill_panel_model();
  // Always drawn: hidden, the panel still shows its notices and the help. Shown or hidden as the
  // scene says (Tab and `panel on|off` are one command): the panel only mirrors the flag.
  panel_.set_visible(scene_->panel_visible());
  panel_.draw(model_, commands);
  const ui::PromptAnswers& answers = panel_.prompt_answers();
  if (answers.quit) quit_ = true;
  if (answers.stay) quit_pending_ = false;
  if (answers.cancel_build) cancel_build();
  remember_panel_width(/*at_exit=*/false);
  execute_ui(commands);
  if (!commands.empty()) pacer_.force();
}

void App::remember_panel_width(bool at_exit) {
  if (settings_path_.empty() || panel_.chosen_width() == settings_.panel_width) return;
  // Written once the drag is over, not at every pixel of it.
  if (!at_exit && ImGui::IsMouseDown(ImGuiMouseButton_Left)) return;
  settings_.panel_width = panel_.chosen_width();
  save_settings(settings_path_, settings_);
}

void App::fill_panel_model() {
  model_.quit_pending = quit_pending_;
  model_.job.active = build_ != nullptr;
  model_.job.what = build_ ? build_->plan().what : std::string();
  model_.job.fraction = build_ ? build_->fraction() : 0.0;
  model_.job.cancellable = build_ && engine_->size() > 0;
  refresh_size_refusals();
  model_.paused = scene_->paused();
  model_.grid = scene_->grid();
  model_.age = scene_->age();
  model_.settings = scene_->settings();
  model_.cpu_frame_ms = figures_.recent_frame_ms();
  model_.fps = model_.cpu_frame_ms.mean > 0 ? 1000.0 / model_.cpu_frame_ms.mean : 0;
  model_.host_syncs_per_frame = engine_->host_syncs_in_last_step();
  model_.display_path = figures_.run().display.path;
  ui::fill_engine_figures(*engine_, model_);
  model_.delivered_cups = scene_->paused() ? 0.0 : delivered_.per_second();
  model_.kernel_cups = kernel_rate(model_.statuses);
  float sx = 1, sy = 1;
  if (window_) window_->framebuffer_scale(sx, sy);
  const view::Rect& a = scene_->area();
  model_.tile_area = ui::Area{a.x / sx, a.y / sy, a.w / sx, a.h / sy};
  fill_counter_strips();
  roofline_.fill(*engine_, model_);
}

void App::fill_counter_strips() {
  model_.counters_on = options_.counters == "on";
  model_.counters_source = counters_ ? counters_->source_line() : std::string();
  model_.counter_strips.clear();
  counters::CounterSampler* sampler = counters_ ? counters_->sampler() : nullptr;
  if (sampler)
    for (const counters::Strip& s : sampler->strips(model_.counters_window_s * 1000.0, kCounterPoints))
      model_.counter_strips.push_back(
          ui::PanelModel::CounterStrip{s.gpu, std::string(counters::counter_name(s.counter)),
                                       std::string(counters::counter_unit(s.counter)),
                                       counters::is_fraction(s.counter), s.values, s.newest});
  counter_lanes_.fill(*engine_, sampler, model_);  // after the strips: rates are scaled as theirs
}

std::vector<view::Placement> App::step_engine(bool step) {
  const trace::Scope range(trace::Phase::step_enqueue);
  update_area();
  std::vector<view::Placement> placements = scene_->placements();
  stepped_in_frame_ = false;
  if (step && !scene_->paused()) {
    const auto step_start = Clock::now();
    engine_->step(scene_->settings().generations_per_frame);
    stepped_in_frame_ = true;
    // An engine that steps on the host (the CPU engine) holds the window for as long as its step
    // takes: past kLongStepMs the window would stop answering keys, so the app pauses itself and
    // says why (Space runs on, N steps one generation).
    const double step_ms = ms_since(step_start);
    if (window_ && !script_ && step_ms > kLongStepMs) pause_after_long_step(step_ms);
  }
  figures_.add_host_syncs(engine_->host_syncs_in_last_step());
  engine_->request_summaries();
  const double now_s = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  if (engine_->size() > 0) generation_rate_.add(now_s, engine_->status(0).generation);
  // The frame's own generations and those of step commands since the last frame (N, a script's
  // step), from the scene's sizes: no engine call per instance in the frame loop.
  double cells = 0;
  for (std::size_t i = 0; i < engine_->size(); ++i)
    cells += static_cast<double>(scene_->lattice_width(i)) * static_cast<double>(scene_->lattice_height(i));
  const double stepped = scene_->take_stepped_cells();
  delivered_.add(now_s,
                 (stepped_in_frame_ ? cells * scene_->settings().generations_per_frame : 0.0) + stepped);
  return placements;
}

void App::finish_ui(Clock::time_point build_start) {
  const trace::Scope range(trace::Phase::labels);
  float sx = 1, sy = 1;
  if (window_) window_->framebuffer_scale(sx, sy);
  // From the statuses the panel shows: a label and the Instances table agree on every figure.
  draw_tile_labels(*scene_, model_.statuses, sx, sy);
  Readout readout;
  // The tile hovered when the input was mapped: the area may have changed since (a resize to
  // 1x1 leaves no tiles at all).
  const std::vector<view::Placement> placements = scene_->placements();
  if (model_.hovered_instance >= 0 && static_cast<std::size_t>(model_.hovered_instance) < placements.size()) {
    readout.instance = model_.hovered_instance;
    readout.cell = hovered_cell_;
    readout.pixels_per_cell = placements[static_cast<std::size_t>(readout.instance)].pixels_per_cell;
  }
  readout.generations_per_second = generation_rate_.per_second();
  readout.paused = scene_->paused();
  draw_readout(readout_text(readout), scene_->area(), sx, sy);
  ImGui::Render();
  ++figures_.run().ui.rebuilds;
  figures_.run().ui.build_ms += ms_since(build_start);
}

void App::update_tiles(const std::vector<view::Placement>& placements) {
  const trace::Scope range(trace::Phase::display);
  const auto update_start = Clock::now();
  renderer_->update(placements, display_options(), palette_);
  figures_.run().display.update_ms += ms_since(update_start);
}

void App::composite(const std::vector<view::Placement>& placements, int fw, int fh, bool rebuild) {
  const trace::Scope range(trace::Phase::composite);
  if (offscreen_)
    offscreen_->bind();
  else
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fw, fh);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  int r = 0, g = 0, b = 0;
  render::unpack_rgb(palette_.background, r, g, b);
  glClearColor(r / 255.f, g / 255.f, b / 255.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  renderer_->draw(placements, fw, fh);
  const auto ui_start = Clock::now();
  if (ImDrawData* draw_data = ImGui::GetDrawData()) {
    if (rebuild || ui_layer_->width() != fw || ui_layer_->height() != fh) {
      ui_layer_->begin(fw, fh);
      ImGuiLayer::render(draw_data);
      ui_layer_->end();
      // Blend only where ImGui drew: a full-screen pass costs the H100/H200's few raster units as
      // much as drawing the labels did.
      std::vector<view::Rect> regions;
      for (const ui::Region& region : ui::covering_regions(ui::draw_command_boxes(*draw_data), fw, fh, 16))
        regions.push_back(view::Rect{region.x, region.y, region.w, region.h});
      ui_layer_->set_regions(regions);
    }
    ui_layer_->composite(fw, fh);
  }
  figures_.run().ui.draw_ms += ms_since(ui_start);
  render::check_gl("drawing a frame");
}

void App::screenshot_and_present(const std::optional<std::string>& capture, int fw, int fh) {
  const trace::Scope range(trace::Phase::present);
  // What a person sees, panel included: read before the swap.
  std::optional<std::string> shot = capture;
  if (!shot && screenshot_next_) shot = screenshot_next_;
  screenshot_next_.reset();
  if (shot) {
    try {
      take_screenshot(*shot, fw, fh);
    } catch (const InputError& e) {
      if (capture) throw;
      if (script_) throw script_->failure(2, e.what());
      model_.error = e.what();
    }
  }
  frame_fences_[static_cast<std::size_t>(figures_.frames() % 2)] = render::GlSync::fence();
  if (window_) window_->swap_buffers();
}

void App::run_script_lines() {
  update_area();
  script_->advance(*scene_, [&](const Effects& fx) {
    pacer_.force();
    apply_effects(fx);
    // The next line sees the layout this one left (the panel shown or not, the instance count).
    update_area();
  });
}

void App::apply_effects(const Effects& fx) {
  if (fx.quit) quit_ = true;
  if (fx.screenshot) screenshot_next_ = *fx.screenshot;
  if (fx.vsync) {
    if (window_) window_->set_vsync(*fx.vsync);
    model_.vsync = window_ ? *fx.vsync : false;
  }
  if (fx.counters && (*fx.counters != (options_.counters == "on"))) {
    // Stopped, or started again on the GPUs in use now; the --counters-csv file covers the first
    // sampler only (starting again would overwrite it).
    options_.counters = *fx.counters ? "on" : "off";
    options_.counters_csv.clear();
    counters_.reset();
    start_counters();
  }
  if (!fx.message.empty()) model_.message = fx.message;
}

void App::execute_ui(const std::vector<Command>& commands) {
  for (const Command& c : commands) {
    try {
      // While a change is built, what would add, replace or move instances waits for it, and so
      // does drawing (cells drawn on an instance being rebuilt would vanish at the commit).
      const bool rebuilds = std::holds_alternative<cmd::Size>(c) || std::holds_alternative<cmd::Reset>(c) ||
                            std::holds_alternative<cmd::Instances>(c) ||
                            std::holds_alternative<cmd::Load>(c) || std::holds_alternative<cmd::Devices>(c) ||
                            std::holds_alternative<cmd::SetCell>(c);
      if (build_ && rebuilds)
        throw InputError("wait for " + build_->plan().what + " to finish, or press Esc to cancel it");
      if (!start_build(c)) apply_effects(scene_->execute(c));
      model_.error.clear();
    } catch (const InputError& e) {
      // Bad input from a person: shown in the panel, the scene stays as it was.
      model_.error = e.what();
    } catch (const ExpectationFailed& e) {
      model_.error = e.what();
    }
  }
}

void App::framebuffer_size(int& w, int& h) const {
  if (window_) {
    window_->framebuffer_size(w, h);
  } else {
    w = offscreen_->width();
    h = offscreen_->height();
  }
}

void App::update_area() {
  int fw = 0, fh = 0;
  framebuffer_size(fw, fh);
  float sx = 1, sy = 1;
  if (window_) window_->framebuffer_scale(sx, sy);
  const int panel = scene_->panel_visible() ? static_cast<int>(std::ceil(panel_.width() * sx)) : 0;
  scene_->set_area(view::Rect{panel, 0, std::max(0, fw - panel), fh});
}

void App::take_screenshot(const std::string& requested, int fw, int fh) {
  const std::string path = requested.empty() ? next_numbered_path("", "lifestreams", ".png") : requested;
  render::write_png(path, render::read_framebuffer(fw, fh));
  model_.message = "screenshot saved to " + path;
}

bool App::write_outputs(double seconds) {
  // The counters' means are over the frames reported: read now, before the display's measurement
  // in figures_.finish() runs fills of its own (and its textbook path copies every lattice to the
  // host: ~2 s of a near-idle GPU after a 16384² run, which halved the means of a 3 s run).
  if (!options_.report.empty() && counters_) counters_->report(figures_.run());
  bool screenshot_written = true;
  if (!options_.screenshot.empty()) {
    if (offscreen_ && figures_.frames() > 0) {
      offscreen_->bind();
      take_screenshot(options_.screenshot, offscreen_->width(), offscreen_->height());
    } else {
      // A window's back buffer is gone after the swap: draw the final state once more. Not
      // possible when the window is minimised or another client destroyed it.
      try {
        screenshot_written = frame(false, options_.screenshot);
      } catch (const render::GlError&) {
        if (!window_ || !window_->lost()) throw;
        screenshot_written = false;
      }
    }
  }
  if (!options_.report.empty()) {
    figures_.finish(seconds, *renderer_, *engine_, *scene_, palette_);
    figures_.run().delivered_cups = seconds > 0 ? delivered_.total() / seconds : 0;
    std::vector<InstanceStatus> statuses;
    for (std::size_t i = 0; i < engine_->size(); ++i) statuses.push_back(engine_->status(i));
    figures_.run().kernel_cups = kernel_rate(statuses);
    model_.statuses = statuses;  // the roofline of the instances as they are now, not at the last rebuild
    model_.settings = scene_->settings();
    roofline_.fill(*engine_, model_);
    for (const ui::PanelModel::RooflineRow& r : model_.roofline)
      figures_.run().roofline[r.instance] = r.point;
    write_report(options_.report, *engine_, figures_.run());
  }
  return screenshot_written;
}

}  // namespace ls::app
