#include "app/gui/state/solve_state.hpp"

#include <algorithm>
#include <vector>

#include "core/base/format.hpp"

namespace banklab::gui {

Expected<SolveChoices> parse_solve_choices(std::string_view list) {
  SolveChoices chosen{};
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view name = list.substr(start, comma - start);
    const auto it = std::find_if(std::begin(kSolveChoices), std::end(kSolveChoices),
                                 [&](const SolveChoice& c) { return c.family == name; });
    if (it == std::end(kSolveChoices)) {
      std::string names;
      for (const SolveChoice& c : kSolveChoices) {
        if (!names.empty()) names += ", ";
        names += c.family;
      }
      return Error{quote(name) + " is not one of the Solve window's families: " + names};
    }
    chosen[static_cast<std::size_t>(it - std::begin(kSolveChoices))] = true;
    start = comma + 1;
  }
  return chosen;
}

Expected<void> choice_available(std::size_t i, const TileLayout& tile) {
  const Expected<AccessFamily> f = parse_family(kSolveChoices[i].family);
  if (!f) return Error{f.error()};
  return check_family(*f, tile.dtype, tile.rows, tile.cols);
}

void run_solve(SolveState& p, const TileLayout& tile) {
  SolveRequest q{tile.dtype, tile.rows, tile.cols, {}, std::nullopt};
  for (std::size_t i = 0; i < kSolveChoiceCount; ++i) {
    if (!p.chosen[i] || !choice_available(i, tile)) continue;
    q.families.push_back(*parse_family(kSolveChoices[i].family));
  }
  if (p.max_overhead >= 0) q.max_overhead_bytes = p.max_overhead;
  p.solved_for = tile;
  p.result.reset();
  p.today.reset();
  p.today_rejected.clear();
  p.selected = 0;
  p.preview.reset();
  p.preview_of = -1;
  Expected<SolveResult> r = solve(q);
  if (!r) {
    p.error = r.error();
    return;
  }
  p.error.clear();
  p.result = std::move(*r);
  Expected<Candidate> today = evaluate_candidate(tile, q.families);
  if (today) {
    p.today = std::move(*today);
  } else {
    p.today_rejected = today.error();
  }
}

bool solve_stale(const SolveState& p, const TileLayout& tile) {
  if (!p.solved_for) return false;
  return p.solved_for->dtype != tile.dtype || p.solved_for->rows != tile.rows ||
         p.solved_for->cols != tile.cols;
}

TileLayout applied_layout(const SolveState& p, int i, const TileLayout& tile) {
  TileLayout t = tile;
  const Candidate& c = p.result->candidates[static_cast<std::size_t>(i)];
  t.pad = c.layout.pad;
  t.swizzle = c.layout.swizzle;
  return t;
}

const Study& candidate_preview(SolveState& p, const Study& on_screen, std::uint64_t revision) {
  if (!p.preview || p.preview_of != p.selected || p.preview_revision != revision) {
    Scenario sc = on_screen.scenario;
    sc.tile = applied_layout(p, p.selected, sc.tile);
    p.preview = study(sc);
    p.preview_of = p.selected;
    p.preview_revision = revision;
  }
  return *p.preview;
}

}  // namespace banklab::gui
