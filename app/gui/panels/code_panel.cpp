// The Code window, in one of three modes:
//   - a scanned kernel's access on screen (the Kernel window): its line as the file has it;
//   - read-only, once a control changed the access: the CUDA the scenario on screen stands
//     for (core's code_view(): the declaration with its pad, the indexed access, the float4
//     cast, the ldmatrix row address, the swizzle as index arithmetic) and what the lane under
//     the mouse sees in it; Edit puts that code in the box, or the typed code comes back;
//   - the code box (code_state.hpp), its block, warp and names, the error under it, and the code
//     evaluated per lane, while the code stands for the scenario on screen (a preset and a
//     lesson step fill it with their code).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/code_state.hpp"
#include "app/gui/state/kernel_state.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/base/format.hpp"
#include "core/code/code_view.hpp"

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
  if (!all) {  // on a line of its own: beside the check box it ran past a narrow window
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
void code_lane_table(const KernelCode& code, Interaction& io) {
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
  // Only the rows in view are formatted: the window shows a few of the 32.
  ImGuiListClipper rows;
  rows.Begin(kWarpSize);
  while (rows.Step()) {
    for (int l = rows.DisplayStart; l < rows.DisplayEnd; ++l) {
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
      for (std::int64_t i : lane.indices)
        append_format(indices, "[%lld]", static_cast<long long>(i));
      ImGui::TextUnformatted(indices.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(lane.byte));
    }
  }
  ImGui::EndTable();
}

// The lane under the mouse (else the first that takes part) in the code: its threadIdx, the
// element it indexes, its byte, word and bank.
void hovered_lane(const CodeView& v, int hovered) {
  int lane = hovered;
  for (int l = 0; lane < 0 && l < kWarpSize; ++l)
    if (v.lanes[l].active) lane = l;
  if (lane < 0) return;
  const CodeLane& c = v.lanes[lane];
  ImGui::Separator();
  ImGui::TextDisabled(hovered >= 0 ? "the lane under the mouse:"
                                   : "hover a lane in any view; the first lane:");
  ImGui::Text("lane %d: threadIdx.x = %d, threadIdx.y = %d", lane, c.thread_x, c.thread_y);
  if (!c.active) {
    ImGui::TextUnformatted("takes no part in this access");
    return;
  }
  ImGui::Text("tile[%d][%d]: byte %lld -> word %lld -> bank %d", c.index.row, c.index.col,
              static_cast<long long>(c.byte), static_cast<long long>(c.byte / kBankWidthBytes),
              c.bank);
}

// Read-only: the CUDA of the scenario on screen, and the ways back to the code box.
void scenario_code(AppState& s) {
  const Study& d = s.study;
  const CodeView v = code_view(d);
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  ImGui::TextUnformatted(v.declaration.c_str());
  for (const std::string& line : v.host) ImGui::TextWrapped("// on the host: %s", line.c_str());
  for (const std::string& line : v.statement) ImGui::TextWrapped("%s", line.c_str());
  if (s.res.mono_font) ImGui::PopFont();
  if (!v.note.empty()) ImGui::TextWrapped("%s", v.note.c_str());
  if (ImGui::Button("Edit")) {
    show_scenario_code(s, d);
    s.user.code.focus = true;
  }
  help_marker("Put this code in the box to change it (what was typed there is replaced).");
  const CodeBox& c = s.user.code;
  if (c.code && c.error.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Back to the code in the box")) apply_code(s);
  }
  hovered_lane(v, s.hovered_lane);
}

// A scanned kernel's access on screen: its line as the file has it. The scan's scenario is the
// lanes' byte offsets, from which no line of code could be written back truthfully.
void scanned_code(const AppState& s, const ScanLine& l) {
  const ScannedCode text = scanned_code_text(s, l);
  text_disabled_wrapped(text.where);
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  ImGui::TextWrapped("%s", text.code.c_str());
  if (s.res.mono_font) ImGui::PopFont();
  ImGui::TextWrapped("%s", text.access.c_str());
  text_disabled_wrapped("The Kernel window chooses another access or warp-instruction.");
}

}  // namespace

ScannedCode scanned_code_text(const AppState& s, const ScanLine& l) {
  const KernelFile& k = s.user.kernel;
  ScannedCode out;
  out.where =
      k.name + ", line " + std::to_string(l.line) + " (kernel " + shown_kernel(s)->kernel + "):";
  std::string_view code = source_line(k, l.line);
  code.remove_prefix(std::min(code.size(), code.find_first_not_of(" \t")));
  out.code = std::string(code);
  const ScanInstance& in = l.instances[static_cast<std::size_t>(k.instance)];
  out.access = std::string(l.cp_async ? "cp.async" : op_name(l.op)) + " of __shared__ " +
               array_declaration(l.shape) + ", " + std::to_string(l.width) +
               " bytes a lane. On screen: " + describe_instance(k, l, in.warp, in.iteration) + ".";
  return out;
}

void draw_code(AppState& s, Interaction& io) {
  CodeBox& c = s.user.code;
  if (const ScanLine* scanned = access_on_screen(s)) {
    scanned_code(s, *scanned);
    return;
  }
  if (c.stands_for != s.user.scenario) {  // a control changed the access since
    scenario_code(s);
    return;
  }
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
  if (changed) code_edited(s);
  if (!c.left_lesson.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).note));
    ImGui::TextWrapped(
        "Typing left the lesson (%s): the views now draw this code. Open in "
        "the Lesson window starts it again.",
        c.left_lesson.c_str());
    ImGui::PopStyleColor();
  }
  if (!c.code) {
    ImGui::TextWrapped("No code gives this access yet: type one to analyse it.");
    return;
  }
  ImGui::TextDisabled("warp %d of %d%s, lane by lane:", c.code->warp, c.code->warp_count,
                      c.warp == kAllWarps ? " (the worst)" : "");
  code_lane_table(*c.code, io);
}

}  // namespace banklab::gui
