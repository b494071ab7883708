#include "app/gui/platform/options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <sstream>

#include "app/frontend/code_flags.hpp"
#include "app/frontend/figure_flags.hpp"
#include "app/frontend/scenario_flags.hpp"
#include "core/base/format.hpp"
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
  const std::optional<Dimensions> size = parse_dimensions(text);
  if (!size) {
    return Error{"--size expects WIDTHxHEIGHT in pixels, e.g. 1920x1080; got " + quote(text)};
  }
  const WindowSize s{size->first, size->second};
  if (s.width < kMinWindowSize.width || s.width > kMaxWindowSize.width ||
      s.height < kMinWindowSize.height || s.height > kMaxWindowSize.height) {
    return Error{format("--size %dx%d is outside %dx%d .. %dx%d", s.width, s.height,
                        kMinWindowSize.width, kMinWindowSize.height, kMaxWindowSize.width,
                        kMaxWindowSize.height)};
  }
  return s;
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
    {"descriptor", "",
     "open the Descriptor window: the TMA tile on screen read by wgmma, the\n"
     "descriptor that reads it (a preset with a TMA swizzle, e.g. stmatrix-swizzled)"},
    {"drill", "LEVEL", "open the Drill window: weak, hire or strong-hire"},
    {"drill-seed", "N", "with --drill: the questions' seed (default: a new one)"},
    {"drill-answer", "TEXT", "with --drill: answer the first question (for screenshots)"},
    {"code", "CODE", "open on this CUDA code: a __shared__ declaration and one access"},
    {"scan", "FILE.cu",
     "open the Kernel window on this file: every shared-memory line of its kernels\n"
     "('banklab scan'), the worst access on screen"},
    {"kernel", "NAME", "with --scan: this kernel of the file on screen (default: the first)"},
    {"line", "N",
     "with --scan or --trace: the worst access on line N on screen (with --scan, in\n"
     "whichever kernel of the file has one there; with --kernel, in that kernel)"},
    {"trace", "FILE.json",
     "open the Kernel window on a trace ('banklab trace -o FILE.json'): a real\n"
     "run's accesses, line by line, beside the hardware's counts"},
    {"lesson", "NAME", "open a guided lesson (banklab lesson list)"},
    {"step", "N", "with --lesson: start at step N (from 1)"},
    {"export-dir", "DIR", "with --lesson: write every step as NAME-NN.png and NAME.md, exit"},
};

// The scenario flags and the code form, as `banklab analyze` takes them.
constexpr frontend::FlagGroup kGuiGroups[] = {frontend::kScenarioGroup, frontend::kOffsetsGroup,
                                              frontend::kCodeGroup};
// banklab-gui's flag names, checked against its flags and groups when compiled (args.hpp).
using Flag = frontend::FlagName<kGuiFlags, kGuiGroups>;

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
      .groups = kGuiGroups,
      .usage =
          "usage: banklab-gui [--preset NAME] [scenario flags] [--theme dark|light] [--zoom Z]\n"
          "                   [--size WxH]\n"
          "       banklab-gui [--preset NAME] [scenario flags] --screenshot OUT.png [--size WxH]\n"
          "       banklab-gui [--preset NAME] --bench-frames N [--size WxH]\n"
          "       banklab-gui --lesson NAME [--step N] [--export-dir DIR [--size WxH]]\n"
          "       banklab-gui --scan FILE.cu [--kernel NAME] [--line N]\n"
          "       banklab-gui --trace FILE.json [--line N]\n",
      .description = description,
      .flags_title = "Window:",
      .footer = footer};
  return syntax;
}

// A whole number in [min, max], or "--FLAG is WHAT from MIN[ to MAX]; got 'text'".
auto count_from(Flag flag, std::string_view what, int min, std::optional<int> max = std::nullopt) {
  return [=](std::string_view text) -> Expected<int> {
    const std::optional<int> n = to_int(text);
    if (!n || *n < min || (max && *n > *max)) {
      std::string range = std::to_string(min);
      if (max) range += " to " + std::to_string(*max);
      return Error{"--" + std::string(flag) + " is " + std::string(what) + " from " + range +
                   "; got " + quote(text)};
    }
    return *n;
  };
}

Expected<float> read_zoom(std::string_view text) {
  const std::optional<float> z = to_float(text);
  // Written so that NaN fails too: every comparison with NaN is false.
  if (!z || !(*z >= kMinZoom && *z <= kMaxZoom)) {
    std::ostringstream os;
    os << "--zoom is a number from " << kMinZoom << " to " << kMaxZoom << "; got " << quote(text);
    return Error{os.str()};
  }
  return *z;
}

Expected<SolveChoices> read_solve(std::string_view text) {
  const Expected<SolveChoices> chosen = parse_solve_choices(text);
  if (!chosen) return Error{"--solve: " + chosen.error()};
  return chosen;
}

