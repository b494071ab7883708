#pragma once
// What banklab-gui remembers between runs: theme, colour scheme, zoom, the last lesson, the
// Tile window's picture, the drill's record and the file chooser's last folder, in a small file
// of `key = value` lines (each TOML: core/base/key_value_file.hpp) next to ImGui's imgui.ini under
// $XDG_CONFIG_HOME/banklab/ (falling back to
// ~/.config/banklab/). A bad line is reported and skipped; it never stops the app. The file is read
// only when regular and at most kMaxSettingsFileBytes long, written whole (a temporary file
// renamed), and a key this version does not know is kept for the version that does.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/gui/render/palette.hpp"
#include "core/base/expected.hpp"
#include "core/base/key_value_file.hpp"
#include "core/teach/drill.hpp"

namespace banklab::gui {

// The zoom (a factor on every font and size) a setting or --zoom may ask for.
inline constexpr float kMinZoom = 0.5f;
inline constexpr float kMaxZoom = 4.0f;

// The drill's record across runs: the level drilled last, every answer given, the streak.
struct DrillRecord {
  DrillLevel level = DrillLevel::weak;
  int right = 0;
  int answered = 0;
  int streak = 0;  // right answers in a row, ending with the last one
  int best_streak = 0;

  friend bool operator==(const DrillRecord&, const DrillRecord&) = default;
};

struct Settings {
  Theme theme = Theme::dark;
  float zoom = 1.0f;
  std::string preset;  // empty: the default lesson
  DrillRecord drill;
  // Keys this version does not know, in file order, written back as they were (line 0): the
  // settings of another version survive a run of this one.
  std::vector<KeyValue> other;
  Scheme scheme = Scheme::standard;  // "palette = colour-blind" in the file
  std::string folder;  // the file chooser's last folder (an absolute path); empty: none yet
  figures::TileView tile_view = figures::TileView::logical;  // the Tile window's picture(s)

  friend bool operator==(const Settings&, const Settings&) = default;
};

// The folder from the two environment values ($XDG_CONFIG_HOME, $HOME; either may be null or
// empty); nullopt when neither gives an absolute path.
std::optional<std::filesystem::path> config_dir(const char* xdg_config_home, const char* home);
std::optional<std::filesystem::path> config_dir_from_environment();

struct ParsedSettings {
  Settings settings;
  std::vector<std::string> warnings;  // "line 3: zoom 9 is outside 0.5 .. 4; kept 1"
  // False when the file exists but was not read (not a regular file, too large, unreadable):
  // a file the app did not read is never written over, so nothing in it is lost.
  bool writable = true;
};
ParsedSettings parse_settings(std::string_view text);
std::string format_settings(const Settings& s);

// A missing file is not an error (first run): the defaults come back with no warning. A file
// that cannot be read (not regular, too large) gives the defaults, a warning, and writable false.
ParsedSettings load_settings(const std::filesystem::path& file);
// Creates the settings folder (and ~/.config above it) when missing, never a folder above those:
// with HOME=/nonexistent nothing is created. Done, or what went wrong, with the path.
Expected<void> make_settings_folder(const std::filesystem::path& folder);
// Makes the folder (make_settings_folder()) and writes s; done, or what went wrong, with the path.
Expected<void> save_settings(const std::filesystem::path& file, const Settings& s);

// One more answer in the record. Every counter stops at INT_MAX instead of wrapping: a record
// that reads drill_answered = 2147483647 stays there, never turns negative (which the next
// start would refuse, resetting the record).
void count_drill_answer(DrillRecord& r, bool right);

// The drill record after a save: the file's record now (`disk`) plus the answers this instance
// gave since it last read or wrote the file (`mine` against `base`). The counts add; the streak
// goes on from the file's when every new answer was right, else it is the new answers' own.
DrillRecord merge_drill(const DrillRecord& disk, const DrillRecord& base, const DrillRecord& mine);

// The settings file of a running app, written as the settings change (so an app stopped by a
// signal or a crash loses nothing) and shared by every instance running at once: each save
// re-reads the file under a lock on its folder and merges the drill record (merge_drill), so
// two instances answering one question each leave two answers. Everything else is this
// instance's (the last change wins); keys this version does not know are the file's.
class SettingsFile {
 public:
  // Reads the file (load_settings()); warnings() says what was wrong with it.
  explicit SettingsFile(std::filesystem::path file);
  const Settings& loaded() const { return loaded_.settings; }
  const std::vector<std::string>& warnings() const { return loaded_.warnings; }
  // Whether saves can reach the file: false when it was refused at start (it is left as it
  // is) or the folder could not be made.
  bool kept() const { return kept_; }
  // Writes `live` when it differs from what this instance last read or wrote, or always with
  // `force` (the first save, which repairs the lines that had warnings); live then holds the
  // merged record. Done (or nothing to do), or why nothing was written; after a failure, saves
  // stop (said once).
  Expected<void> save(Settings& live, bool force = false);

 private:
  std::filesystem::path file_;
  ParsedSettings loaded_;
  Settings synced_;  // what the file held after this instance's last read or write
  bool kept_ = true;
};

inline constexpr std::size_t kMaxSettingsFileBytes = 64 * 1024;
inline constexpr std::string_view kSettingsFileName = "banklab-gui.conf";
inline constexpr std::string_view kImGuiIniFileName = "imgui.ini";

}  // namespace banklab::gui
