#include "app/gui/views/file_chooser.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <utility>

namespace banklab::gui {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPopupId = "###file-chooser";

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

}  // namespace

bool has_extension(const std::string& name, const std::string& extension) {
  return name.size() >= extension.size() &&
         lower(name.substr(name.size() - extension.size())) == lower(extension);
}

void FileChooser::prepare(Mode m, std::string dialog_title, std::string ext,
                          std::string default_name) {
  mode = m;
  title = std::move(dialog_title);
  extension = std::move(ext);
  name = std::move(default_name);
  message.clear();
  confirming = false;
}

fs::path FileChooser::path() const {
  return folder / (has_extension(name, extension) ? name : name + extension);
}

bool file_chooser_open() {
  return ImGui::IsPopupOpen(kPopupId);
}

std::optional<fs::path> chooser_dialog(FileChooser& c, ImU32 error_colour,
                                       const std::function<void()>& extra,
                                       const std::function<void()>& body, const char* confirm_label,
                                       const std::function<std::optional<fs::path>()>& confirm) {
  if (c.open_request) {
    ImGui::OpenPopup(kPopupId);
    c.open_request = false;
  }
  const std::string title = c.title + kPopupId;
  if (!ImGui::BeginPopupModal(title.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    return std::nullopt;
  }
  body();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24.0f);
  const bool entered = ImGui::InputText("name", &c.name, ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemEdited()) c.confirming = false;
  if (extra) extra();
  std::optional<fs::path> chosen;
  if (c.confirming) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    ImGui::TextWrapped("%s exists. Replace it?", c.path().c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("Replace")) chosen = c.path();
    ImGui::SameLine();
    if (ImGui::Button("Keep it")) c.confirming = false;
  } else if (ImGui::Button(confirm_label) || entered) {
    chosen = confirm();
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
