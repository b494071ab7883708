// banklab-gui's logic with no display: command-line and settings parsing, the state's
// transitions (presets, step-through, index, lanes, raw offsets), and every view drawn by
// ImGui with no backend (io.DisplaySize set, font atlas built), checking the geometry and the
// batches handed to the GL programs. Also the binary's answers that need no window.
//
// [SECTION] Parsing and running
// [SECTION] Options and settings
// [SECTION] Presets, stepping and controls
// [SECTION] Views drawn headless
// [SECTION] Shortcuts, presentation and the palette
// [SECTION] Timing, the binary and refresh
// [SECTION] Comparisons and lessons
#include <doctest/doctest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/frame_bench.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/settings.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/headless_imgui.hpp"
#include "tests/gui/refusal.hpp"

using namespace banklab;
using namespace banklab::gui;
using banklab::gui::test::refusal;

namespace {

// [SECTION] Parsing and running

Expected<Options> parse(std::vector<std::string_view> args) {
  return parse_options(args);
}

struct RunResult {
  int status = -1;
  std::string output;
};

RunResult run(const std::string& command) {
  RunResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) r.output += buf;
  int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

}  // namespace

// [SECTION] Options and settings

TEST_CASE("the command line accepts the documented options and rejects the rest") {
  SUBCASE("a screenshot run") {
    auto o = parse({"--preset", "fp32-pad1", "--screenshot", "x.png", "--size", "1366x768",
                    "--theme", "light"});
    REQUIRE(o.has_value());
    CHECK(o->preset == "fp32-pad1");
    CHECK(*o->screenshot == "x.png");
    CHECK(*o->size == WindowSize{1366, 768});
    CHECK(*o->theme == Theme::light);
  }
  SUBCASE("a comparison in presentation mode, colour-blind") {
    auto o = parse({"--compare", "transpose,fp32-xor", "--present", "--palette", "colour-blind"});
    REQUIRE(o.has_value());
    REQUIRE(o->compare.size() == 3);
    CHECK(o->compare[0].scenario == find_preset("fp32-row-write")->scenario);
    CHECK(o->compare[1].scenario == find_preset("fp32-naive")->scenario);
    CHECK(o->compare[2].name == "fp32-xor: float tile[32][32], XOR swizzle c ^ r, column read");
    CHECK(o->present);
    CHECK(*o->scheme == Scheme::colour_blind);
    CHECK(parse({"--compare", "fp32-naive"}).error() ==
          "--compare shows 2 to 4 scenarios side by side; got 1");
    CHECK(parse({"--compare", "transpose,transpose,fp32-xor"}).error() ==
          "--compare shows 2 to 4 scenarios side by side; got 5");
    CHECK(parse({"--compare", "fp32-naive,"}).error() ==
          "--compare takes names separated by commas, with none empty");
    CHECK(parse({"--compare", "fp32-naive,/nonexistent.scenario"})
              .error()
              .starts_with("--compare: '/nonexistent.scenario' is neither a preset"));
    CHECK(parse({"--palette", "pastel"}).error() ==
          "--palette is 'standard' or 'colour-blind'; got 'pastel'");
    CHECK(*parse({"--tile-view", "both"})->tile_view == figures::TileView::both);
    CHECK_FALSE(parse({})->tile_view.has_value());  // the settings' choice stands
    CHECK(parse({"--tile-view", "sideways"}).error() ==
          "--tile-view is logical, physical or both; got 'sideways'");
  }
  SUBCASE("a benchmark run") {
    auto o = parse({"--bench-frames", "120", "--zoom", "1.5"});
    REQUIRE(o.has_value());
    CHECK(o->bench_frames == 120);
    CHECK(*o->zoom == doctest::Approx(1.5));
  }
  SUBCASE("a step-through screenshot") {
    auto o = parse({"--preset", "fp32-naive", "--clock", "5", "--screenshot", "s.png"});
    REQUIRE(o.has_value());
    CHECK(*o->clock == 5);
  }
  SUBCASE("help") {
    auto o = parse({"--help"});
    REQUIRE(o.has_value());
    CHECK(o->help);
  }
  SUBCASE("the grammar is banklab's: --flag=value, negative numbers as values") {
    auto o = parse({"--zoom=2", "--theme=light", "--index", "-1", "--access=row"});
    REQUIRE(o.has_value());
    CHECK(*o->zoom == 2.0f);
    CHECK(*o->theme == Theme::light);
    REQUIRE(o->scenario.has_value());
    CHECK(o->scenario->index == -1);
    CHECK(parse({"--zoom", "nan"}).error() == "--zoom is a number from 0.5 to 4; got 'nan'");
  }
  SUBCASE("the scenario flags of banklab analyze open that scenario") {
    auto o = parse({"--dtype", "bf16", "--pad", "1", "--access", "column", "--index", "3"});
    REQUIRE(o.has_value());
    CHECK(o->preset.empty());
    REQUIRE(o->scenario.has_value());
    Scenario expected;
    expected.tile.dtype = DType::bf16;
    expected.tile.pad = 1;
    expected.pattern = AccessPattern::column;
    expected.index = 3;
    CHECK(*o->scenario == expected);
    auto on_preset = parse({"--preset", "fp32-pad4", "--pad", "1"});
    REQUIRE(on_preset.has_value());
    CHECK(on_preset->preset == "fp32-pad4");
    REQUIRE(on_preset->scenario.has_value());
    CHECK(on_preset->scenario->tile.pad == 1);
    CHECK_FALSE(parse({"--preset", "fp32-pad4"})->scenario.has_value());
    CHECK(parse({"--dtype", "fp128"}).error().starts_with("--dtype expects fp8, bf16"));
    CHECK(parse({"--scenario", "/dev/zero"}).error() == "/dev/zero: not a regular file");
    CHECK(parse({"--offsets", "1,2", "--width", "4"}).error().starts_with("--offsets: "));
  }
  SUBCASE("errors name the option and the rule") {
    CHECK(parse({"--frobnicate"}).error() ==
          "unknown flag --frobnicate for 'banklab-gui' (see 'banklab-gui --help')");
    CHECK(parse({"--preset"}).error() == "missing value for --preset (expected --preset NAME)");
    CHECK(parse({"--preset", "nope"})
              .error()
              .starts_with("'nope' is not a preset; the presets are fp32-naive"));
    CHECK(parse({"--size", "1920"}).error() ==
          "--size expects WIDTHxHEIGHT in pixels, e.g. 1920x1080; got '1920'");
    CHECK(parse({"--size", "100x100"}).error() == "--size 100x100 is outside 320x240 .. 7680x4320");
    CHECK(parse({"--size", "12x34x"}).error().starts_with("--size expects"));
    CHECK(parse({"--theme", "blue"}).error() == "--theme is 'dark' or 'light'; got 'blue'");
    CHECK(parse({"--zoom", "9"}).error() == "--zoom is a number from 0.5 to 4; got '9'");
    CHECK(parse({"--zoom", "1x"}).error() == "--zoom is a number from 0.5 to 4; got '1x'");
    CHECK(parse({"--bench-frames", "0"}).error() ==
          "--bench-frames is a frame count from 1 to 100000; got '0'");
    CHECK(parse({"--clock", "33"}).error() ==
          "--clock is a wavefront count from 0 to 32; got '33'");
    CHECK(parse({"--geometry", "g.json"}).error() == "--geometry only goes with --screenshot");
    CHECK(parse({"--screenshot", "a.png", "--bench-frames", "3"}).error() ==
          "--screenshot and --bench-frames are separate runs; give one of them");
  }
}

