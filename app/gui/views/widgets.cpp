#include "app/gui/views/widgets.hpp"

#include <bit>
#include <cfloat>
#include <cmath>

namespace banklab::gui {

ButtonRect last_item_rect() {
  return {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

namespace {

// SameLine() when an item `width` wide fits after the last one, inside the window.
void same_line_if_width_fits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right)
    ImGui::SameLine();
}

}  // namespace

void same_line_if_fits(const char* label) {
  same_line_if_width_fits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                          ImGui::CalcTextSize(label, nullptr, true).x);
}

void same_line_if_button_fits(const char* label) {
  same_line_if_width_fits(ImGui::CalcTextSize(label, nullptr, true).x +
                          2.0f * ImGui::GetStyle().FramePadding.x);
}

void text_disabled_wrapped(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

bool draw_errors_instead(const Palette& p, const std::vector<Diagnostic>& diagnostics,
                         const char* what) {
  if (!has_error(diagnostics)) return false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(p.error));
  ImGui::TextWrapped("Cannot draw %s for this choice:", what);
  ImGui::PopStyleColor();
  ImGui::PushTextWrapPos(0.0f);
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != Severity::error) continue;
    ImGui::Bullet();
    ImGui::TextUnformatted(d.message.c_str());  // the core's sentence names the lane itself
  }
  ImGui::PopTextWrapPos();
  return true;
}

bool text_in_box(ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 colour, const char* text,
                 const ImFont* font) {
  if (!font) font = ImGui::GetFont();
  float px = font->FontSize;
  ImVec2 size = font->CalcTextSizeA(px, FLT_MAX, 0.0f, text);
  if (size.x + 2.0f > max.x - min.x || size.y > max.y - min.y) return false;
  dl->AddText(font, px,
              ImVec2(std::floor(min.x + (max.x - min.x - size.x) * 0.5f),
                     std::floor(min.y + (max.y - min.y - size.y) * 0.5f)),
              colour, text);
  return true;
}

bool label_in_box(const ImFont* small, ImDrawList* dl, ImVec2 min, ImVec2 max, ImU32 colour,
                  const char* text) {
  return text_in_box(dl, min, max, colour, text) ||
         (small && text_in_box(dl, min, max, colour, text, small));
}

ImU32 with_alpha(ImU32 c, float factor) {
  auto a = static_cast<float>((c >> IM_COL32_A_SHIFT) & 0xFF) * factor;
  return (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(a) << IM_COL32_A_SHIFT);
}

}  // namespace banklab::gui
