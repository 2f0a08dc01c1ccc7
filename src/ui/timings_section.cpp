// timings_section.cpp — the panel's Per-stream timings (timings_section.hpp).
#include "ui/timings_section.hpp"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/format.hpp"
#include "ui/history_plot.hpp"
#include "ui/style.hpp"
#include "ui/widgets.hpp"

namespace ls::ui {

namespace {

constexpr int kTableRowsShown = 12;  // taller tables scroll
constexpr int kColumns = 10;

/// "ms per frame (N generations)": what the step columns measure.
void draw_caption(int gpf) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
  ImGui::Text("ms per frame (%d generation%s)", gpf, gpf == 1 ? "" : "s");
  tooltip(
      "Step, display and history columns are per frame: one step of the engine advances "
      "generations per frame generations. cells/s: each instance's kernel rate.");
  ImGui::PopStyleColor();
}

// Fixed widths: the cells are drawn without items, so nothing auto-fits.
void setup_columns() {
  const float num_w = ImGui::CalcTextSize("0.0000").x;
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("00").x);
  ImGui::TableSetupColumn("variant", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("bitpacked").x);
  for (const char* name : {"last", "mean", "std", "min", "max", "disp"}) {
    ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthFixed, num_w);
  }
  ImGui::TableSetupColumn("cells/s", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000.0 M").x);
  ImGui::TableSetupColumn(kHistoryColumn, ImGuiTableColumnFlags_WidthFixed, num_w * kHistoryColumnNumbers);
}

// Header row by hand, so each header gets its tooltip. The step columns' tips say per frame, with
// the frame's generations (composed when hovered).
void draw_header_row(bool gpu, int gpf) {
  const char* const tips[kColumns] = {
      "instance",
      gpu ? "variant" : kOnGpuOnly,
      "the instance's step time in the last timed frame",
      "mean step time over the last 120 timed frames",
      "standard deviation of the step time over 120 timed frames",
      "minimum step time over 120 timed frames",
      "maximum step time over 120 timed frames",
      "display time (render kernel into the tile), mean over 120 timed frames",
      "kernel rate of the instance: cells times generations per second of its mean step time (what its "
      "kernels do back to back, not what the app delivers)",
      kHistoryTip,
  };
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < kColumns; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    const bool per_frame = (c >= 2 && c <= 7) || c == kColumns - 1;
    if (per_frame && ImGui::IsItemHovered()) {
      char head[80];
      std::snprintf(head, sizeof head, "ms per frame (%d generation%s): ", gpf, gpf == 1 ? "" : "s");
      tooltip((std::string(head) + tips[c]).c_str());
    } else if (!per_frame) {
      tooltip(tips[c]);
    }
  }
}

/// The next cell's text, drawn straight into the window's draw list, left or right aligned.
void text_cell(const char* t, bool right, ImU32 col) {
  ImGui::TableNextColumn();
  ImVec2 p = ImGui::GetCursorScreenPos();
  if (right) p.x += std::max(0.f, ImGui::GetContentRegionAvail().x - ascii_width(t));
  ImGui::GetWindowDrawList()->AddText(p, col, t);
}

// The rows are the panel's hottest part (the timings must cost nothing visible), so their cells
// are drawn straight into the draw list: no ImGui item, no printf.
void draw_row(const PanelModel& model, int i, float row_h) {
  const InstanceStatus& s = model.statuses[static_cast<std::size_t>(i)];
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  // On the CPU every variant runs one reference code: the name is a kept setting, not a cause.
  const ImU32 variant_colour = runs_on_gpu(model) ? text : dim;
  const char* none = "-";
  char num[32];
  ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h);
  if (i == model.hovered_instance) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, colour::hover_row);
  text_cell(format_index(i, num, sizeof num), false, text);
  text_cell(variant_label(s.variant), false, variant_colour);
  const bool timed = s.step_ms.samples > 0;
  const double step[] = {s.step_ms.last, s.step_ms.mean, s.step_ms.std, s.step_ms.min, s.step_ms.max};
  for (double v : step) text_cell(timed ? format_ms(v, num, sizeof num) : none, true, timed ? text : dim);
  const bool displayed = s.display_ms.samples > 0;
  text_cell(displayed ? format_ms(s.display_ms.mean, num, sizeof num) : none, true, displayed ? text : dim);
  text_cell(s.cups > 0 ? format_si(s.cups, num, sizeof num) : none, true, s.cups > 0 ? text : dim);
  draw_history_cell(i, s.step_history);
}

