#include "settings.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "banklab/presets.hpp"
#include "options.hpp"

namespace banklab::gui {
namespace {

std::string_view trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

std::optional<std::filesystem::path> config_dir(const char* xdg_config_home, const char* home) {
  // The XDG base-directory rule: a relative $XDG_CONFIG_HOME is invalid and ignored.
  if (xdg_config_home && *xdg_config_home) {
    std::filesystem::path p(xdg_config_home);
    if (p.is_absolute()) return p / "banklab";
  }
  if (home && *home) {
    std::filesystem::path p(home);
    if (p.is_absolute()) return p / ".config" / "banklab";
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> config_dir_from_environment() {
  return config_dir(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME"));
}

ParsedSettings parse_settings(std::string_view text) {
  ParsedSettings out;
  int line_number = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    std::string where = "line " + std::to_string(line_number) + ": ";
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      out.warnings.push_back(where + "expected 'key = value', got '" + std::string(line) + "'");
      continue;
    }
    std::string_view key = trim(line.substr(0, eq));
    std::string_view value = trim(line.substr(eq + 1));
    if (key == "theme") {
      if (value == "dark" || value == "light") {
        out.settings.theme = value == "light" ? Theme::light : Theme::dark;
      } else {
        out.warnings.push_back(where + "theme is 'dark' or 'light', got '" + std::string(value) +
                               "'");
      }
    } else if (key == "palette") {
      if (const auto scheme = parse_scheme(value)) {
        out.settings.scheme = *scheme;
      } else {
        out.warnings.push_back(where + "palette is 'standard' or 'colour-blind', got '" +
                               std::string(value) + "'");
      }
    } else if (key == "zoom") {
      std::string copy(value);
      char* end = nullptr;
      float z = std::strtof(copy.c_str(), &end);
      if (copy.empty() || end != copy.c_str() + copy.size() || z < kMinZoom || z > kMaxZoom) {
        std::ostringstream os;
        os << where << "zoom is a number from " << kMinZoom << " to " << kMaxZoom << ", got '"
           << value << "'";
        out.warnings.push_back(os.str());
      } else {
        out.settings.zoom = z;
      }
    } else if (key == "preset") {
      if (find_preset(value)) {
        out.settings.preset = value;
      } else {
        out.warnings.push_back(where + "no preset named '" + std::string(value) + "'");
      }
    } else {
      out.warnings.push_back(where + "unknown key '" + std::string(key) + "'");
    }
  }
  return out;
}

std::string format_settings(const Settings& s) {
  std::ostringstream os;
  os << "# banklab-gui settings (rewritten on exit)\n"
     << "theme = " << theme_name(s.theme) << "\n"
     << "palette = " << scheme_name(s.scheme) << "\n"
     << "zoom = " << s.zoom << "\n";
  if (!s.preset.empty()) os << "preset = " << s.preset << "\n";
  return os.str();
}

ParsedSettings load_settings(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return {};
  std::stringstream buffer;
  buffer << in.rdbuf();
  ParsedSettings parsed = parse_settings(buffer.str());
  for (std::string& w : parsed.warnings) w = file.string() + ", " + w;
  return parsed;
}

std::string save_settings(const std::filesystem::path& file, const Settings& s) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return "cannot create " + file.parent_path().string() + ": " + ec.message();
  std::ofstream out(file);
  out << format_settings(s);
  out.close();
  if (!out) return "cannot write " + file.string();
  return {};
}

}  // namespace banklab::gui
