// banklab-gui: the desktop app. Read it like Dear ImGui's GLFW + OpenGL 3 example: error
// callback, GLFW, GL 3.3 core hints, window, ImGui context, backends, our state and renderer,
// then a loop of render_frame() (new frame; draw the app; render), cleanup in reverse order.
// Four drivers run that loop: run_interactive() (the window: it builds a frame only when the
// FramePacer says one is asked for, and draws it only when its picture changed), run_screenshot()
// (render offscreen at an exact size, save a PNG, exit), run_export() (a lesson's steps as PNGs)
// and run_bench() (--bench-frames: render N frames, print the timings, exit).
//
// [SECTION] Messages and measures
// [SECTION] Asking for frames
// [SECTION] The window and drawing
// [SECTION] One frame
// [SECTION] The drivers
// [SECTION] run and main
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/gui/render/gl.hpp"  // before GLFW, which must not pull in its own GL header
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "app/figures/deck.hpp"
#include "app/frontend/file_io.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/frame_bench.hpp"
#include "app/gui/platform/frame_pacing.hpp"
#include "app/gui/platform/imgui_ini.hpp"
#include "app/gui/platform/key_queue.hpp"
#include "app/gui/platform/offscreen.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/platform/startup.hpp"
#include "app/gui/platform/stop_signals.hpp"
#include "app/gui/render/gl_renderer.hpp"
#include "app/gui/render/gpu_timer.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/scan_worker.hpp"
#include "app/gui/state/settings.hpp"
#include "core/base/format.hpp"
#include "core/base/version.hpp"
#include "core/model/presets.hpp"

namespace {

using banklab::gui::AppState;
using Clock = std::chrono::steady_clock;

// [SECTION] Messages and measures

// Every message the app prints: one line, control bytes (a NUL, an escape sequence from a
// settings file) shown as \xNN, never passed to the terminal or cut short.
void warn(std::string_view message) {
  std::fprintf(stderr, "banklab-gui: %s\n",
               banklab::shown(message, std::string_view::npos).c_str());
}

void glfw_error_callback(int error, const char* description) {
  std::fprintf(stderr, "banklab-gui: GLFW error %d: %s\n", error, description);
}

void print_no_display_help(const char* why) {
  std::fprintf(stderr,
               "banklab-gui: %s, so there is no screen to open a window on.\n"
               "To get a picture anyway, run it under a virtual X server:\n"
               "  xvfb-run -s '-screen 0 1920x1080x24' banklab-gui --preset %s "
               "--screenshot out.png\n"
               "or read the same analysis as text: banklab explain %s\n",
               why, std::string(banklab::kDefaultPreset).c_str(),
               std::string(banklab::kDefaultPreset).c_str());
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// CPU time of the whole process (all threads, llvmpipe's included), user plus system: unlike
// wall time it does not grow when other programs share the cores.
double process_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto ms = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) * 1e-3;
  };
  return ms(u.ru_utime) + ms(u.ru_stime);
}

// The preset with the most tile elements: the heaviest heat map, what --bench-frames draws by
// default.
std::string_view heaviest_preset() {
  const banklab::Preset* best = nullptr;
  for (const banklab::Preset& p : banklab::presets()) {
    const banklab::TileLayout& t = p.scenario.tile;
    if (!best || std::int64_t{t.rows} * (t.cols + t.pad) >
                     std::int64_t{best->scenario.tile.rows} *
                         (best->scenario.tile.cols + best->scenario.tile.pad)) {
      best = &p;
    }
  }
  return best ? best->name : banklab::kDefaultPreset;
}

// [SECTION] Asking for frames

// What the window's callbacks reach through its user pointer: the pacer they ask for frames,
// and the keys queued for ImGui one change a frame (key_queue.hpp).
struct WindowInput {
  banklab::gui::FramePacer& pacer;
  banklab::gui::KeyQueue keys;
};

WindowInput& input_of(GLFWwindow* window) {
  return *static_cast<WindowInput*>(glfwGetWindowUserPointer(window));
}

void ask(GLFWwindow* window, banklab::gui::FrameReason why) {
  input_of(window).pacer.request(why);
}

