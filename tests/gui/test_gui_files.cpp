// What banklab-gui reads and writes between runs, and what a user types on its command line:
// the settings file, ImGui's imgui.ini, the files a screenshot writes. Hostile files (NaN, a
// FIFO, a link to /dev/zero, a corrupt table section) give a warning and the defaults, never a
// crash or a hang; writes are whole and checked. Then a fixed-seed, bounded fuzz of the three
// parsers (BANKLAB_GUI_FUZZ_SEED / BANKLAB_GUI_FUZZ_STEPS replay or lengthen it, docs/testing.md).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "app/frontend/file_io.hpp"
#include "app/gui/platform/imgui_ini.hpp"
#include "app/gui/platform/offscreen.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/settings.hpp"
#include "tests/gui/headless_imgui.hpp"
#include "tests/gui/refusal.hpp"
#include "tests/gui/scratch_dir.hpp"

using namespace banklab;
using namespace banklab::gui;
using banklab::gui::test::refusal;
using banklab::gui::test::ScratchDir;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, std::string_view text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

std::uint32_t fuzz_seed() {
  const char* env = std::getenv("BANKLAB_GUI_FUZZ_SEED");
  return env ? static_cast<std::uint32_t>(std::strtoul(env, nullptr, 10)) : 20261130u;
}

int fuzz_steps(int fallback) {
  const char* env = std::getenv("BANKLAB_GUI_FUZZ_STEPS");
  return env ? std::atoi(env) : fallback;
}

}  // namespace

TEST_CASE("a NaN or infinite zoom in the settings file is refused, and not written back") {
  for (const char* value : {"nan", "NAN", "-nan", "inf", "-inf", "1e40", "0x1p-200"}) {
    CAPTURE(value);
    ParsedSettings p = parse_settings(std::string("zoom = ") + value + "\n");
    REQUIRE(p.warnings.size() == 1);
    CHECK(contains(p.warnings[0], "zoom is a number from 0.5 to 4"));
    CHECK(p.settings.zoom == 1.0f);
    CHECK(contains(format_settings(p.settings), "zoom = 1\n"));
  }
}

TEST_CASE("the tile view round-trips through the settings; a bad or missing one is logical") {
  for (figures::TileView v :
       {figures::TileView::logical, figures::TileView::physical, figures::TileView::both}) {
    Settings s;
    s.tile_view = v;
    const ParsedSettings back = parse_settings(format_settings(s));
    CHECK(back.warnings.empty());
    CHECK(back.settings == s);
  }
  CHECK(contains(format_settings(Settings{}), "tile_view = \"logical\"\n"));
  // A file from before the key, and garbage in it: logical, with a warning for the garbage.
  CHECK(parse_settings("theme = light\n").settings.tile_view == figures::TileView::logical);
  for (const char* value : {"sideways", "", "BOTH", "both both", "\x01"}) {
    CAPTURE(value);
    ParsedSettings p = parse_settings(std::string("tile_view = both\ntile_view = ") + value);
    CHECK(p.settings.tile_view == figures::TileView::both);  // the good line before it stays
    p = parse_settings(std::string("tile_view = ") + value + "\n");
    REQUIRE(p.warnings.size() == 1);
    CHECK(contains(p.warnings[0], "tile_view is 'logical', 'physical' or 'both'"));
    CHECK(p.settings.tile_view == figures::TileView::logical);
  }
}

TEST_CASE("the settings file is read only when regular and small, else defaults and a warning") {
  ScratchDir dir;
  fs::path file = dir.path / kSettingsFileName;
  SUBCASE("a FIFO: no hang, and it is not written into either") {
    REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
    ParsedSettings p = load_settings(file);
    REQUIRE(p.warnings.size() == 1);
    CHECK(contains(p.warnings[0], "not a regular file"));
    CHECK(p.settings == Settings{});
    CHECK(contains(refusal(save_settings(file, Settings{})), "not a regular file"));
  }
  SUBCASE("a link to /dev/zero: no endless read") {
    fs::create_symlink("/dev/zero", file);
    ParsedSettings p = load_settings(file);
    REQUIRE(p.warnings.size() == 1);
    CHECK(contains(p.warnings[0], "not a regular file"));
    CHECK(p.settings == Settings{});
  }
  SUBCASE("a file larger than the limit") {
    write(file, std::string(kMaxSettingsFileBytes + 1, '#'));
    ParsedSettings p = load_settings(file);
    REQUIRE(p.warnings.size() == 1);
    CHECK(contains(p.warnings[0], "larger than 65536 bytes"));
  }
  SUBCASE("a folder") {
    fs::create_directories(file);
    ParsedSettings p = load_settings(file);
    REQUIRE(p.warnings.size() == 1);
    CHECK(contains(refusal(save_settings(file, Settings{})), "not a regular file"));
  }
  SUBCASE("a missing file is the first run: no warning") {
    CHECK(load_settings(file).warnings.empty());
  }
}

