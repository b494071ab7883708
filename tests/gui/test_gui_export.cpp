// File > Export PNG driven as a user drives it (synthetic clicks and keys into the real app),
// then drawn by the real GL renderer in a hidden window's context under Xvfb, as banklab-gui's
// main loop draws it: export_png() after the frame that asked. The PNG has the size typed in
// the chooser, not the window's, and shows the view in the theme on screen; a target that
// cannot be written is an error in the app, which goes on. The same context checks that the
// windows drawn from their pictures (window_pictures.hpp) give the frame's pixels unchanged.
#include <backends/imgui_impl_opengl3.h>
#include <doctest/doctest.h>
#include <stb_image.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "app/gui/platform/offscreen.hpp"
#include "app/gui/render/gl_renderer.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/state/app_state.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/gl_test_window.hpp"
#include "tests/gui/imgui_items.hpp"

using namespace banklab;
using namespace banklab::gui;
using namespace banklab::gui::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kExportPng = "Export PNG (bank view, lane map, tile)...";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The width and height a PNG's IHDR chunk states (big-endian, bytes 16 to 23).
std::pair<int, int> ihdr_size(const std::string& png) {
  REQUIRE(png.size() > 24);
  REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  REQUIRE(png.compare(12, 4, "IHDR") == 0);
  auto be32 = [&](std::size_t at) {
    int v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

// The app headless (the driver's ImGui) with a hidden window's GL 3.3 context, ImGui's OpenGL 3
// backend and the project's renderer: what main.cpp's init_drawing() sets up.
struct GlApp {
  Driver d{ImVec2(1280, 720)};
  AppState s;
  GLFWwindow* window = nullptr;
  GlRenderer renderer;
  fs::path dir = fs::temp_directory_path() / ("banklab-export-" + std::to_string(::getpid()));

  GlApp() {
    const char* display = std::getenv("DISPLAY");
    REQUIRE_MESSAGE((display && *display), "DISPLAY is not set: run it under Xvfb");
    window = hidden_gl_window("test_gui_export");
    REQUIRE(window != nullptr);
    REQUIRE(ImGui_ImplOpenGL3_Init("#version 330 core"));
    REQUIRE(renderer.init(s.frame.draw).empty());
    fs::create_directories(dir);
    load_preset(s, "fp32-naive");
    s.user.settings.folder = dir.string();
    d.settle(s);
  }
  ~GlApp() {
    renderer.shutdown();
    ImGui_ImplOpenGL3_Shutdown();
    glfwDestroyWindow(window);
    glfwTerminate();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }

  // File > Export PNG, the size and the name typed, Save; then the main loop's export.
  void export_png_as(const std::string& name, const char* width, const char* height,
                     const char* item = kExportPng) {
    REQUIRE(d.menu(s, "File", item));
    REQUIRE(d.replace_text(s, {kChooser, "size in pixels", 0, ""}, width));
    REQUIRE(d.replace_text(s, {kChooser, "size in pixels", 1, ""}, height));
    REQUIRE(d.replace_text(s, {kChooser, "name"}, name));
    REQUIRE(d.click(s, {kChooser, "Save"}));
    REQUIRE(s.png_export.has_value());
    export_png(s, renderer);
    CHECK_FALSE(s.png_export.has_value());
    d.frame(s);  // the app goes on
  }
};

struct Picture {
  int width = 0, height = 0;
  std::set<unsigned> colours;
  unsigned corner = 0;    // the top-left pixel: the background
  double covered = 0.0;   // the share of pixels that are not the background
  bool top_plain = true;  // the top 8 rows are background
};

Picture decode(const std::string& png) {
  Picture p;
  int n = 0;
  unsigned char* px =
      stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()),
                            static_cast<int>(png.size()), &p.width, &p.height, &n, 3);
  REQUIRE(px != nullptr);
  auto at = [&](long i) { return (px[3 * i] << 16) | (px[3 * i + 1] << 8) | px[3 * i + 2]; };
  p.corner = static_cast<unsigned>(at(0));
  long other = 0;
  const long total = static_cast<long>(p.width) * p.height;
  for (long i = 0; i < total; ++i) {
    p.colours.insert(static_cast<unsigned>(at(i)));
    const bool background = static_cast<unsigned>(at(i)) == p.corner;
    other += !background;
    if (i < 8L * p.width && !background) p.top_plain = false;
  }
  stbi_image_free(px);
  p.covered = static_cast<double>(other) / static_cast<double>(total);
  return p;
}

unsigned rgb(ImU32 c) {
  return ((c & 0xFF) << 16) | (((c >> 8) & 0xFF) << 8) | ((c >> 16) & 0xFF);
}

}  // namespace