// Every event that may change what the window shows asks for a frame. Installed before
// ImGui's GLFW backend, which chains to them; the window's user pointer is `input`. Keys are
// queue_keys()'s, installed after the backend.
void ask_for_frames(GLFWwindow* window, WindowInput& input) {
  using banklab::gui::FrameReason;
  glfwSetWindowUserPointer(window, &input);
  glfwSetCursorPosCallback(window,
                           [](GLFWwindow* w, double, double) { ask(w, FrameReason::input); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int) { ask(w, FrameReason::input); });
  glfwSetMouseButtonCallback(window,
                             [](GLFWwindow* w, int, int, int) { ask(w, FrameReason::input); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double) { ask(w, FrameReason::input); });
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int) { ask(w, FrameReason::input); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int) { ask(w, FrameReason::input); });
  glfwSetFramebufferSizeCallback(window,
                                 [](GLFWwindow* w, int, int) { ask(w, FrameReason::resize); });
  glfwSetWindowContentScaleCallback(
      window, [](GLFWwindow* w, float, float) { ask(w, FrameReason::resize); });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { ask(w, FrameReason::expose); });
  glfwSetWindowIconifyCallback(window, [](GLFWwindow* w, int) { ask(w, FrameReason::expose); });
}

// Keys go to the queue rather than to ImGui's backend, which would write io.KeysDown at once
// and lose a press released before the next frame. Installed after the backend, replacing its
// key callback (the others stay ImGui's).
void queue_keys(GLFWwindow* window) {
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
    if (action == GLFW_REPEAT) return;
    input_of(w).keys.push(key, action == GLFW_PRESS);
    ask(w, banklab::gui::FrameReason::input);
  });
}

// [SECTION] The window and drawing

// The window, its GL context and what is drawn with it.
struct Gui {
  GLFWwindow* window = nullptr;
  banklab::gui::WindowSize size;
  bool offscreen = false;  // --screenshot: a hidden window, drawn into target at size
  banklab::gui::GlRenderer renderer;
  banklab::gui::OffscreenTarget target;
  banklab::gui::GpuTimer gpu_timer;  // --bench-frames: the GPU time of each frame
  bool timed = false;
  banklab::gui::Appearance applied;
  GLuint filtered_font_texture = 0;
  float content_scale = 1.0f;
  std::filesystem::path ini_path;  // imgui.ini, loaded and saved by us (imgui_ini.hpp); empty: none
  // banklab-gui.conf, saved as the settings change; none in batch runs.
  std::optional<banklab::gui::SettingsFile> settings;
  std::string gl_problems;  // batch runs: GL errors, frame by frame
  int frames = 0;
  WindowInput* input = nullptr;  // the interactive window's; batch runs take no input
};

banklab::gui::WindowSize window_size(const banklab::gui::Options& opt, bool batch) {
  return opt.size.value_or(batch ? banklab::gui::WindowSize{1920, 1080}
                                 : banklab::gui::kDefaultWindowSize);
}

// GLFW and a GL 3.3 core context. No display is a state to explain, not a crash.
bool open_window(Gui& g, bool vsync) {
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) {
    print_no_display_help("no display: DISPLAY is not set");
    return false;
  }
  glfwSetErrorCallback(glfw_error_callback);
  if (!glfwInit()) {
    print_no_display_help(("cannot open the display '" + std::string(display) + "'").c_str());
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  if (g.offscreen) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  g.window = glfwCreateWindow(g.size.width, g.size.height, "BankLab: shared-memory banks", nullptr,
                              nullptr);
  if (!g.window) {
    std::fprintf(stderr, "banklab-gui: cannot create a window with an OpenGL 3.3 core context\n");
    glfwTerminate();
    return false;
  }
  if (!g.offscreen) {
    glfwSetWindowSizeLimits(g.window, banklab::gui::kMinWindowSize.width,
                            banklab::gui::kMinWindowSize.height, banklab::gui::kMaxWindowSize.width,
                            banklab::gui::kMaxWindowSize.height);
  }
  glfwMakeContextCurrent(g.window);
  glfwSwapInterval(vsync ? 1 : 0);
  return true;
}

