#include "fonts.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace banklab::gui {
namespace {

constexpr const char* kSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kMonoPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

// Latin-1 plus the punctuation, arrows, maths and shapes the explanations and labels use.
constexpr ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin, Latin-1 Supplement
    0x2000, 0x206F,  // General Punctuation: dashes, ellipsis
    0x2190, 0x21FF,  // Arrows
    0x2200, 0x22FF,  // Mathematical Operators
    0x25A0, 0x25FF,  // Geometric Shapes
    0,
};

}  // namespace

FontSet load_fonts(ImFontAtlas& atlas, float scale) {
  atlas.Clear();
  FontSet set;
  float pixels = std::round(kBaseFontPixels * std::max(scale, 0.5f));
  std::error_code ec;
  if (std::filesystem::exists(kSansPath, ec) && std::filesystem::exists(kMonoPath, ec)) {
    // One sample per pixel, snapped to whole pixels: the texture is sampled nearest (main.cpp).
    ImFontConfig config;
    config.OversampleH = 1;
    config.PixelSnapH = true;
    set.ui = atlas.AddFontFromFileTTF(kSansPath, pixels, &config, kGlyphRanges);
    set.mono = atlas.AddFontFromFileTTF(kMonoPath, pixels, &config, kGlyphRanges);
    set.small = atlas.AddFontFromFileTTF(kSansPath, std::round(pixels * 0.8f), &config,
                                         kGlyphRanges);
    set.dejavu = set.ui && set.mono && set.small;
  }
  if (!set.dejavu) {
    atlas.Clear();
    ImFontConfig config;
    config.SizePixels = std::round(13.0f * std::max(scale, 0.5f));
    set.ui = set.mono = atlas.AddFontDefault(&config);
    config.SizePixels = std::round(config.SizePixels * 0.8f);
    set.small = atlas.AddFontDefault(&config);
  }
  return set;
}

}  // namespace banklab::gui
