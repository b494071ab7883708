#pragma once
// The Drill window's state and logic: a DrillSession (core/teach/drill.hpp) at the level the user
// picks, the answer being typed, and, once the question is answered, the Study of the
// scenario that explains the answer, whose bank view and derivation the window then reveals.
// Every answer also counts in the settings' DrillRecord, so the score and the streak outlive
// the run. No drawing here (panels/drill_panel.cpp draws), so the tests drive it headless.
#include <imgui.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "app/gui/views/geometry.hpp"
#include "core/report/study.hpp"
#include "core/teach/drill.hpp"

namespace banklab::gui {

struct AppState;

// Where the window put its controls and the revealed bank view this frame: for the tests that
// click them, as FrameGeometry is for the other views.
struct DrillGeometry {
  ImVec2 input_min{}, input_max{};        // the answer field (zero when not drawn)
  ImVec2 answer_min{}, answer_max{};      // the Answer button
  ImVec2 next_min{}, next_max{};          // the Next question button
  std::optional<BankViewGeometry> banks;  // nullopt while the bank view is hidden
};

struct DrillState {
  std::optional<DrillSession> session;  // started when the window first opens
  std::array<char, 160> input{};        // the answer being typed
  bool focus_input = false;             // the answer field takes the keyboard next frame
  std::optional<Study> shown;           // after an answer: what the bank view and derivation show
  DrillGeometry geometry;
};

// A seed nobody chose, for a new session.
std::uint64_t fresh_drill_seed();
// A new session at this level (remembered in the settings); the first question, unanswered.
void start_drill(AppState& s, DrillLevel level, std::uint64_t seed);
// Grades text against the current question and counts it in the session and the settings'
// record. False when it is not an answer (the session's graded() says why) or the question was
// answered already.
bool submit_drill_answer(AppState& s, std::string_view text);
void next_drill_question(AppState& s);

// Answers before the window places a session on the interview rubric (the CLI's drill asks 5):
// one wrong answer out of one says nothing about anyone.
inline constexpr int kAnswersToPlace = 5;
// The window's summary of the session, for people: the score so far, then (from
// kAnswersToPlace answers) the rubric's band and what it says, and the next level to choose.
std::string drill_summary(const DrillSession& session);
// The core grades fixes in the command line's words ("with --pad 2"); the window says them as a
// person types them into it ("with pad 2").
std::string for_people(std::string text);

}  // namespace banklab::gui