// Dear ImGui (its window layout in imgui.ini next to our settings), its backends, our renderer.
void init_drawing(Gui& g, AppState& state, const std::optional<std::filesystem::path>& config) {
  namespace gui = banklab::gui;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  if (g.settings) {
    // The first save makes the folder and repairs the lines that had warnings; a file that was
    // not read is left as it is.
    if (!g.settings->kept()) {
      warn("settings will not be kept: " + (*config / gui::kSettingsFileName).string() +
           " was not read, so it is not written either");
    } else if (const banklab::Expected<void> saved =
                   g.settings->save(state.user.settings, /*force=*/true);
               !saved) {
      warn("settings will not be kept: " + saved.error());
    }
    if (gui::make_settings_folder(*config)) g.ini_path = *config / gui::kImGuiIniFileName;
  }
  // ImGui neither reads nor writes imgui.ini itself: it trusts the file, and a corrupt one
  // would crash every start. load_imgui_ini() checks it first.
  ImGui::GetIO().IniFilename = nullptr;
  banklab::gui::stop_idle_animations(ImGui::GetIO());
  if (!g.ini_path.empty()) {
    std::string warning = gui::load_imgui_ini(g.ini_path);
    if (!warning.empty()) warn(warning);
  }
  ImGui_ImplGlfw_InitForOpenGL(g.window, true);
  if (g.input) queue_keys(g.window);
  ImGui_ImplOpenGL3_Init(std::string(banklab::gui::kGlslVersion).c_str());

  state.res.renderer_errors = g.renderer.init(state.frame.draw);
  for (const std::string& e : state.res.renderer_errors) {
    std::fprintf(stderr, "banklab-gui: %s\n", e.c_str());
  }
  if (g.offscreen) {
    if (const banklab::Expected<void> made = g.target.create(g.size.width, g.size.height); !made) {
      std::fprintf(stderr, "banklab-gui: %s\n", made.error().c_str());
      state.res.renderer_errors.push_back(made.error());
    }
  }
  if (g.timed) g.gpu_timer.init();
  if (!g.offscreen) glfwGetWindowContentScale(g.window, &g.content_scale, nullptr);
  banklab::gui::update_appearance(state, g.applied, g.content_scale);
}

// [SECTION] One frame

// The fonts and style for the window's DPI, zoom and theme, rebuilt when one of them changed.
void prepare_frame(Gui& g, AppState& state) {
  ImGui_ImplOpenGL3_NewFrame();
  // Re-read every frame: the window may have moved to a monitor with another DPI.
  if (!g.offscreen) glfwGetWindowContentScale(g.window, &g.content_scale, nullptr);
  if (banklab::gui::update_appearance(state, g.applied, g.content_scale)) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  banklab::gui::nearest_font_filtering(ImGui::GetIO(), g.filtered_font_texture);
}

// The window's frame in two halves: build it (ImGui and the app: what it would draw), then
// draw it (our GL programs and ImGui's draw data into the window's framebuffer). The
// interactive loop draws only the frames whose picture changed (frame_pacing.hpp).
void build_frame(Gui& g, AppState& state) {
  prepare_frame(g, state);
  ImGui_ImplGlfw_NewFrame();
  banklab::gui::keep_delta_time_positive(ImGui::GetIO());
  // This frame's key changes; a tap's release waits for the next frame, asked for here.
  if (g.input && g.input->keys.apply(ImGui::GetIO()))
    g.input->pacer.request(banklab::gui::FrameReason::input);
  ImGui::NewFrame();
  banklab::gui::draw_app(state);
  ImGui::Render();
  ++g.frames;
}

void draw_frame(Gui& g, AppState& state) {
  namespace gui = banklab::gui;
  gui::upload_frame(state, g.renderer);
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(g.window, &fb_w, &fb_h);
  if (g.timed) g.gpu_timer.begin();
  gui::present_frame(state, g.renderer, fb_w, fb_h);
  if (g.timed) g.gpu_timer.end();
}

// One whole frame: into the window, or into the offscreen target (offscreen.hpp).
void render_frame(Gui& g, AppState& state) {
  if (g.offscreen) {
    prepare_frame(g, state);
    banklab::gui::offscreen_frame(state, g.renderer, g.target);
    ++g.frames;
  } else {
    build_frame(g, state);
    draw_frame(g, state);
  }
}

// Batch runs report GL errors; the frame number says when they began.
void collect_gl_errors(Gui& g) {
  if (std::string e = banklab::gui::gl_errors(); !e.empty()) {
    g.gl_problems += "frame " + std::to_string(g.frames) + ": " + e + "\n";
  }
}

