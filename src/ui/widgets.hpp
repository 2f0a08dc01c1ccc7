// widgets.hpp — the panel's small drawing helpers: the variant combo, tooltips, form rows and
// flowing lines, right-aligned and counted text, the cross-check badge, faded settings, and the
// two kinds of edited field under the panel's one rule for typed text (see TextField and
// edit_value).
//
// The rule: what a person types applies only when the field is left by Enter, Tab or a click
// elsewhere, with text that differs from what the field had when it was entered and that is
// valid; never per keystroke and never on Esc (Esc shows the app's state again). Bad text
// applies nothing and keeps its reason, shown beside the field; Enter with bad text keeps the
// field active (the keys stay with it, not with the tiles), Tab or a click still leave it.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: whether a slider is in its text mode

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/engine.hpp"
#include "core/non_copyable.hpp"
#include "ui/cross_check.hpp"

namespace ls::ui {

/// Null-terminated variant name ("global", "bitpacked", ...).
const char* variant_label(Variant v);

/// A variant combo; true with `chosen` set when the person picked another variant. Its list is
/// opaque and at full strength even when the combo itself is drawn Faded.
bool variant_combo(const char* id, const char* preview, const Variant* current, Variant& chosen);

/// The tooltip `text` while the last item is hovered (disabled or not): wrapped to a readable
/// width and at full strength inside a Faded block.
void tooltip(const char* text);

/// A typed field's tooltip, called right after the field: `error` (in the error colour, when
/// set) over `help`. While the field is neither being typed into (`editing`) nor holding an error
/// it is an ordinary tooltip at the mouse; otherwise it shows whenever the field is hovered or
/// edited, beside the field — right of the panel at the field's height, or below the field's error
/// line where the display has no room there — never over the field or the error line under it.
/// `error_below`: the error is drawn under the field (else it is only in this tooltip).
void field_tip(const char* help, const std::string& error, bool error_below, bool editing);

/// Starts a label/value row of a two-column form table; the next item fills the value cell.
void form_row(const char* label);

/// Before an item `width` wide that follows another: keeps it on that item's line, `spacing` after
/// it (ItemSpacing.x when negative), when it fits in what is left of the cell (or window), else
/// lets it start the next line. Returns whether it stays on the line.
bool same_line_if_fits(float width, float spacing = -1.f);

/// Width of a checkbox or radio button labelled `label`.
float check_width(const char* label);

/// `error` in the error colour, wrapped; nothing when it is empty.
void error_text(const std::string& error);

/// Exact below a million, engineering notation above (the tooltip gives the exact figure).
const char* format_count(std::uint64_t v, char* out, std::size_t size);

/// A small non-negative integer as text, without printf.
const char* format_index(int v, char* out, std::size_t size);

/// Width of `text` in the current font: ASCII by glyph advances (cheap), anything else measured.
float ascii_width(const char* text);

/// Right-aligns the next text in the current table cell.
void text_right(const char* text);

/// The cross-check badge of instance `index`; hovering summarises its group (how many agree, are
/// pending or differ) and lists only the members that do not agree (cross_check.hpp, BadgeSummary).
void draw_badge(std::size_t index, const std::vector<InstanceStatus>& statuses,
                const std::vector<CrossCheck>& checks);

/// Tooltip text of a setting that only a GPU engine uses, shown on the CPU engine after the
/// setting's own tooltip.
inline constexpr const char* kOnGpuOnly =
    "Applies on a GPU (the CUDA engine). The CPU engine runs one reference code whatever this "
    "says; the choice is kept.";

/// `tip` while the last item is hovered, followed on the CPU engine (`gpu` false) by kOnGpuOnly.
void setting_tip(bool gpu, const char* tip);

/// Draws what follows faded while it lives, if `on` (pushed and popped on one decision: an
/// unbalanced pop is an ImGui assertion, an abort in Debian's build).
class Faded : NonCopyable {
 public:
  explicit Faded(bool on);
  ~Faded();

