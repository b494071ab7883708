#include "app/gui/platform/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <sstream>

#include "app/frontend/scenario_flags.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {
namespace {

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<float> to_float(std::string_view text) {
  // std::from_chars for float is missing from GCC 12's libstdc++ in some configurations; strtof
  // on a NUL-terminated copy is portable and exact enough for a zoom factor.
  std::string copy(text);
  char* end = nullptr;
  float value = std::strtof(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size()) return std::nullopt;
  return value;
}

std::string preset_names() {
  std::string names;
  for (const Preset& p : presets()) {
    if (!names.empty()) names += ", ";
    names += p.name;
  }
  return names;
}

}  // namespace

Expected<WindowSize> parse_window_size(std::string_view text) {
  std::size_t x = text.find_first_of("xX");
  std::optional<int> w = x == std::string_view::npos ? std::nullopt : to_int(text.substr(0, x));
  std::optional<int> h = x == std::string_view::npos ? std::nullopt : to_int(text.substr(x + 1));
  if (!w || !h) {
    return Error{"--size expects WIDTHxHEIGHT in pixels, e.g. 1920x1080; got '" +
                 std::string(text) + "'"};
  }
  if (*w < kMinWindowSize.width || *w > kMaxWindowSize.width || *h < kMinWindowSize.height ||
      *h > kMaxWindowSize.height) {
    std::ostringstream os;
    os << "--size " << *w << "x" << *h << " is outside " << kMinWindowSize.width << "x"
       << kMinWindowSize.height << " .. " << kMaxWindowSize.width << "x" << kMaxWindowSize.height;
    return Error{os.str()};
  }
  return WindowSize{*w, *h};
}

