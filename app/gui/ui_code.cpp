// The Code panel: the code box (code_box.hpp), its block, warp and names, the error under it,
// and the code evaluated per lane.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>

#include "banklab/format.hpp"
#include "code_box.hpp"
#include "ui.hpp"
#include "ui_common.hpp"

namespace banklab::gui {
namespace {

// Block, warp and --let names; true when one of them changed.
bool parameters(CodeBox& c) {
  bool changed = false;
  const float w = ImGui::GetFontSize() * 9.0f;
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::InputInt3("block", c.block.data());
  for (int& side : c.block) side = std::clamp(side, 1, 1024);  // what the core accepts
  help_marker(
      "blockDim.x, y, z: threadIdx of lane L in warp W is thread 32W + L of the block, "
      "x fastest. At most 1024 threads.");
  bool all = c.warp == kAllWarps;
  if (ImGui::Checkbox("every warp: show the worst", &all)) {
    c.warp = all ? kAllWarps : 0;
    changed = true;
  }
  if (!all) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
    changed |= ImGui::InputInt("warp", &c.warp);
    c.warp = std::clamp(c.warp, 0, 1024 / kWarpSize - 1);
  }
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::InputTextWithHint("names", "j=0,k=8", &c.lets);
  help_marker(
      "Values of the loop variables and any other name the code uses but does not "
      "define, as NAME=VALUE separated by commas.");
  return changed;
}

// Lane, threadIdx, the subscripts and the byte of each lane; hovering a row highlights the lane.
void lane_table(const KernelCode& code, Interaction& io) {
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("##code-lanes", 4, flags, ImVec2(0.0f, ImGui::GetContentRegionAvail().y)))
    return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("lane");
  ImGui::TableSetupColumn("threadIdx");
  ImGui::TableSetupColumn((code.array.name + "[..]").c_str());
  ImGui::TableSetupColumn("byte");
  ImGui::TableHeadersRow();
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneCode& lane = code.lanes[static_cast<std::size_t>(l)];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d", l);
    if (ImGui::IsItemHovered()) io.hovering_lane = l;
    ImGui::TableNextColumn();
    if (!lane.active) {
      ImGui::TextDisabled("takes no part");
      continue;
    }
    ImGui::Text("%d,%d,%d", lane.thread[0], lane.thread[1], lane.thread[2]);
    ImGui::TableNextColumn();
    std::string indices;
    for (std::int64_t i : lane.indices) append_format(indices, "[%lld]", static_cast<long long>(i));
    ImGui::TextUnformatted(indices.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(lane.byte));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_code(AppState& s, Interaction& io) {
  CodeBox& c = s.user.code;
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  if (c.focus) {
    ImGui::SetKeyboardFocusHere();
    c.focus = false;
  }
  ImGui::SetNextItemWidth(-1.0f);
  bool changed =
      ImGui::InputTextMultiline("##code", &c.text, ImVec2(-1.0f, ImGui::GetTextLineHeight() * 5.5f),
                                ImGuiInputTextFlags_AllowTabInput);
  if (!c.error.empty()) {
    // The message wraps; the code line and its caret below it keep their columns.
    const std::size_t newline = c.error.find('\n');
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).error));
    ImGui::TextWrapped("%s", c.error.substr(0, newline).c_str());
    if (newline != std::string::npos && newline + 1 < c.error.size())
      ImGui::TextUnformatted(c.error.c_str() + newline + 1);
    ImGui::PopStyleColor();
  }
  if (s.res.mono_font) ImGui::PopFont();
  changed |= parameters(c);
  if (changed) apply_code(s);
  if (!c.code) {
    ImGui::TextWrapped("The views show the lesson's scenario: edit the code to analyse it.");
    return;
  }
  if (!code_on_screen(s)) {
    ImGui::TextWrapped("The controls changed the access since: edit the code to show it again.");
    return;
  }
  ImGui::TextDisabled("warp %d of %d%s, lane by lane:", c.code->warp, c.code->warp_count,
                      c.warp == kAllWarps ? " (the worst)" : "");
  lane_table(*c.code, io);
}

}  // namespace banklab::gui
