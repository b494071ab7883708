// banklab-gui rendering for real, under Xvfb (Mesa's llvmpipe): every preset through the binary's
// --screenshot mode, checked for GL errors (the binary exits 3 on any) and for what the drawing
// must show. Cell positions come from the binary's own --geometry output, the colours from the
// palette, and what each cell should hold from the core, so no pixel position is hard-coded.
//
// [SECTION] Screenshots and their pixels
// [SECTION] The cells the core serves
// [SECTION] Size and shaders
// [SECTION] Readable labels
// [SECTION] Comparisons, presentation and exports
// [SECTION] Scans and the shipped recording
// [SECTION] The Descriptor window
#include <doctest/doctest.h>
#include <stb_image.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/figures/projector.hpp"
#include "app/frontend/trace_view.hpp"
#include "app/gui/render/draw_queue.hpp"
#include "app/gui/render/embedded_shaders.hpp"
#include "app/gui/render/gl_program.hpp"
#include "app/gui/render/gl_renderer.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/state/descriptor_state.hpp"
#include "core/model/analysis.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"
#include "core/record/trace.hpp"
#include "core/teach/lesson.hpp"
#include "tests/gui/gl_test_window.hpp"
#include "tests/trace/trace_fixture.hpp"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

using namespace banklab;
using namespace banklab::gui;
using banklab::gui::test::hidden_gl_window;
using banklab::gui::test::init_glfw_patiently;
namespace fs = std::filesystem;

namespace {

// [SECTION] Screenshots and their pixels

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  Rgb at(double x, double y) const {
    int ix = static_cast<int>(std::floor(x));
    int iy = static_cast<int>(std::floor(y));
    REQUIRE(ix >= 0);
    REQUIRE(iy >= 0);
    REQUIRE(ix < width);
    REQUIRE(iy < height);
    const unsigned char* p = &rgba[(static_cast<std::size_t>(iy) * width + ix) * 4];
    return Rgb{p[0], p[1], p[2]};
  }
};

int distance(Rgb a, Rgb b) {
  return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
}

struct Shot {
  int status = -1;
  std::string log;
  Image image;
  nlohmann::json geometry;
};

// Runs banklab-gui with `arguments` plus --screenshot and --geometry into files named `name`.
Shot run_shot(const std::string& name, const std::string& arguments) {
  static const fs::path dir =
      fs::temp_directory_path() / ("banklab-gui-render-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string stem = (dir / name).string();
  std::string command = std::string(BANKLAB_GUI_EXE) + " " + arguments + " --screenshot " + stem +
                        ".png --geometry " + stem + ".json 2>&1";
  Shot shot;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) shot.log += buf;
  int raw = pclose(pipe);
  shot.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  // Any GL error makes the binary exit 3 with the errors in its log.
  REQUIRE_MESSAGE(shot.status == 0, command << " exited " << shot.status << ":\n" << shot.log);
  int n = 0;
  unsigned char* data =
      stbi_load((stem + ".png").c_str(), &shot.image.width, &shot.image.height, &n, 4);
  REQUIRE_MESSAGE(data != nullptr, "cannot read " << stem << ".png");
  shot.image.rgba.assign(data,
                         data + static_cast<std::size_t>(shot.image.width) * shot.image.height * 4);
  stbi_image_free(data);
  std::ifstream in(stem + ".json");
  shot.geometry = nlohmann::json::parse(in);
  return shot;
}

Shot screenshot(const std::string& preset, const std::string& size, Theme theme) {
  return run_shot(
      preset + "-" + size + "-" + std::string(theme_name(theme)),
      "--preset " + preset + " --size " + size + " --theme " + std::string(theme_name(theme)));
}

// A point just inside the top-left corner of a bank cell: clear of the centred lane text.
Rgb bank_cell(const Shot& s, int row, int col) {
  const nlohmann::json& g = s.geometry["bank_grid"];
  double x = g["x"].get<double>() + g["pitch_x"].get<double>() * col + 1.5;
  double y = g["y"].get<double>() + g["pitch_y"].get<double>() * row + 1.5;
  return s.image.at(x, y);
}

void require_display() {
  const char* display = std::getenv("DISPLAY");
  REQUIRE_MESSAGE((display && *display),
                  "DISPLAY is not set: this test opens real windows; run it under Xvfb, e.g. "
                  "xvfb-run -s '-screen 0 1920x1080x24' ctest -L xvfb");
  // An Xvfb started just before the tests (scripts/test.sh) may not accept connections yet on
  // a loaded machine: wait for it (a bounded guard) rather than fail the first screenshot.
  static bool ready = init_glfw_patiently();
  if (ready) glfwTerminate();
  REQUIRE_MESSAGE(ready, "the X display " << display << " accepted no connection for 30 s");
}

}  // namespace

// [SECTION] The cells the core serves

