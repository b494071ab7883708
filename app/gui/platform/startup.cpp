#include "app/gui/platform/startup.hpp"

#include <algorithm>
#include <cstdint>

#include "app/gui/render/fonts.hpp"
#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/kernel_state.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {

void apply_options(AppState& state, const Options& opt, const Settings* saved, WindowSize size,
                   std::string_view preset) {
  if (saved) state.user.settings = *saved;
  if (opt.theme) state.user.settings.theme = *opt.theme;
  if (opt.scheme) state.user.settings.scheme = *opt.scheme;
  if (opt.tile_view) state.user.settings.tile_view = *opt.tile_view;
  set_compare(state.user.stage, opt.compare);
  state.user.stage.presenting = opt.present;
  if (opt.zoom) {
    state.user.settings.zoom = *opt.zoom;
  } else if (opt.screenshot || opt.export_dir) {
    // Xvfb reports no DPI: scale text with the picture so a 4K screenshot reads like 1080p.
    float fit = std::min(static_cast<float>(size.width) / 1920.0f,
                         static_cast<float>(size.height) / 1080.0f);
    state.user.settings.zoom = std::clamp(fit, 1.0f, kMaxZoom);
  }
  if (preset.empty()) {
    preset = !state.user.settings.preset.empty() ? std::string_view(state.user.settings.preset)
                                                 : kDefaultPreset;
  }
  load_preset(state, std::string(preset));
  if (opt.scenario) {  // the scenario flags, on top of the preset
    state.user.scenario = *opt.scenario;
    state.user.raw_text = offsets_text(state.user.scenario.raw_offsets);
  }
  if (opt.code) {  // the code box's text: valid code replaces the scenario, an error shows in it
    if (opt.launch) {
      CodeBox& box = state.user.code;
      box.block = opt.launch->block;
      box.warp = opt.launch->warp;
      box.lets = opt.launch->lets;
      box.extern_bytes = opt.launch->extern_bytes;
    }
    set_code(state, *opt.code);
  }
  // The scenario studied now: the first frame draws from this Study, as every later one does
  // from the one refresh() made before it.
  refresh(state);
  if (opt.clock) step_by(state, *opt.clock - state.user.step.served);
  state.user.views.gpu = opt.gpu || opt.gpu_results.has_value();
  if (opt.solve) {
    state.user.views.solve = true;
    state.user.solve.chosen = *opt.solve;
    run_solve(state.user.solve, state.user.scenario.tile);
  }
  if (opt.descriptor) {
    state.user.views.descriptor = true;
    read_tile_with(state.user.descriptor, state.user.scenario.tile, MmaArch::sm90);
  }
  if (opt.drill) {
    state.user.views.drill = true;
    start_drill(state, *opt.drill, opt.drill_seed.value_or(fresh_drill_seed()));
    if (opt.drill_answer) submit_drill_answer(state, *opt.drill_answer);
  }
}

Expected<void> open_named(AppState& state, const Options& opt) {
  if (opt.gpu_results) {
    if (const Expected<void> shown = open_recording(*state.gpu, *opt.gpu_results); !shown) {
      return Error{"--gpu-results: " + shown.error()};
    }
  }
  if (opt.scan) {  // a kernel file that cannot be scanned
    if (!open_kernel_file(state, *opt.scan)) return Error{"--scan: " + state.user.kernel.error};
    if (opt.scan_kernel && !show_kernel_named(state, *opt.scan_kernel)) {
      return Error{"--kernel: " + *opt.scan + " has no kernel " + *opt.scan_kernel +
                   " (its kernels: " + kernel_names(state.user.kernel) + ")"};
    }
    // Without --kernel the line may be in any kernel of the file.
    if (opt.scan_line > 0 && !show_line(state, opt.scan_line, !opt.scan_kernel)) {
      return Error{"--line: line " + std::to_string(opt.scan_line) + " of " + *opt.scan +
                   " has no shared-memory access the scan evaluated" +
                   (opt.scan_kernel ? " in kernel " + *opt.scan_kernel : std::string())};
    }
    if (opt.scan_line > 0) state.user.kernel.scroll_to = opt.scan_line;  // the line in view
  }
  if (opt.trace) {  // a trace file that cannot be read or does not hold up
    if (!open_trace_file(state, *opt.trace)) return Error{"--trace: " + state.user.kernel.error};
    if (opt.scan_line > 0 && !show_line(state, opt.scan_line)) {
      return Error{"--line: line " + std::to_string(opt.scan_line) + " of the trace " + *opt.trace +
                   " has no shared-memory access"};
    }
    if (opt.scan_line > 0) state.user.kernel.scroll_to = opt.scan_line;  // the line in view
  }
  if (!opt.lesson.empty()) {
    if (const Expected<void> opened = open_lesson(state, opt.lesson, opt.step); !opened)
      return opened;
  }
  refresh(state);  // a kernel's access on screen is studied before the first frame too
  return {};
}

bool update_appearance(AppState& state, Appearance& applied, float content_scale) {
  float scale = content_scale * state.user.settings.zoom;
  bool fonts = scale != applied.scale;
  if (!fonts && state.user.settings.theme == applied.theme) return false;
  if (fonts) {
    FontSet set = load_fonts(*ImGui::GetIO().Fonts, scale);
    state.res.mono_font = set.mono;
    state.res.small_font = set.small;
    state.res.label_fonts = set.labels;
  }
  apply_style(ImGui::GetStyle(), state.user.settings.theme, scale);
  applied = Appearance{scale, state.user.settings.theme};
  return fonts;
}

void nearest_font_filtering(const ImGuiIO& io, GLuint& done) {
  auto texture = static_cast<GLuint>(reinterpret_cast<std::intptr_t>(io.Fonts->TexID));
  if (texture == 0 || texture == done) return;
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  done = texture;
}

}  // namespace banklab::gui