void save_layout(Gui& g) {
  if (const banklab::Expected<void> saved = banklab::gui::save_imgui_ini(g.ini_path); !saved) {
    warn(saved.error());
    g.ini_path.clear();  // said once, not every few seconds
  }
}

// The settings as they change, so that nothing is lost when the app is stopped (a no-op when
// nothing changed; a failure is said once, then saves stop).
void keep_settings(Gui& g, AppState& state) {
  if (!g.settings) return;
  if (const banklab::Expected<void> saved = g.settings->save(state.user.settings); !saved) {
    warn("settings will not be kept: " + saved.error());
  }
}

// The window's size within kMaxWindowSize, whatever resized it: GLFW asks the window manager
// to keep it there, but without one (or with one that ignores the hint) the window can grow to
// 32767x32767, whose framebuffer (4 GiB) llvmpipe cannot allocate. Such a size is put back
// before anything is drawn at it; true when the frame is to be skipped.
bool oversized_window(Gui& g) {
  int width = 0, height = 0;
  glfwGetWindowSize(g.window, &width, &height);
  const banklab::gui::WindowSize max = banklab::gui::kMaxWindowSize;
  if (width <= max.width && height <= max.height) return false;
  glfwSetWindowSize(g.window, std::min(width, max.width), std::min(height, max.height));
  return true;
}

// [SECTION] The drivers

int run_interactive(Gui& g, AppState& state, banklab::gui::FramePacer& pacer) {
  namespace gui = banklab::gui;
  // At rest no frame is built until an event, a worker's result (which posts an empty event) or
  // the step-through's next wavefront asks for one. The loop still wakes twice a second, with
  // nothing to build, to see a stop signal: a signal may land on another thread (llvmpipe's,
  // the GPU worker's) and leave glfwWaitEventsTimeout() asleep.
  constexpr double kLongestWait = 0.5;
  pacer.request(gui::FrameReason::expose);  // the first picture
  while (!glfwWindowShouldClose(g.window) && !state.quit_requested && gui::stop_signal() == 0) {
    const double wait = pacer.wait_seconds(glfwGetTime()).value_or(kLongestWait);
    if (wait > 0.0) {
      glfwWaitEventsTimeout(std::min(wait, kLongestWait));
    } else {
      glfwPollEvents();
    }
    // Checked after the events, which may have just resized the window, and before a frame is
    // built at that size. A minimised window shows nothing (restoring it is an expose, which
    // asks for a frame); an oversized one is being put back (its resize asks for one).
    if (glfwGetWindowAttrib(g.window, GLFW_ICONIFIED) || oversized_window(g)) {
      glfwWaitEventsTimeout(0.1);
      continue;
    }
    if (!pacer.frame_due(glfwGetTime())) continue;
    build_frame(g, state);
    const std::optional<double> tick = gui::seconds_to_next_tick(state);
    pacer.set_timer(tick ? std::optional<double>(glfwGetTime() + *tick) : std::nullopt);
    if (pacer.frame_built(gui::frame_signature(*ImGui::GetDrawData(), state.frame.draw))) {
      draw_frame(g, state);
      glfwSwapBuffers(g.window);
    }
    gui::export_png(state, g.renderer);  // File > Export PNG asked in that frame
    keep_settings(g, state);
    if (ImGui::GetIO().WantSaveIniSettings && !g.ini_path.empty()) save_layout(g);
  }
  return 0;
}

