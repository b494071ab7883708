#pragma once
// What the two programs around the app share: banklab-gui's main (app/gui/main.cpp) and the
// browser edition's (app/web/main.cpp) both turn parsed options into the state to start from,
// and keep ImGui's fonts and style in step with the zoom and theme the user picks.
#include <imgui.h>

#include <string>
#include <string_view>

#include "app/gui/platform/options.hpp"
#include "app/gui/render/gl.hpp"
#include "app/gui/render/palette.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/settings.hpp"
#include "core/base/expected.hpp"

namespace banklab::gui {

// The state the options ask for, over the saved settings (none in batch runs, which must not
// depend on them). `size` is the picture's: a screenshot or export scales its text with it.
// An empty `preset` opens the last one used, else the default lesson. The scenario on screen is
// studied before it returns (AppState::study), so the first frame draws from it.
void apply_options(AppState& state, const Options& opt, const Settings* saved, WindowSize size,
                   std::string_view preset);

// What the options name beyond the scenario: the recording the GPU window opens on
// (--gpu-results), the kernel file the Kernel window scans (--scan, --line) and the lesson with
// its step (--lesson, --step). Done, with the scenario they put on screen studied, or why one of
// them cannot be opened, as the user's mistake to fix.
Expected<void> open_named(AppState& state, const Options& opt);

// What the fonts and style were last built for; rebuilt when DPI, zoom or theme change.
struct Appearance {
  float scale = 0.0f;
  Theme theme = Theme::dark;
};

// Rebuilds the fonts (for content_scale times the user's zoom) and the style when either
// changed. True when the fonts were rebuilt: the renderer backend must upload them again.
bool update_appearance(AppState& state, Appearance& applied, float content_scale);

// The glyphs are rasterised at the exact pixel size and drawn at whole-pixel positions, so
// bilinear filtering of the font texture buys nothing, and under software GL (llvmpipe,
// SwiftShader) it is the largest per-pixel cost of a frame (every ImGui primitive samples that
// texture). Call each frame: it acts once per new font texture, remembered in `done`.
void nearest_font_filtering(const ImGuiIO& io, GLuint& done);

}  // namespace banklab::gui