TEST_CASE("settings live under XDG_CONFIG_HOME, else ~/.config, and survive a round trip") {
  SUBCASE("the folder") {
    CHECK(*config_dir("/x/cfg", "/home/u") == std::filesystem::path("/x/cfg/banklab"));
    CHECK(*config_dir("", "/home/u") == std::filesystem::path("/home/u/.config/banklab"));
    CHECK(*config_dir("relative", "/home/u") == std::filesystem::path("/home/u/.config/banklab"));
    CHECK_FALSE(config_dir(nullptr, nullptr).has_value());
    CHECK_FALSE(config_dir(nullptr, "not/absolute").has_value());
  }
  SUBCASE("format then parse gives the same settings") {
    Settings s{Theme::light, 1.375f, "bf16-pad2", {}, {}, Scheme::colour_blind, "/home/u/slides"};
    ParsedSettings back = parse_settings(format_settings(s));
    CHECK(back.warnings.empty());
    CHECK(back.settings == s);
  }
  SUBCASE("bad lines are reported with their number and skipped") {
    ParsedSettings p = parse_settings(
        "theme = purple\nzoom = 12\npreset = gone\nwhat\nsize = 3\n"
        "zoom = 2\n");
    REQUIRE(p.warnings.size() == 5);
    CHECK(p.warnings[0] == "line 1: theme is 'dark' or 'light', got 'purple'");
    CHECK(p.warnings[1] == "line 2: zoom is a number from 0.5 to 4, got '12'");
    CHECK(p.warnings[2] == "line 3: no preset named 'gone'");
    CHECK(p.warnings[3] == "line 4: expected 'key = value', got 'what'");
    CHECK(p.warnings[4] == "line 5: unknown key 'size'");
    CHECK(p.settings.theme == Theme::dark);
    CHECK(p.settings.zoom == 2.0f);
  }
  SUBCASE("save and load through a file") {
    auto dir = std::filesystem::temp_directory_path() /
               ("banklab-gui-settings-" + std::to_string(::getpid()));
    auto file = dir / "sub" / kSettingsFileName;
    Settings s{Theme::light, 2.0f, "fp32-xor", {}, {}, Scheme::standard, "/tmp"};
    CHECK(save_settings(file, s));
    ParsedSettings back = load_settings(file);
    CHECK(back.warnings.empty());
    CHECK(back.settings == s);
    CHECK(load_settings(dir / "missing.conf").settings == Settings{});
    std::filesystem::remove_all(dir);
  }
}

