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
#include <limits>
#include <sstream>
#include <system_error>

#include "app/frontend/file_io.hpp"
#include "core/base/expected.hpp"
#include "core/base/file_read.hpp"
#include "core/base/format.hpp"
#include "core/base/key_value_file.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {
namespace {

// A folder the file reads back as itself: absolute, no line break, no space at either end,
// text TOML can hold (UTF-8).
bool keepable_folder(std::string_view folder) {
  return folder.starts_with('/') && folder.find_first_of("\r\n") == std::string_view::npos &&
         trim(folder) == folder && reads_back("folder", folder, ValueKind::text);
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
// prefix): done when read, else the warning.
Expected<void> read_drill_key(DrillRecord& d, std::string_view key, std::string_view value) {
  if (key == "level") {
    const std::optional<DrillLevel> level = parse_level(value);
    if (!level)
      return Error{"drill_level is weak, hire or strong-hire, got '" + std::string(value) + "'"};
    d.level = *level;
    return {};
  }
  int* field = key == "right"         ? &d.right
               : key == "answered"    ? &d.answered
               : key == "streak"      ? &d.streak
               : key == "best_streak" ? &d.best_streak
                                      : nullptr;
  if (field == nullptr) return Error{"unknown key 'drill_" + std::string(key) + "'"};
  int n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || n < 0) {
    return Error{"drill_" + std::string(key) + " is a count from 0, got '" + std::string(value) +
                 "'"};
  }
  *field = n;
  return {};
}

}  // namespace

ParsedSettings parse_settings(std::string_view text) {
  ParsedSettings out;
  const KeyValueLines lines = read_key_value_lines(text);
  // Every warning with its line, told in line order.
  std::vector<KeyValueError> warnings = lines.errors;
  for (const KeyValue& v : lines.values) {
    const std::string_view key = v.key;
    const std::string_view value = v.value;
    const auto warn = [&](std::string message) {
      warnings.push_back({v.line, std::move(message)});
    };
    if (key == "theme") {
      if (const auto theme = parse_theme(value)) {
        out.settings.theme = *theme;
      } else {
        warn("theme is 'dark' or 'light', got '" + v.value + "'");
      }
    } else if (key == "palette") {
      if (const auto scheme = parse_scheme(value)) {
        out.settings.scheme = *scheme;
      } else {
        warn("palette is 'standard' or 'colour-blind', got '" + v.value + "'");
      }
    } else if (key == "zoom") {
      char* end = nullptr;
      const float z = std::strtof(v.value.c_str(), &end);
      // Written so that NaN fails too: every comparison with NaN is false.
      const bool in_range = z >= kMinZoom && z <= kMaxZoom;
      if (value.empty() || end != v.value.c_str() + v.value.size() || !in_range) {
        std::ostringstream os;
        os << "zoom is a number from " << kMinZoom << " to " << kMaxZoom << ", got '" << value
           << "'";
        warn(os.str());
      } else {
        out.settings.zoom = z;
      }
    } else if (key == "preset") {
      if (find_preset(value)) {
        out.settings.preset = value;
      } else {
        warn("no preset named '" + v.value + "'");
      }
    } else if (key == "tile_view") {
      if (const auto view = figures::parse_tile_view(value)) {
        out.settings.tile_view = *view;
      } else {
        warn("tile_view is 'logical', 'physical' or 'both', got '" + v.value + "'");
      }
    } else if (key == "folder") {
      if (keepable_folder(value)) {
        out.settings.folder = value;
      } else {
        warn("folder is an absolute path, got '" + v.value + "'");
      }
    } else if (key.starts_with(kDrillPrefix)) {
      const Expected<void> read =
          read_drill_key(out.settings.drill, key.substr(kDrillPrefix.size()), value);
      if (!read) warn(read.error());
    } else {
      warn("unknown key '" + v.key + "'");
      // Kept for the version that knows it, when it can be written back as it was read.
      if (reads_back(v.key, v.value, v.kind)) {
        out.settings.other.push_back({.key = v.key, .value = v.value, .kind = v.kind});
      }
    }
  }
  std::stable_sort(warnings.begin(), warnings.end(),
                   [](const KeyValueError& a, const KeyValueError& b) { return a.line < b.line; });
  for (const KeyValueError& w : warnings) {
    out.warnings.push_back("line " + std::to_string(w.line) + ": " + w.message);
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
  std::ostringstream zoom;
  zoom << s.zoom;
  std::string out = "# banklab-gui settings (rewritten on exit)\n";
  const auto text = [&](std::string_view key, std::string_view value) {
    out += key_value_line(key, value, ValueKind::text);
  };
  const auto number = [&](std::string_view key, std::string_view value) {
    out += key_value_line(key, value, ValueKind::number);
  };
  text("theme", theme_name(s.theme));
  text("palette", scheme_name(s.scheme));
  number("zoom", zoom.str());
  text("tile_view", figures::tile_view_name(s.tile_view));
  if (!s.preset.empty()) text("preset", s.preset);
  if (keepable_folder(s.folder)) text("folder", s.folder);
  if (s.drill != DrillRecord{}) {
    text("drill_level", level_name(s.drill.level));
    number("drill_right", std::to_string(s.drill.right));
    number("drill_answered", std::to_string(s.drill.answered));
    number("drill_streak", std::to_string(s.drill.streak));
    number("drill_best_streak", std::to_string(s.drill.best_streak));
  }
  for (const KeyValue& v : s.other) out += key_value_line(v.key, v.value, v.kind);
  return out;
}

ParsedSettings load_settings(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return {};
  Expected<std::string> text =
      read_regular_file(file.string(), kMaxSettingsFileBytes, "settings file");
  if (!text) {
    return ParsedSettings{
        .settings = {},
        .warnings = {text.error() + "; using the defaults, and the file is left as it is"},
        .writable = false};
  }
  ParsedSettings parsed = parse_settings(*text);
  for (std::string& w : parsed.warnings) w = file.string() + ", " + w;
  return parsed;
}

Expected<void> make_settings_folder(const std::filesystem::path& folder) {
  // The folder and the one above it (~/.config, or $XDG_CONFIG_HOME) may be made, private to the
  // user as the XDG rules ask; the home folder above them must already be there.
  const std::filesystem::path above = folder.parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(above.parent_path(), ec)) {
    return Error{"cannot create " + folder.string() + ": " + above.parent_path().string() +
                 " is not a folder"};
  }
  for (const std::filesystem::path& f : {above, folder}) {
    if (::mkdir(f.c_str(), 0700) != 0 && errno != EEXIST) {
      return Error{"cannot create " + f.string() + ": " + std::strerror(errno)};
    }
  }
  if (!std::filesystem::is_directory(folder, ec)) return Error{folder.string() + ": not a folder"};
  return {};
}

