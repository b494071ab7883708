#pragma once
// The command line of banklab-gui. Parsing is pure (no window, no ImGui) so the tests can
// check every rule; main() turns an error into exit status 2.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/frontend/args.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/solve_state.hpp"
#include "app/gui/state/stage_state.hpp"
#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"
#include "core/teach/drill.hpp"

namespace banklab::gui {

struct WindowSize {
  int width = 0;
  int height = 0;
  friend bool operator==(const WindowSize&, const WindowSize&) = default;
};

inline constexpr WindowSize kDefaultWindowSize{1440, 900};
inline constexpr WindowSize kMinWindowSize{320, 240};
inline constexpr WindowSize kMaxWindowSize{7680, 4320};
inline constexpr int kMaxBenchFrames = 100000;

// --block, --warp, --let and --smem: what the Code window evaluates its code for, as
// `banklab analyze`'s code form takes them.
struct CodeLaunch {
  std::array<int, 3> block = {};
  int warp = 0;
  std::string lets;  // --let's text, "j=0,k=8", as the Code window's names field shows it
  std::int64_t extern_bytes = 0;
};

struct Options {
  std::string preset;                      // empty: the last one used, else the default lesson
  std::optional<Scenario> scenario;        // the scenario flags beyond --preset (args.hpp)
  std::optional<std::string> code;         // --code, or --decl and --expr: the code box's text
  std::optional<CodeLaunch> launch;        // with code: what it is evaluated for
  std::optional<std::string> scan;         // --scan: a .cu file for the Kernel window
  std::optional<std::string> scan_kernel;  // --kernel: that kernel of the file; else the first
  std::optional<std::string> trace;        // --trace: a trace file for the Kernel window
  int scan_line = 0;                       // --line: its access on that line on screen; 0: worst
  std::optional<std::string> screenshot;   // PNG path: render, save, exit
  std::optional<std::string> geometry;     // with --screenshot: the views' cell rectangles
  std::optional<WindowSize> size;          // framebuffer size in pixels
  std::optional<Theme> theme;
  std::optional<Scheme> scheme;                // --palette standard|colour-blind
  std::optional<figures::TileView> tile_view;  // --tile-view logical|physical|both
  std::vector<CompareItem> compare;            // --compare A,B,C: 2-4 side by side
  bool present = false;                        // --present: start in presentation mode
  std::optional<float> zoom;
  int bench_frames = 0;                     // > 0: render that many frames, print timings, exit
  std::optional<int> clock;                 // step-through stopped after this many wavefronts
  bool gpu = false;                         // open the GPU window
  std::optional<std::string> gpu_results;   // a recording the GPU window opens on
  std::optional<SolveChoices> solve;        // open the Solve window, these families ticked
  bool descriptor = false;                  // open the Descriptor window on the TMA tile
  std::optional<DrillLevel> drill;          // open the Drill window at this level
  std::optional<std::uint64_t> drill_seed;  // its questions' seed
  std::optional<std::string> drill_answer;  // answer its first question (screenshots, demos)
  std::string lesson;                       // open this guided lesson (lesson_state.hpp)
  int step = 0;                             // at this step, 0-based (--step counts from 1)
  std::optional<std::string> export_dir;    // with --lesson: every step as PNG + one Markdown
  bool help = false;
};

// args excludes the program name. The grammar is banklab's (app/frontend/args.hpp): --flag value
// or --flag=value, and the scenario flags of `banklab analyze`. Every error names the option
// and what it accepts.
Expected<Options> parse_options(std::span<const std::string_view> args);
Expected<WindowSize> parse_window_size(std::string_view text);
// The flag `name` (without dashes) as banklab-gui declares it; nullptr when there is none.
const frontend::FlagSpec* find_option(std::string_view name);

std::string usage();

}  // namespace banklab::gui