// [SECTION] Presets, stepping and controls

TEST_CASE("every preset loads and evaluates to the wavefronts its lesson claims") {
  AppState s;
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    REQUIRE(load_preset(s, p.name));
    CHECK(refresh(s));
    // A negative expectation marks a lesson whose point is the diagnostic.
    CHECK(s.study.evaluation.ok() == (p.expected_wavefronts >= 0));
    CHECK(wavefront_total(s) == std::max(0, p.expected_wavefronts));
    CHECK(s.user.step.served == std::max(0, p.expected_wavefronts));  // shown fully served
    CHECK(s.user.settings.preset == p.name);
    CHECK_FALSE(preset_modified(s));
    CHECK_FALSE(refresh(s));  // nothing changed: the core is not asked again
  }
  CHECK_FALSE(load_preset(s, "no-such-lesson"));
}

TEST_CASE("n and p walk the presets and wrap round") {
  AppState s;
  int n = static_cast<int>(presets().size());
  load_preset(s, 0);
  cycle_preset(s, -1);
  CHECK(s.user.preset == n - 1);
  cycle_preset(s, 1);
  CHECK(s.user.preset == 0);
  cycle_preset(s, 1);
  CHECK(s.user.preset == 1);
  s.user.scenario.tile.pad += 1;
  CHECK(preset_modified(s));
}

TEST_CASE("step-through serves one wavefront per step and per tick while playing") {
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  refresh(s);
  REQUIRE(wavefront_total(s) == 32);
  SUBCASE("play from the end starts over") {
    toggle_play(s);
    CHECK(s.user.step.playing);
    CHECK(s.user.step.served == 0);
    advance_time(s, s.user.step.seconds_per_wavefront * 3.5f);
    CHECK(s.user.step.served == 3);
    toggle_play(s);
    CHECK_FALSE(s.user.step.playing);
    advance_time(s, 10.0f);
    CHECK(s.user.step.served == 3);
  }
  SUBCASE("playing stops at the last wavefront") {
    toggle_play(s);
    advance_time(s, 1000.0f);
    CHECK(s.user.step.served == 32);
    CHECK_FALSE(s.user.step.playing);
  }
  SUBCASE("steps clamp to 0 .. wavefronts") {
    step_by(s, 1);
    CHECK(s.user.step.served == 32);
    step_by(s, -40);
    CHECK(s.user.step.served == 0);
    step_by(s, -1);
    CHECK(s.user.step.served == 0);
    step_by(s, 2);
    CHECK(s.user.step.served == 2);
  }
  SUBCASE("a new scenario is shown fully served") {
    step_by(s, -10);
    load_preset(s, "fp32-pad1");
    refresh(s);
    CHECK(s.user.step.served == 1);
  }
}

TEST_CASE("the index moves within what the tile allows") {
  AppState s;
  SUBCASE("column of a 32-column float tile") {
    load_preset(s, "fp32-naive");
    CHECK(max_index(s.user.scenario) == 31);
    move_index(s, -1);
    CHECK(s.user.scenario.index == 0);
    move_index(s, 40);
    CHECK(s.user.scenario.index == 31);
    refresh(s);
    CHECK(s.study.evaluation.ok());
  }
  SUBCASE("float4 columns: 8 per 32-float row") {
    load_preset(s, "fp32-vec16-column");
    CHECK(max_index(s.user.scenario) == 7);
  }
  SUBCASE("ldmatrix.x4 over 128-byte rows: chunks 0 .. 4") {
    load_preset(s, "ldmatrix-plain");
    CHECK(max_index(s.user.scenario) == 4);
    move_index(s, 10);
    refresh(s);
    CHECK(s.study.evaluation.ok());
  }
}

TEST_CASE("lanes switch off and on, and idle lanes cost nothing") {
  AppState s;
  load_preset(s, "fp32-naive");
  for (int l = 16; l < 32; ++l) toggle_lane(s, l);
  CHECK(s.user.scenario.lane_mask == 0x0000FFFFu);
  refresh(s);
  CHECK(wavefront_total(s) == 16);
  toggle_lane(s, 31);
  refresh(s);
  CHECK(wavefront_total(s) == 17);
}

