// The step-through bar above the bank view: play, pause and step through the wavefronts as the
// hardware serves them, one per clock, with a cycle counter, so a class sees the serialisation.
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {

void draw_step_bar(AppState& s) {
  int total = wavefront_total(s);
  ImGui::BeginDisabled(total == 0);
  if (ImGui::Button("|<")) step_by(s, -total);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to clock 0");
  ImGui::SameLine();
  if (ImGui::Button("<")) step_by(s, -1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("one wavefront back (Left)");
  ImGui::SameLine();
  if (ImGui::Button(s.user.step.playing ? "Pause" : "Play ",
                    ImVec2(ImGui::GetFontSize() * 3.4f, 0))) {
    toggle_play(s);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("serve the wavefronts one by one (Space)");
  ImGui::SameLine();
  if (ImGui::Button(">")) step_by(s, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("one wavefront on (Right)");
  ImGui::SameLine();
  if (ImGui::Button(">|")) step_by(s, total);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("all wavefronts served");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Text("clock %d / %d", s.user.step.served, total);
  help_marker(
      "Shared memory serves one wavefront per clock: 32 banks x 4 bytes = 128 B. Each row of "
      "the bank view is one wavefront; lanes light up in the lane map when the last of their "
      "words has been served.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  float speed = 1.0f / s.user.step.seconds_per_wavefront;
  if (ImGui::SliderFloat("##speed", &speed, 0.5f, 16.0f, "%.1f wf/s",
                         ImGuiSliderFlags_Logarithmic)) {
    s.user.step.seconds_per_wavefront = 1.0f / speed;
  }
}

}  // namespace banklab::gui
