#include "app/gui/render/fonts.hpp"

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
    set.small =
        atlas.AddFontFromFileTTF(kSansPath, std::round(pixels * 0.8f), &config, kGlyphRanges);
    set.dejavu = set.ui && set.mono && set.small;
    // The labels' ladder, ASCII only (numbers and short words), up to three times the UI size.
    static constexpr ImWchar kAscii[] = {0x0020, 0x007E, 0};
    for (float px : {7.f,  8.f,  9.f,  10.f, 11.f, 12.f, 13.f, 14.f, 15.f, 16.f, 18.f, 20.f,
                     22.f, 24.f, 27.f, 30.f, 34.f, 38.f, 43.f, 48.f, 54.f, 60.f, 68.f, 76.f}) {
      if (px > std::max(pixels * 3.0f, 30.0f)) break;
      if (ImFont* f = atlas.AddFontFromFileTTF(kMonoPath, px, &config, kAscii)) {
        set.labels.push_back(f);
      }
    }
  }
  if (!set.dejavu) {
    atlas.Clear();
    ImFontConfig config;
    config.SizePixels = std::round(13.0f * std::max(scale, 0.5f));
    set.ui = set.mono = atlas.AddFontDefault(&config);
    config.SizePixels = std::round(config.SizePixels * 0.8f);
    set.small = atlas.AddFontDefault(&config);
    set.labels = {set.mono};
  }
  return set;
}

}  // namespace banklab::gui