TEST_CASE("raw offsets: bad text is refused with the parser's message and changes nothing") {
  AppState s;
  load_preset(s, "fp32-naive");
  refresh(s);
  set_pattern(s, AccessPattern::raw);
  // The raw form starts from the access on screen.
  CHECK(s.user.scenario.raw_offsets[1] == 128);
  auto before = s.user.scenario.raw_offsets;
  CHECK_FALSE(set_raw_offsets(s, "0,4,8"));
  CHECK_FALSE(s.user.raw_error.empty());
  CHECK(s.user.scenario.raw_offsets == before);
  std::string all_one_word;
  for (int l = 0; l < 32; ++l) all_one_word += l ? ",0" : "0";
  CHECK(set_raw_offsets(s, all_one_word));
  CHECK(s.user.raw_error.empty());
  // The text box's own form, eight lanes a line, reads back to the same offsets.
  auto broadcast = s.user.scenario.raw_offsets;
  CHECK(set_raw_offsets(s, offsets_text(before)));
  CHECK(s.user.scenario.raw_offsets == before);
  CHECK(set_raw_offsets(s, all_one_word));
  CHECK(s.user.scenario.raw_offsets == broadcast);
  CHECK(s.user.raw_error.empty());
  refresh(s);
  CHECK(wavefront_total(s) == 1);  // a broadcast
}

TEST_CASE("the pattern and the op move together") {
  AppState s;
  load_preset(s, "fp32-naive");
  s.user.scenario.op = Op::st;
  set_pattern(s, AccessPattern::matrix);
  CHECK(s.user.scenario.op == Op::stmatrix_x4);
  set_pattern(s, AccessPattern::row);
  CHECK(s.user.scenario.op == Op::st);
  CHECK(s.user.scenario.width == 0);
}

// [SECTION] Views drawn headless

TEST_CASE("every view draws every preset headless, with the bank grid the analysis asks for") {
  HeadlessImGui imgui;
  AppState s;
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    load_preset(s, p.name);
    imgui.frame(s);
    if (p.expected_wavefronts < 0) {
      // The lesson is the diagnostic: it is shown in place of the grid and the lane map.
      CHECK_FALSE(s.frame.geometry.banks.has_value());
      CHECK_FALSE(s.frame.geometry.lanes.drawn);
      continue;
    }
    REQUIRE(s.frame.geometry.banks.has_value());
    CHECK(s.frame.geometry.banks->grid.rows == std::max(1, p.expected_wavefronts));
    CHECK(s.frame.geometry.banks->grid.cols == 32);
    CHECK(s.frame.geometry.lanes.drawn);
    REQUIRE(s.frame.geometry.tile.has_value());
    const TileLayout& t = p.scenario.tile;
    CHECK(s.frame.geometry.tile->grid.rows == t.rows);
    CHECK(s.frame.geometry.tile->grid.cols == t.cols + t.pad);
    CHECK(s.frame.draw.heatmap.cells.size() ==
          2 * static_cast<std::size_t>(t.rows) * (t.cols + t.pad));
    // One quad per bank cell at least, and the grid fits the window.
    CHECK(s.frame.draw.quads().size() >= static_cast<std::size_t>(32 * p.expected_wavefronts));
    CHECK(s.frame.geometry.banks->grid.max().x <= 1920.0f);
    CHECK(s.frame.geometry.banks->grid.max().y <= 1080.0f);
    // No renderer attached: batches are recorded but no GL callback was queued.
    CHECK_FALSE(s.frame.draw.batches().empty());
  }
}

TEST_CASE("a packed 16-byte load is drawn with its merged phases") {
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "broadcast-16B-store");
  s.user.scenario.op = Op::ld;  // the same access as a load packs: 2 phases of 16 lanes, not 4
  imgui.frame(s);
  REQUIRE(s.study.evaluation.ok());
  CHECK(s.study.evaluation.analysis->packed);
  REQUIRE(s.frame.geometry.banks.has_value());
  CHECK(s.frame.geometry.banks->grid.rows == 2);
}