TEST_CASE("File > Export PNG writes the view at the size typed, not the window's, in the theme") {
  GlApp app;
  for (Theme theme : {Theme::dark, Theme::light}) {
    CAPTURE(static_cast<int>(theme));
    app.s.user.settings.theme = theme;
    const std::string name = theme == Theme::dark ? "dark" : "light";
    app.export_png_as(name, "1000", "618");
    const fs::path file = app.dir / (name + ".png");
    CHECK(app.s.user.files.status == "wrote " + file.string() + " (1000x618)");
    CHECK_FALSE(app.s.user.files.failed);
    const std::string png = read(file);
    CHECK(ihdr_size(png) == std::pair{1000, 618});
    const Picture p = decode(png);
    CHECK(p.corner == rgb(palette(theme).background));
    CHECK(p.colours.size() > 8);  // cells, conflict red, text: not a blank page
    CHECK(p.covered > 0.05);
    CHECK(p.top_plain);  // the view alone: no menu bar across the top
  }
  SUBCASE("the comparison, at a size larger than the window") {
    app.s.user.stage.compare = builtin_comparison("transpose");
    app.d.frame(app.s);
    app.export_png_as("compare", "2000", "900", "Export the comparison as PNG...");
    CHECK(ihdr_size(read(app.dir / "compare.png")) == std::pair{2000, 900});
    CHECK(decode(read(app.dir / "compare.png")).covered > 0.05);
  }
}

TEST_CASE("a PNG size out of range is clamped with a note, and the window's size is untouched") {
  GlApp app;
  REQUIRE(app.d.menu(app.s, "File", kExportPng));
  CHECK(app.s.user.files.chooser.name == "banklab-banks.png");
  REQUIRE(app.d.click(app.s, {kChooser, "lane map"}));  // the name offered follows the view
  CHECK(app.s.user.files.png_view == StageView::lanes);
  CHECK(app.s.user.files.chooser.name == "banklab-lanes.png");
  REQUIRE(app.d.replace_text(app.s, {kChooser, "size in pixels", 0, ""}, "99999"));
  app.d.frame(app.s);
  CHECK(app.s.user.files.size[0] == kMaxExportSize);
  CHECK(app.s.user.files.size_note.find("99999x1080 is outside 320x240 .. 8192x8192") == 0);
  REQUIRE(app.d.replace_text(app.s, {kChooser, "size in pixels", 1, ""}, "-5"));
  app.d.frame(app.s);
  CHECK(app.s.user.files.size[1] == kMinExportSize[1]);
  REQUIRE(app.d.click(app.s, {kChooser, "1280x720"}));
  CHECK(app.s.user.files.size_note.empty());
  REQUIRE(app.d.click(app.s, {kChooser, "Cancel"}));
  CHECK_FALSE(app.s.png_export.has_value());
  CHECK(ImGui::GetIO().DisplaySize.x == 1280.0f);
}

TEST_CASE("a PNG that cannot be written is an error in the app, which goes on") {
  GlApp app;
  // A path typed into the name field: /proc takes no new file, not even from root.
  app.export_png_as("/proc/banklab-test.png", "800", "600");
  CHECK(app.s.user.files.failed);
  CHECK(app.s.user.files.status.find("/proc/banklab-test.png") != std::string::npos);
  CHECK(ImGui::GetIO().DisplaySize.y == 720.0f);
  app.export_png_as("after", "800", "600");
  CHECK_FALSE(app.s.user.files.failed);
  CHECK(ihdr_size(read(app.dir / "after.png")) == std::pair{800, 600});
}

// The frame as ImGui's backend draws it from the draw data alone: what present_frame() drew
// before windows were pictured (window_pictures.hpp).
std::vector<unsigned char> drawn_directly(const AppState& s, const OffscreenTarget& target) {
  target.bind();
  glViewport(0, 0, target.width(), target.height());
  const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(palette(s.user.settings.theme).background);
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  return target.read_rgba();
}

TEST_CASE("windows that hold still are drawn from their pictures, the same pixels") {
  GlApp app;
  OffscreenTarget target;
  REQUIRE(target.create(1280, 720));
  for (const char* preset : {"fp32-naive", "bf16-256-pad2"}) {
    CAPTURE(preset);
    load_preset(app.s, preset);
    offscreen_frame(app.s, app.renderer, target);  // the lists changed: drawn as they are
    CHECK(app.renderer.pictures().pictured() == 0);
    CHECK(target.read_rgba() == drawn_directly(app.s, target));
    for (int frame = 0; frame < 3; ++frame) offscreen_frame(app.s, app.renderer, target);
    // The menu bar, Lesson, Controls, Arithmetic and Code: every window without GL batches.
    CHECK(app.renderer.pictures().pictured() == 5);
    const std::vector<unsigned char> pictured = target.read_rgba();
    CHECK(pictured == drawn_directly(app.s, target));
  }
  target.destroy();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}