int run_screenshot(Gui& g, AppState& state, const banklab::gui::Options& opt) {
  namespace gui = banklab::gui;
  const Clock::time_point start = Clock::now();
  // ImGui needs a frame or two to size tables and windows; the screenshot is the fourth.
  constexpr int kScreenshotFrame = 4;
  // The GPU window asks the driver on a worker thread; the screenshot waits until its answer
  // (a device, or why there is none) is drawn, so it never shows "asking" by chance of timing.
  constexpr auto kGpuWait = std::chrono::seconds(60);
  while (!glfwWindowShouldClose(g.window) && !state.quit_requested) {
    glfwPollEvents();
    render_frame(g, state);
    collect_gl_errors(g);
    if (g.frames < kScreenshotFrame) continue;
    if (state.user.views.gpu && !state.gpu->settled()) {
      if (Clock::now() - start > kGpuWait) {
        std::fprintf(stderr, "banklab-gui: the GPU worker did not answer within 60 s\n");
        return 1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    // settled() became true in this frame's poll, before the window was drawn: it is shown.
    banklab::Expected<void> written = gui::save_png(g.target, *opt.screenshot);
    if (written && opt.geometry) {
      written = banklab::frontend::replace_file(*opt.geometry,
                                                gui::geometry_json(state.frame.geometry, 1.0f));
    }
    if (!written) {
      warn(written.error());
      return 1;
    }
    break;
  }
  return 0;
}

// --lesson NAME --export-dir DIR: every step of the lesson as a slide, DIR/NAME-NN.png (drawn
// offscreen as a screenshot is), the texts as DIR/NAME.md (a handout that shows the slides) and
// DIR/NAME.html (one deck: the slides' text and their figures as SVG, keys to step).
int run_export(Gui& g, AppState& state, const std::filesystem::path& dir) {
  namespace gui = banklab::gui;
  namespace figures = banklab::figures;
  constexpr int kFramesPerStep = 2;  // ImGui's fonts settle on the first frame
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "banklab-gui: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  const banklab::Lesson& lesson = *state.lesson.lesson;
  std::vector<std::string> images;
  std::vector<figures::Slide> slides;
  state.exporting = gui::StageView::slide;  // draw_app() draws the slide alone, every frame
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    gui::go_to_step(state, static_cast<int>(i));
    for (int f = 0; f < kFramesPerStep && !glfwWindowShouldClose(g.window); ++f) {
      glfwPollEvents();
      render_frame(g, state);
      collect_gl_errors(g);
    }
    char name[64];
    std::snprintf(name, sizeof name, "-%02zu.png", i + 1);
    images.push_back(lesson.name + name);
    slides.push_back(gui::lesson_slide(state));
    if (const banklab::Expected<void> written =
            gui::save_png(g.target, (dir / images.back()).string());
        !written) {
      warn(written.error());
      return 1;
    }
  }
  state.exporting.reset();
  const auto width = static_cast<float>(g.size.width), height = static_cast<float>(g.size.height);
  const figures::FigureStyle style = gui::export_style(state, height);
  for (const auto& [file, text] :
       {std::pair{dir / (lesson.name + ".md"), banklab::to_markdown(lesson, images)},
        std::pair{dir / (lesson.name + ".html"),
                  figures::html_deck(lesson.title, slides, width, height, style)}}) {
    banklab::Expected<void> written = banklab::frontend::replace_file(file.string(), text);
    if (!written) {
      warn(written.error());
      return 1;
    }
  }
  return 0;
}

int run_bench(Gui& g, AppState& state, int frames, Clock::time_point start) {
  namespace gui = banklab::gui;
  gui::BenchRecord bench;
  while (!glfwWindowShouldClose(g.window) && !state.quit_requested) {
    Clock::time_point frame_start = Clock::now();
    glfwPollEvents();
    render_frame(g, state);
    collect_gl_errors(g);
    double submitted = ms_since(frame_start);
    // The benchmark waits for the rendering before the swap, so that drawing and presenting
    // (llvmpipe copying the frame to the X server) are timed apart.
    glFinish();
    double drawn = ms_since(frame_start);
    glfwSwapBuffers(g.window);
    if (g.frames == 1) {
      glFinish();
      bench.first_frame_ms = ms_since(start);
      bench.first_frame_cpu_ms = process_cpu_ms();
    } else {
      bench.add_frame(submitted, drawn, ms_since(frame_start));
    }
    if (g.frames > frames) break;
  }
  bench.cpu_per_frame_ms =
      (process_cpu_ms() - bench.first_frame_cpu_ms) / std::max(1, g.frames - 1);
  bench.gpu_ms = g.gpu_timer.finish();
  if (!bench.gpu_ms.empty()) bench.gpu_ms.erase(bench.gpu_ms.begin());  // builds textures
  bench.preset = state.user.settings.preset;
  bench.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  bench.width = g.size.width;
  bench.height = g.size.height;
  bench.vertices = ImGui::GetDrawData()->TotalVtxCount;
  bench.lists = gui::draw_list_costs(*ImGui::GetDrawData());
  bench.quads = static_cast<int>(state.frame.draw.quads().size());
  bench.segments = static_cast<int>(state.frame.draw.segments().size());
  bench.pictured = g.renderer.pictures().pictured();
  std::fputs(gui::bench_report(bench).c_str(), stdout);
  return 0;
}

// [SECTION] run and main

int run(int argc, char** argv) {
  namespace gui = banklab::gui;
  Clock::time_point start = Clock::now();
  // llvmpipe and the GL driver allocate and free multi-megabyte buffers every frame (vertex
  // data, the 8 MB image handed to X at 1080p). With glibc's defaults each one is a fresh mmap
  // or a heap trimmed back to the kernel, and the new pages fault in and are zeroed again:
  // about a sixth of a frame's CPU time. Keeping freed memory in the process avoids that.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);

  // Arguments: bad ones end here with status 2, before any window.
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--version") {  // version, commit, data folder
    std::fputs(banklab::version_text("banklab-gui").c_str(), stdout);
    return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
  }
  banklab::Expected<gui::Options> parsed = gui::parse_options(args);
  if (!parsed) {
    warn(parsed.error());
    return 2;
  }
  const gui::Options& opt = *parsed;
  if (opt.help) {
    std::fputs(gui::usage().c_str(), stdout);
    return 0;
  }
  // Screenshots and benchmarks are reproducible: they neither read nor write the settings.
  bool bench = opt.bench_frames > 0;
  bool batch = opt.screenshot || bench || opt.export_dir;
  std::optional<std::filesystem::path> config =
      batch ? std::nullopt : gui::config_dir_from_environment();
  if (!batch) gui::catch_stop_signals();  // the interactive loop ends on them, saving first
  Gui g;
  if (config) {
    g.settings.emplace(*config / gui::kSettingsFileName);
    for (const std::string& w : g.settings->warnings()) warn(w);
  }
  // Declared before the state: the GPU window's worker thread asks it for frames until the
  // state ends that thread.
  gui::FramePacer pacer;
  WindowInput input{pacer, {}};
  AppState state;
  gui::apply_options(state, opt, g.settings ? &g.settings->loaded() : nullptr,
                     window_size(opt, batch),
                     !opt.preset.empty() ? std::string_view(opt.preset)
                     : bench             ? heaviest_preset()
                                         : std::string_view());
  // A recording that cannot be shown, a kernel file that cannot be scanned, or a lesson or step
  // that does not exist, is the user's to fix: exit 2. A lesson's step sets the scenario, over
  // the preset.
  if (const banklab::Expected<void> opened = gui::open_named(state, opt); !opened) {
    warn(opened.error());
    return 2;
  }
  g.size = window_size(opt, batch);
  g.offscreen = opt.screenshot.has_value() || opt.export_dir.has_value();
  g.timed = bench;
  if (!open_window(g, !bench)) return 1;  // the benchmark measures, not waits
  const bool interactive = !batch;
  if (interactive) {
    g.input = &input;
    ask_for_frames(g.window, input);  // before ImGui's backend, which chains to these callbacks
    state.wake_ui = [&pacer] {
      pacer.request(gui::FrameReason::worker);
      glfwPostEmptyEvent();  // ends the loop's wait for events; safe from any thread
    };
    state.gpu->wake_ui = state.wake_ui;
  }
  init_drawing(g, state, config);

  int status = opt.screenshot   ? run_screenshot(g, state, opt)
               : opt.export_dir ? run_export(g, state, *opt.export_dir)
               : bench          ? run_bench(g, state, opt.bench_frames, start)
                                : run_interactive(g, state, pacer);
  if (batch && (!g.gl_problems.empty() || !state.res.renderer_errors.empty())) {
    std::fprintf(stderr, "banklab-gui: GL errors while rendering:\n%s", g.gl_problems.c_str());
    status = 3;
  }

  // Cleanup, in the reverse order of creation.
  keep_settings(g, state);
  if (!g.ini_path.empty()) save_layout(g);
  g.target.destroy();
  g.renderer.shutdown();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  // The workers' threads wake GLFW's loop: they end before GLFW does (a scan still running is
  // waited for; core bounds its work).
  state.gpu->worker.reset();
  state.scan_worker.reset();
  glfwDestroyWindow(g.window);
  glfwTerminate();
  gui::end_by_stop_signal();  // stopped by a signal: ended by it, now that all is saved
  return status;
}

}  // namespace

// Whatever escapes (an allocation that fails) ends with a message and status 1, not an abort.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "banklab-gui: stopped by an unexpected error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "banklab-gui: stopped by an unexpected error\n");
  }
  return 1;
}