TEST_CASE("any combination of controls either draws the core's analysis or its diagnostic") {
  // A deterministic walk over odd and ordinary values of every control: the views must never
  // trip an assertion, and the bank grid must exist exactly when the core has an analysis.
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "fp32-naive");
  const int rows[] = {1, 7, 32, 256, 4096, 0};
  const int cols[] = {1, 3, 32, 33, 64, 4096};
  const int pads[] = {0, 1, 2, 4, 1024, -1};
  const int widths[] = {0, 1, 2, 4, 8, 16, 3};
  const int indices[] = {0, 1, 5, 31, 1000};
  const SwizzleKind swizzles[] = {SwizzleKind::none,  SwizzleKind::xor_columns,
                                  SwizzleKind::cute,  SwizzleKind::tma32,
                                  SwizzleKind::tma64, SwizzleKind::tma128};
  const AccessPattern patterns[] = {AccessPattern::row, AccessPattern::column,
                                    AccessPattern::matrix, AccessPattern::raw};
  std::uint32_t x = 12345;
  auto pick = [&](int n) {
    x = x * 1664525u + 1013904223u;  // a fixed LCG: the same walk every run
    return static_cast<int>((x >> 8) % static_cast<std::uint32_t>(n));
  };
  int analysed = 0;
  for (int i = 0; i < 3000; ++i) {
    Scenario& sc = s.user.scenario;
    sc.tile.dtype = kAllDTypes[pick(4)];
    sc.tile.rows = rows[pick(6)];
    sc.tile.cols = cols[pick(6)];
    sc.tile.pad = pads[pick(6)];
    sc.tile.swizzle.kind = swizzles[pick(6)];
    sc.tile.swizzle.cute = Swizzle{pick(4), pick(6), pick(6)};
    set_pattern(s, patterns[pick(4)]);
    if (sc.pattern != AccessPattern::matrix) sc.width = widths[pick(7)];
    sc.op = sc.pattern == AccessPattern::matrix ? kAllOps[2 + pick(4)] : kAllOps[pick(2)];
    sc.index = indices[pick(5)];
    sc.lane_mask = pick(4) == 0 ? x : 0xFFFFFFFFu;
    CAPTURE(i);
    CAPTURE(describe(sc));
    imgui.frame(s);
    CHECK(s.frame.geometry.banks.has_value() == s.study.evaluation.ok());
    if (s.study.evaluation.ok()) {
      ++analysed;
      CHECK(s.frame.geometry.banks->grid.rows == std::max(1, wavefront_total(s)));
    }
    CHECK(s.frame.geometry.tile.has_value() == s.study.tile_valid.has_value());
  }
  // The walk reaches valid scenarios too, not only diagnostics.
  CHECK(analysed > 200);
  MESSAGE(analysed << " of 3000 combinations analysed, the rest diagnosed");
}

TEST_CASE("an invalid choice shows the core's diagnostic instead of a drawing") {
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "fp32-naive");
  SUBCASE("a misaligned float4 column") {
    s.user.scenario.tile.pad = 1;
    s.user.scenario.width = 16;
    imgui.frame(s);
    CHECK_FALSE(s.study.evaluation.ok());
    CHECK(has_error(s.study.evaluation.diagnostics));
    CHECK_FALSE(s.frame.geometry.banks.has_value());
    CHECK_FALSE(s.frame.geometry.lanes.drawn);
    CHECK(s.frame.geometry.tile.has_value());  // the tile itself is valid and still drawn
  }
  SUBCASE("a tile with no rows") {
    s.user.scenario.tile.rows = 0;
    imgui.frame(s);
    CHECK_FALSE(s.study.tile_valid);
    CHECK_FALSE(s.frame.geometry.banks.has_value());
    CHECK_FALSE(s.frame.geometry.tile.has_value());
    CHECK(s.frame.draw.heatmap.cells.empty());
  }
}

TEST_CASE("the tile view's physical picture differs from the logical one only under a swizzle") {
  AppState s;
  const auto equal = [](std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    return std::ranges::equal(a, b);
  };
  SUBCASE("no swizzle") {
    load_preset(s, "fp32-pad1");
    refresh(s);
    const HeatmapImage& img = s.frame.draw.heatmap;
    REQUIRE(img.picture(false).size() == 32 * 33);
    CHECK(equal(img.picture(true), img.picture(false)));
  }
  SUBCASE("XOR swizzle") {
    load_preset(s, "fp32-xor");
    refresh(s);
    const HeatmapImage& img = s.frame.draw.heatmap;
    CHECK_FALSE(equal(img.picture(true), img.picture(false)));
    // Stored slots run 0..31 along each row: slot (r, p) is in bank p.
    for (int p = 0; p < 32; ++p) {
      CAPTURE(p);
      CHECK(img.picture(true)[5 * 32 + p] == p);
    }
  }
  SUBCASE("padding slots are flagged") {
    load_preset(s, "fp32-pad4");
    refresh(s);
    int padding = 0;
    for (std::uint8_t v : s.frame.draw.heatmap.picture(false))
      padding += (v & HeatmapImage::kHeatPadding) != 0;
    CHECK(padding == 32 * 4);
  }
}

