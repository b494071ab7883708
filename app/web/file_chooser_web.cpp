// The file chooser of views/file_chooser.hpp in the browser edition, where the app sees no
// folders of the user's: a save asks only for the name (and the caller's fields, an export's
// size) and writes under kDownloads, whose files main.cpp hands to the browser as downloads; an
// open shows the browser's own picker at once and returns the file chosen, copied into the
// in-memory file system, on the first draw after it arrives.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/gui/views/file_chooser.hpp"
#include "app/web/browser.hpp"

namespace banklab::gui {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPopupId = "###file-chooser";

// The chooser whose open() asked the browser's picker for a file, until the file arrives.
const FileChooser* picking_for = nullptr;

}  // namespace

fs::path start_folder(const std::string& /*remembered: a desktop folder*/) {
  return web::kDownloads;
}

void FileChooser::open(Mode m, std::string dialog_title, std::string ext, fs::path start,
                       std::string default_name) {
  mode = m;
  title = std::move(dialog_title);
  extension = std::move(ext);
  name = std::move(default_name);
  folder = std::move(start);
  message.clear();
  confirming = false;
  if (m == Mode::open) {
    picking_for = this;
    web::choose_file(extension);
  } else {
    open_request = true;
  }
}

fs::path FileChooser::path() const {
  return folder / (name.ends_with(extension) ? name : name + extension);
}

bool file_chooser_open() {
  return ImGui::IsPopupOpen(kPopupId);
}

std::optional<fs::path> draw_file_chooser(FileChooser& c, ImU32 error_colour,
                                          const std::function<void()>& extra) {
  if (picking_for == &c) {
    std::optional<std::string> chosen = web::chosen_file();
    if (!chosen) return std::nullopt;
    picking_for = nullptr;
    return fs::path(*chosen);
  }
  if (c.open_request) {
    ImGui::OpenPopup(kPopupId);
    c.open_request = false;
  }
  const std::string title = c.title + kPopupId;
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    return std::nullopt;
  }
  ImGui::TextUnformatted("The browser puts the file in its downloads.");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24.0f);
  const bool entered = ImGui::InputText("name", &c.name, ImGuiInputTextFlags_EnterReturnsTrue);
  if (extra) extra();
  std::optional<fs::path> chosen;
  if (ImGui::Button("Download") || entered) {
    c.message = c.name.empty() ? "type a file name" : "";
    if (!c.name.empty()) chosen = c.path();
  }
  ImGui::SameLine();
  const bool cancelled =
      ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
  if (!c.message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    ImGui::TextWrapped("%s", c.message.c_str());
    ImGui::PopStyleColor();
  }
  if (chosen || cancelled) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

}  // namespace banklab::gui
