#pragma once
// Fonts: DejaVu Sans and DejaVu Sans Mono from fonts-dejavu-core when installed, ImGui's
// built-in font otherwise, rasterised at the pixel size that DPI and zoom ask for (rebuilt
// when either changes, rather than scaled up blurry).
#include <imgui.h>

#include <vector>

namespace banklab::gui {

inline constexpr float kBaseFontPixels = 15.0f;

struct FontSet {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
  ImFont* small = nullptr;  // four fifths of the size: labels in narrow cells
  bool dejavu = false;      // false: ImGui's default font stands in for both
  // DejaVu Sans Mono at a ladder of pixel sizes, smallest first: the figures' labels shrink to
  // fit their cells and each is drawn in the largest of these that fits, at its own size
  // (crisp, never scaled). Without DejaVu: the one default font.
  std::vector<ImFont*> labels;
};

// Clears the atlas and adds the three fonts at kBaseFontPixels * scale (small: 4/5 of it),
// each rasterised at its own size because the texture is sampled without filtering. The caller
// rebuilds the GL font texture (ImGui_ImplOpenGL3_CreateFontsTexture) or, headless, calls
// atlas.Build().
FontSet load_fonts(ImFontAtlas& atlas, float scale);

}  // namespace banklab::gui
