#include "app/gui/state/settings.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <system_error>

#include "app/frontend/file_io.hpp"
#include "core/base/file_read.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {
namespace {

std::string_view trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// A folder the file reads back as itself: absolute, no line break, no space at either end.
bool keepable_folder(std::string_view folder) {
  return folder.starts_with('/') && folder.find_first_of("\r\n") == std::string_view::npos &&
         trim(folder) == folder;
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

namespace {

constexpr std::string_view kDrillPrefix = "drill_";

// drill_level, drill_right, drill_answered, drill_streak, drill_best_streak (without the
// prefix); "" when read, else the warning.
std::string read_drill_key(DrillRecord& d, std::string_view key, std::string_view value) {
  if (key == "level") {
    const std::optional<DrillLevel> level = parse_level(value);
    if (!level) return "drill_level is weak, hire or strong-hire, got '" + std::string(value) + "'";
    d.level = *level;
    return {};
  }
  int* field = key == "right"         ? &d.right
               : key == "answered"    ? &d.answered
               : key == "streak"      ? &d.streak
               : key == "best_streak" ? &d.best_streak
                                      : nullptr;
  if (field == nullptr) return "unknown key 'drill_" + std::string(key) + "'";
  int n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < 0) {
    return "drill_" + std::string(key) + " is a count from 0, got '" + std::string(value) + "'";
  }
  *field = n;
  return {};
}

}  // namespace

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
      // Written so that NaN fails too: every comparison with NaN is false.
      bool in_range = z >= kMinZoom && z <= kMaxZoom;
      if (copy.empty() || end != copy.c_str() + copy.size() || !in_range) {
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
    } else if (key == "tile_view") {
      if (const auto view = figures::parse_tile_view(value)) {
        out.settings.tile_view = *view;
      } else {
        out.warnings.push_back(where + "tile_view is 'logical', 'physical' or 'both', got '" +
                               std::string(value) + "'");
      }
    } else if (key == "folder") {
      if (keepable_folder(value)) {
        out.settings.folder = value;
      } else {
        out.warnings.push_back(where + "folder is an absolute path, got '" + std::string(value) +
                               "'");
      }
    } else if (key.starts_with(kDrillPrefix)) {
      std::string why = read_drill_key(out.settings.drill, key.substr(kDrillPrefix.size()), value);
      if (!why.empty()) out.warnings.push_back(where + why);
    } else {
      out.warnings.push_back(where + "unknown key '" + std::string(key) + "'");
      out.settings.other.emplace_back(key, value);
    }
  }
  DrillRecord& d = out.settings.drill;
  if (d.right > d.answered || d.streak > d.right || d.streak > d.best_streak) {
    out.warnings.push_back("the drill record (" + std::to_string(d.right) + " right of " +
                           std::to_string(d.answered) + ", streak " + std::to_string(d.streak) +
                           ", best " + std::to_string(d.best_streak) +
                           ") does not add up; it starts again");
    d = DrillRecord{.level = d.level};
  }
  return out;
}

std::string format_settings(const Settings& s) {
  std::ostringstream os;
  os << "# banklab-gui settings (rewritten on exit)\n"
     << "theme = " << theme_name(s.theme) << "\n"
     << "palette = " << scheme_name(s.scheme) << "\n"
     << "zoom = " << s.zoom << "\n"
     << "tile_view = " << figures::tile_view_name(s.tile_view) << "\n";
  if (!s.preset.empty()) os << "preset = " << s.preset << "\n";
  if (keepable_folder(s.folder)) os << "folder = " << s.folder << "\n";
  if (s.drill != DrillRecord{}) {
    os << "drill_level = " << level_name(s.drill.level) << "\n"
       << "drill_right = " << s.drill.right << "\n"
       << "drill_answered = " << s.drill.answered << "\n"
       << "drill_streak = " << s.drill.streak << "\n"
       << "drill_best_streak = " << s.drill.best_streak << "\n";
  }
  for (const auto& [key, value] : s.other) os << key << " = " << value << "\n";
  return os.str();
}