TEST_CASE("every preset renders without a GL error and serves exactly the cells the core says") {
  require_display();
  // Every preset in the dark theme; the light theme for a few that cover each kind of cell
  // (a screenshot takes a second or two under llvmpipe).
  auto light_too = [](std::string_view name) {
    return name == "fp32-naive" || name == "ldmatrix-plain" || name == "broadcast" ||
           name == "fp32-pad1-vec16-store";
  };
  for (Theme theme : {Theme::dark, Theme::light}) {
    const Palette& pal = palette(theme);
    for (const Preset& p : presets()) {
      if (theme == Theme::light && !light_too(p.name)) continue;
      CAPTURE(p.name);
      CAPTURE(theme_name(theme));
      Shot s = screenshot(std::string(p.name), "1366x768", theme);
      CHECK(s.image.width == 1366);
      CHECK(s.image.height == 768);
      if (p.expected_wavefronts < 0) {
        CHECK(s.geometry["bank_grid"].is_null());  // the diagnostic is drawn instead
        continue;
      }
      REQUIRE(s.geometry["bank_grid"].is_object());
      Evaluation e = evaluate(p.scenario);
      REQUIRE(e.ok());
      const Analysis& a = *e.analysis;
      REQUIRE(s.geometry["bank_grid"]["rows"].get<int>() == a.wavefront_count());
      for (int w = 0; w < a.wavefront_count(); ++w) {
        for (int b = 0; b < 32; ++b) {
          CAPTURE(w);
          CAPTURE(b);
          int d = distance(bank_cell(s, w, b), to_rgb(pal.cell_empty));
          if (a.wavefronts[w].banks[b].used()) {
            CHECK(d > 60);
          } else {
            CHECK(d <= 6);
          }
        }
      }
    }
  }
}

TEST_CASE("fp32 tile[32][32] column read: 32 rows, one served cell each, all in one bank column") {
  require_display();
  Shot s = screenshot("fp32-naive", "1920x1080", Theme::dark);
  const Palette& pal = palette(Theme::dark);
  REQUIRE(s.geometry["bank_grid"]["rows"].get<int>() == 32);
  int column = -1;
  for (int w = 0; w < 32; ++w) {
    CAPTURE(w);
    int served = 0;
    for (int b = 0; b < 32; ++b) {
      Rgb c = bank_cell(s, w, b);
      if (distance(c, to_rgb(pal.cell_empty)) <= 6) continue;
      ++served;
      CHECK(distance(c, to_rgb(pal.cell_conflict)) <= 6);  // drawn as the conflict
      if (column < 0) column = b;
      CHECK(b == column);
    }
    CHECK(served == 1);
  }
  CHECK(column == 0);
}

TEST_CASE("fp32 tile[32][33] column read: one row with 32 served cells") {
  require_display();
  Shot s = screenshot("fp32-pad1", "1920x1080", Theme::light);
  const Palette& pal = palette(Theme::light);
  REQUIRE(s.geometry["bank_grid"]["rows"].get<int>() == 1);
  for (int b = 0; b < 32; ++b) {
    CAPTURE(b);
    CHECK(distance(bank_cell(s, 0, b), to_rgb(pal.cell_served)) <= 6);
  }
  SUBCASE("the tile heat map colours each element by its bank") {
    const nlohmann::json& g = s.geometry["tile_grid"];
    REQUIRE(g.is_object());
    CHECK(g["rows"].get<int>() == 32);
    CHECK(g["cols"].get<int>() == 33);
    const TileLayout& t = find_preset("fp32-pad1")->scenario.tile;
    std::vector<std::uint8_t> banks = tile_bank_map(t);
    // Elements of the last rows and columns, away from the highlighted column 0; each slot
    // sampled a pixel and a half under its top edge, clear of the grid line and of the bank
    // number centred in it.
    for (int r : {20, 31}) {
      for (int c : {9, 17, 31}) {
        CAPTURE(r);
        CAPTURE(c);
        double x = g["x"].get<double>() + g["pitch_x"].get<double>() * (c + 0.5);
        double y = g["y"].get<double>() + g["pitch_y"].get<double>() * r + 1.5;
        CHECK(distance(s.image.at(x, y), to_rgb(pal.banks[banks[r * 32 + c]])) <= 6);
      }
    }
  }
}

TEST_CASE("side by side, the physical tile's heat map is the stored slots, the logical one's not") {
  require_display();
  Shot s = run_shot("fp32-xor-both",
                    "--preset fp32-xor --size 1920x1080 --theme light "
                    "--tile-view both");
  const Palette& pal = palette(Theme::light);
  const nlohmann::json& logical = s.geometry["tile_grid"];
  const nlohmann::json& physical = s.geometry["physical_tile_grid"];
  REQUIRE(logical.is_object());
  REQUIRE(physical.is_object());
  CHECK(logical["x"].get<double>() + logical["pitch_x"].get<double>() * 32 <
        physical["x"].get<double>());
  const std::vector<std::uint8_t> banks = tile_bank_map(find_preset("fp32-xor")->scenario.tile);
  // A pixel and a half under the slot's top edge: clear of the grid line and the bank number.
  const auto slot = [&](const nlohmann::json& g, int r, int c) {
    return s.image.at(g["x"].get<double>() + g["pitch_x"].get<double>() * (c + 0.5),
                      g["y"].get<double>() + g["pitch_y"].get<double>() * r + 1.5);
  };
  // Away from column 5's outlines and the lane numbers placed beside them (logical), and from
  // slots 5 ^ r (physical): element (r, c) in the bank of c ^ r, slot (r, p) in bank p.
  for (int r : {20, 30}) {
    for (int c : {12, 20}) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(distance(slot(logical, r, c), to_rgb(pal.banks[banks[r * 32 + c]])) <= 6);
    }
    for (int c : {9, 12}) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(distance(slot(physical, r, c), to_rgb(pal.banks[c])) <= 6);
    }
  }
}