void draw_table(const PanelModel& model) {
  const int count = static_cast<int>(model.statuses.size());
  if (count == 0) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  // InstanceStatus::step_ms times one step() of the engine: a frame of generations_per_frame
  // generations (both engines), not one generation.
  const int gpf = std::max(1, model.settings.generations_per_frame);
  draw_caption(gpf);
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_ScrollX | ImGuiTableFlags_NoPadOuterX |
                                     ImGuiTableFlags_NoClip;
  const float row_h = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y;
  const int shown = std::min(count, kTableRowsShown);
  // ScrollX: a panel too narrow for every column scrolls them (the history last), leaving room for
  // the horizontal scrollbar below the rows.
  const ImVec2 outer(0, row_h * static_cast<float>(shown + 1) + 2 + style.ScrollbarSize);
  if (!ImGui::BeginTable("##timings", kColumns, kFlags, outer)) return;
  ImGui::TableSetupScrollFreeze(2, 1);  // the instance and its variant stay when scrolled
  setup_columns();
  draw_header_row(runs_on_gpu(model), gpf);
  ImGuiListClipper clipper;
  clipper.Begin(count, row_h);
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_row(model, i, row_h);
  ImGui::EndTable();
}

/// A dim label cell with its tooltip, then the value cell.
void total_label(const char* text, const char* tip) {
  ImGui::TableNextColumn();
  ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
  tooltip(tip);
  ImGui::TableNextColumn();
}

/// `ms` as "<ms> ms" when the frame's timings are complete, else a dash.
void frame_ms(bool valid, double ms) {
  char a[32];
  if (valid) {
    ImGui::Text("%s ms", format_ms(ms, a, sizeof a));
  } else {
    ImGui::TextDisabled("\xE2\x80\x94");
  }
}

