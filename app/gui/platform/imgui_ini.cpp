#include "app/gui/platform/imgui_ini.hpp"

#include <imgui.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "app/frontend/file_io.hpp"
#include "core/base/file_read.hpp"

namespace banklab::gui {
namespace {

// ImGui's own limit on a table's columns (IMGUI_TABLE_MAX_COLUMNS in imgui_internal.h).
constexpr long kMaxTableColumns = 64;
// Positions and sizes beyond this are not a layout on any screen.
constexpr long kMaxPixels = 100000;

// A whole decimal integer in [lo, hi] (leading '-' allowed when lo < 0).
bool int_in(std::string_view s, long lo, long hi, long* out = nullptr) {
  long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || v < lo || v > hi) return false;
  if (out) *out = v;
  return true;
}

bool float_in(std::string_view s, double lo, double hi) {
  std::string copy(s);
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  return !copy.empty() && end == copy.c_str() + copy.size() && v >= lo && v <= hi;
}

// "A,B" with both integers in [lo, hi].
bool int_pair_in(std::string_view s, long lo, long hi) {
  std::size_t comma = s.find(',');
  return comma != std::string_view::npos && int_in(s.substr(0, comma), lo, hi) &&
         int_in(s.substr(comma + 1), lo, hi);
}

// A 32-bit ID in hexadecimal: "0x1234ABCD" in a table's header, "1234ABCD" after UserID=.
bool hex_id(std::string_view s) {
  if (s.starts_with("0x")) s.remove_prefix(2);
  if (s.empty() || s.size() > 8) return false;
  std::uint32_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return ec == std::errc{} && end == s.data() + s.size();
}

bool window_line(std::string_view line) {
  if (line.starts_with("Pos=")) return int_pair_in(line.substr(4), -kMaxPixels, kMaxPixels);
  if (line.starts_with("Size=")) return int_pair_in(line.substr(5), 0, kMaxPixels);
  if (line.starts_with("Collapsed=")) return int_in(line.substr(10), 0, 1);
  return false;
}

// "Column 3  UserID=0x... Width=120 Weight=1.0000 Visible=1 Order=2 Sort=0v", as ImGui writes.
bool column_field(std::string_view f, long columns) {
  std::size_t eq = f.find('=');
  if (eq == std::string_view::npos) return false;
  std::string_view key = f.substr(0, eq), value = f.substr(eq + 1);
  if (key == "UserID") return hex_id(value);
  if (key == "Width") return int_in(value, 0, kMaxPixels);
  if (key == "Weight") return float_in(value, 0.0, 1000.0);
  if (key == "Visible") return int_in(value, 0, 1);
  if (key == "Order") return int_in(value, 0, columns - 1);
  if (key == "Sort") {
    return value.size() >= 2 && (value.back() == 'v' || value.back() == '^') &&
           int_in(value.substr(0, value.size() - 1), 0, columns - 1);
  }
  return false;
}

bool table_line(std::string_view line, long columns) {
  if (line.starts_with("RefScale=")) return float_in(line.substr(9), 0.01, 100.0);
  if (!line.starts_with("Column ")) return false;
  line.remove_prefix(7);
  std::size_t end = line.find(' ');
  if (!int_in(line.substr(0, end), 0, columns - 1)) return false;
  while (end != std::string_view::npos) {
    line.remove_prefix(end);
    std::size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    line.remove_prefix(start);
    end = line.find(' ');
    if (!column_field(line.substr(0, end), columns)) return false;
  }
  return true;
}

enum class Section { none, window, table };

// The kind of a "[Type][name]" header ImGui reads, with the table's column count; none for any
// other header (ImGui ignores sections it has no handler for, so they are dropped too).
Section section_header(std::string_view line, long* columns) {
  if (line.starts_with("[Window][") && line.ends_with("]") && line.size() > 10) {
    return Section::window;
  }
  if (!line.starts_with("[Table][") || !line.ends_with("]")) return Section::none;
  std::string_view name = line.substr(8, line.size() - 9);
  std::size_t comma = name.find(',');
  if (comma == std::string_view::npos || !name.starts_with("0x") ||
      !hex_id(name.substr(0, comma))) {
    return Section::none;
  }
  return int_in(name.substr(comma + 1), 1, kMaxTableColumns, columns) ? Section::table
                                                                      : Section::none;
}

}  // namespace

CleanIni sanitize_imgui_ini(std::string_view text) {
  CleanIni out;
  Section section = Section::none;
  long columns = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    bool keep = false;
    if (line.front() == '[') {
      section = section_header(line, &columns);
      keep = section != Section::none;
    } else if (section == Section::window) {
      keep = window_line(line);
    } else if (section == Section::table) {
      keep = table_line(line, columns);
    }
    if (line.find('\0') != std::string_view::npos) keep = false;
    if (!keep) {
      ++out.dropped;
      continue;
    }
    if (line.front() == '[' && !out.text.empty()) out.text += '\n';
    out.text.append(line).append("\n");
  }
  return out;
}

std::string load_imgui_ini(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) return {};
  Expected<std::string> text = read_regular_file(file.string(), kMaxImGuiIniBytes, "window layout");
  if (!text) return text.error() + "; using the default layout";
  CleanIni clean = sanitize_imgui_ini(*text);
  ImGui::LoadIniSettingsFromMemory(clean.text.data(), clean.text.size());
  if (clean.dropped == 0) return {};
  return file.string() + ": " + std::to_string(clean.dropped) +
         " line(s) ImGui did not write were left out of the window layout";
}

Expected<void> save_imgui_ini(const std::filesystem::path& file) {
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(file, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    return Error{file.string() + ": not a regular file; the window layout is not saved"};
  }
  std::size_t size = 0;
  const char* data = ImGui::SaveIniSettingsToMemory(&size);
  Expected<void> written = frontend::replace_file(file.string(), std::string_view(data, size));
  ImGui::GetIO().WantSaveIniSettings = false;
  return written;
}

}  // namespace banklab::gui