TEST_CASE("a broadcast is one striped cell, not a conflict") {
  require_display();
  Shot s = screenshot("broadcast", "1366x768", Theme::dark);
  REQUIRE(s.geometry["bank_grid"]["rows"].get<int>() == 1);
  const Palette& pal = palette(Theme::dark);
  // Sample along the cell's top edge: the stripes alternate the colour and a darker shade.
  const nlohmann::json& g = s.geometry["bank_grid"];
  int full = 0, shaded = 0;
  for (int i = 0; i < 12; ++i) {
    Rgb c = s.image.at(g["x"].get<double>() + 1.5 + i, g["y"].get<double>() + 1.5);
    full += distance(c, to_rgb(pal.cell_broadcast)) <= 6;
    shaded +=
        distance(c, to_rgb(pal.cell_broadcast)) > 30 && distance(c, to_rgb(pal.cell_empty)) > 30;
  }
  CHECK(full > 0);
  CHECK(shaded > 0);
}

// [SECTION] Size and shaders

TEST_CASE("a 4K screenshot has exactly the size asked for") {
  require_display();
  Shot s = screenshot("fp32-xor", "3840x2160", Theme::light);
  CHECK(s.image.width == 3840);
  CHECK(s.image.height == 2160);
  CHECK(s.geometry["bank_grid"]["rows"].get<int>() == 1);
}

TEST_CASE("the embedded GLSL programs build, and a broken one reports the driver's log") {
  require_display();
  // Seen once under heavy load: glfwInit() failed; the callback says why if it happens again.
  glfwSetErrorCallback([](int code, const char* text) {
    MESSAGE("GLFW error " << code << ": " << std::string(text));
  });
  GLFWwindow* window = hidden_gl_window("shader test");
  REQUIRE(window != nullptr);

  SUBCASE("every program of shaders/ compiles and links") {
    CHECK(embedded_shaders().size() == 6);
    DrawQueue queue;
    GlRenderer renderer;
    std::vector<std::string> errors = renderer.init(queue);
    std::string all;
    for (const std::string& e : errors) all += e + "\n";
    CHECK_MESSAGE(errors.empty(), all);
    CHECK(queue.renderer() == &renderer);
    renderer.shutdown();
    CHECK(gl_errors().empty());
  }
  SUBCASE("a compile error names the file and carries the info log") {
    Expected<GLuint> bad = compile_shader(GL_FRAGMENT_SHADER, "broken.frag",
                                          "#version 330 core\nvoid main() { undeclared = 1.0; }\n");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().starts_with("broken.frag: compile failed:\n"));
    CHECK(bad.error().find("undeclared") != std::string::npos);  // the driver's own words
  }
  SUBCASE("an unknown shader name is an error, not a crash") {
    Expected<GLuint> missing = build_program("quads.vert", "nowhere.frag");
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error() == "no embedded shader named nowhere.frag");
  }
  glfwDestroyWindow(window);
  glfwTerminate();
}

namespace {

// [SECTION] Readable labels

// The labels of one role in a shot's --geometry, each checked inside the cell it names.
std::vector<nlohmann::json> labels_inside(const Shot& s, const std::string& role) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& l : s.geometry["labels"]) {
    if (l["role"] != role) continue;
    CAPTURE(l.dump());
    if (!l["cell"].is_null()) {
      const auto& b = l["box"];
      const auto& c = l["cell"];
      CHECK(b[0].get<double>() >= c[0].get<double>() - 0.01);
      CHECK(b[1].get<double>() >= c[1].get<double>() - 0.01);
      CHECK(b[2].get<double>() <= c[2].get<double>() + 0.01);
      CHECK(b[3].get<double>() <= c[3].get<double>() + 0.01);
    }
    CHECK(l["size"].get<double>() >= 7.0);  // the smallest label font, never dropped
    out.push_back(l);
  }
  return out;
}

// At 1280x720 a lane number a student must read from the back of a room is 11 px or more: one
// lane in a bank view cell, or the count of lanes sharing it ("x16", across the cells of a wide
// access where one cell is too narrow; it was 10.5 px at 1920x1080), and a lane box of the lane
// map (its cells are the geometry's lane_boxes; the tile's numbers are not). Ranges ("0-31")
// are drawn only where they fit at the view's full size.
constexpr double kReadablePixels = 11.0;

void check_readable_lanes(const Shot& s) {
  for (const nlohmann::json& l : labels_inside(s, "cell_label")) {
    if (l["text"].get<std::string>().find_first_of("-,") != std::string::npos) continue;
    CAPTURE(l.dump());
    CHECK(l["size"].get<double>() >= kReadablePixels);
  }
  const nlohmann::json& boxes = s.geometry["lane_boxes"];
  int lane_map = 0;
  for (const nlohmann::json& l : labels_inside(s, "lane_label")) {
    if (std::find(boxes.begin(), boxes.end(), l["cell"]) == boxes.end()) continue;
    CAPTURE(l.dump());
    CHECK(l["size"].get<double>() >= kReadablePixels);
    ++lane_map;
  }
  CHECK(lane_map == 32);
}

