// The lesson as a list: every preset of the core's table one click away, with the one-line
// lesson of the selected one (n / p walk the list).
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/model/presets.hpp"

namespace banklab::gui {

void draw_presets(AppState& s) {
  if (in_lesson(s)) {  // a guided lesson takes the panel until the user leaves it
    draw_lesson_step(s);
    return;
  }
  draw_lesson_chooser(s);
  std::span<const Preset> all = presets();
  const Palette& p = colours(s);
  if (s.user.preset >= 0) {
    const Preset& cur = all[s.user.preset];
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(p.title));
    ImGui::TextWrapped("%s", std::string(cur.title).c_str());
    ImGui::PopStyleColor();
    ImGui::TextWrapped("%s", std::string(cur.lesson).c_str());
    if (preset_modified(s)) {
      ImGui::TextDisabled("(changed since loaded)");
      ImGui::SameLine();
      if (ImGui::SmallButton("reload")) load_preset(s, s.user.preset);
    }
    ImGui::Separator();
  }
  ImGui::BeginChild("##preset-list");
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Preset& pr = all[i];
    bool selected = static_cast<int>(i) == s.user.preset;
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(std::string(pr.name).c_str(), selected)) {
      load_preset(s, static_cast<int>(i));
    }
    if (selected && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
      ImGui::TextUnformatted(std::string(pr.title).c_str());
      ImGui::TextDisabled("%s", std::string(pr.lesson).c_str());
      ImGui::Text("%d wavefront%s", pr.expected_wavefronts, pr.expected_wavefronts == 1 ? "" : "s");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::SameLine(ImGui::GetFontSize() * 11.0f);
    ImGui::TextDisabled("%s", std::string(pr.title).c_str());
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace banklab::gui