TEST_CASE("saving the settings keeps the keys this version does not know, and is atomic") {
  ScratchDir dir;
  fs::path file = dir.path / kSettingsFileName;
  write(file, "theme = light\nfuture_key = 7\nzoom = nan\n");
  ParsedSettings p = load_settings(file);
  CHECK(p.settings.theme == Theme::light);
  CHECK(p.settings.zoom == 1.0f);
  REQUIRE(save_settings(file, p.settings));
  std::string back = read(file);
  CHECK(contains(back, "future_key = 7\n"));
  CHECK(contains(back, "theme = \"light\"\n"));  // TOML: the text in quotes
  CHECK_FALSE(contains(back, "nan"));
  // Written beside and renamed: no temporary file is left, and the file is a new inode.
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++files;
  CHECK(files == 1);
  CHECK(load_settings(file).settings == p.settings);
}

TEST_CASE("a settings file that was not read is never written over") {
  ScratchDir dir;
  fs::path file = dir.path / kSettingsFileName;
  std::string text = "drill_right = 40\ndrill_answered = 50\n";
  text += std::string(kMaxSettingsFileBytes, '#');
  write(file, text);
  SettingsFile settings(file);
  CHECK_FALSE(settings.kept());
  REQUIRE(settings.warnings().size() == 1);
  CHECK(contains(settings.warnings()[0], "using the defaults, and the file is left as it is"));
  Settings live = settings.loaded();
  live.theme = Theme::light;
  CHECK(settings.save(live, /*force=*/true));
  CHECK(read(file) == text);
}

TEST_CASE("two apps on one settings file add their drill answers up") {
  ScratchDir dir;
  fs::path file = dir.path / kSettingsFileName;
  write(file,
        "drill_level = hire\ndrill_right = 3\ndrill_answered = 4\ndrill_streak = 2\n"
        "drill_best_streak = 2\nlater = 1\n");
  SettingsFile a(file);
  SettingsFile b(file);  // both read the file before either wrote
  Settings live_a = a.loaded();
  Settings live_b = b.loaded();
  live_a.drill.right += 1;  // a: right, streak 3
  live_a.drill.answered += 1;
  live_a.drill.streak = live_a.drill.best_streak = 3;
  REQUIRE(a.save(live_a));
  live_b.drill.answered += 1;  // b: wrong, streak 0
  live_b.drill.streak = 0;
  REQUIRE(b.save(live_b));
  const DrillRecord disk = load_settings(file).settings.drill;
  CHECK(disk ==
        DrillRecord{
            .level = DrillLevel::hire, .right = 4, .answered = 6, .streak = 0, .best_streak = 3});
  CHECK(live_b.drill == disk);  // b now shows the record of all runs
  CHECK(contains(read(file), "later = 1\n"));
  // Nothing changed since: no write at all (another app's later change is not undone).
  write(file, "theme = light\n");
  CHECK(a.save(live_a));
  CHECK(read(file) == "theme = light\n");
}