// At 1280x720 the tile's lane numbers (those not in the lane map's boxes) are 11 px or more
// and never run into each other: where a slot is narrower than its number, the number is
// placed beside it.
void check_readable_tile(const Shot& s) {
  const nlohmann::json& boxes = s.geometry["lane_boxes"];
  std::vector<nlohmann::json> tile;
  for (const nlohmann::json& l : labels_inside(s, "lane_label")) {
    if (std::find(boxes.begin(), boxes.end(), l["cell"]) != boxes.end()) continue;
    CAPTURE(l.dump());
    CHECK(l["size"].get<double>() >= kReadablePixels);
    tile.push_back(l);
  }
  for (std::size_t i = 0; i < tile.size(); ++i) {
    for (std::size_t j = i + 1; j < tile.size(); ++j) {
      const auto& a = tile[i]["box"];
      const auto& b = tile[j]["box"];
      CAPTURE(tile[i].dump());
      CAPTURE(tile[j].dump());
      CHECK_FALSE((a[0].get<double>() < b[2].get<double>() - 1.5 &&
                   b[0].get<double>() < a[2].get<double>() - 1.5 &&
                   a[1].get<double>() < b[3].get<double>() - 1.5 &&
                   b[1].get<double>() < a[3].get<double>() - 1.5));
    }
  }
}

// Each of 0..31 exactly `times` times among the labels.
void check_each_number(const std::vector<nlohmann::json>& labels, int times) {
  std::vector<int> seen(32, 0);
  for (const nlohmann::json& l : labels) {
    const int i = l["index"].get<int>();
    REQUIRE(i >= 0);
    REQUIRE(i < 32);
    CHECK(l["text"] == std::to_string(i));
    ++seen[static_cast<std::size_t>(i)];
  }
  for (int i = 0; i < 32; ++i) {
    CAPTURE(i);
    CHECK(seen[static_cast<std::size_t>(i)] == times);
  }
}

// Every preset at 1280x720 and 1600x900 in one theme: each bank and lane label drawn in its cell,
// readable at 1280x720, and red only for a conflict. One case a theme, so that CTest can run the
// two side by side (tests/gui/CMakeLists.txt: the suite's longest cases are tests of their own).
void check_labels_in_cells(Theme theme) {
  require_display();
  const Palette& pal = palette(theme);
  for (const char* size : {"1280x720", "1600x900"}) {
    for (const Preset& p : presets()) {
      CAPTURE(p.name);
      CAPTURE(size);
      CAPTURE(theme_name(theme));
      const Shot s = screenshot(std::string(p.name), size, theme);
      if (p.expected_wavefronts < 0) continue;  // the diagnostic is drawn instead
      // The bank view's 32 column numbers and the lane map's 32 bank boxes.
      check_each_number(labels_inside(s, "bank_label"), 2);
      const Evaluation e = evaluate(p.scenario);
      const Analysis& a = *e.analysis;
      // The lane map numbers every lane; the tile numbers every lane that touches an element,
      // lanes that start at one element (a broadcast) with one label.
      std::set<std::pair<int, int>> starts;
      for (int l = 0; l < 32; ++l) {
        if (a.lanes[l].active && e.elements[l].count > 0)
          starts.emplace(e.elements[l].first.row, e.elements[l].first.col);
      }
      const std::size_t on_tile = starts.size();
      // Raw offsets (a raw preset) map onto its tile through the preset's code, where the
      // code gives them (code_state.hpp): at least the lane map's.
      if (p.scenario.pattern == AccessPattern::raw) {
        CHECK(labels_inside(s, "lane_label").size() >= 32u);
      } else {
        CHECK(labels_inside(s, "lane_label").size() == 32u + on_tile);
      }
      CHECK(labels_inside(s, "wavefront_label").size() ==
            a.wavefronts.size() + 32u);  // the rows, and the lanes' wavefronts
      int served = 0;
      for (const Wavefront& wf : a.wavefronts) served += wf.banks_used();
      CHECK(labels_inside(s, "cell_label").size() == static_cast<std::size_t>(served));
      if (std::string_view(size) == "1280x720") {
        check_readable_lanes(s);
        // Up to 64 rows: a 256-row tile drawn whole has rows under 2 px, where 32 lane
        // numbers cannot stand apart (they keep their size and spill).
        if (p.scenario.tile.rows <= 64) check_readable_tile(s);
      }
      // Red only for a conflict: no served cell of a conflict-free access is the conflict
      // colour; the legend names the conflict colour either way.
      if (a.bank_conflicts() == 0) {
        for (int w = 0; w < a.wavefront_count(); ++w) {
          for (int b = 0; b < 32; ++b) {
            if (!a.wavefronts[w].banks[b].used()) continue;
            CAPTURE(w);
            CAPTURE(b);
            CHECK(distance(bank_cell(s, w, b), to_rgb(pal.cell_conflict)) > 60);
          }
        }
      }
      bool legend = false;
      for (const nlohmann::json& l : s.geometry["labels"]) {
        legend = legend ||
                 (l["role"] == "legend" && l["text"].get<std::string>().starts_with("conflict"));
      }
      CHECK(legend);
    }
  }
}

}  // namespace

TEST_CASE("labels in their cells in the dark theme: every preset at 1280x720 and 1600x900") {
  check_labels_in_cells(Theme::dark);
}

TEST_CASE("labels in their cells in the light theme: every preset at 1280x720 and 1600x900") {
  check_labels_in_cells(Theme::light);
}

// [SECTION] Comparisons, presentation and exports

