#pragma once
// Lesson mode: a guided track (core's core/teach/lesson.hpp) walked step by step. Each step sets
// the scenario on screen and what the views highlight; leaving the lesson keeps the step's
// scenario for free exploration. No GL and no window, so the tests drive it headless.
#include <optional>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"
#include "core/teach/lesson.hpp"

namespace banklab::gui {

struct AppState;
struct Interaction;  // views.hpp

struct LessonMode {
  std::optional<Lesson> lesson;  // none: free exploration
  int step = 0;
  // The current step, its numbers filled in and its scenarios studied once when the step is
  // entered: the slide is drawn every frame, the step changes only on a key.
  FilledStep filled;
  // The lessons on offer and the files that did not load, read once when the Lesson panel
  // first lists them.
  std::optional<Expected<LessonCatalogue>> catalogue;
};

bool in_lesson(const AppState& s);
// Opens the lesson at step `step` (0-based); the error names the lesson or the step.
Expected<void> open_lesson(AppState& s, std::string_view name, int step = 0);
// Moves to step `step`, clamped to the lesson; the scenario and highlights follow.
void go_to_step(AppState& s, int step);
void step_lesson(AppState& s, int delta);
// Back to free exploration with the step's scenario still on screen.
void leave_lesson(AppState& s);

// The Lesson panel's parts (lesson_panel.cpp): the lessons to open, or the current step with its
// text, progress and navigation.
void draw_lesson_chooser(AppState& s);
void draw_lesson_step(AppState& s, Interaction& io);  // io: where its Next button is

}  // namespace banklab::gui