namespace {

constexpr frontend::FlagSpec kGuiFlags[] = {
    {"theme", "T", "dark, or light for projectors"},
    {"palette", "P", "standard, or colour-blind (Okabe-Ito: blue, vermillion, green)"},
    {"tile-view", "V", "the Tile window: logical, physical, or both side by side"},
    {"compare", "A,B,..",
     "2-4 scenarios side by side: presets, scenario files, or transpose,\n"
     "transpose-padded, naive-pad-swizzle"},
    {"present", "", "start in presentation mode (F5): one view, large type"},
    {"zoom", "Z", "text and widget scale on top of the screen's DPI (0.5 to 4)"},
    {"size", "WxH", "window size in pixels (screenshot default 1920x1080)"},
    {"screenshot", "PNG", "render in a real window, save a PNG of exactly WxH, exit"},
    {"geometry", "JSON", "with --screenshot: write where the views put their cells"},
    {"clock", "N", "stop the step-through after N wavefronts (0 = none served)"},
    {"bench-frames", "N", "render N frames, print CPU and GPU time per frame, exit"},
    {"gpu", "", "open the GPU window (Run on GPU, Measure on GPU)"},
    {"gpu-results", "FILE",
     "open the GPU window on a recording ('banklab gpu-bench --record'; - reads it\n"
     "from standard input)"},
    {"solve", "FAMILIES",
     "open the Solve window with these families ticked and solved, e.g.\n"
     "row:16:st,column (its check boxes: row:st, row:4:st, row:8:st, row:16:st,\n"
     "row, row:16, column, column:st, ldmatrix.x4, ldmatrix.x2, stmatrix.x4)"},
    {"drill", "LEVEL", "open the Drill window: weak, hire or strong-hire"},
    {"drill-seed", "N", "with --drill: the questions' seed (default: a new one)"},
    {"drill-answer", "TEXT", "with --drill: answer the first question (for screenshots)"},
    {"code", "CODE", "open on this CUDA code: a __shared__ declaration and one access"},
    {"scan", "FILE.cu",
     "open the Kernel window on this file: every shared-memory line of its kernels\n"
     "('banklab scan'), the worst access on screen"},
    {"line", "N", "with --scan: the worst access on line N on screen"},
    {"lesson", "NAME", "open a guided lesson (banklab lesson list)"},
    {"step", "N", "with --lesson: start at step N (from 1)"},
    {"export-dir", "DIR", "with --lesson: write every step as NAME-NN.png and NAME.md, exit"},
};

const frontend::CommandSyntax& gui_syntax() {
  static const std::string footer =
      "With no display (a server, ssh, CI), take a screenshot under a virtual X server:\n"
      "  xvfb-run -s '-screen 0 1920x1080x24' banklab-gui --preset " +
      std::string(kDefaultPreset) +
      " --screenshot out.png\n"
      "Any scenario, as 'banklab analyze' takes it:\n"
      "  banklab-gui --dtype bf16 --pad 1 --access column --index 3\n"
      "\npresets: " +
      preset_names() + "\n";
  static const std::string description =
      "CUDA shared-memory banks, lanes and wavefronts, drawn and explained. Without --preset\n"
      "or scenario flags it opens the last lesson used, else " +
      std::string(kDefaultPreset) + ".\n";
  static const frontend::CommandSyntax syntax{
      .flags = kGuiFlags,
      .program = "banklab-gui",
      .groups = frontend::kScenarioGroups,
      .usage =
          "usage: banklab-gui [--preset NAME] [scenario flags] [--theme dark|light] [--zoom Z]\n"
          "                   [--size WxH]\n"
          "       banklab-gui [--preset NAME] [scenario flags] --screenshot OUT.png [--size WxH]\n"
          "       banklab-gui [--preset NAME] --bench-frames N [--size WxH]\n"
          "       banklab-gui --lesson NAME [--step N] [--export-dir DIR [--size WxH]]\n"
          "       banklab-gui --scan FILE.cu [--line N]\n",
      .description = description,
      .flags_title = "Window:",
      .footer = footer};
  return syntax;
}

// --drill LEVEL [--drill-seed N] [--drill-answer TEXT].
Expected<bool> read_drill_flags(const frontend::Args& args, Options& o) {
  if (const auto v = args.value("drill")) {
    o.drill = parse_level(*v);
    if (!o.drill) return Error{"--drill is weak, hire or strong-hire; got " + quote(*v)};
  } else if (args.has("drill-seed") || args.has("drill-answer")) {
    return Error{"--drill-seed and --drill-answer go with --drill LEVEL"};
  }
  const Expected<std::int64_t> seed = args.integer("drill-seed", 0, 0, INT64_MAX);
  if (!seed) return Error{seed.error()};
  if (args.has("drill-seed")) o.drill_seed = static_cast<std::uint64_t>(*seed);
  if (const auto v = args.value("drill-answer")) o.drill_answer = std::string(*v);
  return true;
}

// The GUI's own flags, read from the parsed words.
Expected<bool> read_window_flags(const frontend::Args& args, Options& o) {
  if (const auto v = args.value("screenshot")) {
    o.screenshot = std::string(*v);
  }
  if (const auto v = args.value("geometry")) o.geometry = std::string(*v);
  if (const auto v = args.value("size")) {
    Expected<WindowSize> s = parse_window_size(*v);
    if (!s) return Error{s.error()};
    o.size = *s;
  }
  if (const auto v = args.value("theme")) {
    if (*v == "dark") {
      o.theme = Theme::dark;
    } else if (*v == "light") {
      o.theme = Theme::light;
    } else {
      return Error{"--theme is 'dark' or 'light'; got " + quote(*v)};
    }
  }
  if (const auto v = args.value("compare")) {
    Expected<std::vector<CompareItem>> items = parse_compare(*v);
    if (!items) return Error{items.error()};
    o.compare = std::move(*items);
  }
  o.present = args.has("present");
  if (const auto v = args.value("palette")) {
    o.scheme = parse_scheme(*v);
    if (!o.scheme) return Error{"--palette is 'standard' or 'colour-blind'; got " + quote(*v)};
  }
  if (const auto v = args.value("tile-view")) {
    o.tile_view = figures::parse_tile_view(*v);
    if (!o.tile_view) {
      return Error{"--tile-view is logical, physical or both; got " + quote(*v)};
    }
  }
  if (const auto v = args.value("zoom")) {
    std::optional<float> z = to_float(*v);
    if (!z || !(*z >= kMinZoom && *z <= kMaxZoom)) {
      std::ostringstream os;
      os << "--zoom is a number from " << kMinZoom << " to " << kMaxZoom << "; got " << quote(*v);
      return Error{os.str()};
    }
    o.zoom = *z;
  }
  if (const auto v = args.value("clock")) {
    std::optional<int> n = to_int(*v);
    if (!n || *n < 0 || *n > kMaxWavefronts) {
      return Error{"--clock is a wavefront count from 0 to " + std::to_string(kMaxWavefronts) +
                   "; got " + quote(*v)};
    }
    o.clock = *n;
  }
  if (const auto v = args.value("bench-frames")) {
    std::optional<int> n = to_int(*v);
    if (!n || *n < 1 || *n > kMaxBenchFrames) {
      return Error{"--bench-frames is a frame count from 1 to " + std::to_string(kMaxBenchFrames) +
                   "; got " + quote(*v)};
    }
    o.bench_frames = *n;
  }
  o.gpu = args.has("gpu");
  if (const auto v = args.value("gpu-results")) o.gpu_results = std::string(*v);
  if (const auto v = args.value("lesson")) o.lesson = std::string(*v);
  if (const auto v = args.value("step")) {
    std::optional<int> n = to_int(*v);
    if (!n || *n < 1) return Error{"--step is a step number from 1; got " + quote(*v)};
    o.step = *n - 1;
  }
  if (const auto v = args.value("export-dir")) o.export_dir = std::string(*v);
  if ((args.has("step") || o.export_dir) && o.lesson.empty())
    return Error{std::string(args.has("step") ? "--step" : "--export-dir") +
                 " goes with --lesson NAME"};
  if (const auto v = args.value("solve")) {
    const Expected<SolveChoices> chosen = parse_solve_choices(*v);
    if (!chosen) return Error{"--solve: " + chosen.error()};
    o.solve = *chosen;
  }
  if (const auto v = args.value("code")) o.code = std::string(*v);
  if (const auto v = args.value("scan")) o.scan = std::string(*v);
  if (const auto v = args.value("line")) {
    std::optional<int> n = to_int(*v);
    if (!n || *n < 1) return Error{"--line is a line number from 1; got " + quote(*v)};
    if (!o.scan) return Error{"--line goes with --scan FILE.cu"};
    o.scan_line = *n;
  }
  return read_drill_flags(args, o);
}

}  // namespace

