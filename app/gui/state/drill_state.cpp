#include "app/gui/state/drill_state.hpp"

#include <algorithm>
#include <random>

#include "app/gui/state/app_state.hpp"

namespace banklab::gui {

std::uint64_t fresh_drill_seed() {
  return std::random_device{}() & 0x7fffffffu;
}

void start_drill(AppState& s, DrillLevel level, std::uint64_t seed) {
  DrillPanel& d = s.drill;
  d.session.emplace(level, seed);
  d.input.fill('\0');
  d.shown = Derived{};
  d.focus_input = true;
  s.user.settings.drill.level = level;
}

bool submit_drill_answer(AppState& s, std::string_view text) {
  DrillPanel& d = s.drill;
  if (!d.session || !d.session->answer(text)) return false;
  const Grade& g = *d.session->graded();
  DrillRecord& r = s.user.settings.drill;
  ++r.answered;
  if (g.right) {
    ++r.right;
    ++r.streak;
    r.best_streak = std::max(r.best_streak, r.streak);
  } else {
    r.streak = 0;
  }
  if (g.shown) d.shown = derive(*g.shown);
  return true;
}

void next_drill_question(AppState& s) {
  DrillPanel& d = s.drill;
  if (!d.session) return;
  d.session->next();
  d.input.fill('\0');
  d.shown = Derived{};
  d.focus_input = true;
}

}  // namespace banklab::gui
