#pragma once
// A file chooser drawn with ImGui, for the File menu's Save, Open and exports, and the GPU
// window's recordings: the folder it is
// in, a button up to its parent, its folders and then its files of one extension (click a
// folder to enter it, a file to take its name), a name field, and an overwrite question before
// a save replaces a file. A folder that cannot be read, or that vanished, is a message in it,
// never an error that stops the app.
//
// list_folder() is the listing alone, with no ImGui: the tests call it on folders they build.
#include <imgui.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace banklab::gui {

struct FolderEntry {
  std::string name;
  bool folder = false;
  friend bool operator==(const FolderEntry&, const FolderEntry&) = default;
};

struct FolderListing {
  std::vector<FolderEntry> entries;  // folders, then files; each sorted by name, case ignored
  std::string error;                 // "" or why the folder could not be read
};

// The folder's sub-folders and its files whose name ends in `extension` (case ignored; "" for
// every file). Names starting with '.' are left out.
FolderListing list_folder(const std::filesystem::path& folder, const std::string& extension);

// The folder a chooser starts in: `remembered` when it is an existing folder, else the current
// one (else "/").
std::filesystem::path start_folder(const std::string& remembered);

struct FileChooser {
  enum class Mode { save, open };
  Mode mode = Mode::save;
  std::string title;      // "Export PNG", "Open scenario": the dialog's title and its button's
  std::string extension;  // ".png": the files listed, and added to a name typed without it
  std::filesystem::path folder;
  std::string name;  // the name field
  FolderListing listing;
  std::string message;        // why the last confirmation was refused ("no such file")
  bool open_request = false;  // open() was called: the dialog appears in the next draw
  bool confirming = false;    // a save would replace a file: asking first

  // Shows the dialog in `start` (an existing folder), with `name` in its name field.
  void open(Mode m, std::string dialog_title, std::string ext, std::filesystem::path start,
            std::string default_name);
  void enter(std::filesystem::path to);  // lists `to` (a message when it cannot be read)
  std::filesystem::path path() const;    // folder / name, with the extension when it lacks one
  // What both platforms' open() set first: the dialog's mode, title, extension and name, with
  // no refusal shown and no question pending.
  void prepare(Mode m, std::string dialog_title, std::string ext, std::string default_name);
};

// Whether the file name ends in the extension (".png"), case ignored.
bool has_extension(const std::string& name, const std::string& extension);

// Draws the chooser when open, as a modal dialog, refusals and questions in `error_colour`;
// `extra` draws more fields above its buttons (an export's size). Returns the path once the
// user confirmed it, and closes. The desktop's lists the folders (file_chooser_folders.cpp);
// the browser edition's asks for a name to download, or opens the browser's file picker
// (app/web/file_chooser_web.cpp).
std::optional<std::filesystem::path> draw_file_chooser(FileChooser& c, ImU32 error_colour,
                                                       const std::function<void()>& extra = {});
bool file_chooser_open();  // the dialog is on screen (the shortcuts leave the keys to it)

// The dialog both choosers draw: `body` (the folder's entries, or a note), the name field,
// `extra`, then the button labelled `confirm_label` (or Enter in the name field), which returns
// what `confirm` does; a save that would replace a file asks first (FileChooser::confirming);
// Cancel or Escape closes it.
std::optional<std::filesystem::path> chooser_dialog(
    FileChooser& c, ImU32 error_colour, const std::function<void()>& extra,
    const std::function<void()>& body, const char* confirm_label,
    const std::function<std::optional<std::filesystem::path>()>& confirm);

}  // namespace banklab::gui