TEST_CASE(
    "side by side, the Tile window numbers each lane in both grids, which differ by swizzle") {
  HeadlessImGui imgui;
  AppState s;
  s.user.views.lanes = false;  // the lane map numbers lanes too: the tile's labels alone
  for (const std::string name : {"fp32-naive", "fp32-pad1", "fp32-xor", "ldmatrix-swizzled"}) {
    CAPTURE(name);
    REQUIRE(load_preset(s, name));
    set_tile_view(s, figures::TileView::both);
    imgui.frame(s);
    REQUIRE(s.frame.geometry.tile.has_value());
    REQUIRE(s.frame.geometry.physical_tile.has_value());
    const GridGeometry& logical = s.frame.geometry.tile->grid;
    const GridGeometry& physical = s.frame.geometry.physical_tile->grid;
    CHECK(logical.max().x < physical.origin.x);
    // Each lane label lies in one grid; where it sits in its grid, per lane. A label larger
    // than its element (8 rows of 64 bf16 in half the window) starts at the element's top edge
    // and spills below it: its top centre is the point in the grid.
    std::map<int, ImVec2> in_logical, in_physical;
    for (const figures::Label& l : s.frame.geometry.labels) {
      if (l.role != figures::Role::lane_label) continue;
      const ImVec2 point((l.box.x0 + l.box.x1) * 0.5f, l.box.y0 + 0.5f);
      CAPTURE(l.index);
      const auto a = logical.hit(point), b = physical.hit(point);
      CHECK(a.has_value() != b.has_value());
      const GridGeometry& g = a ? logical : physical;
      (a ? in_logical : in_physical)[l.index] = ImVec2(point.x - g.origin.x, point.y - g.origin.y);
    }
    CHECK(in_logical.size() == 32);
    REQUIRE(in_physical.size() == in_logical.size());
    bool differ = false;
    for (const auto& [lane, at] : in_logical) {
      const ImVec2 other = in_physical.at(lane);
      differ = differ || std::abs(at.x - other.x) > 0.01f || std::abs(at.y - other.y) > 0.01f;
    }
    CHECK(differ == (s.study.scenario.tile.swizzle.kind != SwizzleKind::none));
  }
}

// [SECTION] Shortcuts, presentation and the palette

TEST_CASE("keyboard shortcuts drive the state through ImGui's key state") {
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "fp32-naive");
  imgui.frame(s);
  imgui.press(s, GLFW_KEY_N);
  CHECK(s.user.settings.preset == presets()[1].name);
  imgui.press(s, GLFW_KEY_P);
  CHECK(s.user.settings.preset == presets()[0].name);
  imgui.press(s, GLFW_KEY_UP);
  CHECK(s.user.scenario.index == 1);
  imgui.press(s, GLFW_KEY_DOWN);
  CHECK(s.user.scenario.index == 0);
  imgui.press(s, GLFW_KEY_LEFT);
  CHECK(s.user.step.served == 31);
  imgui.press(s, GLFW_KEY_SPACE);
  CHECK(s.user.step.playing);
  imgui.press(s, GLFW_KEY_SPACE);
  CHECK_FALSE(s.user.step.playing);
  imgui.press(s, GLFW_KEY_F1);
  CHECK(s.user.views.help);
  imgui.press(s, GLFW_KEY_T);
  CHECK(s.user.settings.theme == Theme::light);
  float zoom = s.user.settings.zoom;
  imgui.press(s, GLFW_KEY_EQUAL);
  CHECK(s.user.settings.zoom == doctest::Approx(zoom + kZoomStep));
  imgui.press(s, GLFW_KEY_D);
  CHECK(s.user.views.drill);
  s.user.views.drill = false;  // its answer field takes the keyboard while it is open
  imgui.frame(s);
  imgui.frame(s);
  // Presentation mode by keyboard: F5 in, V through the views, Esc out (a comparison too).
  imgui.press(s, GLFW_KEY_F5);
  CHECK(s.user.stage.presenting);
  CHECK(s.user.stage.view == StageView::banks);
  imgui.press(s, GLFW_KEY_V);
  CHECK(s.user.stage.view == StageView::lanes);
  imgui.press(s, GLFW_KEY_V);
  CHECK(s.user.stage.view == StageView::tile);
  imgui.press(s, GLFW_KEY_RIGHT);  // the step-through still steps on the stage
  CHECK(s.user.step.served == 32);
  s.user.stage.compare = builtin_comparison("transpose");
  imgui.frame(s);
  REQUIRE(s.compared.size() == 2);
  CHECK(s.compared[1].evaluation.analysis->wavefront_count() == 32);
  imgui.press(s, GLFW_KEY_ESCAPE);
  CHECK_FALSE(s.user.stage.presenting);
  CHECK(s.user.stage.compare.empty());
  // Every shortcut the help window lists is one the handler knows.
  CHECK(shortcuts().size() == 17);
}

TEST_CASE("presentation mode's tile is drawn as the Tile window shows it, side by side too") {
  HeadlessImGui imgui;
  AppState s;
  REQUIRE(load_preset(s, "fp32-xor"));
  s.user.stage.presenting = true;
  s.user.stage.view = StageView::tile;
  imgui.frame(s);
  for (figures::TileView view :
       {figures::TileView::logical, figures::TileView::physical, figures::TileView::both}) {
    CAPTURE(figures::tile_view_name(view));
    set_tile_view(s, view);
    const figures::Figure f = stage_figure(s, figures::Box{0, 0, 1280, 720}, stage_style(s, 720));
    REQUIRE(f.heatmaps.size() == (view == figures::TileView::both ? 2 : 1));
    CHECK(f.heatmaps.back().physical == (view != figures::TileView::logical));
  }
}

