// banklab-web: the browser edition's program, the same app as banklab-gui (app/gui/main.cpp)
// around a page instead of a window. Read it like that one: the options (here from the URL
// fragment, app/gui/platform/link.hpp), the settings (here from local storage), GLFW (here
// emscripten's, over the page's canvas and WebGL 2), ImGui and its backends, our renderer, then
// the same FramePacer as the desktop's loop (app/gui/platform/frame_pacing.hpp), asked each time
// the browser offers a frame (requestAnimationFrame): a frame is built only when something asks
// for one (input, a resize, a changed fragment, a chosen file, the step-through playing) and
// drawn only when its picture changed, so the page at rest draws nothing.
//
// After a frame the page is brought up to date: the address bar gets the fragment of what is
// on screen, the page's summary line says it in words, files the app wrote under kDownloads
// become downloads, and changed settings and window layout go to local storage.
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <emscripten/emscripten.h>
#include <imgui.h>

#include "app/gui/render/gl.hpp"  // before GLFW, which must not pull in its own GL header
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/frame_bench.hpp"
#include "app/gui/platform/frame_pacing.hpp"
#include "app/gui/platform/imgui_ini.hpp"
#include "app/gui/platform/key_queue.hpp"
#include "app/gui/platform/link.hpp"
#include "app/gui/platform/offscreen.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/platform/startup.hpp"
#include "app/gui/render/gl_renderer.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/code_state.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/settings.hpp"
#include "app/web/browser.hpp"
#include "core/model/analysis.hpp"

namespace {

namespace gui = banklab::gui;
namespace web = banklab::web;

// Where the data preloaded into the page's file system lives (CMakeLists.txt): lessons and
// recordings, as banklab::data_dir() finds them through BANKLAB_DATA_DIR.
constexpr const char* kDataDir = "/banklab";
// The local-storage keys: the settings file's text and ImGui's window layout (imgui.ini's).
constexpr const char* kSettingsKey = "banklab.settings";
constexpr const char* kLayoutKey = "banklab.layout";

struct Bench {
  int frames = 0;  // > 0: ?bench-frames=N, drawing every frame until N are timed
  gui::BenchRecord record;
  double last_start = 0;  // the previous frame's start, for its whole interval
};

struct Page {
  GLFWwindow* window = nullptr;
  std::unique_ptr<gui::AppState> state;
  gui::GlRenderer renderer;
  gui::Appearance applied;
  GLuint filtered_font_texture = 0;
  float content_scale = 1.0f;
  gui::FramePacer pacer;
  gui::KeyQueue keys;  // handed to ImGui a change a frame, so that no tap is lost
  int frames = 0;      // built
  // Why the link could not be opened, on the page until the next link; or why its code does not
  // evaluate (code_problem), on the page until the code does.
  std::string problem;
  bool code_problem = false;
  std::string link;               // the fragment in the address bar
  std::string summary;            // the page's summary line
  gui::Settings stored_settings;  // as local storage has them
  Bench bench;
};

void wake(Page& page, gui::FrameReason why) {
  page.pacer.request(why);
}

// GLFW's input callbacks run from the page's event handlers, between frames: each one asks for
// a frame. ImGui's backend is installed after them and calls them after its own; keys are
// queue_key's, installed after the backend.
void wake(GLFWwindow* window) {
  wake(*static_cast<Page*>(glfwGetWindowUserPointer(window)), gui::FrameReason::input);
}
// Keys go to the page's queue rather than to ImGui's backend, which would write io.KeysDown at
// once and lose a key pressed and released before the next frame (key_queue.hpp). Installed
// after the backend, in place of its key callback.
void queue_key(GLFWwindow* w, int key, int, int action, int) {
  if (action == GLFW_REPEAT) return;
  static_cast<Page*>(glfwGetWindowUserPointer(w))->keys.push(key, action == GLFW_PRESS);
  wake(w);
}
void on_char(GLFWwindow* w, unsigned int) {
  wake(w);
}
void on_mouse_button(GLFWwindow* w, int, int, int) {
  wake(w);
}
void on_cursor(GLFWwindow* w, double, double) {
  wake(w);
}
void on_scroll(GLFWwindow* w, double, double) {
  wake(w);
}

std::optional<gui::Settings> stored_settings() {
  const std::optional<std::string> text = web::stored(kSettingsKey);
  if (!text) return std::nullopt;
  gui::ParsedSettings parsed = gui::parse_settings(*text);
  for (const std::string& w : parsed.warnings) web::warn(w);
  return parsed.settings;
}

// The GPU window in the browser: no CUDA here (the kernels are not built), said as the page's
// reason rather than the desktop build's advice to install the CUDA toolkit.
gui::GpuBackend browser_gpu_backend() {
  static constexpr const char* kWhy =
      "the browser edition runs no GPU code; it shows results recorded on a GPU, and banklab-gui "
      "on a machine with an NVIDIA GPU runs them live";
  gui::GpuBackend b = gui::real_gpu_backend();
  b.query_device = [] {
    banklab::record::DeviceInfo d = banklab::gpu::query_device();
    d.detail = kWhy;
    return d;
  };
  b.measure_support = [] {
    banklab::gpu::MeasureSupport m = banklab::gpu::measure_support();
    m.reason = kWhy;
    m.device.detail = kWhy;
    return m;
  };
  return b;
}

// The first line of the Code window's error ("code:3:16: error: k is not defined: ...").
std::string code_error(const gui::AppState& s) {
  const std::string& error = s.user.code.error;
  return error.substr(0, error.find('\n'));
}

// --bench-frames N from the address's query (?bench-frames=N), 0 without a valid one.
int bench_frames_asked() {
  const std::string text = web::bench_frames_query();
  if (text.empty()) return 0;
  int frames = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), frames);
  if (ec == std::errc() && end == text.data() + text.size() && frames >= 1 &&
      frames <= gui::kMaxBenchFrames) {
    return frames;
  }
  web::warn("bench-frames is a frame count from 1 to " + std::to_string(gui::kMaxBenchFrames) +
            ", got '" + text + "'; no benchmark");
  return 0;
}

