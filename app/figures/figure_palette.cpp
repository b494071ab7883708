#include "app/figures/figure_palette.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace banklab::figures {
namespace {

constexpr Rgba rgb(int r, int g, int b, int a = 255) {
  return Rgba{static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
              static_cast<std::uint8_t>(b), static_cast<std::uint8_t>(a)};
}

// Hues the identity colours (banks, wavefronts) may take: orange (0.07) round through yellow,
// green and blue to violet (0.80). The reds and magentas either side of 0 stay the conflict's.
constexpr float kFirstHue = 0.07f;
constexpr float kHueSpan = 0.73f;

// Bank b: the hue once along the span, odd banks a step darker so that neighbours separate and
// a column read of a conflict-free tile shows as a rainbow. Each colour is made at least as
// light as `floor_even` / `floor_odd` (relative luminance), raising the value and then taking
// saturation away: a bank number in dark ink stays readable on the blues and violets, which at
// one value are far darker than the yellows.
std::array<Rgba, 32> bank_colours(float saturation, float value_even, float value_odd,
                                  float floor_even, float floor_odd) {
  std::array<Rgba, 32> out{};
  for (int b = 0; b < 32; ++b) {
    const float h = kFirstHue + kHueSpan * static_cast<float>(b) / 31.0f;
    const float floor = b % 2 ? floor_odd : floor_even;
    float s = saturation, v = b % 2 ? value_odd : value_even;
    while (relative_luminance(hsv(h, s, v)) < floor && (v < 1.0f || s > 0.0f)) {
      if (v < 1.0f) {
        v = std::min(1.0f, v + 0.01f);
      } else {
        s = std::max(0.0f, s - 0.01f);
      }
    }
    out[b] = hsv(h, s, v);
  }
  return out;
}

// Wavefront w: the golden ratio times w (mod 1), mapped into the span: consecutive wavefronts
// land far apart, and none is red.
std::array<Rgba, 32> wavefront_colours(float saturation, float value) {
  std::array<Rgba, 32> out{};
  constexpr float kGolden = 0.618034f;
  for (int w = 0; w < 32; ++w) {
    float f = static_cast<float>(w) * kGolden;
    f -= std::floor(f);
    out[w] = hsv(kFirstHue + kHueSpan * f, saturation, value);
  }
  return out;
}

Palette make_dark() {
  Palette p{};
  p.background = rgb(33, 36, 43);
  p.text = rgb(230, 232, 238);
  p.text_dim = rgb(170, 175, 188);
  p.text_ok = rgb(110, 205, 150);
  p.title = rgb(250, 200, 60);
  p.grid = rgb(58, 62, 74);
  p.cell_empty = rgb(40, 43, 52);
  // Deep enough that white lane numbers on them read (4.5:1), light enough to stand out from
  // the background (3:1).
  p.cell_served = rgb(30, 128, 86);
  p.cell_conflict = rgb(200, 60, 50);
  p.cell_broadcast = rgb(50, 105, 200);
  p.excess_row = rgb(120, 40, 40, 70);
  p.ideal_line = rgb(250, 200, 60);
  p.phase_line = rgb(170, 140, 230);
  p.current_row = rgb(255, 255, 255);
  p.highlight = rgb(255, 255, 255);
  p.spotlight = rgb(255, 255, 255);
  p.spotlight_tint = rgb(255, 255, 255, 40);
  p.misaligned = rgb(225, 226, 232);
  p.padding = rgb(70, 70, 78);
  p.lane_on = p.cell_served;
  p.lane_off = rgb(70, 72, 82);
  p.on_fill = rgb(255, 255, 255);
  p.on_bank = rgb(20, 20, 20);
  p.halo = rgb(255, 255, 255, 170);
  p.stripe_mark = rgb(0, 0, 0, 115);
  p.error = rgb(255, 110, 100);
  p.warning = rgb(250, 200, 60);
  p.note = rgb(140, 190, 255);
  p.banks = bank_colours(0.55f, 0.90f, 0.68f, 0.40f, 0.25f);
  p.wavefronts = wavefront_colours(0.70f, 0.95f);
  return p;
}

// Light theme for projectors: dark text on near-white, stronger fills (projectors wash out
// pale colours). The access outline is a dark slate, not black, and the views draw it thin on
// small tiles, so that it frames the elements instead of blacking them out.
Palette make_light() {
  Palette p{};
  p.background = rgb(250, 250, 247);
  p.text = rgb(20, 22, 28);
  p.text_dim = rgb(80, 84, 95);
  p.text_ok = rgb(18, 120, 76);
  p.title = rgb(150, 85, 0);
  p.grid = rgb(196, 200, 208);
  p.cell_empty = rgb(234, 236, 240);
  p.cell_served = rgb(18, 125, 80);
  p.cell_conflict = rgb(210, 50, 40);
  p.cell_broadcast = rgb(40, 100, 200);
  p.excess_row = rgb(220, 60, 50, 40);
  p.ideal_line = rgb(200, 130, 0);
  p.phase_line = rgb(120, 80, 200);
  p.current_row = rgb(0, 0, 0);
  p.highlight = rgb(40, 44, 60);
  p.spotlight = rgb(20, 22, 28);
  p.spotlight_tint = rgb(20, 22, 28, 30);
  p.misaligned = rgb(90, 94, 106);
  p.padding = rgb(170, 170, 175);
  p.lane_on = p.cell_served;
  p.lane_off = rgb(200, 202, 210);
  p.on_fill = rgb(255, 255, 255);
  p.on_bank = rgb(20, 20, 20);
  p.halo = rgb(255, 255, 255, 170);
  p.stripe_mark = rgb(0, 0, 0, 115);
  p.error = rgb(200, 30, 30);
  p.warning = rgb(150, 88, 0);
  p.note = rgb(30, 90, 190);
  p.banks = bank_colours(0.60f, 0.95f, 0.75f, 0.40f, 0.25f);
  p.wavefronts = wavefront_colours(0.85f, 0.80f);
  return p;
}

// Okabe and Ito's set: blue (0,114,178) served, vermillion (213,94,0) conflict, bluish green
// (0,158,115) shared and striped, yellow (240,228,66) or orange (230,159,0) the ideal, reddish
// purple (204,121,167) the phases. Distinct for protan, deutan and tritan viewers alike.
Palette colour_blind(Palette p, Theme t) {
  // Okabe and Ito's hues, deepened where white numbers on them would not read (4.5:1).
  p.cell_served = rgb(0, 114, 178);
  p.cell_conflict = rgb(190, 80, 0);
  p.cell_broadcast = rgb(0, 130, 95);
  p.excess_row = t == Theme::dark ? rgb(213, 94, 0, 60) : rgb(213, 94, 0, 40);
  p.ideal_line = t == Theme::dark ? rgb(240, 228, 66) : rgb(230, 159, 0);
  // Reddish purple; deepened on the light page, where its phase names must read (4.5:1).
  p.phase_line = t == Theme::dark ? rgb(204, 121, 167) : rgb(160, 70, 125);
  p.lane_on = p.cell_served;
  p.error = t == Theme::dark ? rgb(240, 130, 60) : rgb(180, 75, 0);
  return p;
}

}  // namespace

