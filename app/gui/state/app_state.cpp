#include "app/gui/state/app_state.hpp"

#include <algorithm>
#include <cassert>

#include "app/gui/state/gpu_state.hpp"
#include "app/gui/state/scan_worker.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {
namespace {

// The tile view's texture: one byte per slot of the padded tile, the logical picture over the
// physical one. In the logical picture slot (r, c) of a real element holds that element's bank
// (so a swizzle recolours the tile); in the physical one every slot holds the bank of its own
// address. Padding slots are flagged.
void rebuild_heatmap(AppState& s) {
  HeatmapImage& img = s.frame.draw.heatmap;
  img.cells.clear();
  img.rows = img.cols = 0;
  ++img.revision;
  if (s.study_revision == 0 || !s.study.tile_valid) return;
  const TileLayout& t = s.study.scenario.tile;
  img.rows = t.rows;
  img.cols = t.slots_per_row();  // C + pad, or the span of a narrow TMA box
  const std::size_t picture = static_cast<std::size_t>(img.rows) * img.cols;
  img.cells.resize(2 * picture);
  for (const bool physical : {false, true}) {
    for (int r = 0; r < t.rows; ++r) {
      for (int p = 0; p < img.cols; ++p) {
        std::uint8_t v = 0;
        // Logical picture: the columns past C. Physical: the slots no element lands in, which
        // a swizzle scatters (a narrow TMA box's gap, a swizzled pad).
        if (physical ? t.is_gap_slot(r, p) : p >= t.cols) {
          v = static_cast<std::uint8_t>(bank_of_byte(t.logical_byte(r, p)) |
                                        HeatmapImage::kHeatPadding);
        } else if (physical) {
          v = static_cast<std::uint8_t>(bank_of_byte(t.logical_byte(r, p)));
        } else {
          v = s.study.bank_map[static_cast<std::size_t>(r) * t.cols + p];
        }
        img.cells[(physical ? picture : 0) + static_cast<std::size_t>(r) * img.cols + p] = v;
      }
    }
  }
}

}  // namespace

AppState::AppState() : gpu(std::make_unique<GpuState>()) {}
AppState::~AppState() = default;

bool refresh(AppState& s) {
  bool first = s.study_revision == 0;
  if (!first && s.study.scenario == s.user.scenario) return false;
  bool tile_changed = first || s.study.scenario.tile != s.user.scenario.tile;
  s.study = study(s.user.scenario, first ? nullptr : &s.study);
  ++s.study_revision;
  // The access of typed code or of a scanned kernel is drawn on its own array.
  if (code_on_screen(s)) {
    attach_array_elements(s.study, s.user.code.code->scenario);
  } else if (kernel_on_screen(s)) {
    attach_array_elements(s.study, s.user.kernel.on_screen);
  }
  // A new access is shown fully served; play starts it over from the first wavefront.
  s.user.step.playing = false;
  s.user.step.elapsed = 0.0f;
  s.user.step.served = wavefront_total(s);
  if (tile_changed) rebuild_heatmap(s);
  return true;
}

void set_tile_view(AppState& s, figures::TileView view) {
  s.user.settings.tile_view = view;
}

int wavefront_total(const AppState& s) {
  const Evaluation& e = s.study.evaluation;
  return e.ok() ? e.analysis->wavefront_count() : 0;
}

void load_preset(AppState& s, int index) {
  std::span<const Preset> all = presets();
  assert(index >= 0 && index < static_cast<int>(all.size()) && "preset index out of range");
  s.user.preset = index;
  s.user.scenario = all[index].scenario;
  s.user.settings.preset = all[index].name;
  s.user.raw_error.clear();
  s.user.raw_text = offsets_text(s.user.scenario.raw_offsets);
  // The views keep drawing s.study until the next refresh(), so the preset's code is read from
  // a study of its own (its tile parts reused from the one on screen where the tile is the same).
  show_scenario_code(s, study(s.user.scenario, &s.study));
}

bool load_preset(AppState& s, std::string_view name) {
  std::span<const Preset> all = presets();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].name == name) {
      load_preset(s, static_cast<int>(i));
      return true;
    }
  }
  return false;
}

void cycle_preset(AppState& s, int delta) {
  int n = static_cast<int>(presets().size());
  if (n == 0) return;
  int from = s.user.preset < 0 ? (delta > 0 ? -1 : 0) : s.user.preset;
  load_preset(s, ((from + delta) % n + n) % n);
}

bool preset_modified(const AppState& s) {
  return s.user.preset >= 0 && presets()[s.user.preset].scenario != s.user.scenario;
}