/// The GPUs the instances run on, ascending (none on the CPU engine).
std::vector<int> devices_of(const PanelModel& model) {
  std::vector<int> all;
  for (const std::vector<int>& d : model.instance_devices) all.insert(all.end(), d.begin(), d.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

/// FPS, with a mark when vsync caps it.
void draw_fps(const PanelModel& model) {
  total_label("FPS", "Frames per second (window: after vsync, if on)");
  ImGui::Text("%.1f", model.fps);
  if (vsync_caps_frames(model)) {
    ImGui::SameLine();
    text_coloured(colour::warn, "(vsync cap)");
    tooltip("vsync on: frames wait for the display, so FPS and frame times are capped at its rate.");
  }
}

/// The host's time to enqueue a frame, and whether the host or the GPU bounds the frame.
void draw_host_enqueue(const PanelModel& model, bool gpu) {
  total_label("host enqueue",
              gpu ? "Host time per frame spent enqueueing the steps (the engine's step()), mean over 120 "
                    "frames; host-bound when it is at least the time the GPU's streams work in a frame (the "
                    "timeline's "
                    "bars, which can be far less than the span)"
                  : "Host time per frame of the steps (the CPU does the work), mean over 120 frames");
  if (model.host_enqueue_ms.samples == 0) {
    ImGui::TextDisabled("\xE2\x80\x94");
    return;
  }
  char a[32];
  ImGui::Text("%s ms", format_ms(model.host_enqueue_ms.mean, a, sizeof a));
  const FrameBound bound = frame_bound(model);
  if (gpu && bound != FrameBound::unknown) {
    ImGui::SameLine();
    text_coloured(bound == FrameBound::host ? colour::warn : colour::good,
                  bound == FrameBound::host ? "host-bound" : "GPU-bound");
    tooltip(bound == FrameBound::host
                ? "The host takes longer to enqueue a frame than the GPU takes to run it: the GPU waits.\n"
                  "Fewer launches per frame help (stream mode: one graph per frame)."
                : "The GPU takes longer to run a frame than the host to enqueue it.");
  }
}

void draw_concurrency(const FrameTimings& frame) {
  total_label("concurrency", "busy / span: how many streams ran at once, on average");
  if (frame.valid) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          frame.concurrency > 1.05 ? colour::good : ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::Text("%.2f\xC3\x97", frame.concurrency);
    ImGui::PopStyleColor();
  } else {
    ImGui::TextDisabled("\xE2\x80\x94");
  }
}

// Two throughputs side by side, named for what they are: what the app advanced per second, and
// what the kernels would do back to back (the app also waits for vsync, displays and the host).
void draw_rates(const PanelModel& model) {
  char a[32];
  total_label("delivered",
              "Cell updates delivered: cells times generations actually advanced per wall-clock second "
              "over the last second (0 while paused).");
  ImGui::Text("%s cells/s", format_si(model.delivered_cups, a, sizeof a));
  total_label("kernel rate",
              "Sum of the instances' step rates while stepping: what the kernels do back to back, not "
              "what the app delivers.");
  ImGui::Text("%s cells/s", format_si(model.kernel_cups, a, sizeof a));
}

/// The engine that runs the instances and how their tiles reach the screen.
void draw_backend_and_display(const PanelModel& model, bool gpu) {
  total_label("backend", "The engine that runs the instances (the device is named at the top)");
  ImGui::TextUnformatted(model.backend.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", model.device.c_str());
  if (gpu && !model.display_path.empty()) {
    total_label("display",
                "How the tiles reach the screen. interop: drawn on the display GPU into its texture; "
                "+peer: tiles of other GPUs drawn there and copied over peer to peer; +host-staged: "
                "those GPUs have no peer access, so their tiles travel through pinned host memory "
                "(asynchronously, slower); textbook: every lattice read to the host");
    ImGui::PushStyleColor(ImGuiCol_Text, model.display_path.ends_with("host-staged")
                                             ? colour::warn
                                             : ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::TextUnformatted(model.display_path.c_str());
    ImGui::PopStyleColor();
  } else if (!gpu) {
    // The CUDA display path (--display-path) means nothing here: the CPU engine's tiles are uploaded
    // from host memory.
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, colour::dim);
    ImGui::TextUnformatted("display");
    ImGui::PopStyleColor();
    setting_tip(false, "How a CUDA engine's tiles reach the screen (--display-path).");
    ImGui::TableNextColumn();
    ImGui::TextDisabled("host upload");
    setting_tip(false,
                "The CPU engine's tiles are uploaded from host memory each frame; the CUDA display "
                "paths (interop, textbook) are for a GPU engine.");
  }
}

// Several GPUs: each one's part of the frame (its own clock): span, busy, concurrency. A row per
// GPU the instances run on, whether this frame's figures came or not, so that nothing below moves.
void draw_gpu_parts(const PanelModel& model) {
  const FrameTimings& frame = model.frame;
  const std::vector<int> devices = devices_of(model);
  if (devices.size() <= 1) return;
  for (int device : devices) {
    char label[16], s0[32], s1[32];
    std::snprintf(label, sizeof label, "GPU %d", device);
    total_label(label,
                "This GPU's part of the frame, on its own clock: span, busy (its streams' work) and "
                "concurrency (busy / span)");
    const auto g = std::find_if(frame.gpus.begin(), frame.gpus.end(),
                                [device](const GpuFrameTimings& t) { return t.device == device; });
    if (frame.valid && g != frame.gpus.end()) {
      ImGui::Text("%s / %s ms  %.2f\xC3\x97", format_ms(g->span_ms, s0, sizeof s0),
                  format_ms(g->busy_ms, s1, sizeof s1), g->concurrency);
    } else {
      ImGui::TextDisabled("\xE2\x80\x94");
    }
  }
}

void draw_totals(const PanelModel& model) {
  const FrameTimings& frame = model.frame;
  const bool gpu = runs_on_gpu(model);
  ImGui::Spacing();
  // Two label/value pairs a row where they fit their widest figures, else one.
  const float pair_w = ImGui::CalcTextSize("host enqueue").x +
                       ImGui::CalcTextSize("00.0 \xC2\xB1 00.0 ms").x + 4 * ImGui::GetStyle().CellPadding.x;
  const int columns = ImGui::GetContentRegionAvail().x >= 2 * pair_w ? 4 : 2;
  if (!ImGui::BeginTable("##totals", columns,
                         ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_NoPadOuterX))
    return;
  char a[32];
  char b[32];
  draw_fps(model);
  total_label("CPU frame", "Host time per frame: mean \xC2\xB1 std over 120 frames, ms");
  ImGui::Text("%s \xC2\xB1 %s ms", format_ms(model.cpu_frame_ms.mean, a, sizeof a),
              format_ms(model.cpu_frame_ms.std, b, sizeof b));
  total_label(span_label(model), gpu ? "Earliest start to latest end of the frame's GPU work over all streams"
                                     : "Earliest start to latest end of the frame's work over all instances");
  frame_ms(frame.valid, frame.gpu_span_ms);
  draw_host_enqueue(model, gpu);
  total_label("busy", gpu ? "Sum of the streams' busy time in the frame"
                          : "Sum of the instances' step times in the frame");
  frame_ms(frame.valid, frame.busy_ms);
  draw_concurrency(frame);
  draw_rates(model);
  total_label("host syncs", "Blocking host-device calls per frame (0 expected)");
  ImGui::PushStyleColor(ImGuiCol_Text, model.host_syncs_per_frame == 0 ? colour::good : colour::warn);
  ImGui::Text("%" PRIu64 " / frame", model.host_syncs_per_frame);
  ImGui::PopStyleColor();
  draw_backend_and_display(model, gpu);
  draw_gpu_parts(model);
  ImGui::EndTable();
}

}  // namespace

const char* span_label(const PanelModel& model) { return runs_on_gpu(model) ? "GPU span" : "span"; }

void draw_timings(const PanelModel& model) {
  draw_table(model);
  draw_totals(model);
  draw_frame_history(model);
}

}  // namespace ls::ui
