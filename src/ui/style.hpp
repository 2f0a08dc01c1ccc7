// style.hpp — the panel's look: the dark theme, the colours that carry meaning (timeline kinds,
// cross-check badges, warnings), and HiDPI scaling of style sizes.
#pragma once

#include <imgui.h>

namespace ls::ui {

namespace colour {
inline constexpr ImU32 step = IM_COL32(77, 157, 240, 255);       // timeline: step work
inline constexpr ImU32 display = IM_COL32(240, 165, 60, 255);    // timeline: display work
inline constexpr ImU32 summary = IM_COL32(150, 110, 220, 255);   // timeline: summary (population, hash)
inline constexpr ImU32 exchange = IM_COL32(80, 200, 190, 255);   // timeline: a split band's halo exchange
inline constexpr ImU32 snapshot = IM_COL32(150, 156, 168, 255);  // timeline: a recovery snapshot's copy
inline constexpr ImU32 tile = IM_COL32(232, 108, 150, 255);      // timeline: a remote tile's pixels
inline constexpr ImU32 handoff = IM_COL32(196, 206, 92, 255);    // timeline: the handoff pulse
inline constexpr ImU32 agree = IM_COL32(46, 160, 67, 255);       // cross-check badge backgrounds
inline constexpr ImU32 diverged = IM_COL32(218, 54, 51, 255);
inline constexpr ImU32 pending = IM_COL32(90, 96, 108, 255);
inline constexpr ImU32 badge_text = IM_COL32(255, 255, 255, 255);
inline constexpr ImU32 error = IM_COL32(255, 107, 99, 255);       // error text
inline constexpr ImU32 error_field = IM_COL32(110, 40, 40, 255);  // frame of a field holding bad text
inline constexpr ImU32 warn = IM_COL32(240, 190, 80, 255);        // notes that qualify the figures
inline constexpr ImU32 good = IM_COL32(86, 211, 100, 255);
inline constexpr ImU32 dim = IM_COL32(139, 148, 158, 255);  // secondary text
inline constexpr ImU32 plot_bg = IM_COL32(22, 25, 30, 255);
inline constexpr ImU32 plot_grid = IM_COL32(60, 66, 76, 255);
inline constexpr ImU32 plot_row = IM_COL32(34, 38, 45, 255);
inline constexpr ImU32 plot_lane = IM_COL32(30, 37, 46, 255);   // a copy lane's background
inline constexpr ImU32 hover_row = IM_COL32(56, 92, 140, 110);  // the hovered tile's table row
}  // namespace colour

/// The font's pixel size at scale 1.
inline constexpr float kBaseFontPixels = 15.f;

/// Replaces ImGui's style with the lifestreams dark theme, every size multiplied by `scale`.
/// Idempotent: it starts from a fresh style, so calling it again with a new scale does not compound.
void apply_style(float scale);

/// Shows `text` in `col` (no allocation).
void text_coloured(ImU32 col, const char* text);

}  // namespace ls::ui