TEST_CASE("a comparison draws each scenario's bank view with its verdict, pane by pane") {
  require_display();
  for (const char* size : {"1280x720", "1920x1080"}) {
    CAPTURE(size);
    const Shot s = run_shot(std::string("compare-transpose-") + size,
                            std::string("--compare transpose --theme light --size ") + size);
    check_each_number(labels_inside(s, "bank_label"), 2);
    // Each pane's verdict, its wrapped lines joined in order, panes in order: side by side, or
    // one under the other where a column cannot hold 32 bank numbers at the projector's digit
    // minimum (both sizes here). Every line inside its pane, in the body minimum or larger.
    const double width = std::stod(size);
    const double height = std::stod(std::string(size).substr(std::string(size).find('x') + 1));
    std::set<double> lefts;
    for (const nlohmann::json& l : s.geometry["labels"]) {
      if (l["role"] == "verdict") lefts.insert(l["box"][0].get<double>());
    }
    const bool across = lefts.size() > 1;
    std::map<double, std::string> verdicts;
    for (const nlohmann::json& l : s.geometry["labels"]) {
      if (l["role"] != "verdict") continue;
      const double x0 = l["box"][0].get<double>(), y0 = l["box"][1].get<double>();
      const double pane = across ? std::floor(x0 / (width / 2)) : std::floor(y0 / (height / 2));
      if (across) CHECK(l["box"][2].get<double>() <= (pane + 1) * width / 2);
      if (!across) CHECK(l["box"][3].get<double>() <= (pane + 1) * height / 2);
      CHECK(l["size"].get<double>() >=
            figures::projector_minimums(static_cast<float>(height)).body);
      std::string& text = verdicts[pane];
      text += (text.empty() ? "" : " ") + l["text"].get<std::string>();
    }
    REQUIRE(verdicts.size() == 2);
    const std::string& first = verdicts.begin()->second;
    const std::string& second = verdicts.rbegin()->second;
    CHECK(first.starts_with("conflict-free: 1 wavefront"));
    CHECK(second.starts_with("32-way bank conflict"));
    CHECK(second.find(": 32 wavefronts where 1 would do") != std::string::npos);
  }
  const Shot three = run_shot("compare-three", "--compare naive-pad-swizzle --size 1600x900");
  check_each_number(labels_inside(three, "bank_label"), 3);
}

TEST_CASE("presentation mode fills the window with one view and keeps the verdict on top") {
  require_display();
  const Shot s = run_shot("present", "--preset fp32-naive --present --size 1280x720");
  check_each_number(labels_inside(s, "bank_label"), 1);
  double verdict_y = -1, first_row_y = -1;
  for (const nlohmann::json& l : s.geometry["labels"]) {
    if (l["role"] == "verdict") verdict_y = l["box"][1].get<double>();
    if (l["role"] == "wavefront_label" && l["index"] == 0) first_row_y = l["box"][1].get<double>();
  }
  CHECK(verdict_y >= 0);
  CHECK(verdict_y < first_row_y);
  // Large type: the bank numbers are bigger than the windowed view's at the same size.
  const Shot windowed = screenshot("fp32-naive", "1280x720", Theme::dark);
  CHECK(labels_inside(s, "bank_label")[0]["size"].get<double>() >
        labels_inside(windowed, "bank_label")[0]["size"].get<double>());
}

TEST_CASE("--export-dir writes every lesson step as a slide, the Markdown handout and the deck") {
  require_display();
  const fs::path dir =
      fs::temp_directory_path() / ("banklab-gui-export-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string command = std::string(BANKLAB_GUI_EXE) + " --lesson interview --export-dir " +
                              dir.string() + " --size 1024x640 --theme light 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string log;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) log += buf;
  const int raw = pclose(pipe);
  REQUIRE_MESSAGE((WIFEXITED(raw) && WEXITSTATUS(raw) == 0), command << "\n" << log);

  const Expected<Lesson> lesson = find_lesson("interview");
  REQUIRE(lesson.has_value());
  const Palette& pal = palette(Theme::light);
  std::vector<std::vector<unsigned char>> images;
  for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
    CAPTURE(i);
    char name[48];
    std::snprintf(name, sizeof name, "interview-%02zu.png", i + 1);
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load((dir / name).c_str(), &w, &h, &n, 4);
    REQUIRE(data != nullptr);
    CHECK(w == 1024);
    CHECK(h == 640);
    images.emplace_back(data, data + static_cast<std::size_t>(w) * h * 4);
    stbi_image_free(data);
    // The slide's title is in the accent colour (the whole app around it is not drawn: no
    // menu bar); a step that marks lanes shows the marks; every step differs from the one
    // before.
    const auto pixels = [&](Rgb c) {
      std::size_t count = 0;
      for (std::size_t p = 0; p < images.back().size(); p += 4)
        count +=
            distance(Rgb{images.back()[p], images.back()[p + 1], images.back()[p + 2]}, c) < 10;
      return count;
    };
    CHECK(pixels(to_rgb(pal.title)) > 200);
    const FilledStep f = fill_step(lesson->steps[i]);
    if (!f.highlights.lanes.empty() && f.study.evaluation.ok())
      CHECK(pixels(to_rgb(pal.spotlight)) > 50);
    if (i > 0) CHECK(images[i] != images[i - 1]);
  }
  const auto read = [&](const char* file) {
    std::ifstream in(dir / file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const std::string md = read("interview.md");
  CHECK(md == to_markdown(*lesson, [&] {
          std::vector<std::string> names;
          for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
            char name[48];
            std::snprintf(name, sizeof name, "interview-%02zu.png", i + 1);
            names.push_back(name);
          }
          return names;
        }()));
  for (const LessonStep& step : lesson->steps) CHECK(md.find(step.title) != std::string::npos);
  // The deck: one section per step, its SVG figures inline, nothing fetched from elsewhere.
  const std::string html = read("interview.html");
  std::size_t sections = 0, figures = 0;
  for (auto at = html.find("<section "); at != std::string::npos;
       at = html.find("<section ", at + 1))
    ++sections;
  for (auto at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1))
    ++figures;
  CHECK(sections == lesson->steps.size());
  CHECK(figures == 2 * lesson->steps.size());  // each step's slide, and a phone's (deck.cpp)
  CHECK(html.find("http") == std::string::npos);
  fs::remove_all(dir);
}

