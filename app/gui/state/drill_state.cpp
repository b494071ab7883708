#include "app/gui/state/drill_state.hpp"

#include <algorithm>
#include <random>
#include <string_view>

#include "app/gui/state/app_state.hpp"
#include "core/base/format.hpp"

namespace banklab::gui {

std::uint64_t fresh_drill_seed() {
  return std::random_device{}() & 0x7fffffffu;
}

void start_drill(AppState& s, DrillLevel level, std::uint64_t seed) {
  DrillState& d = s.drill;
  d.session.emplace(level, seed);
  d.input.fill('\0');
  d.shown.reset();
  d.focus_input = true;
  s.user.settings.drill.level = level;
}

bool submit_drill_answer(AppState& s, std::string_view text) {
  DrillState& d = s.drill;
  if (!d.session || !d.session->answer(text)) return false;
  const Grade& g = *d.session->graded();
  count_drill_answer(s.user.settings.drill, g.right);
  if (g.shown) d.shown = study(*g.shown);
  return true;
}

void next_drill_question(AppState& s) {
  DrillState& d = s.drill;
  if (!d.session) return;
  d.session->next();
  d.input.fill('\0');
  d.shown.reset();
  d.focus_input = true;
}

std::string drill_summary(const DrillSession& session) {
  const int answered = session.answered();
  const DrillLevel level = session.level();
  if (answered < kAnswersToPlace) {
    return format(
        "%d of %d right so far. After %d answers the session places you on the "
        "interview rubric (80%% right at a level places you there).",
        session.right(), answered, kAnswersToPlace);
  }
  const Placement p = session.placement();
  const std::string score = format("%d of %d right at the %s level", session.right(), answered,
                                   std::string(level_name(level)).c_str());
  // Passing the weak level is the basics, not the rubric's Weak band (the core's place()).
  std::string text = p.basics
                         ? format("The basics: %s, more than the rubric's Weak candidate, who %s",
                                  score.c_str(), std::string(rubric_text(DrillLevel::weak)).c_str())
                         : format("%s: %s. %s", std::string(rubric_band(p.band)).c_str(),
                                  score.c_str(), std::string(rubric_text(p.band)).c_str());
  if (p.band == level && level != DrillLevel::strong_hire) {
    const auto next = static_cast<DrillLevel>(static_cast<int>(level) + 1);
    text += " Ready for more: choose " + std::string(level_name(next)) + " under Level above.";
  }
  return text;
}

std::string for_people(std::string text) {
  for (const std::string_view flag : {"--pad ", "--swizzle "}) {
    for (auto at = text.find(flag); at != std::string::npos; at = text.find(flag, at)) {
      text.erase(at, 2);
    }
  }
  return text;
}

}  // namespace banklab::gui
