// style.cpp — the lifestreams dark theme and font loading (DejaVu Sans from assets/fonts, or
// ImGui's built-in font when the file is missing).
#include "ui/style.hpp"

#include <cmath>
#include <filesystem>
#include <string>

#include "ui/panel.hpp"

namespace ls::ui {

namespace {
ImVec4 rgba(int r, int g, int b, int a = 255) {
  return ImVec4(static_cast<float>(r) / 255.f, static_cast<float>(g) / 255.f, static_cast<float>(b) / 255.f,
                static_cast<float>(a) / 255.f);
}
}  // namespace

void apply_style(float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowPadding = ImVec2(10, 10);
  style.FramePadding = ImVec2(6, 3);
  style.CellPadding = ImVec2(5, 1);
  style.ItemSpacing = ImVec2(7, 5);
  style.ItemInnerSpacing = ImVec2(5, 4);
  style.IndentSpacing = 14;
  style.ScrollbarSize = 12;
  style.GrabMinSize = 10;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  style.PopupBorderSize = 1;
  style.FrameBorderSize = 0;
  style.WindowRounding = 0;
  style.ChildRounding = 3;
  style.FrameRounding = 3;
  style.PopupRounding = 3;
  style.ScrollbarRounding = 6;
  style.GrabRounding = 3;
  style.TabRounding = 3;

  // The theme's colours; the others stay ImGui's dark ones.
  const ImVec4 accent = rgba(56, 132, 230);
  const struct {
    ImGuiCol slot;
    ImVec4 colour;
  } theme[] = {
      {ImGuiCol_Text, rgba(222, 226, 232)},
      {ImGuiCol_TextDisabled, rgba(125, 133, 144)},
      {ImGuiCol_WindowBg, rgba(24, 27, 32, 250)},
      {ImGuiCol_ChildBg, rgba(20, 23, 28, 255)},
      {ImGuiCol_PopupBg, rgba(30, 34, 40, 250)},
      {ImGuiCol_Border, rgba(52, 58, 67)},
      {ImGuiCol_FrameBg, rgba(38, 43, 51)},
      {ImGuiCol_FrameBgHovered, rgba(48, 55, 66)},
      {ImGuiCol_FrameBgActive, rgba(56, 64, 77)},
      {ImGuiCol_TitleBg, rgba(24, 27, 32)},
      {ImGuiCol_TitleBgActive, rgba(30, 36, 46)},
      {ImGuiCol_CheckMark, rgba(98, 164, 245)},
      {ImGuiCol_SliderGrab, rgba(77, 144, 230)},
      {ImGuiCol_SliderGrabActive, rgba(110, 170, 250)},
      {ImGuiCol_Button, rgba(44, 52, 64)},
      {ImGuiCol_ButtonHovered, rgba(56, 82, 120)},
      {ImGuiCol_ButtonActive, accent},
      {ImGuiCol_Header, rgba(40, 48, 60)},
      {ImGuiCol_HeaderHovered, rgba(50, 66, 90)},
      {ImGuiCol_HeaderActive, rgba(56, 80, 115)},
      {ImGuiCol_Separator, rgba(52, 58, 67)},
      {ImGuiCol_TableHeaderBg, rgba(34, 39, 47)},
      {ImGuiCol_TableBorderStrong, rgba(52, 58, 67)},
      {ImGuiCol_TableBorderLight, rgba(40, 45, 53)},
      {ImGuiCol_TableRowBg, rgba(0, 0, 0, 0)},
      {ImGuiCol_TableRowBgAlt, rgba(255, 255, 255, 8)},
      {ImGuiCol_TextSelectedBg, rgba(56, 132, 230, 90)},
      {ImGuiCol_PlotHistogram, accent},
  };
  for (const auto& [slot, value] : theme) style.Colors[slot] = value;

  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

void text_coloured(ImU32 col, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
}

bool load_fonts(const std::string& assets_dir, float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float pixels = std::round(kBaseFontPixels * scale);
  const std::string path = assets_dir + "/fonts/DejaVuSans.ttf";
  ImFont* font = nullptr;
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    ImFontConfig config;
    config.OversampleH = 2;
    config.OversampleV = 1;
    // Latin, Greek (mu), punctuation (em dash, ellipsis, arrows) — what the panel writes.
    static const ImWchar kRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x2027, 0x2190,
                                      0x21FF, 0x2212, 0x2212, 0x25A0, 0x25FF, 0};
    font = io.Fonts->AddFontFromFileTTF(path.c_str(), pixels, &config, kRanges);
  }
  if (font == nullptr) {
    ImFontConfig config;
    config.SizePixels = std::round(13.f * scale);
    io.Fonts->AddFontDefault(&config);
  }
  io.FontGlobalScale = 1.f;
  return font != nullptr;
}

}  // namespace ls::ui