// [SECTION] Scans and the shipped recording
// [SECTION] The Descriptor window

TEST_CASE("--scan FILE.cu: the views draw the kernel's worst access, --line another one") {
  require_display();
  const std::string file =
      (fs::path(BANKLAB_SOURCE_DIR) / "tests" / "scan" / "corpus" / "transpose.cu").string();
  for (const char* size : {"1280x720", "1920x1080"}) {
    for (Theme theme : {Theme::dark, Theme::light}) {
      CAPTURE(size);
      CAPTURE(theme_name(theme));
      const Palette& pal = palette(theme);
      // transpose_naive's column read, warp 0, j = 0: lane L at byte 128 L, all in bank 0.
      const Shot s = run_shot(
          std::string("scan-") + size + "-" + std::string(theme_name(theme)),
          "--scan " + file + " --size " + size + " --theme " + std::string(theme_name(theme)));
      REQUIRE(s.geometry["bank_grid"]["rows"].get<int>() == 32);
      for (int w = 0; w < 32; ++w) {
        CAPTURE(w);
        // Drawn as the conflict (the light theme tints the excess rows under it a little).
        const Rgb cell = bank_cell(s, w, 0);
        CHECK(distance(cell, to_rgb(pal.cell_conflict)) < distance(cell, to_rgb(pal.cell_served)));
        CHECK(distance(cell, to_rgb(pal.cell_empty)) > 60);
        for (int b = 1; b < 32; ++b)
          CHECK(distance(bank_cell(s, w, b), to_rgb(pal.cell_empty)) <= 6);
      }
      check_readable_lanes(s);
    }
  }
  // Line 14 stores a row of the tile: one wavefront, every bank once.
  const Shot row = run_shot("scan-line-14", "--scan " + file + " --line 14 --size 1280x720");
  REQUIRE(row.geometry["bank_grid"]["rows"].get<int>() == 1);
  for (int b = 0; b < 32; ++b) {
    CAPTURE(b);
    CHECK(distance(bank_cell(row, 0, b), to_rgb(palette(Theme::dark).cell_served)) <= 6);
  }
}

TEST_CASE("--trace FILE.json: the Kernel window on a trace, the views on its worst instruction") {
  require_display();
  // The fixture (tests/trace/trace_fixture.hpp): line 4 stores a column of float tile[32][32],
  // lane L at byte 1024 + 128 L, all in bank 0; line 6 loads a row.
  const fs::path file = fs::temp_directory_path() / "banklab-gui-trace-fixture.json";
  {
    std::ofstream out(file);
    out << record::trace_json(banklab::test::fixture_trace());
  }
  for (const char* size : {"1280x720", "1920x1080"}) {
    CAPTURE(size);
    const Palette& pal = palette(Theme::dark);
    const Shot s = run_shot(std::string("trace-") + size,
                            "--trace " + file.string() + " --size " + size + " --theme dark");
    REQUIRE(s.geometry["bank_grid"]["rows"].get<int>() == 32);
    for (int w = 0; w < 32; ++w) {
      CAPTURE(w);
      CHECK(distance(bank_cell(s, w, 0), to_rgb(pal.cell_conflict)) <
            distance(bank_cell(s, w, 0), to_rgb(pal.cell_served)));
      for (int b = 1; b < 32; ++b) CHECK(distance(bank_cell(s, w, b), to_rgb(pal.cell_empty)) <= 6);
    }
    check_readable_lanes(s);
  }
  const Shot row =
      run_shot("trace-line-6", "--trace " + file.string() + " --line 6 --size 1280x720");
  REQUIRE(row.geometry["bank_grid"]["rows"].get<int>() == 1);
  // A file that is not a usable trace: one line, the app does not start.
  const int bad = std::system((std::string(BANKLAB_GUI_EXE) + " --trace " + BANKLAB_SOURCE_DIR +
                               "/README.md --screenshot /dev/null >/dev/null 2>&1")
                                  .c_str());
  CHECK(WIFEXITED(bad));
  CHECK(WEXITSTATUS(bad) == 2);
  fs::remove(file);
}

