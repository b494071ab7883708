// The Lesson panel's lesson mode: the guided tracks to open, then one step at a time with its
// text (numbers filled in by the core), its progress, and the way back to free exploration.
#include <algorithm>
#include <string>
#include <vector>

#include "app/figures/slide.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/lesson_state.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/base/format.hpp"

namespace banklab::gui {
namespace {

// A paragraph wrapped at its spaces only: ImGui's own wrapping also breaks after a full stop,
// which split a range such as "words 1984..1985" across two lines.
void text_wrapped_at_spaces(const std::string& paragraph) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f);
  std::string line;
  std::size_t at = 0;
  while (at < paragraph.size()) {
    std::size_t end = paragraph.find(' ', at);
    if (end == std::string::npos) end = paragraph.size();
    const std::string word = paragraph.substr(at, end - at);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && ImGui::CalcTextSize(longer.c_str()).x > width) {
      ImGui::TextUnformatted(line.c_str());
      line = word;
    } else {
      line = longer;
    }
    at = end + 1;
  }
  if (!line.empty()) ImGui::TextUnformatted(line.c_str());
}

// Paragraphs wrapped; code lines (four spaces) in the monospace font, as the slides set them
// (figures::wrap_text): a line wider than the panel broken after a space, comma, dot or
// bracket, the rest hanging below it.
void draw_text(const AppState& s, const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    if (line.starts_with("    ")) {
      if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
      const int columns =
          static_cast<int>(ImGui::GetContentRegionAvail().x / ImGui::CalcTextSize("0").x);
      const std::vector<figures::TextLine> pieces = figures::wrap_text(line, columns);
      if (pieces.empty()) ImGui::NewLine();  // a blank line inside the code
      for (const figures::TextLine& piece : pieces) ImGui::TextUnformatted(piece.text.c_str());
      if (s.res.mono_font) ImGui::PopFont();
    } else if (line.empty()) {
      ImGui::Spacing();
    } else {
      text_wrapped_at_spaces(line);
    }
    at = end + 1;
  }
}

}  // namespace

void draw_lesson_chooser(AppState& s) {
  if (!s.lesson.catalogue) s.lesson.catalogue = load_lessons();
  const Expected<LessonCatalogue>& all = *s.lesson.catalogue;
  ImGui::TextDisabled("Guided lessons");
  const auto error_text = [&](const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).error));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
  };
  if (!all) {
    error_text(all.error());
    return;
  }
  for (const Lesson& l : all->lessons) {
    ImGui::PushID(l.name.c_str());
    if (ImGui::SmallButton("Open")) {
      const std::string name = l.name;  // open_lesson() may not outlive the catalogue entry
      open_lesson(s, name, 0);
    }
    ImGui::SameLine();
    ImGui::TextWrapped("%s (%d steps)", l.title.c_str(), static_cast<int>(l.steps.size()));
    ImGui::PopID();
  }
  // A file that does not load is named with its mistake; the others stay open to the user.
  for (const std::string& problem : all->problems) error_text("Left out: " + shown(problem, 400));
  ImGui::Separator();
}

void draw_lesson_step(AppState& s, Interaction& io) {
  const Lesson& l = *s.lesson.lesson;
  const int n = static_cast<int>(l.steps.size());
  const int i = s.lesson.step;
  const Palette& p = colours(s);
  text_disabled_wrapped(l.title);
  char progress[32];
  std::snprintf(progress, sizeof progress, "Step %d of %d", i + 1, n);
  ImGui::ProgressBar(static_cast<float>(i + 1) / static_cast<float>(n), ImVec2(-1, 0), progress);
  ImGui::BeginDisabled(i == 0);
  if (ImGui::Button("< Previous")) step_lesson(s, -1);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(i + 1 == n);
  if (ImGui::Button("Next >")) step_lesson(s, 1);
  io.geometry.lesson_next = ButtonRect{ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  ImGui::EndDisabled();
  same_line_if_button_fits("Explore from here");  // under the others when the panel is narrow
  if (ImGui::Button("Explore from here")) {
    leave_lesson(s);
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(p.title));
  ImGui::TextWrapped("%s", s.lesson.filled.title.c_str());
  ImGui::PopStyleColor();
  text_disabled_wrapped(describe_step(s.lesson.filled));
  ImGui::Separator();
  ImGui::BeginChild("##lesson-text");
  draw_text(s, s.lesson.filled.text);
  ImGui::EndChild();
}

}  // namespace banklab::gui
