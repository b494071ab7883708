// The file chooser of views/file_chooser.hpp in the browser edition, where the app sees no
// folders of the user's: a save asks only for the name (and the caller's fields, an export's
// size) and writes under kDownloads, whose files main.cpp hands to the browser as downloads; an
// open shows the browser's own picker at once and returns the file chosen, copied into the
// in-memory file system, on the first draw after it arrives.
#include <imgui.h>

#include "app/gui/views/file_chooser.hpp"
#include "app/web/browser.hpp"

namespace banklab::gui {
namespace {

namespace fs = std::filesystem;

// The chooser whose open() asked the browser's picker for a file, until the file arrives.
const FileChooser* picking_for = nullptr;

}  // namespace

fs::path start_folder(const std::string& /*remembered: a desktop folder*/) {
  return web::kDownloads;
}

void FileChooser::open(Mode m, std::string dialog_title, std::string ext, fs::path start,
                       std::string default_name) {
  prepare(m, std::move(dialog_title), std::move(ext), std::move(default_name));
  folder = std::move(start);
  if (m == Mode::open) {
    picking_for = this;
    web::choose_file(extension);
  } else {
    open_request = true;
  }
}

std::optional<fs::path> draw_file_chooser(FileChooser& c, ImU32 error_colour,
                                          const std::function<void()>& extra) {
  if (picking_for == &c) {
    std::optional<std::string> chosen = web::chosen_file();
    if (!chosen) return std::nullopt;
    picking_for = nullptr;
    return fs::path(*chosen);
  }
  return chooser_dialog(
      c, error_colour, extra,
      [] { ImGui::TextUnformatted("The browser puts the file in its downloads."); }, "Download",
      [&]() -> std::optional<fs::path> {
        c.message = c.name.empty() ? "type a file name" : "";
        if (c.name.empty()) return std::nullopt;
        return c.path();
      });
}

}  // namespace banklab::gui
