#include "app/gui/state/code_state.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include "app/gui/state/app_state.hpp"
#include "core/code/code_view.hpp"

namespace banklab::gui {

bool apply_code(AppState& s) {
  CodeBox& c = s.user.code;
  ++c.evaluations;
  KernelParams params;
  params.block = c.block;
  params.warp = c.warp;
  params.extern_bytes = c.extern_bytes;
  params.let_hint = "give it a value under names, NAME=VALUE";
  if (c.lets.find_first_not_of(" \t") != std::string::npos) {
    auto lets = parse_lets(c.lets);
    if (!lets) {
      c.error = "error: " + lets.error() + "\n";
      c.error_line = 0;
      return false;
    }
    params.lets = std::move(*lets);
  }
  const CodeSource source{"code", c.text};
  const std::span sources(&source, 1);
  CodeResult r = evaluate_code(sources, params);
  if (r.error) {
    c.error = format_code_error(*r.error, sources);
    c.error_line = r.error->line;
    return false;
  }
  c.error.clear();
  c.error_line = 0;
  c.code = std::move(r.code);
  c.stands_for = c.code->scenario;
  s.user.scenario = c.code->scenario;
  s.user.raw_error.clear();
  s.user.raw_text = offsets_text(s.user.scenario.raw_offsets);
  return true;
}

bool set_code(AppState& s, std::string text) {
  s.user.code.text = std::move(text);
  return apply_code(s);
}

void show_scenario_code(AppState& s, const Study& shown) {
  CodeBox& c = s.user.code;
  const CodeView v = code_view(shown);
  c.text = v.declaration;
  for (const std::string& line : v.host) c.text += "\n// on the host: " + line;
  for (const std::string& line : v.statement) c.text += "\n" + line;
  if (!v.note.empty()) c.text += "\n// " + v.note;
  c.block = {kWarpSize, 1, 1};
  c.warp = 0;
  c.lets.clear();
  c.error.clear();
  c.error_line = 0;
  c.code.reset();
  c.stands_for = shown.scenario;  // the box shows this scenario's code, or its note
  c.left_lesson.clear();
  if (v.statement.empty()) return;
  const CodeSource source{"code", c.text};
  CodeResult r = evaluate_code(std::span(&source, 1), KernelParams{});
  if (r.code) c.code = std::move(r.code);
}

bool code_on_screen(const AppState& s) {
  return s.user.code.code && s.user.code.stands_for == s.user.scenario;
}

bool code_stale(const AppState& s) {
  return !s.user.code.error.empty() && s.user.code.stands_for == s.user.scenario;
}

void code_edited(AppState& s) {
  if (in_lesson(s)) {
    s.user.code.left_lesson = s.lesson.lesson->name + ", step " + std::to_string(s.lesson.step + 1);
    leave_lesson(s);
  }
  apply_code(s);
}

void attach_array_elements(Study& d, const Scenario& tied) {
  const Scenario& sc = d.scenario;
  if (!(sc == tied) || !d.evaluation.ok() || !sc.tile.check()) return;
  const TileLayout& t = sc.tile;
  const int per_lane = std::max(1, sc.effective_width() / t.elem_bytes());
  const std::int64_t elements = std::int64_t{t.rows} * t.cols;
  for (int l = 0; l < kWarpSize; ++l) {
    const std::int64_t byte = sc.raw_offsets[static_cast<std::size_t>(l)];
    if (!d.evaluation.analysis->lanes[l].active || byte < 0 || byte >= t.size_bytes()) continue;
    const std::optional<Cell> at = t.element_at(byte);
    if (!at || std::int64_t{at->row} * t.cols + at->col + per_lane > elements) continue;
    d.evaluation.elements[static_cast<std::size_t>(l)] = LaneElements{*at, per_lane};
  }
  // The derivation's lane examples name the elements now tied to the lanes.
  d.explanation = explain(sc, d.evaluation);
}

}  // namespace banklab::gui