TEST_CASE("the shipped traces open at 1280x720 and 1920x1080, each line's worst run drawn") {
  require_display();
  // Made on the H200 (kernels/trace/make_traces.sh). For each line the views draw its worst
  // warp-instruction: as many bank-grid rows as the model counts wavefronts for it (read from
  // the trace through the core, as the app reads it), and its 32 lanes readable.
  const fs::path shipped = fs::path(BANKLAB_SOURCE_DIR) / "assets" / "traces";
  int traces = 0;
  for (const auto& entry : fs::directory_iterator(shipped)) {
    if (entry.path().extension() != ".json") continue;
    ++traces;
    std::ifstream in(entry.path());
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const Expected<record::Trace> trace = record::parse_trace(text);
    REQUIRE_MESSAGE(trace, trace.error());
    const frontend::TraceView view = frontend::view_of(*trace);
    for (const ScanLine& line : view.scan.lines) {
      // A line of one entry only (--line shows the worst of the line's entries).
      if (std::count_if(view.scan.lines.begin(), view.scan.lines.end(),
                        [&](const ScanLine& l) { return l.line == line.line; }) != 1)
        continue;
      const auto worst =
          std::find_if(line.instances.begin(), line.instances.end(), [&](const ScanInstance& i) {
            return i.warp == line.worst_warp && i.iteration == line.worst_iteration;
          });
      REQUIRE(worst != line.instances.end());
      WarpAccess drawn;
      drawn.op = line.op;
      drawn.width = line.width;
      drawn.offsets = worst->offsets;
      const Analysis a = analyze(drawn);
      const bool broadcast = a.distinct_words * 4 < a.active_lanes * line.width;
      for (const std::string size : {"1280x720", "1920x1080"}) {
        CAPTURE(entry.path().string());
        CAPTURE(line.line);
        CAPTURE(size);
        const Shot t = run_shot(
            "trace-" + entry.path().stem().string() + "-" + std::to_string(line.line) + "-" + size,
            "--trace " + entry.path().string() + " --line " + std::to_string(line.line) +
                " --size " + size);
        REQUIRE(t.status == 0);
        CHECK(t.geometry["bank_grid"]["rows"].get<int>() == line.worst_wavefronts);
        // Lane numbers readable, and a broadcast's counts of lanes (attention_scores' line 31:
        // 16 lanes on each 16-byte word) as well.
        check_readable_lanes(t);
        if (broadcast) {
          CHECK(std::ranges::any_of(labels_inside(t, "cell_label"), [](const nlohmann::json& l) {
            return l["text"].get<std::string>().starts_with("x");
          }));
        }
      }
    }
  }
  CHECK(traces == 3);
}

TEST_CASE("without a GPU, --gpu opens on the shipped recording, labelled as recorded") {
  require_display();
  const Shot s =
      run_shot("gpu-recording", "--preset fp32-naive --gpu --size 1280x720 --theme light");
  REQUIRE(s.geometry["gpu_run"].is_string());
  CHECK(s.geometry["gpu_run"].get<std::string>().starts_with("recorded on NVIDIA H200"));
}

// [SECTION] The Descriptor window

