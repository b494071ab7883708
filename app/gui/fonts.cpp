#include "fonts.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace banklab::gui {
namespace {

constexpr const char* kSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kMonoPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";

// Basic Latin and Latin-1: every text the app shows (core's explanations, device names) is in
// that range, and each glyph more is rasterised three times at startup.
constexpr ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0};

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
