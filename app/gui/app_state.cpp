#include "app_state.hpp"

#include <algorithm>
#include <cassert>

#include "banklab/hardware.hpp"
#include "banklab/presets.hpp"
#include "options.hpp"

namespace banklab::gui {
namespace {

// The tile view's texture: one byte per slot of the padded tile. In the logical view slot (r, c)
// of a real element holds that element's bank (so a swizzle recolours the tile); in the
// physical view every slot holds the bank of its own address. Padding slots are flagged.
void rebuild_heatmap(AppState& s) {
  HeatmapImage& img = s.draw.heatmap;
  img.cells.clear();
  img.rows = img.cols = 0;
  ++img.revision;
  if (!s.evaluated || !s.derived.tile_error.empty()) return;
  const TileLayout& t = s.evaluated->tile;
  img.rows = t.rows;
  img.cols = t.cols + t.pad;
  img.cells.resize(static_cast<std::size_t>(img.rows) * img.cols);
  for (int r = 0; r < t.rows; ++r) {
    for (int p = 0; p < img.cols; ++p) {
      std::uint8_t v = 0;
      if (p >= t.cols) {
        v = static_cast<std::uint8_t>(bank_of_byte(t.logical_byte(r, p)) |
                                      HeatmapImage::kHeatPadding);
      } else if (s.tile_physical) {
        v = static_cast<std::uint8_t>(bank_of_byte(t.logical_byte(r, p)));
      } else {
        v = s.derived.bank_map[static_cast<std::size_t>(r) * t.cols + p];
      }
      img.cells[static_cast<std::size_t>(r) * img.cols + p] = v;
    }
  }
}

}  // namespace

bool refresh(AppState& s) {
  bool tile_changed = !s.evaluated || s.evaluated->tile != s.scenario.tile;
  if (s.evaluated && *s.evaluated == s.scenario) return false;
  s.derived.evaluation = evaluate(s.scenario);
  s.derived.explanation.reset();
  if (s.derived.evaluation.ok()) {
    s.derived.explanation = explain(s.scenario, s.derived.evaluation);
  }
  if (tile_changed) {
    s.derived.tile_error = s.scenario.tile.check();
    s.derived.bank_map.clear();
    if (s.derived.tile_error.empty()) s.derived.bank_map = tile_bank_map(s.scenario.tile);
  }
  s.evaluated = s.scenario;
  // A new access is shown fully served; play starts it over from the first wavefront.
  s.step.playing = false;
  s.step.elapsed = 0.0f;
  s.step.served = wavefront_total(s);
  if (tile_changed) rebuild_heatmap(s);
  return true;
}

void set_tile_physical(AppState& s, bool physical) {
  if (s.tile_physical == physical) return;
  s.tile_physical = physical;
  rebuild_heatmap(s);
}

int wavefront_total(const AppState& s) {
  const Evaluation& e = s.derived.evaluation;
  return e.ok() ? e.analysis->wavefront_count() : 0;
}

void load_preset(AppState& s, int index) {
  std::span<const Preset> all = presets();
  assert(index >= 0 && index < static_cast<int>(all.size()) && "preset index out of range");
  s.preset = index;
  s.scenario = all[index].scenario;
  s.settings.preset = all[index].name;
  s.custom_error.clear();
  s.custom_text = offsets_text(s.scenario.custom_offsets);
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
  int from = s.preset < 0 ? (delta > 0 ? -1 : 0) : s.preset;
  load_preset(s, ((from + delta) % n + n) % n);
}

bool preset_modified(const AppState& s) {
  return s.preset >= 0 && presets()[s.preset].scenario != s.scenario;
}

void toggle_play(AppState& s) {
  if (s.step.playing) {
    s.step.playing = false;
    return;
  }
  if (s.step.served >= wavefront_total(s)) s.step.served = 0;
  s.step.playing = wavefront_total(s) > 0;
  s.step.elapsed = 0.0f;
}

void step_by(AppState& s, int delta) {
  s.step.playing = false;
  s.step.served = std::clamp(s.step.served + delta, 0, wavefront_total(s));
}

void advance_time(AppState& s, float seconds) {
  if (!s.step.playing) return;
  s.step.elapsed += seconds;
  while (s.step.elapsed >= s.step.seconds_per_wavefront) {
    s.step.elapsed -= s.step.seconds_per_wavefront;
    if (++s.step.served >= wavefront_total(s)) {
      s.step.served = wavefront_total(s);
      s.step.playing = false;
      s.step.elapsed = 0.0f;
      return;
    }
  }
}

int max_index(const Scenario& sc) {
  const TileLayout& t = sc.tile;
  int k = std::max(1, sc.elements_per_lane());
  switch (sc.pattern) {
    case AccessPattern::row: {
      // The warp's k*32 elements start at N*C and must end inside the tile.
      std::int64_t last_start = std::int64_t{t.rows} * t.cols - std::int64_t{kWarpSize} * k;
      return last_start < 0 ? 0 : static_cast<int>(last_start / std::max(1, t.cols));
    }
    case AccessPattern::column:
      return std::max(0, t.cols / k - 1);
    case AccessPattern::matrix: {
      int chunks = static_cast<int>(std::int64_t{t.cols} * t.elem_bytes() / 16);
      return std::max(0, chunks - std::max(1, matrix_count(sc.op)));
    }
    case AccessPattern::custom:
      return 0;
  }
  return 0;
}

void move_index(AppState& s, int delta) {
  if (s.scenario.pattern == AccessPattern::custom) return;
  s.scenario.index = std::clamp(s.scenario.index + delta, 0, max_index(s.scenario));
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
  s.scenario.lane_mask ^= 1u << lane;
}

bool set_custom_offsets(AppState& s, std::string_view text) {
  s.custom_text = text;
  // The text box spans several lines; the core's parser reads one.
  std::string one_line(text);
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  Expected<std::array<std::int64_t, kWarpSize>> parsed = parse_offsets(one_line);
  if (!parsed) {
    s.custom_error = parsed.error();
    return false;
  }
  s.custom_error.clear();
  s.scenario.custom_offsets = *parsed;
  return true;
}

void set_pattern(AppState& s, AccessPattern p) {
  Scenario& sc = s.scenario;
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
  if (p == AccessPattern::custom && sc.custom_offsets == std::array<std::int64_t, kWarpSize>{}) {
    // Start custom mode from the access being shown, which the user then edits.
    if (s.derived.evaluation.ok()) {
      sc.custom_offsets = s.derived.evaluation.analysis->access.offsets;
      s.custom_text = offsets_text(sc.custom_offsets);
    }
  }
  sc.index = std::clamp(sc.index, 0, max_index(sc));
}

void change_zoom(AppState& s, float delta) {
  s.settings.zoom = std::clamp(s.settings.zoom + delta, kMinZoom, kMaxZoom);
}

}  // namespace banklab::gui