ParsedSettings load_settings(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return {};
  Expected<std::string> text =
      read_regular_file(file.string(), kMaxSettingsFileBytes, "settings file");
  if (!text) {
    return ParsedSettings{
        .warnings = {text.error() + "; using the defaults, and the file is left as it is"},
        .writable = false};
  }
  ParsedSettings parsed = parse_settings(*text);
  for (std::string& w : parsed.warnings) w = file.string() + ", " + w;
  return parsed;
}

std::string make_settings_folder(const std::filesystem::path& folder) {
  // The folder and the one above it (~/.config, or $XDG_CONFIG_HOME) may be made, private to the
  // user as the XDG rules ask; the home folder above them must already be there.
  const std::filesystem::path above = folder.parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(above.parent_path(), ec)) {
    return "cannot create " + folder.string() + ": " + above.parent_path().string() +
           " is not a folder";
  }
  for (const std::filesystem::path& f : {above, folder}) {
    if (::mkdir(f.c_str(), 0700) != 0 && errno != EEXIST) {
      return "cannot create " + f.string() + ": " + std::strerror(errno);
    }
  }
  if (!std::filesystem::is_directory(folder, ec)) return folder.string() + ": not a folder";
  return {};
}

std::string save_settings(const std::filesystem::path& file, const Settings& s) {
  if (std::string problem = make_settings_folder(file.parent_path()); !problem.empty()) {
    return problem;
  }
  // Never replace or write into a FIFO or a device (a FIFO would block until read).
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(file, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    return file.string() + ": not a regular file; settings are not saved";
  }
  Expected<bool> written = frontend::replace_file(file.string(), format_settings(s));
  return written ? std::string() : written.error();
}

DrillRecord merge_drill(const DrillRecord& disk, const DrillRecord& base, const DrillRecord& mine) {
  const int answered = mine.answered - base.answered;
  const int right = mine.right - base.right;
  DrillRecord merged = disk;
  if (mine.level != base.level) merged.level = mine.level;
  if (answered <= 0) return merged;  // no new answers here: the file's counts stand
  merged.level = mine.level;
  merged.answered += answered;
  merged.right += right;
  merged.streak = right == answered ? disk.streak + answered : mine.streak;
  merged.best_streak = std::max({disk.best_streak, merged.streak, mine.streak});
  return merged;
}

namespace {

// An exclusive lock on a folder for as long as it lives (flock: released when the process
// ends, however it ends). Every instance's read-merge-write of the settings runs under it.
class FolderLock {
 public:
  explicit FolderLock(const std::filesystem::path& folder)
      : fd_(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~FolderLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_;
};

}  // namespace

SettingsFile::SettingsFile(std::filesystem::path file)
    : file_(std::move(file)),
      loaded_(load_settings(file_)),
      synced_(loaded_.settings),
      kept_(loaded_.writable) {}

std::string SettingsFile::save(Settings& live, bool force) {
  if (!kept_ || (!force && live == synced_)) return {};
  if (std::string problem = make_settings_folder(file_.parent_path()); !problem.empty()) {
    kept_ = false;
    return problem;
  }
  const FolderLock lock(file_.parent_path());
  // What the other instances wrote meanwhile; a file that became unreadable is left alone.
  const ParsedSettings disk = load_settings(file_);
  if (!disk.writable) {
    kept_ = false;
    return disk.warnings.front();
  }
  Settings merged = live;
  merged.drill = merge_drill(disk.settings.drill, synced_.drill, live.drill);
  merged.other = disk.settings.other.empty() ? live.other : disk.settings.other;
  if (std::string problem = save_settings(file_, merged); !problem.empty()) {
    kept_ = false;
    return problem;
  }
  live = merged;
  synced_ = merged;
  return {};
}

}  // namespace banklab::gui
