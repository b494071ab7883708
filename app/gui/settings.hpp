#pragma once
// What banklab-gui remembers between runs: theme, colour scheme, zoom and the last lesson, in a
// small "key = value" file next to ImGui's imgui.ini under $XDG_CONFIG_HOME/banklab/ (falling back
// to
// ~/.config/banklab/). A bad line is reported and skipped; it never stops the app.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "palette.hpp"

namespace banklab::gui {

struct Settings {
  Theme theme = Theme::dark;
  float zoom = 1.0f;
  std::string preset;  // empty: the default lesson
  Scheme scheme = Scheme::standard;  // "palette = colour-blind" in the file

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

// A missing file is not an error (first run): the defaults come back with no warning.
ParsedSettings load_settings(const std::filesystem::path& file);
// Creates the folder; returns "" or what went wrong, with the path.
std::string save_settings(const std::filesystem::path& file, const Settings& s);

inline constexpr std::string_view kSettingsFileName = "banklab-gui.conf";
inline constexpr std::string_view kImGuiIniFileName = "imgui.ini";

}  // namespace banklab::gui