Rgba with_alpha(Rgba c, float factor) {
  c.a = static_cast<std::uint8_t>(std::clamp(static_cast<float>(c.a) * factor, 0.0f, 255.0f));
  return c;
}

std::string hex(Rgba c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string_view theme_name(Theme t) {
  return t == Theme::light ? "light" : "dark";
}
std::string_view scheme_name(Scheme s) {
  return s == Scheme::colour_blind ? "colour-blind" : "standard";
}

std::optional<Theme> parse_theme(std::string_view text) {
  if (text == "dark") return Theme::dark;
  if (text == "light") return Theme::light;
  return std::nullopt;
}

std::optional<Scheme> parse_scheme(std::string_view text) {
  if (text == "standard") return Scheme::standard;
  if (text == "colour-blind" || text == "color-blind" || text == "okabe-ito" || text == "cb") {
    return Scheme::colour_blind;
  }
  return std::nullopt;
}

const Palette& palette_for(Theme t, Scheme s) {
  static const Palette kDark = make_dark();
  static const Palette kLight = make_light();
  static const Palette kDarkCb = colour_blind(kDark, Theme::dark);
  static const Palette kLightCb = colour_blind(kLight, Theme::light);
  if (s == Scheme::colour_blind) return t == Theme::light ? kLightCb : kDarkCb;
  return t == Theme::light ? kLight : kDark;
}

Rgba hsv(float h, float s, float v, std::uint8_t alpha) {
  h = (h - std::floor(h)) * 6.0f;
  const int sector = static_cast<int>(h) % 6;
  const float f = h - std::floor(h);
  const float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  float r = v, g = t, b = p;
  switch (sector) {
    case 1:
      r = q, g = v, b = p;
      break;
    case 2:
      r = p, g = v, b = t;
      break;
    case 3:
      r = p, g = q, b = v;
      break;
    case 4:
      r = t, g = p, b = v;
      break;
    case 5:
      r = v, g = p, b = q;
      break;
    default:
      break;
  }
  const auto byte = [](float x) { return static_cast<std::uint8_t>(std::lround(x * 255.0f)); };
  return Rgba{byte(r), byte(g), byte(b), alpha};
}

float hue_of(Rgba c) {
  const float r = c.r / 255.0f, g = c.g / 255.0f, b = c.b / 255.0f;
  const float mx = std::max({r, g, b}), mn = std::min({r, g, b});
  const float d = mx - mn;
  if (d <= 0) return 0.0f;
  float h = mx == r ? (g - b) / d : mx == g ? 2.0f + (b - r) / d : 4.0f + (r - g) / d;
  h /= 6.0f;
  return h < 0 ? h + 1.0f : h;
}

float relative_luminance(Rgba c) {
  const auto linear = [](std::uint8_t v) {
    const double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  return static_cast<float>(0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b));
}

float contrast_ratio(Rgba a, Rgba b) {
  const float la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}

Rgba over(Rgba c, Rgba background) {
  const float a = static_cast<float>(c.a) / 255.0f;
  const auto mix = [a](std::uint8_t top, std::uint8_t under) {
    return static_cast<std::uint8_t>(
        std::lround(static_cast<float>(top) * a + static_cast<float>(under) * (1.0f - a)));
  };
  return Rgba{mix(c.r, background.r), mix(c.g, background.g), mix(c.b, background.b), 255};
}

std::vector<TextPair> text_pairs(const Palette& p) {
  std::vector<TextPair> out = {
      {"text", p.text, p.background},
      {"dim text", p.text_dim, p.background},
      {"conflict-free verdict", p.text_ok, p.background},
      {"step title", p.title, p.background},
      {"error, conflict verdict", p.error, p.background},
      {"warning", p.warning, p.background},
      {"note", p.note, p.background},
      {"phase names", p.phase_line, p.background},
      {"lane numbers in served cells", p.on_fill, p.cell_served},
      {"lane numbers in conflict cells", p.on_fill, p.cell_conflict},
      {"lane numbers in shared cells", p.on_fill, p.cell_broadcast},
      {"active lane boxes", p.on_fill, p.lane_on},
      {"idle lane boxes", p.text, p.lane_off},
      {"code on its panel", p.text, p.cell_empty},
      {"spotlit bank number", p.background, p.spotlight},
      // The app's loud messages: the background's colour on a filled bar.
      {"warning banner", p.background, p.warning},
      {"error banner", p.background, p.error},
      {"note banner", p.background, p.note},
      {"agreement banner", p.background, p.text_ok},
  };
  for (const Rgba& bank : p.banks) {
    out.push_back({"bank number on its colour", p.on_bank, bank});
    out.push_back({"lane number on its halo", p.on_bank, over(p.halo, bank)});
  }
  return out;
}

float saturation_of(Rgba c) {
  const int mx = std::max({c.r, c.g, c.b}), mn = std::min({c.r, c.g, c.b});
  return mx == 0 ? 0.0f : static_cast<float>(mx - mn) / static_cast<float>(mx);
}

}  // namespace banklab::figures