void toggle_play(AppState& s) {
  if (s.user.step.playing) {
    s.user.step.playing = false;
    return;
  }
  if (s.user.step.served >= wavefront_total(s)) s.user.step.served = 0;
  s.user.step.playing = wavefront_total(s) > 0;
  s.user.step.elapsed = 0.0f;
}

std::optional<double> seconds_to_next_tick(const AppState& s) {
  std::optional<double> next;
  if (s.user.step.playing) {
    next = std::max(0.0, double{s.user.step.seconds_per_wavefront} - s.user.step.elapsed);
  }
  if ((s.user.views.gpu && s.gpu->busy()) || kernel_scanning(s))
    next = std::min(next.value_or(kProgressSeconds), kProgressSeconds);
  return next;
}

void step_by(AppState& s, int delta) {
  s.user.step.playing = false;
  s.user.step.served = std::clamp(s.user.step.served + delta, 0, wavefront_total(s));
}

void advance_time(AppState& s, float seconds) {
  if (!s.user.step.playing) return;
  s.user.step.elapsed += seconds;
  while (s.user.step.elapsed >= s.user.step.seconds_per_wavefront) {
    s.user.step.elapsed -= s.user.step.seconds_per_wavefront;
    if (++s.user.step.served >= wavefront_total(s)) {
      s.user.step.served = wavefront_total(s);
      s.user.step.playing = false;
      s.user.step.elapsed = 0.0f;
      return;
    }
  }
}

int max_index(const Scenario& sc) {
  // A tile the core refuses (a side typed past its limit) has no range to step through; a
  // valid one keeps the range well inside what ImGui's SliderInt takes (INT_MAX / 2).
  if (sc.pattern != AccessPattern::raw && !sc.tile.check()) return 0;
  return access_pattern(sc.pattern).last_index(sc, std::max(1, sc.elements_per_lane()));
}

void move_index(AppState& s, int delta) {
  if (s.user.scenario.pattern == AccessPattern::raw) return;
  std::int64_t index = std::int64_t{s.user.scenario.index} + delta;  // index may be INT_MAX
  s.user.scenario.index =
      static_cast<int>(std::clamp<std::int64_t>(index, 0, max_index(s.user.scenario)));
}

std::string offsets_text(const std::array<std::int64_t, kWarpSize>& offsets) {
  std::string text;
  // Eight lanes a line, as the text box shows them.
  for (int l = 0; l < kWarpSize; ++l) {
    if (l) text += l % 8 ? ", " : ",\n";
    text += std::to_string(offsets[l]);
  }
  return text;
}

void toggle_lane(AppState& s, int lane) {
  assert(lane >= 0 && lane < kWarpSize && "lane out of range");
  s.user.scenario.lane_mask ^= 1u << lane;
}

bool set_raw_offsets(AppState& s, std::string_view text) {
  s.user.raw_text = text;
  // The text box spans several lines; the core's parser reads one.
  std::string one_line(text);
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  Expected<std::array<std::int64_t, kWarpSize>> parsed = parse_offsets(one_line);
  if (!parsed) {
    s.user.raw_error = parsed.error();
    return false;
  }
  s.user.raw_error.clear();
  s.user.scenario.raw_offsets = *parsed;
  return true;
}

void set_pattern(AppState& s, AccessPattern p) {
  Scenario& sc = s.user.scenario;
  if (sc.pattern == p) return;
  bool was_matrix = sc.pattern == AccessPattern::matrix;
  sc.pattern = p;
  if (p == AccessPattern::matrix && !was_matrix) {
    sc.op = is_load(sc.op) ? Op::ldmatrix_x4 : Op::stmatrix_x4;
    sc.width = 16;
  } else if (p != AccessPattern::matrix && was_matrix) {
    sc.op = is_load(sc.op) ? Op::ld : Op::st;
    sc.width = 0;
  }
  if (p == AccessPattern::raw && sc.raw_offsets == std::array<std::int64_t, kWarpSize>{}) {
    // Start the raw form from the access being shown, which the user then edits.
    if (s.study.evaluation.ok()) {
      sc.raw_offsets = s.study.evaluation.analysis->access.offsets;
      s.user.raw_text = offsets_text(sc.raw_offsets);
    }
  }
  sc.index = std::clamp(sc.index, 0, max_index(sc));
}

void change_zoom(AppState& s, float delta) {
  s.user.settings.zoom = std::clamp(s.user.settings.zoom + delta, kMinZoom, kMaxZoom);
}

}  // namespace banklab::gui