TEST_CASE("merge_drill adds the new answers to the file's record and carries the streak") {
  // A record as (right, answered, streak, best) at the weak level.
  const auto record = [](int right, int answered, int streak, int best) {
    return DrillRecord{.level = DrillLevel::weak,
                       .right = right,
                       .answered = answered,
                       .streak = streak,
                       .best_streak = best};
  };
  const DrillRecord base = record(5, 8, 2, 4);  // what this app last read
  const DrillRecord disk = record(6, 9, 3, 4);  // another app answered one right since
  // One more right answer here: the streak goes on from the file's.
  CHECK(merge_drill(disk, base, record(6, 9, 3, 4)) == record(7, 10, 4, 4));
  // One wrong answer here: the streak is broken.
  CHECK(merge_drill(disk, base, record(5, 9, 0, 4)) == record(6, 10, 0, 4));
  // Only the level changed: the file's counts, this app's level.
  DrillRecord level = base;
  level.level = DrillLevel::hire;
  CHECK(merge_drill(disk, base, level).answered == 9);
  CHECK(merge_drill(disk, base, level).level == DrillLevel::hire);
}

TEST_CASE("the drill record's counters stop at INT_MAX instead of wrapping (issue 36)") {
  constexpr int kMax = std::numeric_limits<int>::max();
  const std::string full = "drill_right = " + std::to_string(kMax) +
                           "\ndrill_answered = " + std::to_string(kMax) +
                           "\ndrill_streak = " + std::to_string(kMax) +
                           "\ndrill_best_streak = " + std::to_string(kMax) + "\n";
  ParsedSettings read = parse_settings(full);
  REQUIRE(read.warnings.empty());
  DrillRecord record = read.settings.drill;
  count_drill_answer(record, /*right=*/true);  // one more answer, right
  CHECK(record.answered == kMax);
  CHECK(record.right == kMax);
  CHECK(record.streak == kMax);
  CHECK(record.best_streak == kMax);
  // Written and read back by the next start: kept, not refused and reset.
  Settings written;
  written.drill = record;
  ParsedSettings again = parse_settings(format_settings(written));
  CHECK(again.warnings.empty());
  CHECK(again.settings.drill == record);
  // A wrong answer breaks the streak; the best one stays.
  count_drill_answer(record, /*right=*/false);
  CHECK(record.answered == kMax);
  CHECK(record.streak == 0);
  CHECK(record.best_streak == kMax);
  // Another app's answers merged into a full record.
  DrillRecord base;
  DrillRecord mine = base;
  count_drill_answer(mine, true);
  const DrillRecord merged = merge_drill(read.settings.drill, base, mine);
  CHECK(merged.answered == kMax);
  CHECK(merged.right == kMax);
  CHECK(merged.streak == kMax);
}

TEST_CASE("a corrupt imgui.ini is cleaned before ImGui reads it, and the app draws") {
  SUBCASE("the sanitizer keeps what ImGui writes and drops the rest") {
    CleanIni c = sanitize_imgui_ini(
        "[Window][Controls]\nPos=0,270\nSize=384,450\nCollapsed=0\n\n"
        "[Table][0x12345678,-5]\nColumn 0  Width=10\n\n"
        "[Table][0x0A0B0C0D,3]\nRefScale=13\nColumn 0  Width=40 Visible=1 Order=0\n"
        "Column 7  Width=40\nColumn 1  UserID=DEADBEEF Weight=nan\nColumn 2  Order=9\n"
        "[Docking][Data]\nDockNode ID=0x1\nPos=1,2\n");
    CHECK(c.text ==
          "[Window][Controls]\nPos=0,270\nSize=384,450\nCollapsed=0\n\n"
          "[Table][0x0A0B0C0D,3]\nRefScale=13\nColumn 0  Width=40 Visible=1 Order=0\n");
    CHECK(c.dropped == 8);
  }
  SUBCASE("loaded into ImGui, then frames of the whole app") {
    ScratchDir dir;
    fs::path ini = dir.path / "imgui.ini";
    write(ini,
          "[Window][Controls]\nPos=0,270\nSize=384,450\n[Table][0x12345678,-5]\n"
          "Column 0 Width=1\n[Table][0x12345678,100000000]\n");
    HeadlessImGui imgui;
    std::string warning = load_imgui_ini(ini);
    CHECK(contains(warning, "3 line(s) ImGui did not write were left out"));
    AppState s;
    load_preset(s, 0);
    for (int i = 0; i < 3; ++i) imgui.frame(s);
    CHECK(save_imgui_ini(ini));
    CHECK(contains(read(ini), "[Window][Controls]"));
    CHECK(sanitize_imgui_ini(read(ini)).dropped == 0);  // what ImGui writes passes
  }
  SUBCASE("a FIFO or a device in its place is refused") {
    ScratchDir dir;
    fs::path ini = dir.path / "imgui.ini";
    REQUIRE(::mkfifo(ini.c_str(), 0600) == 0);
    HeadlessImGui imgui;
    CHECK(contains(load_imgui_ini(ini), "not a regular file"));
    CHECK(contains(refusal(save_imgui_ini(ini)), "not a regular file"));
  }
}