namespace {

// The Descriptor window's chunk labels: those whose cell is chunk `index`'s cell of its grid
// (the views under the window draw cell labels too), each inside its cell.
std::vector<nlohmann::json> descriptor_chunks(const Shot& s) {
  const nlohmann::json& g = s.geometry["descriptor_grid"];
  REQUIRE_FALSE(g.is_null());
  const double x0 = g["x"].get<double>(), y0 = g["y"].get<double>();
  const double px = g["pitch_x"].get<double>(), py = g["pitch_y"].get<double>();
  const int cells = g["rows"].get<int>() * g["cols"].get<int>();
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& l : s.geometry["labels"]) {
    if (l["role"] != "cell_label" || l["cell"].is_null()) continue;
    const int i = l["index"].get<int>();
    const auto& c = l["cell"];
    if (i < 0 || i >= cells || std::abs(c[0].get<double>() - (x0 + px * (i % 8))) > 0.5 ||
        std::abs(c[1].get<double>() - (y0 + py * (i / 8))) > 0.5) {
      continue;
    }
    const auto& box = l["box"];
    CHECK(box[0].get<double>() >= c[0].get<double>() - 0.01);
    CHECK(box[1].get<double>() >= c[1].get<double>() - 0.01);
    CHECK(box[2].get<double>() <= c[2].get<double>() + 0.01);
    CHECK(box[3].get<double>() <= c[3].get<double>() + 0.01);
    out.push_back(l);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "the Descriptor window, 1280x720 and 1920x1080, both themes: each chunk as TMA fills it") {
  require_display();
  // stmatrix-swizzled: bf16 tile[8][64], TMA 128B: 8 lines of 8 chunks, read by 128B wgmma.
  const Preset* preset = find_preset("stmatrix-swizzled");
  REQUIRE(preset != nullptr);
  const TileLayout& tile = preset->scenario.tile;
  const OperandFill fill = descriptor_fill(DescriptorWindow{}, tile);
  const OperandShape op = descriptor_operand(DescriptorWindow{}, tile);
  const std::optional<MatrixDescriptor> d = suggest_descriptor(MmaArch::sm90, op, fill);
  REQUIRE(d.has_value());
  const DescriptorAgreement a = check_agreement(*d, op, fill);
  REQUIRE(a.agrees());
  // What the core says each 16-byte chunk holds ("mn,k" of its first element), and which chunks
  // k-step 0 reads.
  const int per_chunk = 16 / tile.elem_bytes();
  std::map<int, std::string> holds;
  std::set<int> read_by_step0;
  for (int mn = 0; mn < tile.rows; ++mn) {
    for (int k = 0; k < tile.cols; k += per_chunk) {
      const int chunk = static_cast<int>(producer_byte(fill, OperandMajor::k, mn, k) / 16);
      holds[chunk] = std::to_string(mn) + "," + std::to_string(k);
      if (k < op.k_step_elements()) read_by_step0.insert(chunk);
    }
  }
  for (Theme theme : {Theme::dark, Theme::light}) {
    for (const char* size : {"1280x720", "1920x1080"}) {
      CAPTURE(size);
      CAPTURE(theme_name(theme));
      const Shot s = run_shot(std::string("descriptor-") + size + "-" + theme_name(theme).data(),
                              std::string("--preset stmatrix-swizzled --descriptor --size ") +
                                  size + " --theme " + theme_name(theme).data());
      const nlohmann::json& g = s.geometry["descriptor_grid"];
      REQUIRE_FALSE(g.is_null());
      CHECK(g["rows"] == tile.size_bytes() / 128);
      CHECK(g["cols"] == 8);
      CHECK(g["x"].get<double>() + g["pitch_x"].get<double>() * 8 <= s.image.width);
      CHECK(g["y"].get<double>() + g["pitch_y"].get<double>() * g["rows"].get<int>() <=
            s.image.height);
      // Every chunk named as the core fills it, in type a class can read.
      const std::vector<nlohmann::json> chunks = descriptor_chunks(s);
      CHECK(chunks.size() == holds.size());
      for (const nlohmann::json& l : chunks) {
        CHECK(l["text"] == holds[l["index"].get<int>()]);
        CHECK(l["size"].get<double>() >= 9.0);
      }
      // The verdict, as the core words it.
      bool verdict = false;
      for (const nlohmann::json& l : s.geometry["labels"]) {
        verdict |=
            l["role"] == "verdict" && l["text"] == "agrees: all " + std::to_string(a.elements) +
                                                       " elements are read where they were written";
      }
      CHECK(verdict);
      // The chunks k-step 0 reads are filled in its colours; the others are not.
      const auto corner = [&](int chunk) {
        return s.image.at(g["x"].get<double>() + g["pitch_x"].get<double>() * (chunk % 8) + 2.5,
                          g["y"].get<double>() + g["pitch_y"].get<double>() * (chunk / 8) + 2.5);
      };
      int unread = -1;
      for (const auto& [chunk, text] : holds) {
        if (read_by_step0.count(chunk) == 0 && unread < 0) unread = chunk;
      }
      REQUIRE(unread >= 0);
      for (const int chunk : read_by_step0) {
        CAPTURE(chunk);
        CHECK(distance(corner(chunk), corner(unread)) > 60);
      }
    }
  }
}

TEST_CASE(
    "the lesson's MN-major step, 1280x720 and 1920x1080, both themes: drawn as the core says") {
  require_display();
  // The step: bf16 tile[32][64] TMA wrote with 128B, two boxes along MN, read MN-major.
  const Lesson lesson = find_lesson("descriptor").value();
  int number = 0;
  const LessonStep* step = nullptr;
  for (std::size_t i = 0; i < lesson.steps.size() && !step; ++i) {
    if (lesson.steps[i].descriptor->major == OperandMajor::mn) {
      step = &lesson.steps[i];
      number = static_cast<int>(i) + 1;
    }
  }
  REQUIRE(step != nullptr);
  const StepDescriptor& d = *step->descriptor;
  const TileLayout& tile = step->scenario.tile;
  const OperandFill fill = descriptor_fill(d, tile);
  const OperandShape op = descriptor_operand(d, tile);
  REQUIRE(op.major == OperandMajor::mn);
  const DescriptorAgreement a = check_agreement(d.desc, op, fill);
  REQUIRE(a.agrees());
  // Each 16-byte chunk holds 8 MN neighbours of one K row: "first MN,k".
  const int per_chunk = 16 / tile.elem_bytes();
  const OperandExtent x = operand_extent(fill, op.major);
  std::map<int, std::string> holds;
  for (int mn = 0; mn < x.mn; mn += per_chunk) {
    for (int k = 0; k < x.k; ++k) {
      holds[static_cast<int>(producer_byte(fill, op.major, mn, k) / 16)] =
          std::to_string(mn) + "," + std::to_string(k);
    }
  }
  for (Theme theme : {Theme::dark, Theme::light}) {
    for (const char* size : {"1280x720", "1920x1080"}) {
      CAPTURE(size);
      CAPTURE(theme_name(theme));
      const Shot s = run_shot(std::string("descriptor-mn-") + size + "-" + theme_name(theme).data(),
                              "--lesson descriptor --step " + std::to_string(number) + " --size " +
                                  size + " --theme " + theme_name(theme).data());
      const nlohmann::json& g = s.geometry["descriptor_grid"];
      REQUIRE_FALSE(g.is_null());
      CHECK(g["cols"] == 8);
      CHECK(g["rows"].get<int>() >= 32);  // LBO's chunk (line 32) among the lines drawn
      const std::vector<nlohmann::json> chunks = descriptor_chunks(s);
      CHECK(chunks.size() == static_cast<std::size_t>(g["rows"].get<int>() * 8));
      for (const nlohmann::json& l : chunks) {
        CHECK(l["text"] == holds[l["index"].get<int>()]);
        CHECK(l["size"].get<double>() >= 9.0);
      }
      // SBO and LBO named with the descriptor's values, in type a class can read.
      int arrows = 0;
      for (const nlohmann::json& l : s.geometry["labels"]) {
        const std::string text = l["text"];
        if (text == "SBO " + std::to_string(d.desc.sbo) + " B" ||
            text == "LBO " + std::to_string(d.desc.lbo) + " B") {
          ++arrows;
          CHECK(l["size"].get<double>() >= 9.0);
        }
      }
      CHECK(arrows == 2);
    }
  }
}