TEST_CASE("the palette gives 32 distinct bank colours in both themes") {
  for (Theme t : {Theme::dark, Theme::light}) {
    CAPTURE(theme_name(t));
    const Palette& p = palette(t);
    for (int a = 0; a < 32; ++a) {
      for (int b = a + 1; b < 32; ++b) {
        CAPTURE(a);
        CAPTURE(b);
        CHECK(p.banks[a] != p.banks[b]);
      }
    }
    CHECK(p.cell_empty != p.cell_served);
    CHECK(p.cell_served != p.cell_conflict);
    CHECK(p.cell_conflict != p.cell_broadcast);
  }
}

// [SECTION] Timing, the binary and refresh

TEST_CASE("timing summaries: mean, median, nearest-rank p95, max") {
  std::vector<double> ms;
  for (int i = 1; i <= 100; ++i) ms.push_back(i);
  TimingSummary t = summarize(ms);
  CHECK(t.count == 100);
  CHECK(t.mean == doctest::Approx(50.5));
  CHECK(t.median == 51);
  CHECK(t.p95 == 95);
  CHECK(t.max == 100);
  CHECK(summarize({}).count == 0);
}

TEST_CASE("the binary answers --help, bad arguments and a missing display without a window") {
  std::string exe = BANKLAB_GUI_EXE;
  SUBCASE("--help") {
    RunResult r = run(exe + " --help");
    CHECK(r.status == 0);
    CHECK(r.output.find("--screenshot PNG") != std::string::npos);
  }
  SUBCASE("bad arguments: status 2 and the reason") {
    RunResult r = run(exe + " --size 10x10");
    CHECK(r.status == 2);
    CHECK(r.output == "banklab-gui: --size 10x10 is outside 320x240 .. 7680x4320\n");
  }
  SUBCASE("no display: status 1 and how to get a screenshot instead") {
    RunResult r = run("env -u DISPLAY " + exe + " --preset fp32-pad1");
    CHECK(r.status == 1);
    CHECK(r.output.find("no display") != std::string::npos);
    CHECK(r.output.find("xvfb-run") != std::string::npos);
  }
}

// The bank load itself is core's (tests/core/test_study.cpp); the app studies the scenario on
// screen again only when it changed, and the heat map follows the study's tile.
TEST_CASE("refresh studies the scenario on screen once per change") {
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  CHECK(s.study_revision == 0);
  CHECK(refresh(s));
  CHECK(s.study_revision == 1);
  CHECK(s.study.scenario == s.user.scenario);
  REQUIRE(s.study.evaluation.ok());
  CHECK(s.study.bank_load[0][0] == 32);  // the 32-way column read, as core counts it
  CHECK_FALSE(refresh(s));               // nothing changed: the same study
  CHECK(s.study_revision == 1);
  REQUIRE(load_preset(s, "fp32-pad1"));
  CHECK(refresh(s));
  CHECK(s.study_revision == 2);
  CHECK(s.study.bank_map == tile_bank_map(s.user.scenario.tile));
  CHECK(s.frame.draw.heatmap.cols == s.user.scenario.tile.slots_per_row());
}

// [SECTION] Comparisons and lessons

TEST_CASE("the scenario views draw a second scenario in a child, apart from the app's") {
  HeadlessImGui imgui;
  AppState s;
  REQUIRE(load_preset(s, "fp32-naive"));
  imgui.frame(s);
  REQUIRE(s.frame.geometry.banks.has_value());
  CHECK(s.frame.geometry.banks->grid.rows == 32);

  Study other = study(find_preset("fp32-pad1")->scenario);
  ViewStyle style = view_style(s);
  style.served = kAllServed;
  Interaction io{&s.frame.draw};
  ImGui::NewFrame();
  ImGui::Begin("comparison");
  for (int i = 0; i < 2; ++i) {
    ImGui::PushID(i);
    const Study& d = i == 0 ? s.study : other;
    if (ImGui::BeginChild("banks", ImVec2(800, 500))) draw_banks(d, style, io);
    ImGui::EndChild();
    if (ImGui::BeginChild("lanes", ImVec2(800, 200))) draw_lanes(d, style, io);
    ImGui::EndChild();
    if (ImGui::BeginChild("arithmetic", ImVec2(800, 300))) draw_arithmetic(d, style, io);
    ImGui::EndChild();
    ImGui::PopID();
  }
  ImGui::End();
  ImGui::Render();
  // The last scenario drawn is the padded one: one conflict-free wavefront, all lanes drawn.
  REQUIRE(io.geometry.banks.has_value());
  CHECK(io.geometry.banks->grid.rows == 1);
  CHECK(io.geometry.lanes.drawn);
  // The app's own picture and scenario are untouched.
  CHECK(s.frame.geometry.banks->grid.rows == 32);
  CHECK(s.study.scenario == find_preset("fp32-naive")->scenario);
}

