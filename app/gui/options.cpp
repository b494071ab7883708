#include "options.hpp"

#include <charconv>
#include <sstream>

#include "banklab/hardware.hpp"
#include "banklab/presets.hpp"

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
       << kMinWindowSize.height << " .. " << kMaxWindowSize.width << "x"
       << kMaxWindowSize.height;
    return Error{os.str()};
  }
  return WindowSize{*w, *h};
}

Expected<Options> parse_options(std::span<const std::string_view> args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    if (a == "--gpu") {
      o.gpu = true;
      continue;
    }
    bool takes_value = a == "--preset" || a == "--screenshot" || a == "--size" ||
                       a == "--theme" || a == "--zoom" || a == "--bench-frames" ||
                       a == "--geometry" || a == "--clock";
    if (!takes_value) return Error{"unknown argument '" + std::string(a) + "' (try --help)"};
    if (i + 1 >= args.size()) return Error{std::string(a) + " needs a value (try --help)"};
    std::string_view v = args[++i];
    if (a == "--preset") {
      if (!find_preset(v)) {
        return Error{"no preset named '" + std::string(v) + "'; the presets are: " +
                     preset_names()};
      }
      o.preset = v;
    } else if (a == "--screenshot") {
      if (v.empty()) return Error{"--screenshot needs a file name"};
      o.screenshot = std::string(v);
    } else if (a == "--geometry") {
      if (v.empty()) return Error{"--geometry needs a file name"};
      o.geometry = std::string(v);
    } else if (a == "--size") {
      Expected<WindowSize> s = parse_window_size(v);
      if (!s) return Error{s.error()};
      o.size = *s;
    } else if (a == "--theme") {
      if (v == "dark") {
        o.theme = Theme::dark;
      } else if (v == "light") {
        o.theme = Theme::light;
      } else {
        return Error{"--theme is 'dark' or 'light'; got '" + std::string(v) + "'"};
      }
    } else if (a == "--zoom") {
      std::optional<float> z = to_float(v);
      if (!z || *z < kMinZoom || *z > kMaxZoom) {
        std::ostringstream os;
        os << "--zoom is a number from " << kMinZoom << " to " << kMaxZoom << "; got '" << v
           << "'";
        return Error{os.str()};
      }
      o.zoom = *z;
    } else if (a == "--clock") {
      std::optional<int> n = to_int(v);
      if (!n || *n < 0 || *n > kMaxWavefronts) {
        return Error{"--clock is a wavefront count from 0 to " + std::to_string(kMaxWavefronts) +
                     "; got '" + std::string(v) + "'"};
      }
      o.clock = *n;
    } else {  // --bench-frames
      std::optional<int> n = to_int(v);
      if (!n || *n < 1 || *n > kMaxBenchFrames) {
        return Error{"--bench-frames is a frame count from 1 to " +
                     std::to_string(kMaxBenchFrames) + "; got '" + std::string(v) + "'"};
      }
      o.bench_frames = *n;
    }
  }
  if (o.geometry && !o.screenshot) return Error{"--geometry only goes with --screenshot"};
  if (o.screenshot && o.bench_frames > 0) {
    return Error{"--screenshot and --bench-frames are separate runs; give one of them"};
  }
  return o;
}

std::string usage() {
  std::ostringstream os;
  os << "banklab-gui: CUDA shared-memory banks, lanes and wavefronts, drawn and explained\n"
        "\n"
        "usage: banklab-gui [--preset NAME] [--theme dark|light] [--zoom Z] [--size WxH]\n"
        "       banklab-gui --preset NAME --screenshot OUT.png [--size WxH] [--theme T]\n"
        "       banklab-gui [--preset NAME] --bench-frames N [--size WxH]\n"
        "\n"
        "  --preset NAME      open this lesson (default: the last one, else "
     << kDefaultPreset
     << ")\n"
        "  --theme T          dark, or light for projectors\n"
        "  --zoom Z           text and widget scale on top of the screen's DPI ("
     << kMinZoom << " to " << kMaxZoom
     << ")\n"
        "  --size WxH         window size in pixels (screenshot default 1920x1080)\n"
        "  --screenshot PNG   render in a real window, save a PNG of exactly WxH, exit\n"
        "  --geometry JSON    with --screenshot: write where the views put their cells\n"
        "  --clock N          stop the step-through after N wavefronts (0 = none served)\n"
        "  --bench-frames N   render N frames, print CPU and GPU time per frame, exit\n"
        "  --gpu              open the GPU window (Run on GPU, Measure on GPU)\n"
        "  --help             this text\n"
        "\n"
        "With no display (a server, ssh, CI), take a screenshot under a virtual X server:\n"
        "  xvfb-run -s '-screen 0 1920x1080x24' banklab-gui --preset "
     << kDefaultPreset
     << " --screenshot out.png\n"
        "\n"
        "presets: "
     << preset_names() << "\n";
  return os.str();
}

}  // namespace banklab::gui
