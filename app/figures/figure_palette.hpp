#pragma once
// The one colour language of BankLab's pictures, shared by banklab-gui (palette.hpp there turns
// it into ImGui colours) and the figure writers of `banklab export` (SVG). No ImGui type here.
//
//   red        a conflict, and nothing else: a bank that serves several distinct words in
//              one phase (the bank view's cells, the lane map's lines, a verdict with conflicts)
//   green      a word served with no other word of its bank in the phase
//   blue       a word several lanes share (a broadcast for loads, one merged write for stores),
//              also striped, so that it never depends on hue alone
//   yellow     the ideal (each phase's first wavefront); purple: phase boundaries
//   banks      32 hues from orange round to violet, never the conflict red
//   wavefronts a sequence of non-red hues, consecutive ones far apart
//
// Two themes (dark; light for projectors) and two schemes: the standard colours, and one built
// on Okabe and Ito's colour-blind-safe set (blue served, vermillion conflict, bluish green
// shared), for every viewer.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace banklab::figures {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Rgba&, const Rgba&) = default;
};

inline constexpr Rgba kNoColour{0, 0, 0, 0};

// The alpha multiplied by factor (dimming what is not yet served while stepping).
Rgba with_alpha(Rgba c, float factor);
// "#rrggbb" (the alpha is written apart, as SVG's opacity).
std::string hex(Rgba c);

enum class Theme : std::uint8_t { dark, light };
enum class Scheme : std::uint8_t { standard, colour_blind };

std::string_view theme_name(Theme t);    // "dark", "light"
std::string_view scheme_name(Scheme s);  // "standard", "colour-blind"
std::optional<Theme> parse_theme(std::string_view text);
// "standard", or "colour-blind" (also "okabe-ito", "cb").
std::optional<Scheme> parse_scheme(std::string_view text);

// Every colour that carries text has at least WCAG AA contrast against what it is drawn on (4.5:1;
// text_pairs() lists the pairs, the tests compute each ratio).
struct Palette {
  Rgba background;  // behind the views (the GL clear colour, the SVG's page)
  Rgba text;
  Rgba text_dim;
  Rgba text_ok;         // a verdict without conflict, "yes": green text on the background
  Rgba title;           // a lesson step's title: the accent, as text on the background
  Rgba grid;            // cell borders, separators
  Rgba cell_empty;      // a bank that serves nothing in this wavefront
  Rgba cell_served;     // one word, no other word of its bank in the phase
  Rgba cell_conflict;   // the bank serves several distinct words in this phase: red, only this
  Rgba cell_broadcast;  // several lanes share the word (drawn striped)
  Rgba excess_row;      // rows beyond the ideal: the conflict's cost
  Rgba ideal_line;
  Rgba phase_line;
  Rgba current_row;  // the wavefront being served while stepping
  Rgba highlight;    // elements of the current access in the tile view
  // A lesson step's highlights: marks beside the lanes, banks and rows the text names, a tint
  // behind them, never over a number (the spotlight dims the rest instead).
  Rgba spotlight;
  Rgba spotlight_tint;
  Rgba misaligned;  // tile rows a wide access cannot start in: neither a bank colour nor red
  Rgba padding;     // padding cells of the tile
  Rgba lane_on;
  Rgba lane_off;
  Rgba on_fill;      // text on the saturated cell, lane and stripe fills (both themes)
  Rgba on_bank;      // text on the pale bank colours
  Rgba halo;         // behind lane numbers on the tile heat map (opaque: text on it reads)
  Rgba stripe_mark;  // the stripes over a fill
  Rgba error;
  Rgba warning;
  Rgba note;
  std::array<Rgba, 32> banks;       // bank b's colour: hue from orange to violet
  std::array<Rgba, 32> wavefronts;  // wavefront w's colour, w mod 32; never red
};

const Palette& palette_for(Theme t, Scheme s = Scheme::standard);

// WCAG 2's relative luminance (0 black .. 1 white) and contrast ratio (1 .. 21) of two opaque
// colours; the alpha is ignored.
float relative_luminance(Rgba c);
float contrast_ratio(Rgba a, Rgba b);
// The colour c at alpha over an opaque background (a halo, a tint on the page).
Rgba over(Rgba c, Rgba background);

// Every pairing of a text colour with what it is drawn on, in the views, the figures and the
// app's panels: what the contrast tests check, so a colour added for text is added here.
struct TextPair {
  std::string_view what;
  Rgba text;
  Rgba background;
};
std::vector<TextPair> text_pairs(const Palette& p);

// Hue, saturation, value in 0..1 to a colour (exposed for the tests of the hue ranges).
Rgba hsv(float h, float s, float v, std::uint8_t alpha = 255);
// The hue of a colour in 0..1 and its saturation (the tests' "is this red?").
float hue_of(Rgba c);
float saturation_of(Rgba c);

}  // namespace banklab::figures