// The state a fragment asks for over the stored settings; a fragment that cannot be opened
// gives the default start (the last lesson used, else the default one) and says why.
void open_link(Page& page, const std::string& fragment) {
  const std::optional<gui::Settings> saved = stored_settings();
  page.stored_settings = saved.value_or(gui::Settings{});
  const web::CanvasSize canvas = web::canvas_size();
  const gui::WindowSize size{canvas.width, canvas.height};
  // A new state for each link; what was set up for drawing (fonts, the renderer's queue) carries
  // over from the last one.
  auto fresh = [&] {
    auto s = std::make_unique<gui::AppState>();
    s->platform = gui::Platform{.quits = false, .links = true};
    s->gpu->backend = browser_gpu_backend();
    // The workers run their jobs inside a frame (no threads); a result asks for the next one.
    s->wake_ui = [&page] { wake(page, gui::FrameReason::worker); };
    s->gpu->wake_ui = s->wake_ui;
    if (page.state) {
      s->res = page.state->res;
      s->frame = std::move(page.state->frame);
    }
    return s;
  };
  page.state = fresh();
  page.problem.clear();
  banklab::Expected<gui::Options> opt = gui::options_from_link(fragment);
  if (opt) {
    gui::apply_options(*page.state, *opt, saved ? &*saved : nullptr, size, opt->preset);
    if (const banklab::Expected<void> opened = gui::open_named(*page.state, *opt); !opened) {
      page.problem = opened.error();
    }
  } else {
    page.problem = opt.error();
  }
  if (!page.problem.empty()) {
    page.state = fresh();
    gui::apply_options(*page.state, gui::Options{}, saved ? &*saved : nullptr, size, "");
    page.problem =
        "This link could not be opened: " + page.problem + ". Showing the default start instead.";
  }
  // Code that does not evaluate stays in the Code window with its error, and in the address.
  page.code_problem = page.problem.empty() && gui::code_stale(*page.state);
  if (page.code_problem)
    page.problem = "This link's code does not evaluate: " + code_error(*page.state);
  page.link = fragment;
  web::show_problem(page.problem);
  wake(page, gui::FrameReason::expose);  // a new picture
}

// What the page says beside the canvas: the scenario on screen and its verdict, from the core,
// or what is wrong with it; for a comparison, each of its scenarios.
std::string summary_of(const gui::AppState& s) {
  const auto line = [](const banklab::Study& d) {
    std::string text = banklab::describe(d.scenario) + ": ";
    if (d.evaluation.ok()) return text + d.explanation.verdict;
    return text + banklab::first_error(d.evaluation.diagnostics);
  };
  if (gui::code_stale(s)) return "The code does not evaluate: " + code_error(s);
  if (s.compared.empty()) return line(s.study);
  std::string out;
  for (const banklab::Study& d : s.compared) out += (out.empty() ? "" : "\n") + line(d);
  return out;
}

