// The controls: the tile (dtype, size, pad, swizzle with CuTe's B/M/S or a TMA mode), the
// access (row, column, ldmatrix/stmatrix, raw offsets; index, width, load or store) and the
// lane mask. Any combination may be chosen; the core says what is wrong with it, and the views
// show that message instead of a drawing.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/gui/panels/panels.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

void bounded_input_int(const char* label, int& value, int lo, int hi, int step_fast) {
  ImGui::InputInt(label, &value, 1, step_fast);
  value = std::clamp(value, lo, hi);
}

void tile_controls(AppState& s) {
  TileLayout& t = s.user.scenario.tile;
  ImGui::TextDisabled("TILE");
  float w = ImGui::GetFontSize() * 7.0f;
  ImGui::SetNextItemWidth(w);
  if (ImGui::BeginCombo("element", std::string(dtype_name(t.dtype)).c_str())) {
    for (DType d : kAllDTypes) {
      char label[48];
      std::snprintf(label, sizeof label, "%s (%d B)", std::string(dtype_name(d)).c_str(),
                    dtype_bytes(d));
      if (ImGui::Selectable(label, d == t.dtype)) t.dtype = d;
    }
    ImGui::EndCombo();
  }
  ImGui::PushItemWidth(w);
  // Typed values are clamped to what the core accepts, so nothing downstream (the index
  // slider's range, the tile's size) sees a number the core would refuse.
  bounded_input_int("rows", t.rows, 1, kMaxTileSide, 8);
  bounded_input_int("columns", t.cols, 1, kMaxTileSide, 8);
  bounded_input_int("pad", t.pad, 0, kMaxTilePad, 4);
  help_marker(
      "Elements appended to every row: tile[R][C + pad]. An odd row stride in words is "
      "coprime with 32 banks, so a column lands in 32 different banks.");

  // The kinds in their enumerators' order, so the combo's index is the kind.
  const auto kind_label = [](void*, int i, const char** out) {
    *out = swizzle_kind(static_cast<SwizzleKind>(i)).label.data();
    return true;
  };
  int kind = static_cast<int>(t.swizzle.kind);
  ImGui::SetNextItemWidth(w * 1.6f);
  if (ImGui::Combo("swizzle", &kind, kind_label, nullptr,
                   static_cast<int>(swizzle_kinds().size()))) {
    const SwizzleKindInfo& picked = swizzle_kind(static_cast<SwizzleKind>(kind));
    t.swizzle.kind = picked.kind;
    // Parameters never set start at the kind's example (cute: the 128-byte pattern; cute-elem:
    // FlashAttention-2's bf16 pattern; triton: vec 8).
    if (picked.parameters == SwizzleParameters::cute && t.swizzle.cute == Swizzle{}) {
      t.swizzle.cute = picked.example.cute;
    }
    if (picked.parameters == SwizzleParameters::triton && t.swizzle.triton == TritonSwizzle{}) {
      t.swizzle.triton = picked.example.triton;
    }
  }
  const SwizzleKindInfo& shown = swizzle_kind(t.swizzle.kind);
  if (shown.parameters == SwizzleParameters::cute) {
    Swizzle& c = t.swizzle.cute;
    ImGui::SliderInt("B bits", &c.bits, 0, 5, "%d", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SliderInt("M base", &c.base, 0, 8, "%d", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SliderInt("S shift", &c.shift, -8, 8, "%d", ImGuiSliderFlags_AlwaysClamp);
    help_marker(shown.help.data());
  }
  // The layout on screen in the other notations that spell it (checked element by element).
  const std::vector<Spelling>& same = s.study.spellings;
  if (same.size() > 1 && s.study.scenario.tile == t) {
    std::string text = "the same as";
    for (std::size_t i = 1; i < same.size(); ++i) text += (i > 1 ? ";  " : " ") + same[i].native;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", text.c_str());
    ImGui::PopTextWrapPos();
  }
  if (shown.parameters == SwizzleParameters::triton) {
    TritonSwizzle& tr = t.swizzle.triton;
    ImGui::SliderInt("vec", &tr.vec, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SliderInt("perPhase", &tr.per_phase, 1, 8, "%d", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SliderInt("maxPhase", &tr.max_phase, 1, 32, "%d", ImGuiSliderFlags_AlwaysClamp);
    help_marker(shown.help.data());
  }
  ImGui::PopItemWidth();
}

void access_controls(AppState& s) {
  Scenario& sc = s.user.scenario;
  ImGui::Spacing();
  ImGui::TextDisabled("ACCESS");
  bool first = true;
  for (const AccessPatternInfo& p : access_patterns()) {
    const char* label = p.label.data();  // a literal in the table: NUL-terminated
    if (!first) same_line_if_fits(label);
    first = false;
    if (ImGui::RadioButton(label, sc.pattern == p.pattern)) set_pattern(s, p.pattern);
  }
  float w = ImGui::GetFontSize() * 7.0f;
  // A box 1.6 w wide, or what the panel leaves beside its label and a help marker: the labels
  // were cut at the panel's edge at 1280x720.
  const auto beside = [w](const char* label, bool help) {
    const ImGuiStyle& style = ImGui::GetStyle();
    float room = ImGui::GetContentRegionAvail().x - style.ItemInnerSpacing.x -
                 ImGui::CalcTextSize(label, nullptr, true).x;
    if (help) room -= style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
    return std::min(w * 1.6f, room);
  };
  if (sc.pattern == AccessPattern::matrix) {
    ImGui::SetNextItemWidth(w * 1.6f);
    if (ImGui::BeginCombo("op", std::string(op_name(sc.op)).c_str())) {
      for (Op op : kAllOps) {
        if (is_matrix_op(op) && ImGui::Selectable(std::string(op_name(op)).c_str(), op == sc.op)) {
          sc.op = op;
        }
      }
      ImGui::EndCombo();
    }
  } else {
    if (ImGui::RadioButton("load (ld)", sc.op == Op::ld)) sc.op = Op::ld;
    same_line_if_fits("store (st)");
    if (ImGui::RadioButton("store (st)", sc.op == Op::st)) sc.op = Op::st;
  }

  if (sc.pattern != AccessPattern::raw) {
    // The label names what the index counts; its ID is "index", not the label, which is also
    // the text of an access radio button above ("row", "column"): one ID for two widgets
    // made a click on the slider abort in ImGui's ButtonBehavior.
    const char* what = sc.pattern == AccessPattern::row      ? "row###index"
                       : sc.pattern == AccessPattern::column ? "column###index"
                                                             : "chunk###index";
    ImGui::SetNextItemWidth(beside(what, true));
    int limit = max_index(sc);
    ImGui::SliderInt(what, &sc.index, 0, std::max(limit, 1), "%d", ImGuiSliderFlags_AlwaysClamp);
    sc.index = std::clamp(sc.index, 0, limit);
    help_marker("Up / Down step through the columns (or rows, or chunks).");
  }
  if (sc.pattern != AccessPattern::matrix) {
    ImGui::SetNextItemWidth(beside("width per lane", true));
    char current[32];
    std::snprintf(current, sizeof current, sc.width == 0 ? "element (%d B)" : "%d B",
                  sc.width == 0 ? sc.tile.elem_bytes() : sc.width);
    if (ImGui::BeginCombo("width per lane", current)) {
      if (ImGui::Selectable("element size", sc.width == 0)) sc.width = 0;
      for (int bytes : {1, 2, 4, 8, 16}) {
        char label[16];
        std::snprintf(label, sizeof label, "%d B", bytes);
        if (ImGui::Selectable(label, sc.width == bytes)) sc.width = bytes;
      }
      ImGui::EndCombo();
    }
    help_marker(
        "8-byte accesses split the warp into 2 phases of 16 lanes, 16-byte accesses "
        "into 4 phases of 8; loads may pack the phases back together.");
  }
  if (sc.pattern == AccessPattern::raw) {
    ImGui::TextUnformatted("byte offsets, lane 0..31 (-1 = idle):");
    std::string text = s.user.raw_text;
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::InputTextMultiline("##offsets", &text,
                                  ImVec2(-1.0f, ImGui::GetTextLineHeight() * 5.0f))) {
      set_raw_offsets(s, text);
    }
    if (!s.user.raw_error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).error));
      ImGui::TextWrapped("%s (the drawing shows the last valid offsets)", s.user.raw_error.c_str());
      ImGui::PopStyleColor();
    }
  }
}

