#include "app/gui/state/lesson_state.hpp"

#include <algorithm>

#include "app/gui/state/app_state.hpp"

namespace banklab::gui {

bool in_lesson(const AppState& s) {
  return s.lesson.lesson.has_value();
}

Expected<void> open_lesson(AppState& s, std::string_view name, int step) {
  Expected<Lesson> lesson = find_lesson(name);
  if (!lesson) return Error{lesson.error()};
  const int n = static_cast<int>(lesson->steps.size());
  if (step < 0 || step >= n) {
    return Error{"lesson '" + lesson->name + "' has steps 1 to " + std::to_string(n) + ", not " +
                 std::to_string(step + 1)};
  }
  s.lesson.lesson = std::move(*lesson);
  s.reset_layout = true;                 // the Lesson panel grows for the step's text
  s.user.stage.view = StageView::slide;  // presentation mode shows the step as a slide
  go_to_step(s, step);
  return {};
}

void go_to_step(AppState& s, int step) {
  if (!in_lesson(s)) return;
  const auto& steps = s.lesson.lesson->steps;
  s.lesson.step = std::clamp(step, 0, static_cast<int>(steps.size()) - 1);
  s.lesson.filled = fill_step(steps[static_cast<std::size_t>(s.lesson.step)]);
  s.user.scenario = s.lesson.filled.study.scenario;
  s.user.preset = -1;  // a lesson step is its own scenario, not a preset
  s.user.raw_error.clear();
  s.user.raw_text = offsets_text(s.user.scenario.raw_offsets);
  if (const std::optional<StepCode>& code = s.lesson.filled.code) {
    // A step written as code: the Code window holds its code and launch, evaluated as typed
    // code is (the same offsets the step's scenario has).
    CodeBox& box = s.user.code;
    box.text = code->decl + "\n" + code->expr;
    box.lets = code->lets;
    box.block = code->params.block;
    box.warp = code->params.warp;
    box.extern_bytes = code->params.extern_bytes;
    box.left_lesson.clear();
    apply_code(s);
  } else {
    show_scenario_code(s, s.lesson.filled.study);
  }
  if (const std::optional<StepDescriptor>& d = s.lesson.filled.descriptor) {
    // A step read through a descriptor: the Descriptor window shows it, as the step sets it.
    s.user.descriptor = *d;
    s.user.views.descriptor = true;
  }
  refresh(s);  // a new scenario: every wavefront served
}

void step_lesson(AppState& s, int delta) {
  go_to_step(s, s.lesson.step + delta);
}

void leave_lesson(AppState& s) {
  s.lesson.lesson.reset();
  s.lesson.step = 0;
  s.lesson.filled = FilledStep{};
  s.reset_layout = true;
  if (s.user.stage.view == StageView::slide) s.user.stage.view = StageView::banks;
}

}  // namespace banklab::gui
