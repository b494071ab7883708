#pragma once
// Everything banklab-gui knows, in a few plain parts:
//
//   UserChoices   what the user chose: scenario, preset, view toggles, step-through, settings
//   Study         what core says about one scenario (core/report/study.hpp); AppState keeps the
//                 one of the scenario on screen, made again by refresh() only when the scenario
//                 changed. A view that draws a scenario needs only a Study (see views.hpp), so
//                 other scenarios (a comparison) are drawn by studying them too.
//   FrameOutput   what the last frame drew: geometry (cell rectangles) and the GL draw queue
//   Resources     fonts and renderer problems, set up by main()
//   gpu           the GPU window with its worker thread, held by pointer: only the GPU window's
//                 files include it, so the views do not see the worker
//
// The functions below are the app's logic: no GL and no window, so the tests run them headless.
#include <imgui.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/render/draw_queue.hpp"
#include "app/gui/state/code_state.hpp"
#include "app/gui/state/descriptor_state.hpp"
#include "app/gui/state/drill_state.hpp"
#include "app/gui/state/kernel_state.hpp"
#include "app/gui/state/lesson_state.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/solve_state.hpp"
#include "app/gui/state/stage_state.hpp"
#include "app/gui/views/file_chooser.hpp"
#include "app/gui/views/geometry.hpp"
#include "core/model/scenario.hpp"
#include "core/report/study.hpp"

namespace banklab::gui {

struct GpuState;   // gpu_state.hpp
class ScanWorker;  // scan_worker.hpp

// Play, pause and step through the wavefronts, as the hardware serves them one per clock.
struct StepThrough {
  bool playing = false;
  int served = 0;  // wavefronts served so far: rows below this are lit
  float seconds_per_wavefront = 0.5f;
  float elapsed = 0.0f;  // since the last step while playing
};

// Which windows are open. A new panel adds a flag here and a row to kPanels (app_window.cpp).
struct Views {
  bool presets = true;
  bool controls = true;
  bool banks = true;
  bool lanes = true;
  bool tile = true;
  bool arithmetic = true;
  bool help = false;
  bool gpu = false;         // opened from the View menu or with --gpu
  bool solve = false;       // opened from the View menu or with --solve
  bool drill = false;       // D, the View menu or --drill: covers the views while open
  bool code = true;         // the access as CUDA: read-only, or typed (code_panel.cpp)
  bool kernel = false;      // a whole .cu file scanned: File > Open kernel... or --scan
  bool descriptor = false;  // the Tile window's Descriptor... button or --descriptor
};

// A PNG of one view (or of the comparison), asked for by File > Export PNG and drawn by
// export_png() (offscreen.hpp) after the frame that asked: at its own size, not the window's.
struct PngExport {
  StageView view = StageView::banks;
  int width = 1920, height = 1080;
  std::string path;
};

// What the File menu's chooser was opened for: the export, save or open it confirms.
enum class FileAction : std::uint8_t {
  png,
  svg_banks,
  svg_lanes,
  svg_tile,
  lanes_csv,
  lanes_markdown,
  derivation_markdown,
  save_scenario,
  open_scenario,
  open_kernel,
  open_trace,
};

// An exported picture's size in pixels: from kMinExportSize up to kMaxExportSize each way (an
// 8192 x 8192 RGBA image is 256 MiB to read back).
inline constexpr int kMinExportSize[2] = {320, 240};
inline constexpr int kMaxExportSize = 8192;

struct FileMenu {
  FileChooser chooser;
  FileAction action = FileAction::png;
  StageView png_view = StageView::banks;  // what Export PNG draws
  int size[2] = {1920, 1080};             // of an exported picture, in pixels
  std::string size_note;                  // the size asked for was out of range: what it became
  std::string status;                     // what the last action wrote, or why it could not
  bool failed = false;                    // status is an error
};

struct UserChoices {
  Scenario scenario;
  int preset = -1;        // index in presets() of the lesson last loaded; -1 before the first
  std::string raw_text;   // what the user typed for raw offsets
  std::string raw_error;  // why it was not accepted ("" when it was)
  CodeBox code;           // the access typed as CUDA code (code_state.hpp)
  KernelFile kernel;      // a whole .cu file scanned, one access on screen (kernel_state.hpp)
  StepThrough step;
  Settings settings;
  Views views;
  SolveState solve;             // the Solve window: families ticked, its ranking, its preview
  DescriptorWindow descriptor;  // the Descriptor window: the descriptor reading the TMA tile
  Stage stage;                  // presentation mode, comparisons (stage_state.hpp, stage_panel.cpp)
  FileMenu files;               // the File menu's chooser, export size and last result
};

struct FrameOutput {
  FrameGeometry geometry;
  DrawQueue draw;
};

// What the program around the app offers, set by its main(): banklab-gui's window can quit; the
// browser edition's page cannot (its tab is the user's to close) but has an address that
// reopens what is on screen (app/gui/platform/link.hpp).
struct Platform {
  bool quits = true;   // File > Quit
  bool links = false;  // Edit > Copy link
};

struct Resources {
  ImFont* mono_font = nullptr;               // formulas and tables; nullptr: ImGui's default font
  ImFont* small_font = nullptr;              // labels in narrow cells; nullptr: the current font
  std::vector<ImFont*> label_fonts;          // the figures' labels at a ladder of sizes (fonts.hpp)
  std::vector<std::string> renderer_errors;  // shader compile/link logs, shown in a window
};

struct AppState {
  AppState();
  ~AppState();
  AppState(const AppState&) = delete;
  AppState& operator=(const AppState&) = delete;

