// The Drill window: the level, the question without its answer, the answer field; once
// answered, right or wrong, the mistake the answer matches, and the bank view and derivation
// of the question's scenario, revealed only then; the session's score and streak, the record
// kept across runs, and where the session places the user on the lesson's rubric.
#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

void drill_header(AppState& s) {
  DrillState& d = s.drill;
  const DrillLevel level = d.session->level();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  if (ImGui::BeginCombo("Level", std::string(level_name(level)).c_str())) {
    for (DrillLevel l : kAllDrillLevels) {
      if (ImGui::Selectable(std::string(level_name(l)).c_str(), l == level) && l != level) {
        start_drill(s, l, fresh_drill_seed());
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("New session")) start_drill(s, level, fresh_drill_seed());
  ImGui::SameLine();
  help_marker(
      "weak: the basics (a lane's bank, which access conflicts, the pad of one). hire: the "
      "rubric's Hire bar (float tiles of any width and pad, the stride rule, fixes, whether a "
      "conflict behind HBM is worth a fix). strong-hire: the Strong Hire bar (bf16/fp8, "
      "8/16-byte phases and load packing, float4 and TMA fills, ldmatrix, swizzles, the Nsight "
      "counters, designing a swizzle). Keys: D opens and closes the drill; Enter answers.");
  const DrillSession& session = *d.session;
  const DrillRecord& r = s.user.settings.drill;
  ImGui::SameLine();
  ImGui::Text("   This session: %d/%d right, streak %d", session.right(), session.answered(),
              session.streak());
  ImGui::SameLine();
  ImGui::TextDisabled("   All runs: %d/%d right, streak %d, best %d   (seed %llu)", r.right,
                      r.answered, r.streak, r.best_streak,
                      static_cast<unsigned long long>(session.seed()));
}

void question(AppState& s) {
  DrillState& d = s.drill;
  const Question& q = d.session->question();
  ImGui::Separator();
  ImGui::TextDisabled("Question %d  (%s, %s)", q.index + 1,
                      std::string(level_name(q.level)).c_str(),
                      std::string(ask_name(q.kind)).c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(q.text.c_str());
  ImGui::PopTextWrapPos();
}

void answer_field(AppState& s) {
  DrillState& d = s.drill;
  const Palette& p = colours(s);
  if (d.focus_input) {
    ImGui::SetKeyboardFocusHere();
    d.focus_input = false;
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16.0f);
  bool submit = ImGui::InputText("##answer", d.input.data(), d.input.size(),
                                 ImGuiInputTextFlags_EnterReturnsTrue);
  d.geometry.input_min = ImGui::GetItemRectMin();
  d.geometry.input_max = ImGui::GetItemRectMax();
  ImGui::SameLine();
  submit |= ImGui::Button("Answer");
  d.geometry.answer_min = ImGui::GetItemRectMin();
  d.geometry.answer_max = ImGui::GetItemRectMax();
  ImGui::SameLine();
  const std::string_view hint = ask_descriptor(d.session->question().kind).hint;
  ImGui::TextDisabled("%.*s", static_cast<int>(hint.size()), hint.data());
  if (submit && !submit_drill_answer(s, d.input.data())) d.focus_input = true;
  const std::optional<Grade>& g = d.session->graded();
  if (g && !g->read) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(p.error));
    ImGui::TextWrapped("Not an answer: %s.", g->feedback.c_str());
    ImGui::PopStyleColor();
  }
}

void feedback(AppState& s) {
  DrillState& d = s.drill;
  const Palette& p = colours(s);
  const Grade& g = *d.session->graded();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::PushStyleColor(ImGuiCol_Text,
                        ImGui::ColorConvertU32ToFloat4(g.right ? p.text_ok : p.error));
  ImGui::TextUnformatted(for_people(g.feedback).c_str());
  ImGui::PopStyleColor();
  if (g.mistake != Mistake::none) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(p.warning));
    ImGui::Text("Mistake (%s): %s", std::string(mistake_name(g.mistake)).c_str(),
                std::string(mistake_text(g.mistake)).c_str());
    ImGui::PopStyleColor();
  }
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  for (const std::string& line : g.details) ImGui::TextUnformatted(for_people(line).c_str());
  if (s.res.mono_font) ImGui::PopFont();
  ImGui::PopTextWrapPos();
  const bool enter = !ImGui::GetIO().WantTextInput &&
                     ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
  if (ImGui::Button("Next question") || enter) {
    next_drill_question(s);
  }
  d.geometry.next_min = ImGui::GetItemRectMin();
  d.geometry.next_max = ImGui::GetItemRectMax();
}

// The session's place on the rubric, once there is an answer to place.
void summary(AppState& s) {
  const DrillSession& session = *s.drill.session;
  if (session.answered() == 0) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", drill_summary(session).c_str());
  ImGui::PopTextWrapPos();
}

// The bank view and the derivation of the answered question, side by side.
void revealed(AppState& s) {
  DrillState& d = s.drill;
  ImGui::Separator();
  if (!d.shown) {
    ImGui::TextDisabled("The bank view and the derivation appear once you answer.");
    return;
  }
  const std::optional<Grade>& g = d.session->graded();
  const bool key_shown = g && g->read && !g->right && d.session->question().kind == AskKind::fix;
  ImGui::TextDisabled("Bank view and derivation of %s%s:", describe(d.shown->scenario).c_str(),
                      key_shown ? " (one fix that works)" : "");
  ViewStyle style = view_style(s);
  style.served = kAllServed;  // the whole answer at once: no step-through here
  style.hovered_lane = -1;
  style.highlights = nullptr;  // a lesson step's marks belong to its own scenario, not this one
  Interaction io{&s.frame.draw};
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float banks_w = std::floor(avail.x * 0.6f);
  if (ImGui::BeginChild("##drill-banks", ImVec2(banks_w, avail.y), false,
                        ImGuiWindowFlags_NoScrollbar)) {
    draw_banks(*d.shown, style, io);
  }
  ImGui::EndChild();
  ImGui::SameLine();
  if (ImGui::BeginChild("##drill-arithmetic", ImVec2(0.0f, avail.y))) {
    draw_arithmetic(*d.shown, style, io);
  }
  ImGui::EndChild();
  d.geometry.banks = io.geometry.banks;
}

}  // namespace

void draw_drill(AppState& s, Interaction&) {
  DrillState& d = s.drill;
  if (!d.session) start_drill(s, s.user.settings.drill.level, fresh_drill_seed());
  d.geometry = DrillGeometry{};
  drill_header(s);
  question(s);
  const std::optional<Grade>& g = d.session->graded();
  if (g && g->read) {
    feedback(s);
  } else {
    answer_field(s);
  }
  summary(s);
  revealed(s);
}

}  // namespace banklab::gui