Expected<Options> parse_options(std::span<const std::string_view> words) {
  const Expected<frontend::Args> args = frontend::parse_args(gui_syntax(), words);
  if (!args) return Error{args.error()};
  Options o;
  o.help = args->help();
  if (o.help) return o;
  if (const Expected<bool> window = read_window_flags(*args, o); !window) {
    return Error{window.error()};
  }
  // The scenario flags: --preset alone opens that lesson; any other scenario flag opens the
  // scenario they describe (on top of the --preset, when one is given).
  if (const auto name = args->value("preset")) {
    if (!find_preset(*name)) return Error{unknown_preset(*name)};
    o.preset = *name;
  }
  if (std::ranges::any_of(args->given(), [](std::string_view flag) {
        return flag != "preset" && frontend::is_scenario_flag(flag);
      })) {
    Expected<Scenario> s = frontend::scenario_from_flags(*args);
    if (!s) return Error{s.error()};
    o.scenario = *s;
  }
  if (o.geometry && !o.screenshot) return Error{"--geometry only goes with --screenshot"};
  if (o.export_dir && (o.screenshot || o.bench_frames > 0))
    return Error{"--export-dir is a run of its own: leave out --screenshot and --bench-frames"};
  if (o.screenshot && o.bench_frames > 0) {
    return Error{"--screenshot and --bench-frames are separate runs; give one of them"};
  }
  return o;
}

std::string usage() {
  return frontend::help_text(gui_syntax());
}

}  // namespace banklab::gui
