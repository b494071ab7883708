// The CUDA panel: the CUDA statement the scenario on screen stands for (core's code_view()),
// and what the lane under the mouse sees in it.
#include <string>

#include "banklab/code_view.hpp"
#include "lesson_mode.hpp"
#include "ui.hpp"
#include "ui_common.hpp"

namespace banklab::gui {

void draw_cuda(AppState& s) {
  const Derived& d = s.derived;
  const CodeView v = code_view(d.scenario, d.evaluation);
  if (s.res.mono_font) ImGui::PushFont(s.res.mono_font);
  ImGui::TextUnformatted(v.declaration.c_str());
  for (const std::string& line : v.statement) ImGui::TextWrapped("%s", line.c_str());
  if (s.res.mono_font) ImGui::PopFont();
  if (!v.note.empty()) {
    ImGui::TextWrapped("%s", v.note.c_str());
    return;
  }
  int lane = s.hovered_lane;
  for (int l = 0; lane < 0 && l < kWarpSize; ++l)
    if (v.lanes[l].active) lane = l;
  if (lane < 0) return;
  const CodeLane& c = v.lanes[lane];
  ImGui::Separator();
  ImGui::TextDisabled(s.hovered_lane >= 0 ? "the lane under the mouse:"
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

}  // namespace banklab::gui
