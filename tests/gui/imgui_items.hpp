#pragma once
// What ImGui laid out in a frame, item by item, and a driver that clicks and types into the real
// app (draw_app) through ImGui's IO, with no window and no display.
//
// ImGui 1.86 has no ID-conflict check and Debian builds it without the test engine's hooks, so
// the recorder wraps ImGui::ItemAdd() at link time: a test executable linked with
//   -Wl,--wrap=_ZN5ImGui7ItemAddERK6ImRectjPS1_i
// (CMake: banklab_record_imgui_items(target)) sees every widget of Debian's static libimgui.a
// with its ID, its rectangle and its window, because the widgets (imgui_widgets.o,
// imgui_tables.o) call ItemAdd() across object files.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/app_state.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/headless_imgui.hpp"

namespace banklab::gui::test {

struct Item {
  ImGuiID id = 0;
  ImRect rect;   // what ImGui lays out (a slider with its label)
  ImRect frame;  // what takes the mouse (the slider without its label)
  std::string window;
  bool visible = false;  // ItemAdd() returned true: not clipped, so it can be clicked

  ImVec2 centre() const { return frame.GetCenter(); }
};

// Every item added since the last clear (ItemAdd() calls with a non-zero ID).
std::vector<Item>& recorded_items();

// "ID 0x1234 twice in window 'Controls' at (10,20) and (10,60)" for each ID added more than
// once in one frame of `items`; empty when every ID is unique.
std::vector<std::string> duplicate_ids(const std::vector<Item>& items);

// A widget's ID as ImGui computes it: the window's name, then the labels and integers pushed
// (PushID) down to the widget's own label, e.g. {"##MainMenuBar", "##menubar", "File"}.
using IdPart = std::variant<const char*, int>;
ImGuiID widget_id(std::initializer_list<IdPart> path);

// Drives draw_app() with synthetic input, one frame per call.
class Driver {
 public:
  explicit Driver(ImVec2 display = ImVec2(1280, 720));
  ~Driver();

  std::vector<Item> frame(AppState& s);  // one frame; its items
  void click(AppState& s, ImVec2 at);    // press, frame, release, frame
  void key(AppState& s, int glfw_key);   // press, frame, release, frame
  // Keys tapped before the next frame, each pressed and released (a clicker), then frames until
  // the platform's key queue has handed them all to ImGui; the frames it took.
  int taps(AppState& s, std::initializer_list<int> glfw_keys) { return imgui_.taps(s, glfw_keys); }
  void app_fonts(AppState& s) const { imgui_.app_fonts(s); }  // HeadlessImGui::app_fonts()
  void type(AppState& s, const std::string& text);            // characters, one frame
  void settle(AppState& s);  // mouse away, nothing active, popups closed
  // Clicks the visible widget of that ID (widget_id()); false when this frame has none.
  bool click(AppState& s, std::initializer_list<IdPart> path);
  // Clicks the main menu bar's menu, then its item.
  bool menu(AppState& s, const char* menu, const char* item);
  // Clicks the text field, selects its text (Ctrl+A) and types over it.
  bool replace_text(AppState& s, std::initializer_list<IdPart> path, const std::string& text);

 private:
  HeadlessImGui imgui_;
};

// The file chooser's window is "<title>###file-chooser", whatever the title.
inline constexpr const char* kChooser = "###file-chooser";

// A fresh app on the default preset, driven at 1280x720, whose file chooser starts in `folder`.
struct AppInFolder {
  Driver d{ImVec2(1280, 720)};
  AppState s;
  explicit AppInFolder(const std::filesystem::path& folder) {
    load_preset(s, std::string(kDefaultPreset));
    s.user.settings.folder = folder.string();
    d.settle(s);
  }
};

}  // namespace banklab::gui::test
