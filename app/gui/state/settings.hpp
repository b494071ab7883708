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
};
ParsedSettings parse_settings(std::string_view text);
std::string format_settings(const Settings& s);

// A missing file is not an error (first run): the defaults come back with no warning. A file
// that cannot be read (not regular, too large) gives the defaults and a warning.
ParsedSettings load_settings(const std::filesystem::path& file);
// Creates the folder; returns "" or what went wrong, with the path.
std::string save_settings(const std::filesystem::path& file, const Settings& s);

inline constexpr std::size_t kMaxSettingsFileBytes = 64 * 1024;
inline constexpr std::string_view kSettingsFileName = "banklab-gui.conf";
inline constexpr std::string_view kImGuiIniFileName = "imgui.ini";

}  // namespace banklab::gui