Expected<void> save_settings(const std::filesystem::path& file, const Settings& s) {
  if (Expected<void> folder = make_settings_folder(file.parent_path()); !folder) return folder;
  // Never replace or write into a FIFO or a device (a FIFO would block until read).
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(file, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    return Error{file.string() + ": not a regular file; settings are not saved"};
  }
  return frontend::replace_file(file.string(), format_settings(s));
}

namespace {

// a + b for counts from 0, at most INT_MAX.
int saturating_add(int a, int b) {
  return b > std::numeric_limits<int>::max() - a ? std::numeric_limits<int>::max() : a + b;
}

}  // namespace

void count_drill_answer(DrillRecord& r, bool right) {
  r.answered = saturating_add(r.answered, 1);
  if (right) {
    r.right = saturating_add(r.right, 1);
    r.streak = saturating_add(r.streak, 1);
    r.best_streak = std::max(r.best_streak, r.streak);
  } else {
    r.streak = 0;
  }
}

DrillRecord merge_drill(const DrillRecord& disk, const DrillRecord& base, const DrillRecord& mine) {
  const int answered = mine.answered - base.answered;
  const int right = mine.right - base.right;
  DrillRecord merged = disk;
  if (mine.level != base.level) merged.level = mine.level;
  if (answered <= 0) return merged;  // no new answers here: the file's counts stand
  merged.level = mine.level;
  merged.answered = saturating_add(merged.answered, answered);
  merged.right = saturating_add(merged.right, right);
  merged.streak = right == answered ? saturating_add(disk.streak, answered) : mine.streak;
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

Expected<void> SettingsFile::save(Settings& live, bool force) {
  if (!kept_ || (!force && live == synced_)) return {};
  if (Expected<void> folder = make_settings_folder(file_.parent_path()); !folder) {
    kept_ = false;
    return folder;
  }
  const FolderLock lock(file_.parent_path());
  // What the other instances wrote meanwhile; a file that became unreadable is left alone.
  const ParsedSettings disk = load_settings(file_);
  if (!disk.writable) {
    kept_ = false;
    return Error{disk.warnings.front()};
  }
  Settings merged = live;
  merged.drill = merge_drill(disk.settings.drill, synced_.drill, live.drill);
  merged.other = disk.settings.other.empty() ? live.other : disk.settings.other;
  if (Expected<void> saved = save_settings(file_, merged); !saved) {
    kept_ = false;
    return saved;
  }
  live = merged;
  synced_ = merged;
  return {};
}

}  // namespace banklab::gui