  UserChoices user;
  LessonMode lesson;  // a guided track being walked (lesson_state.hpp), or none
  // The views draw study, never user.scenario: a control may change the scenario in the
  // middle of a frame, and the picture must stay consistent until the next refresh().
  Study study;
  std::uint64_t study_revision = 0;  // 0: nothing studied yet; grows with every refresh()
  std::vector<Study> compared;       // user.stage.compare's, studied when it changes
  std::optional<SlideCache> slide;   // the lesson step's slide layout, for its size
  NotesShown notes;                  // presentation mode: the step's speaker notes (N)
  FrameOutput frame;
  Resources res;
  Platform platform;
  std::unique_ptr<GpuState> gpu;  // the GPU window: its runs, measurement and worker thread
  DrillState drill;               // the Drill window: its session and the answer being typed
  // The Kernel window's scans off the frame (scan_worker.hpp), created on the first one.
  std::unique_ptr<ScanWorker> scan_worker;
  // Asks the platform for a frame, from any thread: a worker posted a result (the app at rest
  // draws nothing until asked). Set by main() before the first frame; may be empty.
  std::function<void()> wake_ui;

  std::optional<PngExport> png_export;  // asked for this frame, drawn before the next
  // While export_png() draws: the view it draws, alone, filling the frame (draw_app()).
  std::optional<StageView> exporting;

  int hovered_lane = -1;         // the lane under the mouse last frame, highlighted everywhere
  bool reset_layout = false;     // View > Reset layout: default positions again this frame
  bool kernel_laid_out = false;  // the windows are laid out for the Kernel window (draw_app())
  bool quit_requested = false;
  bool copy_link_requested = false;  // Edit > Copy link, done by the platform after the frame
};

// Re-evaluates when the scenario changed since the last call; true when it did.
bool refresh(AppState& s);
int wavefront_total(const AppState& s);  // 0 without a valid analysis

// Presets. Loading replaces the whole scenario and remembers the name in the settings.
void load_preset(AppState& s, int index);
bool load_preset(AppState& s, std::string_view name);
void cycle_preset(AppState& s, int delta);  // n / p: next and previous, wrapping round
bool preset_modified(const AppState& s);    // the scenario no longer equals its preset's

// Step-through.
void toggle_play(AppState& s);
void step_by(AppState& s, int delta);
void advance_time(AppState& s, float seconds);

// How long until the app's own clock changes what it shows, or none when only an input or a
// worker can: the step-through's next wavefront while it plays; the GPU window's progress bar
// (a tenth of a second) while a job runs, and the Kernel window's while a scan runs. The app at
// rest draws nothing until then.
inline constexpr double kProgressSeconds = 0.1;
std::optional<double> seconds_to_next_tick(const AppState& s);

// The index (row, column or chunk) and the largest one the tile allows for the pattern.
int max_index(const Scenario& sc);
void move_index(AppState& s, int delta);

void toggle_lane(AppState& s, int lane);
// "0, 4, 8, ...": eight lanes a line; set_raw_offsets() reads it back.
std::string offsets_text(const std::array<std::int64_t, kWarpSize>& offsets);
// Parses 32 comma-separated offsets into the scenario; on error keeps the old ones and sets
// raw_error. Returns whether the text was accepted.
bool set_raw_offsets(AppState& s, std::string_view text);

// The pattern and op move together: the matrix pattern needs an ldmatrix/stmatrix op, the
// others ld or st.
void set_pattern(AppState& s, AccessPattern p);

// The tile view's pictures: elements where they belong, slots as stored, or both side by side
// (remembered in the settings).
void set_tile_view(AppState& s, figures::TileView view);

inline constexpr float kZoomStep = 0.125f;
void change_zoom(AppState& s, float delta);

}  // namespace banklab::gui
