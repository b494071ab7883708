#pragma once
// ImGui's imgui.ini (the window layout), loaded and saved by the app rather than by ImGui, so a
// corrupt file cannot crash it: ImGui 1.86 trusts the file (a table section with a negative
// column count, "[Table][0x12345678,-5]", makes it allocate a negative size and crash at every
// start). The text is checked line by line first: a section ImGui would read is kept only in
// the forms ImGui writes ([Window][title] with Pos, Size and Collapsed; [Table][0xID,N] with
// 1..64 columns, RefScale and Column lines of in-range fields); anything else is dropped and
// counted. Like the settings file, imgui.ini is read only when regular and at most
// kMaxImGuiIniBytes long, and written whole (a temporary file renamed).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"

namespace banklab::gui {

inline constexpr std::size_t kMaxImGuiIniBytes = 1024 * 1024;

struct CleanIni {
  std::string text;  // what ImGui may load
  int dropped = 0;   // lines left out (a dropped section counts its header and each line)
};
CleanIni sanitize_imgui_ini(std::string_view text);

// Reads, checks and hands the file to ImGui::LoadIniSettingsFromMemory (call after
// CreateContext(), before the first frame). Returns "" or a warning naming the file: a warning,
// not a failure, since the layout it could read (or the default) is loaded either way.
std::string load_imgui_ini(const std::filesystem::path& file);
// ImGui::SaveIniSettingsToMemory() written to the file; done, or what went wrong.
Expected<void> save_imgui_ini(const std::filesystem::path& file);

}  // namespace banklab::gui
