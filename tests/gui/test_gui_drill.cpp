// The Drill window driven as a user drives it, headless: D opens it, a click on the answer
// field, typed characters and Enter answer, a click on Next question moves on. The bank view
// stays hidden until the answer, the score and streak count in the session and in the settings'
// record, and the record survives the settings file with keys it does not know.
#include <doctest/doctest.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <string>

#include "app/gui/panels/panels.hpp"
#include "app/gui/platform/options.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/settings.hpp"
#include "tests/gui/headless_imgui.hpp"

using namespace banklab;
using namespace banklab::gui;

namespace {

// Synthetic input, one event per frame, the way the GLFW backend feeds ImGui 1.86.
struct Driver {
  HeadlessImGui imgui;
  AppState& s;

  explicit Driver(AppState& state) : s(state) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
    io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
    io.MousePos = ImVec2(1, 1);
  }
  void frame() { imgui.frame(s); }
  void key(int k) {
    ImGui::GetIO().KeysDown[k] = true;
    frame();
    ImGui::GetIO().KeysDown[k] = false;
    frame();
  }
  void type(const std::string& text) {
    for (char c : text) {
      ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(c));
      frame();
    }
  }
  // Hover, press, release at the centre of a rectangle the window reported.
  void click(ImVec2 min, ImVec2 max) {
    REQUIRE(max.x > min.x);
    REQUIRE(max.y > min.y);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((min.x + max.x) / 2, (min.y + max.y) / 2);
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
};

std::string typed_answer(const Question& q) {
  if (q.kind == AskKind::worth) return q.answer ? "yes" : "no";
  if (q.kind == AskKind::fix) {
    std::string flags;
    for (const std::string& w : fix_flags(q.fix)) flags += w + " ";
    return flags;
  }
  return std::to_string(q.answer);
}

}  // namespace

TEST_CASE("The drill window asks, reveals the bank view only once answered, and keeps score") {
  AppState s;
  Driver ui(s);
  ui.frame();
  CHECK_FALSE(s.user.views.drill);
  ui.key(GLFW_KEY_D);
  REQUIRE(s.user.views.drill);
  REQUIRE(s.drill.session);  // opened at the level of the record: weak on a first run
  CHECK(s.drill.session->level() == DrillLevel::weak);

  start_drill(s, DrillLevel::weak, 2);  // a known seed: the questions below are fixed
  ui.frame();
  const Question first = s.drill.session->question();
  CHECK(first.kind == AskKind::fix);    // typed as flags
  CHECK_FALSE(s.drill.geometry.banks);  // hidden before the answer
  CHECK_FALSE(s.drill.shown.has_value());

  ui.click(s.drill.geometry.input_min, s.drill.geometry.input_max);
  ui.type(typed_answer(first));
  ui.key(GLFW_KEY_ENTER);
  REQUIRE(s.drill.session->graded());
  CHECK(s.drill.session->graded()->right);
  CHECK(s.drill.session->right() == 1);
  CHECK(s.drill.session->streak() == 1);
  CHECK(s.user.settings.drill ==
        DrillRecord{
            .level = DrillLevel::weak, .right = 1, .answered = 1, .streak = 1, .best_streak = 1});
  // Revealed: the bank view of the question's own scenario, one row per wavefront.
  REQUIRE(s.drill.geometry.banks);
  CHECK(s.drill.shown->scenario == apply_fix(first.scenario, *parse_fix(typed_answer(first))));
  CHECK(s.drill.geometry.banks->grid.rows == s.drill.shown->evaluation.analysis->wavefront_count());

  ui.click(s.drill.geometry.next_min, s.drill.geometry.next_max);
  const Question second = s.drill.session->question();
  CHECK(second.index == 1);
  CHECK_FALSE(s.drill.session->graded());
  CHECK_FALSE(s.drill.geometry.banks);  // hidden again

  // Not an answer: asked again, nothing counted; the field keeps the keyboard.
  ui.type("abc");
  ui.key(GLFW_KEY_ENTER);
  REQUIRE(s.drill.session->graded());
  CHECK_FALSE(s.drill.session->graded()->read);
  CHECK(s.drill.session->answered() == 1);
  CHECK_FALSE(s.drill.geometry.banks);
  for (int i = 0; i < 3; ++i) ui.key(GLFW_KEY_BACKSPACE);

  REQUIRE(second.kind == AskKind::wavefronts);
  ui.type("999");  // no access of a warp has 999 wavefronts
  ui.key(GLFW_KEY_ENTER);
  REQUIRE(s.drill.session->graded());
  CHECK(s.drill.session->graded()->read);
  CHECK_FALSE(s.drill.session->graded()->right);
  CHECK(s.drill.session->streak() == 0);
  CHECK(s.user.settings.drill.answered == 2);
  CHECK(s.user.settings.drill.streak == 0);
  CHECK(s.user.settings.drill.best_streak == 1);
  CHECK(s.drill.geometry.banks);
  CHECK(s.drill.session->placement().text.starts_with("Weak: 1/2 at the weak level"));

  // Enter, with no text field active, moves on as the button does.
  ui.key(GLFW_KEY_ENTER);
  CHECK(s.drill.session->question().index == 2);

  // The new question's answer field takes the keyboard (a frame later, as ImGui focuses): D is
  // a letter there, not the shortcut.
  ui.frame();
  ui.key(GLFW_KEY_D);
  CHECK(s.user.views.drill);
}

TEST_CASE("The drill record and unknown keys survive the settings file") {
  Settings s;
  s.drill = DrillRecord{
      .level = DrillLevel::strong_hire, .right = 7, .answered = 9, .streak = 2, .best_streak = 5};
  s.other = {{.key = "compare_layout", .value = "side by side"},
             {.key = "columns", .value = "3", .kind = ValueKind::number}};
  const std::string text = format_settings(s);
  CHECK(text.find("drill_level = \"strong-hire\"\n") != std::string::npos);
  CHECK(text.find("compare_layout = \"side by side\"\ncolumns = 3\n") != std::string::npos);
  const ParsedSettings back = parse_settings(text);
  CHECK(back.settings == s);
  CHECK(format_settings(back.settings) == text);

  const ParsedSettings bad = parse_settings(
      "drill_level = expert\ndrill_right = -1\n"
      "drill_right = 5\ndrill_answered = 3\n");
  REQUIRE(bad.warnings.size() == 3);
  CHECK(bad.warnings[0] == "line 1: drill_level is weak, hire or strong-hire, got 'expert'");
  CHECK(bad.warnings[1] == "line 2: drill_right is a count from 0, got '-1'");
  CHECK(bad.warnings[2].find("does not add up") != std::string::npos);
  CHECK(bad.settings.drill == DrillRecord{});
}

TEST_CASE("--drill opens the drill window; its seed and answer need it") {
  auto parse = [](std::initializer_list<std::string_view> words) {
    std::vector<std::string_view> v(words);
    return parse_options(v);
  };
  const auto ok = parse({"--drill", "hire", "--drill-seed", "3", "--drill-answer=--pad 2"});
  REQUIRE(ok);
  CHECK(ok->drill == DrillLevel::hire);
  CHECK(ok->drill_seed == 3u);
  CHECK(ok->drill_answer == "--pad 2");
  CHECK_FALSE(parse({"--drill", "expert"}));
  CHECK_FALSE(parse({"--drill-seed", "3"}));
}
