#include "tests/gui/imgui_items.hpp"

#include <cstdio>

// The real ImGui::ItemAdd(), and our wrapper the widgets call instead (see imgui_items.hpp).
extern "C" bool __real__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id,
                                                         const ImRect* nav_bb,
                                                         ImGuiItemFlags flags);

extern "C" bool __wrap__ZN5ImGui7ItemAddERK6ImRectjPS1_i(const ImRect& bb, ImGuiID id,
                                                         const ImRect* nav_bb,
                                                         ImGuiItemFlags flags) {
  bool visible = __real__ZN5ImGui7ItemAddERK6ImRectjPS1_i(bb, id, nav_bb, flags);
  if (id != 0) {
    ImGuiWindow* w = ImGui::GetCurrentWindow();
    banklab::gui::test::recorded_items().push_back(
        {id, bb, nav_bb ? *nav_bb : bb, w ? w->Name : "", visible});
  }
  return visible;
}

namespace banklab::gui::test {

std::vector<Item>& recorded_items() {
  static std::vector<Item> items;
  return items;
}

std::vector<std::string> duplicate_ids(const std::vector<Item>& items) {
  std::map<ImGuiID, const Item*> first;
  std::vector<std::string> out;
  for (const Item& item : items) {
    auto [it, fresh] = first.emplace(item.id, &item);
    if (fresh) continue;
    char line[512];
    std::snprintf(line, sizeof line,
                  "ID 0x%08X twice in window '%s' at (%.0f,%.0f) and (%.0f,%.0f)", item.id,
                  item.window.c_str(), it->second->rect.Min.x, it->second->rect.Min.y,
                  item.rect.Min.x, item.rect.Min.y);
    out.emplace_back(line);
  }
  return out;
}

ImGuiID widget_id(std::initializer_list<IdPart> path) {
  ImGuiID id = 0;
  for (const IdPart& part : path) {
    if (const char* const* label = std::get_if<const char*>(&part)) {
      id = ImHashStr(*label, 0, id);
    } else {
      const int n = std::get<int>(part);
      id = ImHashData(&n, sizeof n, id);
    }
  }
  return id;
}

Driver::Driver(ImVec2 display) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = display;
  io.MousePos = ImVec2(-1, -1);
  // What ImGui's GLFW backend maps, so that text fields take Enter, Tab, Backspace, arrows.
  io.KeyMap[ImGuiKey_Tab] = GLFW_KEY_TAB;
  io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
  io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
  io.KeyMap[ImGuiKey_UpArrow] = GLFW_KEY_UP;
  io.KeyMap[ImGuiKey_DownArrow] = GLFW_KEY_DOWN;
  io.KeyMap[ImGuiKey_Home] = GLFW_KEY_HOME;
  io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
  io.KeyMap[ImGuiKey_Delete] = GLFW_KEY_DELETE;
  io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
  io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
  io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
  io.KeyMap[ImGuiKey_Escape] = GLFW_KEY_ESCAPE;
  io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
}

Driver::~Driver() = default;

std::vector<Item> Driver::frame(AppState& s) {
  recorded_items().clear();
  imgui_.frame(s);
  return recorded_items();
}

void Driver::click(AppState& s, ImVec2 at) {
  imgui_.click(s, at);
}

void Driver::key(AppState& s, int glfw_key) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[glfw_key] = true;
  frame(s);
  io.KeysDown[glfw_key] = false;
  frame(s);
}

void Driver::type(AppState& s, const std::string& text) {
  ImGui::GetIO().AddInputCharactersUTF8(text.c_str());
  frame(s);
}

void Driver::settle(AppState& s) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(-1, -1);
  io.MouseDown[0] = false;
  ImGui::ClearActiveID();
  ImGui::FocusWindow(nullptr);
  GImGui->OpenPopupStack.resize(0);
  frame(s);
  frame(s);
}

bool Driver::click(AppState& s, std::initializer_list<IdPart> path) {
  const ImGuiID id = widget_id(path);
  for (const Item& i : frame(s)) {
    if (i.id == id && i.visible) {
      click(s, i.centre());
      return true;
    }
  }
  return false;
}

bool Driver::menu(AppState& s, const char* menu, const char* item) {
  // ImGui 1.86: a menu bar pushes "##menubar"; the first menu's window is "##Menu_00".
  return click(s, {"##MainMenuBar", "##menubar", menu}) && click(s, {"##Menu_00", item});
}

bool Driver::replace_text(AppState& s, std::initializer_list<IdPart> path,
                          const std::string& text) {
  if (!click(s, path)) return false;
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = true;
  key(s, GLFW_KEY_A);
  io.KeyCtrl = false;
  type(s, text);
  return true;
}

}  // namespace banklab::gui::test