// Every flag but the scenario's, in the order they are checked.
Expected<void> read_flags(const frontend::Args& args, Options& o) {
  int step = 0;  // counted from 1 on the command line
  frontend::FlagReader<kGuiFlags, kGuiGroups> read(args);
  read.text("screenshot", o.screenshot)
      .text("geometry", o.geometry)
      .value("size", o.size, parse_window_size)
      .value("theme", o.theme, frontend::read_theme)
      .value("compare", o.compare, parse_compare)
      .flag("present", o.present)
      .value("palette", o.scheme, frontend::read_palette)
      .value("tile-view", o.tile_view, frontend::read_tile_view)
      .value("zoom", o.zoom, read_zoom)
      .value("clock", o.clock, count_from("clock", "a wavefront count", 0, kMaxWavefronts))
      .value("bench-frames", o.bench_frames,
             count_from("bench-frames", "a frame count", 1, kMaxBenchFrames))
      .flag("gpu", o.gpu)
      .flag("descriptor", o.descriptor)
      .text("gpu-results", o.gpu_results)
      .text("lesson", o.lesson)
      .value("step", step, count_from("step", "a step number", 1))
      .text("export-dir", o.export_dir);
  if (const Expected<void> done = read.done(); !done) return done;
  if (step > 0) o.step = step - 1;
  if ((args.has(Flag("step")) || o.export_dir) && o.lesson.empty())
    return Error{std::string(args.has(Flag("step")) ? "--step" : "--export-dir") +
                 " goes with --lesson NAME"};
  read.value("solve", o.solve, read_solve)
      .text("code", o.code)
      .value("drill", o.drill,
             frontend::choice(parse_level, "--drill is weak, hire or strong-hire; got "));
  if (const Expected<void> done = read.done(); !done) return done;
  if (!o.drill && (args.has(Flag("drill-seed")) || args.has(Flag("drill-answer")))) {
    return Error{"--drill-seed and --drill-answer go with --drill LEVEL"};
  }
  read.text("scan", o.scan)
      .text("kernel", o.scan_kernel)
      .text("trace", o.trace)
      .value("line", o.scan_line, count_from("line", "a line number", 1));
  if (const Expected<void> done = read.done(); !done) return done;
  if (o.scan && o.trace) return Error{"--scan and --trace both fill the Kernel window: give one"};
  if (args.has(Flag("kernel")) && !o.scan) return Error{"--kernel goes with --scan FILE.cu"};
  if (args.has(Flag("line")) && !o.scan && !o.trace)
    return Error{"--line goes with --scan FILE.cu or --trace FILE.json"};
  return read.integer("drill-seed", o.drill_seed, 0, INT64_MAX)
      .text("drill-answer", o.drill_answer)
      .done();
}

// --decl and --expr, the Code window's text as two flags, and --block, --warp, --let and --smem,
// what any code is evaluated for. The code gives the array and the access, so the scenario flags
// do not go with it (as in banklab analyze).
Expected<void> read_code_flags(const frontend::Args& args, const frontend::ScenarioFlags& scenario,
                               Options& o) {
  if (frontend::has_code_flags(args)) {
    if (!args.has(Flag("decl")) || !args.has(Flag("expr"))) {
      return Error{"--decl (the __shared__ declaration) and --expr (the access) go together"};
    }
    if (o.code) return Error{"--code is --decl and --expr in one text: give one form"};
    if (scenario.given()) {
      const std::string flag = scenario.file ? "scenario" : scenario.keys.front().key;
      return Error{"--" + flag +
                   " cannot be combined with --decl/--expr: the code gives the array and the "
                   "access"};
    }
    o.code = std::string(*args.value(Flag("decl"))) + "\n" + std::string(*args.value(Flag("expr")));
  }
  const bool launch = args.has(Flag("block")) || args.has(Flag("warp")) || args.has(Flag("let")) ||
                      args.has(Flag("smem"));
  if (!launch) return {};
  if (!o.code) return Error{"--block, --warp, --let and --smem go with --code or --decl/--expr"};
  if (args.has(Flag("op")))
    return Error{"--op does not go with code: the code's '=' says ld or st"};
  const Expected<KernelParams> params = frontend::read_code_params(args);
  if (!params) return Error{params.error()};
  o.launch = CodeLaunch{params->block, params->warp,
                        std::string(args.value(Flag("let")).value_or("")), params->extern_bytes};
  return {};
}

}  // namespace

Expected<Options> parse_options(std::span<const std::string_view> words) {
  const Expected<frontend::Args> args = frontend::parse_args(gui_syntax(), words);
  if (!args) return Error{args.error()};
  Options o;
  o.help = args->help();
  if (o.help) return o;
  if (const Expected<void> read = read_flags(*args, o); !read) return Error{read.error()};
  const frontend::ScenarioFlags scenario = frontend::scenario_flags(*args);
  if (const Expected<void> code = read_code_flags(*args, scenario, o); !code) {
    return Error{code.error()};
  }
  // The scenario flags: --preset alone opens that lesson; any other scenario flag opens the
  // scenario they describe (on top of the --preset, when one is given).
  if (const auto name = args->value(Flag("preset"))) {
    if (!find_preset(*name)) return Error{unknown_preset(*name)};
    o.preset = *name;
  }
  if (scenario.file || std::any_of(scenario.keys.begin(), scenario.keys.end(),
                                   [](const KeyValue& v) { return v.key != "preset"; })) {
    Expected<Scenario> s = frontend::scenario_from_flags(scenario);
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

const frontend::FlagSpec* find_option(std::string_view name) {
  const frontend::CommandSyntax& syntax = gui_syntax();
  const auto named = [name](const frontend::FlagSpec& f) { return f.name == name; };
  if (const auto it = std::find_if(syntax.flags.begin(), syntax.flags.end(), named);
      it != syntax.flags.end()) {
    return &*it;
  }
  for (const frontend::FlagGroup& g : syntax.groups) {
    if (const auto it = std::find_if(g.flags.begin(), g.flags.end(), named); it != g.flags.end()) {
      return &*it;
    }
  }
  return nullptr;
}

std::string usage() {
  return frontend::help_text(gui_syntax());
}

}  // namespace banklab::gui
