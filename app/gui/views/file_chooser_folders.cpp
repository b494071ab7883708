// The file chooser on the desktop (file_chooser.hpp): the folders of the real file system.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <system_error>
#include <utility>

#include "app/gui/views/file_chooser.hpp"

namespace banklab::gui {
namespace {

namespace fs = std::filesystem;

// Folders first; then by name with case ignored, and byte order between names that differ
// only in case, so that the order is total.
bool listed_before(const FolderEntry& a, const FolderEntry& b) {
  if (a.folder != b.folder) return a.folder;
  const auto folded_less = [](unsigned char x, unsigned char y) {
    return std::tolower(x) < std::tolower(y);
  };
  const auto before = [&](const std::string& x, const std::string& y) {
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), folded_less);
  };
  if (before(a.name, b.name)) return true;
  if (before(b.name, a.name)) return false;
  return a.name < b.name;
}

// The folder, Up and the entries; a click on a folder enters it, on a file takes its name.
void draw_entries(FileChooser& c, ImU32 error_colour) {
  if (ImGui::Button("Up")) c.enter(c.folder.parent_path());
  ImGui::SameLine();
  if (ImGui::Button("Refresh")) c.enter(c.folder);
  ImGui::SameLine();
  ImGui::TextWrapped("%s", c.folder.c_str());
  const float font = ImGui::GetFontSize();
  ImGui::BeginChild("##entries", ImVec2(font * 34.0f, font * 14.0f), true);
  if (!c.listing.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, error_colour);
    ImGui::TextWrapped("%s", c.listing.error.c_str());
    ImGui::PopStyleColor();
  } else if (c.listing.entries.empty()) {
    ImGui::TextDisabled("no folders and no %s files here", c.extension.c_str());
  }
  std::optional<fs::path> enter;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(c.listing.entries.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const FolderEntry& e = c.listing.entries[static_cast<std::size_t>(i)];
      ImGui::PushID(i);
      const std::string shown = e.folder ? e.name + "/" : e.name;
      if (ImGui::Selectable(shown.c_str(), !e.folder && e.name == c.name)) {
        if (e.folder) {
          enter = c.folder / e.name;
        } else {
          c.name = e.name;
          c.confirming = false;
        }
      }
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
  if (enter) c.enter(*enter);
}

// What the confirm button does: the path to use, or nothing (a question or a message instead).
std::optional<fs::path> confirm(FileChooser& c) {
  c.message.clear();
  if (c.name.empty()) {
    c.message = "type a file name, or click a file";
    return std::nullopt;
  }
  const fs::path p = c.path();
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    c.message = p.string() + " is a folder";
    return std::nullopt;
  }
  const bool exists = fs::exists(p, ec);
  if (c.mode == FileChooser::Mode::open) {
    if (!exists) c.message = "no file " + p.string();
    return exists ? std::optional<fs::path>(p) : std::nullopt;
  }
  if (exists && !c.confirming) {
    c.confirming = true;
    return std::nullopt;
  }
  return p;
}

}  // namespace

FolderListing list_folder(const fs::path& folder, const std::string& extension) {
  FolderListing out;
  std::error_code ec;
  fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    out.error = "cannot read " + folder.string() + ": " + ec.message();
    return out;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.empty() || name.front() == '.') continue;
    std::error_code type_ec;
    const bool is_folder = it->is_directory(type_ec);
    if (is_folder || extension.empty() || has_extension(name, extension)) {
      out.entries.push_back(FolderEntry{std::move(name), is_folder});
    }
  }
  if (ec) {  // the folder went away or failed while being read: what was read is kept
    out.error = "cannot read all of " + folder.string() + ": " + ec.message();
  }
  std::sort(out.entries.begin(), out.entries.end(), listed_before);
  return out;
}

fs::path start_folder(const std::string& remembered) {
  std::error_code ec;
  if (!remembered.empty() && fs::is_directory(remembered, ec)) return remembered;
  fs::path here = fs::current_path(ec);
  return ec ? fs::path("/") : here;
}

void FileChooser::open(Mode m, std::string dialog_title, std::string ext, fs::path start,
                       std::string default_name) {
  prepare(m, std::move(dialog_title), std::move(ext), std::move(default_name));
  open_request = true;
  enter(std::move(start));
}

void FileChooser::enter(fs::path to) {
  std::error_code ec;
  fs::path absolute = fs::absolute(to, ec);
  folder = (ec ? to : absolute).lexically_normal();
  if (folder.has_relative_path() && !folder.has_filename()) folder = folder.parent_path();
  listing = list_folder(folder, extension);
  confirming = false;
}

std::optional<fs::path> draw_file_chooser(FileChooser& c, ImU32 error_colour,
                                          const std::function<void()>& extra) {
  return chooser_dialog(
      c, error_colour, extra, [&] { draw_entries(c, error_colour); },
      c.mode == FileChooser::Mode::save ? "Save" : "Open", [&] { return confirm(c); });
}

}  // namespace banklab::gui