 private:
  bool on_;
};

/// How the edit of a field ended, if it did this frame.
enum class TextEditEnd {
  none,       // not being edited, or being edited and unchanged this frame
  edited,     // still being edited; the text changed this frame
  applied,    // left by Enter, Tab or a click with changed text
  cancelled,  // left by Esc, or with the text it had when entered
};

/// Whether Enter (or keypad Enter) went down this frame.
bool enter_pressed();

/// Keeps item `id` (drawn in the current window) the active item: an InputText, or a slider in its
/// text mode, that Enter just left goes on being edited with its text and cursor as they were.
void keep_editing(ImGuiID id);

/// Call right after an InputText: remembers its text when it is activated and tells, when it is
/// left, whether the edit stands. ImGui's Esc puts back the text the field had when it was
/// activated and reports that as an edit (IsItemDeactivatedAfterEdit); that text may be stale,
/// so Esc, or leaving the text as it was, changes nothing.
TextEditEnd text_edit_end(const char* text, char* at_activation, std::size_t size);

/// A text field that shows a state of the app (or keeps its own text) and follows the rule above.
struct TextField {
  ImGuiID id = 0;  // the InputText's, set by text_field
  char text[512] = "";
  char at_activation[512] = "";
  char shown[512] = "";  // the state last copied into `text`
  bool synced = false;
  bool left_by_click = false;  // the last applied edit ended with a mouse click elsewhere
  std::string error;           // set by the caller's check; shown as the field's colour and tooltip
};

/// Draws `f` (InputTextWithHint `id`, `hint`). While it is not being edited it shows `state`
/// whenever the state changes or an edit was cancelled; with `state` null it keeps its own text.
/// A field with an error is drawn red. The caller checks the text on `edited` and `applied`
/// (setting f.error), acts on `applied` when the text is good, then calls end_field.
TextEditEnd text_field(const char* id, const char* hint, TextField& f, const char* state);

/// Right after text_field and the caller's check: Enter with bad text (f.error set) keeps the
/// field active; then its tooltip (field_tip with `help` and f.error).
void end_field(TextField& f, TextEditEnd end, const char* help, bool error_below);

/// A slider's or drag's typed text (ctrl+click, double-click or Tab into it) and its error.
struct TypedValue {
  char text[64] = "";
  char at_activation[64] = "";  // the text when its text mode began
  bool was_typing = false;      // in its text mode at the end of the last frame it was drawn
  bool committed = false;       // the edit ended this frame with a new value (typed, or a drag released)
  std::string error;
};

/// Call right after a slider or drag `id` that was in its text mode before it was drawn: when the
/// field is left by Enter, Tab or a click, checks the typed text (lo..hi, whole if `integral`)
/// and returns its value, or sets t.error (and, left by Enter, keeps the text mode active); Esc
/// clears the error and returns nothing.
std::optional<double> typed_value_end(ImGuiID id, TypedValue& t, double lo, double hi, bool integral,
                                      const char* what);

/// Draws a slider or drag through `widget` (called with a pointer to a copy of `current`,
/// returning whether it changed it) and returns the value to apply, if any: a dragged value at
/// once; a typed one only as the rule above says (ImGui would apply every keystroke, and Esc's
/// restored text, as a new value). Bad typed text leaves its reason in t.error for the caller to
/// show. t.committed tells whether the edit ended this frame having changed the value: typed text
/// accepted, or a drag released.
template <class T, class Widget>
std::optional<T> edit_value(const char* id, T current, T lo, T hi, const char* what, TypedValue& t,
                            Widget widget) {
  const ImGuiID gid = ImGui::GetID(id);
  // Tab ends the text mode before any item is drawn (ImGui's navigation, in NewFrame): that frame
  // still counts as typing.
  const bool typing = ImGui::TempInputIsActive(gid) || t.was_typing;
  T v = current;
  const bool changed = widget(&v);
  t.was_typing = ImGui::TempInputIsActive(gid);
  std::optional<T> result;
  if (typing) {
    const std::optional<double> typed = typed_value_end(gid, t, static_cast<double>(lo),
                                                        static_cast<double>(hi), std::is_integral_v<T>, what);
    if (typed && static_cast<T>(*typed) != current) result = static_cast<T>(*typed);
    t.committed = result.has_value();
  } else {
    if (changed) {
      t.error.clear();
      if (v != current) result = v;
    }
    t.committed = ImGui::IsItemDeactivatedAfterEdit();
  }
  return result;
}

}  // namespace ls::ui