// The page brought up to date with the frame just drawn.
void publish(Page& page) {
  gui::AppState& s = *page.state;
  if (page.code_problem && !gui::code_stale(s)) {  // the code was fixed, or left for a preset
    page.code_problem = false;
    page.problem.clear();
    web::show_problem("");
  }
  if (std::string link = gui::link_to(s); link != page.link) {
    web::replace_fragment(link);
    page.link = std::move(link);
  }
  if (std::string summary = summary_of(s); summary != page.summary) {
    web::show_summary(summary);
    page.summary = std::move(summary);
  }
  if (s.copy_link_requested) {
    s.copy_link_requested = false;
    web::copy_to_clipboard(web::link_with_fragment(page.link));
    s.user.files.failed = false;
    s.user.files.status = "link copied";
  }
  std::error_code ec;
  for (const auto& file : std::filesystem::directory_iterator(web::kDownloads, ec)) {
    web::download(file.path().string());
  }
  if (s.user.settings != page.stored_settings) {
    web::store(kSettingsKey, gui::format_settings(s.user.settings));
    page.stored_settings = s.user.settings;
  }
  if (web::geometry_wanted()) web::provide_geometry(gui::geometry_json(s.frame.geometry, 1.0f));
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantSaveIniSettings) {
    web::store(kLayoutKey, ImGui::SaveIniSettingsToMemory());
    io.WantSaveIniSettings = false;
  }
}

// The canvas follows the window (and the display's pixel ratio, which scales the text).
void fit_canvas(Page& page) {
  const web::CanvasSize want = web::canvas_size();
  int width = 0, height = 0;
  glfwGetWindowSize(page.window, &width, &height);
  if (want.width != width || want.height != height) {
    glfwSetWindowSize(page.window, want.width, want.height);
    wake(page, gui::FrameReason::resize);
  }
  if (want.scale != page.content_scale) {
    page.content_scale = want.scale;
    wake(page, gui::FrameReason::resize);
  }
}

// The frame in two halves, as banklab-gui's: build it (ImGui and the app: what it would draw),
// then draw it (our GL programs and ImGui's draw data onto the canvas).
void build_frame(Page& page) {
  gui::AppState& s = *page.state;
  ImGui_ImplOpenGL3_NewFrame();
  if (gui::update_appearance(s, page.applied, page.content_scale)) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  gui::nearest_font_filtering(ImGui::GetIO(), page.filtered_font_texture);
  ImGui_ImplGlfw_NewFrame();
  gui::keep_delta_time_positive(ImGui::GetIO());  // two frames may share a timestamp
  // This frame's key changes; a tap's release waits for the next frame, asked for here.
  if (page.keys.apply(ImGui::GetIO())) wake(page, gui::FrameReason::input);
  ImGui::NewFrame();
  gui::draw_app(s);
  ImGui::Render();
}

void draw_frame(Page& page) {
  gui::AppState& s = *page.state;
  gui::upload_frame(s, page.renderer);
  int width = 0, height = 0;
  glfwGetFramebufferSize(page.window, &width, &height);
  gui::present_frame(s, page.renderer, width, height);
}

// --bench-frames N: the frame's build and submission, then its drawing (glFinish), and the
// whole interval from one frame's start to the next, which includes the browser's compositing
// and waiting for the display.
void bench_frame(Page& page, double start) {
  Bench& b = page.bench;
  build_frame(page);
  draw_frame(page);
  const double submitted = emscripten_get_now() - start;
  glFinish();
  const double drawn = emscripten_get_now() - start;
  if (b.record.wall_ms.size() < b.record.build_ms.size()) {
    // The previous frame's interval ends where this one starts; its own times were kept then.
    b.record.wall_ms.push_back(start - b.last_start);
    b.record.swap_ms.push_back(b.record.wall_ms.back() - b.record.finish_ms.back() -
                               b.record.build_ms.back());
  }
  b.last_start = start;
  if (page.frames == 0) {
    b.record.first_frame_ms = start + drawn;  // since the page began to load
    return;
  }
  b.record.build_ms.push_back(submitted);
  b.record.finish_ms.push_back(drawn - submitted);
  if (static_cast<int>(b.record.wall_ms.size()) < b.frames) return;
  b.record.preset = page.link;
  b.record.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  glfwGetFramebufferSize(page.window, &b.record.width, &b.record.height);
  b.record.vertices = ImGui::GetDrawData()->TotalVtxCount;
  b.record.lists = gui::draw_list_costs(*ImGui::GetDrawData());
  b.record.quads = static_cast<int>(page.state->frame.draw.quads().size());
  b.record.segments = static_cast<int>(page.state->frame.draw.segments().size());
  b.record.pictured = page.renderer.pictures().pictured();
  web::show_report(gui::bench_report(b.record));
  b.frames = 0;
}