TEST_CASE("a screenshot or its geometry that cannot be written is an error, checked to the close") {
  std::vector<unsigned char> pixels(4 * 4 * 4, 128);
  // /dev/full takes the open and every buffered write, and fails the flush: the close is
  // where the error shows.
  CHECK(contains(refusal(write_png("/dev/full", 4, 4, pixels)), "No space left on device"));
  Expected<void> geometry = frontend::replace_file("/dev/full", "{}");
  REQUIRE_FALSE(geometry.has_value());
  CHECK(contains(geometry.error(), "No space left on device"));
  CHECK_FALSE(write_png("/nonexistent-dir/x.png", 4, 4, pixels));
  ScratchDir dir;
  CHECK(write_png((dir.path / "ok.png").string(), 4, 4, pixels));
  CHECK(read(dir.path / "ok.png").starts_with("\x89PNG"));
}

TEST_CASE("fixed-seed fuzz: the settings parser, the imgui.ini sanitizer and the options") {
  std::mt19937 rng(fuzz_seed());
  int steps = fuzz_steps(2000);
  MESSAGE("seed " << fuzz_seed() << ", " << steps << " inputs per parser");
  // Pieces of valid input, mutated: random bytes, cut, repeated, spliced.
  const std::vector<std::string> words = {
      "theme",       "zoom",       "preset",  "=",          " ",
      "\n",          "\r",         "#",       "nan",        "inf",
      "-1",          "4",          "0.5",     "1e308",      "dark",
      "light",       "fp32-naive", "\0",      "[Window][",  "[Table][0x12345678,",
      "]",           "Pos=",       "Size=",   "Collapsed=", "Column ",
      "Width=",      "Weight=",    "Order=",  "Sort=",      "v",
      "RefScale=",   "UserID=",    ",",       "2147483647", "-2147483648",
      "99999999999", "64",         "65",      "--zoom",     "--size",
      "--preset",    "--theme",    "--clock", "--tile",     "--index",
      "x",           "0x"};
  auto input = [&] {
    std::string s;
    int n = static_cast<int>(rng() % 24);
    for (int i = 0; i < n; ++i) {
      if (rng() % 5 == 0) {
        s += static_cast<char>(rng() % 256);
      } else {
        s += words[rng() % words.size()];
      }
    }
    return s;
  };
  HeadlessImGui imgui;
  AppState app;
  load_preset(app, 0);
  for (int i = 0; i < steps; ++i) {
    std::string text = input();
    CAPTURE(i);
    ParsedSettings p = parse_settings(text);
    REQUIRE(p.settings.zoom >= kMinZoom);
    REQUIRE(p.settings.zoom <= kMaxZoom);
    REQUIRE(parse_settings(format_settings(p.settings)).settings == p.settings);

    CleanIni c = sanitize_imgui_ini(text);
    CleanIni again = sanitize_imgui_ini(c.text);
    REQUIRE(again.dropped == 0);  // what it keeps, it keeps
    REQUIRE(again.text == c.text);
    ImGui::LoadIniSettingsFromMemory(c.text.data(), c.text.size());
    if (i % 64 == 0) imgui.frame(app);  // the loaded settings applied to real windows

    std::vector<std::string> split;
    std::vector<std::string_view> args;
    std::size_t start = 0;
    for (std::size_t k = 0; k <= text.size(); ++k) {
      if (k == text.size() || text[k] == ' ' || text[k] == '\n') {
        split.push_back(text.substr(start, k - start));
        start = k + 1;
      }
    }
    for (const std::string& a : split) args.push_back(a);
    Expected<Options> o = parse_options(args);
    if (o && o->zoom) REQUIRE(std::isfinite(*o->zoom));
  }
}
