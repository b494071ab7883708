// The arithmetic panel: the core's explanation (element -> byte -> word -> bank, the simplified
// bank expression, distinct banks, n-way, wavefronts against the ideal, the cost at 128 B per
// clock, and where the lesson's shortcut fails) and the per-lane table behind it.
#include <cstdio>
#include <string>

#include "app/gui/views/views.hpp"
#include "app/gui/views/widgets.hpp"
#include "core/report/request_summary.hpp"

namespace banklab::gui {
namespace {

std::string joined(const LaneRecord& r, int what) {
  std::string out;
  for (int i = 0; i < r.word_count; ++i) {
    if (i) out += ",";
    if (what == 0) out += std::to_string(r.words[i]);
    if (what == 1) out += std::to_string(r.banks[i]);
    if (what == 2) out += std::to_string(r.wavefronts[i]);
  }
  return out;
}

// One row of the lane table: the lane, its element, byte, words, banks and wavefronts.
void lane_row(const Analysis& a, const LaneElements& el, int l, const ViewStyle& v,
              Interaction& io) {
  const LaneRecord& r = a.lanes[l];
  const Palette& p = *v.palette;
  ImGui::TableNextRow();
  if (l == v.hovered_lane) {
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, with_alpha(p.ideal_line, 0.35f));
  }
  ImGui::TableNextColumn();
  ImGui::Text("%d", l);
  if (!r.active) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("-");
    for (int c = 0; c < 5; ++c) ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("idle");
  } else {
    ImGui::TableNextColumn();
    if (el.count > 0) {
      ImGui::Text("%d", el.first.row);
    } else {
      ImGui::TextDisabled("-");
    }
    ImGui::TableNextColumn();
    if (el.count > 1) {
      ImGui::Text("%d-%d", el.first.col, el.first.col + el.count - 1);
    } else if (el.count == 1) {
      ImGui::Text("%d", el.first.col);
    } else {
      ImGui::TextDisabled("-");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(r.byte));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(joined(r, 0).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(joined(r, 1).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(joined(r, 2).c_str());
    ImGui::TableNextColumn();
    if (r.shares_word) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.note),
                         is_load(a.access.op) ? "broadcast" : "merged");
    }
  }
  // The whole row is the hover target, so the lane lights up in the other views.
  // One ID per row (the lane): 32 selectables with one ID would act as one.
  ImGui::SameLine();
  ImGui::PushID(l);
  ImGui::Selectable("##row", false,
                    ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap);
  ImGui::PopID();
  if (ImGui::IsItemHovered()) io.hovering_lane = l;
}

void lane_table(const Evaluation& e, const ViewStyle& v, Interaction& io) {
  const Analysis& a = *e.analysis;
  ImFont* mono = v.mono_font;
  ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                          ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  ImVec2 size(0.0f, std::max(ImGui::GetContentRegionAvail().y, ImGui::GetFontSize() * 8.0f));
  if (!ImGui::BeginTable("lanes", 8, flags, size)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* h : {"lane", "r", "c", "byte", "word", "bank", "wf", ""}) {
    ImGui::TableSetupColumn(h);
  }
  ImGui::TableHeadersRow();
  if (mono) ImGui::PushFont(mono);
  // Only the rows in view are formatted: the table shows about ten of its 32 at 1080p.
  ImGuiListClipper rows;
  rows.Begin(kWarpSize);
  while (rows.Step()) {
    for (int l = rows.DisplayStart; l < rows.DisplayEnd; ++l) lane_row(a, e.elements[l], l, v, io);
  }
  if (mono) ImGui::PopFont();
  ImGui::EndTable();
}

}  // namespace

void draw_arithmetic(const Study& d, const ViewStyle& v, Interaction& io) {
  const Evaluation& e = d.evaluation;
  const Palette& p = *v.palette;
  ImFont* mono = v.mono_font;
  ImGui::TextWrapped("%s", describe(d.scenario).c_str());
  ImGui::Separator();
  if (draw_errors_instead(p, e.diagnostics, "the arithmetic")) {
    // A padded tile that cannot take the access: the explanation adds, after the diagnostics,
    // how the rows slip off alignment and which rows are legal (the tile view marks the others).
    if (!d.tile_valid) return;
    const Explanation& x = d.explanation;
    ImGui::PushTextWrapPos(0.0f);
    for (std::size_t i = e.diagnostics.size(); i < x.steps.size(); ++i) {
      ImGui::Bullet();
      ImGui::TextUnformatted(x.steps[i].c_str());
    }
    ImGui::PopTextWrapPos();
    return;
  }
  const Explanation& x = d.explanation;
  if (mono) ImGui::PushFont(mono);
  ImGui::PushTextWrapPos(0.0f);
  if (!x.formula.empty()) ImGui::TextUnformatted(x.formula.c_str());
  if (!x.bank_expression.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.title), "%s", x.bank_expression.c_str());
  }
  ImGui::PopTextWrapPos();
  if (mono) ImGui::PopFont();
  ImGui::Spacing();
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& step : x.steps) {
    // The swizzle's address bits are drawn as columns of characters: monospace, unwrapped.
    const bool drawing = step.starts_with("bit ") || step.starts_with("    ");
    if (drawing && mono) ImGui::PushFont(mono);
    ImGui::Bullet();
    ImGui::TextUnformatted(step.c_str());
    if (drawing && mono) ImGui::PopFont();
  }
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  const Analysis& a = *e.analysis;
  ImU32 verdict = a.bank_conflicts() > 0 ? p.error : p.text_ok;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(verdict));
  ImGui::TextWrapped("=> %s", x.verdict.c_str());
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(p.warning));
  for (const std::string& c : x.caveats) ImGui::TextWrapped("! %s", c.c_str());
  ImGui::PopStyleColor();
  ImGui::Separator();
  ImGui::TextWrapped("%s", request_summary(a).c_str());  // "1 distinct word", never "1 words"
  lane_table(e, v, io);
}

}  // namespace banklab::gui
