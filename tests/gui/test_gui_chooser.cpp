// The file chooser: its folder listing (sorting, the extension filter, folders that cannot be
// read), the folder it starts in and the settings key that remembers it; then the File menu
// driven as a user drives it, headless: Save a scenario through the chooser, change the
// scenario, Open the file, and the scenario is the saved one; the overwrite question; a folder
// that vanishes under the open chooser.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/views/file_chooser.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/imgui_items.hpp"
#include "tests/gui/scratch_dir.hpp"

using namespace banklab;
using namespace banklab::gui;
using namespace banklab::gui::test;
namespace fs = std::filesystem;

namespace {

void touch(const fs::path& p, const std::string& text = "x") {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> names(const FolderListing& l) {
  std::vector<std::string> out;
  for (const FolderEntry& e : l.entries) out.push_back(e.folder ? e.name + "/" : e.name);
  return out;
}

// Whether the last frame drew the chooser (a click's last frame still draws a dialog it
// closed: one more frame).
bool chooser_shown(Driver& d, AppState& s) {
  d.frame(s);
  ImGuiWindow* w = ImGui::FindWindowByName(kChooser);
  return w != nullptr && w->Active;
}

struct App : AppInFolder {
  using AppInFolder::AppInFolder;
  // File > item, then the name typed over the offered one.
  void choose(const char* item, const std::string& name) {
    REQUIRE(d.menu(s, "File", item));
    REQUIRE(chooser_shown(d, s));
    REQUIRE(d.replace_text(s, {kChooser, "name"}, name));
  }
};

}  // namespace

TEST_CASE("a folder lists its folders first, then its files of the extension, by name") {
  ScratchDir dir;
  for (const char* f : {"b.scenario", "A.scenario", "c.SCENARIO", "notes.txt", ".hidden.scenario",
                        "scenario", "a.scenario"}) {
    touch(dir.path / f);
  }
  for (const char* f : {"zeta", "Alpha", ".git", "beta.scenario"}) {
    fs::create_directory(dir.path / f);
  }
  const FolderListing l = list_folder(dir.path, ".scenario");
  CHECK(l.error.empty());
  CHECK(names(l) == std::vector<std::string>{"Alpha/", "beta.scenario/", "zeta/", "A.scenario",
                                             "a.scenario", "b.scenario", "c.SCENARIO"});
  SUBCASE("no extension: every file") {
    CHECK(names(list_folder(dir.path, "")).size() == 9);
  }
  SUBCASE("a link to a folder is a folder") {
    fs::create_directory_symlink(dir.path / "zeta", dir.path / "link");
    CHECK(names(list_folder(dir.path, ".png")) ==
          std::vector<std::string>{"Alpha/", "beta.scenario/", "link/", "zeta/"});
  }
}

TEST_CASE("a folder that cannot be read lists nothing and says why") {
  ScratchDir dir;
  SUBCASE("missing") {
    const FolderListing l = list_folder(dir.path / "gone", ".png");
    CHECK(l.entries.empty());
    CHECK(l.error.find("cannot read " + (dir.path / "gone").string()) == 0);
    CHECK(l.error.find("No such file or directory") != std::string::npos);
  }
  SUBCASE("a file, not a folder") {
    touch(dir.path / "file");
    CHECK(list_folder(dir.path / "file", ".png").error.find("Not a directory") !=
          std::string::npos);
  }
  SUBCASE("no permission (root reads every folder, so only for other users)") {
    fs::create_directory(dir.path / "locked");
    touch(dir.path / "locked" / "x.png");
    fs::permissions(dir.path / "locked", fs::perms::none);
    const FolderListing l = list_folder(dir.path / "locked", ".png");
    if (::geteuid() != 0) {
      CHECK(l.entries.empty());
      CHECK(l.error.find("Permission denied") != std::string::npos);
    }
    fs::permissions(dir.path / "locked", fs::perms::owner_all);
  }
}

TEST_CASE("the chooser starts in the remembered folder only when it still is one") {
  ScratchDir dir;
  const fs::path here = fs::current_path();
  CHECK(start_folder(dir.path.string()) == dir.path);
  CHECK(start_folder("") == here);
  CHECK(start_folder((dir.path / "gone").string()) == here);
  touch(dir.path / "file");
  CHECK(start_folder((dir.path / "file").string()) == here);
  CHECK(start_folder(std::string("\x01\xff garbage")) == here);
}

TEST_CASE("the settings remember the chooser's folder, and refuse one that would not read back") {
  CHECK(parse_settings("folder = /home/me/slides\n").settings.folder == "/home/me/slides");
  for (const char* bad :
       {"folder = slides\n", "folder = \n", "folder = ~/x\n", "folder = /a\rb\n"}) {
    CAPTURE(bad);
    const ParsedSettings p = parse_settings(bad);
    CHECK(p.settings.folder.empty());
    REQUIRE(p.warnings.size() == 1);
    CHECK(p.warnings[0].find("folder is an absolute path") != std::string::npos);
  }
  Settings s;
  s.folder = "/tmp/a b";
  CHECK(parse_settings(format_settings(s)).settings == s);
  s.folder = "/tmp/line\nbreak";  // a folder's name may hold one; it is not written
  CHECK(format_settings(s).find("folder") == std::string::npos);
}

TEST_CASE("File > Save scenario then File > Open scenario gives back the saved scenario") {
  ScratchDir dir;
  App app(dir.path);
  Scenario& sc = app.s.user.scenario;
  sc.tile.pad = 3;
  sc.index = 5;
  const Scenario saved = sc;
  app.choose("Save scenario...", "mine");
  REQUIRE(app.d.click(app.s, {kChooser, "Save"}));
  CHECK_FALSE(chooser_shown(app.d, app.s));
  CHECK(app.s.user.files.status == "saved " + (dir.path / "mine.scenario").string());
  CHECK_FALSE(app.s.user.files.failed);
  REQUIRE(fs::is_regular_file(dir.path / "mine.scenario"));
  CHECK(app.s.user.settings.folder == dir.path.string());

  load_preset(app.s, "bf16-pad1-odd");  // another scenario on screen
  REQUIRE_FALSE(app.s.user.scenario == saved);
  REQUIRE(app.d.menu(app.s, "File", "Open scenario..."));
  REQUIRE(chooser_shown(app.d, app.s));
  // The saved file is listed: a click on it takes its name, Enter opens it.
  std::vector<Item> entries;
  for (const Item& i : app.d.frame(app.s)) {
    if (i.visible && i.window.find("##entries") != std::string::npos) entries.push_back(i);
  }
  REQUIRE(entries.size() == 1);
  app.d.click(app.s, entries[0].centre());
  CHECK(app.s.user.files.chooser.name == "mine.scenario");
  REQUIRE(app.d.click(app.s, {kChooser, "Open"}));
  CHECK_FALSE(chooser_shown(app.d, app.s));
  CHECK(app.s.user.scenario == saved);
  CHECK(app.s.user.files.status == "opened " + (dir.path / "mine.scenario").string());
}

TEST_CASE("saving over a file asks first; Keep it leaves it, Replace writes it") {
  ScratchDir dir;
  touch(dir.path / "old.scenario", "kept");
  App app(dir.path);
  app.choose("Save scenario...", "old");
  app.d.key(app.s, GLFW_KEY_ENTER);  // the name field takes Enter as Save
  CHECK(chooser_shown(app.d, app.s));
  CHECK(app.s.user.files.chooser.confirming);
  REQUIRE(app.d.click(app.s, {kChooser, "Keep it"}));
  CHECK(chooser_shown(app.d, app.s));
  CHECK(read(dir.path / "old.scenario") == "kept");
  REQUIRE(app.d.click(app.s, {kChooser, "Save"}));
  REQUIRE(app.d.click(app.s, {kChooser, "Replace"}));
  CHECK_FALSE(chooser_shown(app.d, app.s));
  CHECK(read(dir.path / "old.scenario").find("tile") != std::string::npos);
  CHECK_FALSE(app.s.user.files.failed);
}

TEST_CASE("a folder that vanishes under the open chooser is a message, and saving there an error") {
  ScratchDir dir;
  fs::create_directory(dir.path / "sub");
  App app(dir.path / "sub");
  app.choose("Export lane table as CSV...", "table");
  fs::remove(dir.path / "sub");
  REQUIRE(app.d.click(app.s, {kChooser, "Refresh"}));
  CHECK(app.s.user.files.chooser.listing.error.find("No such file or directory") !=
        std::string::npos);
  REQUIRE(app.d.click(app.s, {kChooser, "Save"}));
  CHECK_FALSE(chooser_shown(app.d, app.s));
  CHECK(app.s.user.files.failed);
  CHECK(app.s.user.files.status.find((dir.path / "sub" / "table.csv").string()) !=
        std::string::npos);
  // The vanished folder is not where the next chooser starts; Up goes on from there.
  REQUIRE(app.d.menu(app.s, "File", "Open scenario..."));
  CHECK(app.s.user.files.chooser.folder == fs::current_path());
  REQUIRE(app.d.click(app.s, {kChooser, "Up"}));
  CHECK(app.s.user.files.chooser.folder == fs::current_path().parent_path());
  REQUIRE(app.d.click(app.s, {kChooser, "Open"}));  // no name: a message, not a crash
  CHECK(chooser_shown(app.d, app.s));
  CHECK_FALSE(app.s.user.files.chooser.message.empty());
  REQUIRE(app.d.click(app.s, {kChooser, "Cancel"}));
  CHECK_FALSE(chooser_shown(app.d, app.s));
}

TEST_CASE("Escape closes the chooser, and the shortcuts wait while it is open") {
  ScratchDir dir;
  App app(dir.path);
  REQUIRE(app.d.menu(app.s, "File", "Export PNG (bank view, lane map, tile)..."));
  CHECK(app.s.user.files.png_view == StageView::banks);
  CHECK(app.s.user.files.chooser.name == "banklab-banks.png");
  // A presentation started under the open chooser (presentation mode has no menu bar).
  app.s.user.stage.presenting = true;
  const int preset = app.s.user.preset;
  app.d.key(app.s, GLFW_KEY_N);  // next preset, were the chooser not open
  CHECK(app.s.user.preset == preset);
  CHECK(chooser_shown(app.d, app.s));
  app.d.key(app.s, GLFW_KEY_ESCAPE);
  CHECK_FALSE(chooser_shown(app.d, app.s));
  CHECK(app.s.user.stage.presenting);  // Escape closed the chooser, not the presentation
  CHECK_FALSE(app.s.png_export.has_value());
}