void frame(void* arg) {
  Page& page = *static_cast<Page*>(arg);
  if (web::fragment_changed()) {
    const std::string fragment = web::location_fragment();
    if (fragment != page.link) open_link(page, fragment);
  }
  if (web::woken()) wake(page, gui::FrameReason::input);  // a chosen file, the test's request
  fit_canvas(page);
  const double now_ms = emscripten_get_now();
  if (page.bench.frames > 0) {  // the benchmark builds and draws every frame the browser offers
    bench_frame(page, now_ms);
  } else {
    const double now = now_ms / 1000.0;  // the pacer's clock is in seconds
    if (!page.pacer.frame_due(now)) return;
    build_frame(page);
    const std::optional<double> tick = gui::seconds_to_next_tick(*page.state);
    page.pacer.set_timer(tick ? std::optional<double>(now + *tick) : std::nullopt);
    const gui::AppState& s = *page.state;
    if (page.pacer.frame_built(gui::frame_signature(*ImGui::GetDrawData(), s.frame.draw))) {
      draw_frame(page);
    }
  }
  web::frame_built(++page.frames);
  gui::export_png(*page.state, page.renderer);
  publish(page);
}

bool open_window(Page& page) {
  if (!glfwInit()) {
    web::show_problem("This browser cannot run BankLab: GLFW did not start.");
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);  // WebGL 2
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const web::CanvasSize canvas = web::canvas_size();
  page.content_scale = canvas.scale;
  page.window = glfwCreateWindow(canvas.width, canvas.height, "BankLab", nullptr, nullptr);
  if (!page.window) {
    web::show_problem("This browser cannot run BankLab: it offers no WebGL 2 context.");
    return false;
  }
  glfwMakeContextCurrent(page.window);
  glfwSetWindowUserPointer(page.window, &page);
  glfwSetCharCallback(page.window, on_char);
  glfwSetMouseButtonCallback(page.window, on_mouse_button);
  glfwSetCursorPosCallback(page.window, on_cursor);
  glfwSetScrollCallback(page.window, on_scroll);
  return true;
}

void init_drawing(Page& page) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout lives in local storage, checked before ImGui reads it
  gui::stop_idle_animations(io);  // no frames at rest to blink the text cursor: it stays solid
  if (const std::optional<std::string> layout = web::stored(kLayoutKey)) {
    const gui::CleanIni clean = gui::sanitize_imgui_ini(*layout);
    ImGui::LoadIniSettingsFromMemory(clean.text.data(), clean.text.size());
  }
  ImGui_ImplGlfw_InitForOpenGL(page.window, true);
  glfwSetKeyCallback(page.window, queue_key);
  ImGui_ImplOpenGL3_Init(std::string(gui::kGlslVersion).c_str());
  gui::AppState& s = *page.state;
  s.res.renderer_errors = page.renderer.init(s.frame.draw);
  for (const std::string& e : s.res.renderer_errors)
    std::fprintf(stderr, "banklab: %s\n", e.c_str());
  gui::update_appearance(s, page.applied, page.content_scale);
}

}  // namespace

int main() {
  setenv("BANKLAB_DATA_DIR", kDataDir, 1);
  std::error_code ec;
  std::filesystem::create_directories(web::kDownloads, ec);
  // The page outlives main(): the browser calls frame() before each repaint from now on.
  static Page page;
  page.bench.frames = bench_frames_asked();
  open_link(page, web::location_fragment());
  if (!open_window(page)) return 1;
  init_drawing(page);
  emscripten_set_main_loop_arg(frame, &page, 0, false);
  return 0;
}