void lane_mask(AppState& s, Interaction& io) {
  ImGui::Spacing();
  ImGui::TextDisabled("LANES");
  help_marker("Click a lane to switch it off or on; idle lanes cost nothing.");
  const Palette& p = colours(s);
  float size = ImGui::GetFrameHeight() * 1.15f;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(2.0f, 2.0f));
  for (int l = 0; l < kWarpSize; ++l) {
    bool on = s.user.scenario.lane_mask >> l & 1u;
    ImVec4 c = ImGui::ColorConvertU32ToFloat4(on ? p.lane_on : p.lane_off);
    ImGui::PushStyleColor(ImGuiCol_Button, c);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(c.x * 1.15f, c.y * 1.15f, c.z * 1.15f, 1));
    char label[8];
    std::snprintf(label, sizeof label, "%d", l);
    if (l % 8) ImGui::SameLine();
    if (ImGui::Button(label, ImVec2(size, 0))) toggle_lane(s, l);
    if (ImGui::IsItemHovered()) io.hovering_lane = l;
    ImGui::PopStyleColor(2);
  }
  ImGui::PopStyleVar();
  if (ImGui::SmallButton("all")) s.user.scenario.lane_mask = 0xFFFFFFFFu;
  ImGui::SameLine();
  if (ImGui::SmallButton("0-15")) s.user.scenario.lane_mask = 0x0000FFFFu;
  ImGui::SameLine();
  if (ImGui::SmallButton("even")) s.user.scenario.lane_mask = 0x55555555u;
  ImGui::SameLine();
  if (ImGui::SmallButton("none")) s.user.scenario.lane_mask = 0u;
}

}  // namespace

void draw_controls(AppState& s, Interaction& io) {
  tile_controls(s);
  access_controls(s);
  lane_mask(s, io);
}

}  // namespace banklab::gui