TEST_CASE("a lesson walks its steps: scenario, highlights, progress, and back to exploring") {
  HeadlessImGui imgui;
  AppState s;
  load_preset(s, "fp32-naive");
  CHECK(refusal(open_lesson(s, "nope")).find("'nope' is not a lesson") != std::string::npos);
  CHECK(refusal(open_lesson(s, "transpose", 99)).find("has steps 1 to") != std::string::npos);
  CHECK_FALSE(in_lesson(s));
  REQUIRE(open_lesson(s, "transpose", 0));
  const Lesson& l = *s.lesson.lesson;
  CHECK(s.user.scenario == l.steps[0].scenario);
  // Step 1 highlights the busiest bank's lanes: all 32 want bank 0.
  CHECK(s.lesson.filled.highlights.banks == std::vector<int>{0});
  CHECK(s.lesson.filled.highlights.lanes.size() == 32);
  CHECK(view_style(s).highlights == &s.lesson.filled.highlights);
  imgui.frame(s);
  // Page Down / Page Up, as a presentation clicker sends them.
  for (int i = 1; i < static_cast<int>(l.steps.size()); ++i) {
    CAPTURE(i);
    imgui.press(s, GLFW_KEY_PAGE_DOWN);
    CHECK(s.lesson.step == i);
    CHECK(s.user.scenario == l.steps[static_cast<std::size_t>(i)].scenario);
    CHECK(s.study.scenario == s.user.scenario);  // the views draw the step
  }
  imgui.press(s, GLFW_KEY_PAGE_DOWN);  // the last step stays the last
  CHECK(s.lesson.step == static_cast<int>(l.steps.size()) - 1);
  imgui.press(s, GLFW_KEY_PAGE_UP);
  CHECK(s.lesson.step == static_cast<int>(l.steps.size()) - 2);
  // The step with misaligned rows hands them to the tile view, which still draws the tile.
  go_to_step(s, 9);  // float4 stores into 132-byte rows
  CHECK(s.lesson.filled.highlights.rows.size() == 24);
  imgui.frame(s);
  CHECK(s.frame.geometry.tile.has_value());
  // Leaving keeps the step's scenario for free exploration.
  const Scenario kept = s.user.scenario;
  leave_lesson(s);
  CHECK_FALSE(in_lesson(s));
  CHECK(s.user.scenario == kept);
  CHECK(view_style(s).highlights == nullptr);
  imgui.press(s, GLFW_KEY_PAGE_DOWN);  // no lesson: nothing moves
  CHECK(s.user.scenario == kept);
}

TEST_CASE("lesson highlights add marks beside the bank grid and the lane map") {
  HeadlessImGui imgui;
  AppState s;
  REQUIRE(open_lesson(s, "transpose", 10));  // [32][36]: lanes 0, 8, 16, 24 in bank 0
  imgui.frame(s);
  const std::size_t with = s.frame.draw.quads().size();
  const Highlights kept = s.lesson.filled.highlights;
  s.lesson.filled.highlights = Highlights{};
  imgui.frame(s);
  const std::size_t without = s.frame.draw.quads().size();
  // Bank grid: bank 0's tab and the bar under its column (its lanes' cells keep their colour,
  // the others fade: no quad more); lane map: bars over 4 lanes and under 1 bank; tile: none
  // (the lanes' numbers are on tabs, drawn as text).
  CHECK(with == without + 2 + 4 + 1);
  CHECK(kept.lanes == std::vector<int>{0, 8, 16, 24});
}

TEST_CASE("--lesson, --step and --export-dir are read and checked") {
  Expected<Options> o = parse({"--lesson", "transpose", "--step", "3"});
  REQUIRE(o.has_value());
  CHECK(o->lesson == "transpose");
  CHECK(o->step == 2);
  CHECK(parse({"--step", "3"}).error() == "--step goes with --lesson NAME");
  CHECK(parse({"--export-dir", "x"}).error() == "--export-dir goes with --lesson NAME");
  CHECK(parse({"--lesson", "t", "--step", "0"}).error().starts_with("--step is a step number"));
  CHECK(parse({"--lesson", "t", "--export-dir", "x", "--screenshot", "a.png"})
            .error()
            .starts_with("--export-dir is a run of its own"));
  const RunResult r = run(std::string(BANKLAB_GUI_EXE) + " --lesson nope --export-dir /tmp/x");
  CHECK(r.status == 2);
  CHECK(r.output.find("'nope' is not a lesson") != std::string::npos);
}
