// The bank view: 32 bank columns, one row per wavefront, each cell the word a bank serves in
// that wavefront and the lanes it goes to. Read it row by row as the hardware serves the warp:
// a row is one clock of shared-memory bandwidth; a bank that appears in several rows of one
// phase is the conflict; the yellow line under each phase's first row is the ideal.
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdio>
#include <vector>

#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/views.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

void cell_tooltip(const Palette& p, const Analysis& a, int w, int b, const BankLoad& load) {
  const Wavefront& wf = a.wavefronts[w];
  const BankSlot& slot = wf.banks[b];
  const Phase& ph = a.phases[wf.phase];
  bool load_op = is_load(a.access.op);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::Text("wavefront %d (clock %d), phase %d: lanes %s", w, w + 1, wf.phase,
              lane_ranges(ph.lanes).c_str());
  if (!slot.used()) {
    ImGui::Text("bank %d is idle in this wavefront", b);
  } else {
    ImGui::Text("bank %d serves word %lld (bytes %lld-%lld)", b, static_cast<long long>(slot.word),
                static_cast<long long>(slot.word * 4), static_cast<long long>(slot.word * 4 + 3));
    ImGui::Text("%s lane%s %s", load_op ? "to" : "from", std::popcount(slot.lanes) > 1 ? "s" : "",
                lane_ranges(slot.lanes).c_str());
    int n = load[wf.phase][b];
    if (std::popcount(slot.lanes) > 1) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.note),
                         load_op ? "%d lanes share this word: a broadcast, served once, no conflict"
                                 : "%d lanes store to this word: one merged write, no conflict",
                         std::popcount(slot.lanes));
    }
    if (n > 1) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.error),
                         "bank %d holds %d distinct words for this phase: it serves one per "
                         "wavefront, a %d-way conflict",
                         b, n, n);
    } else {
      ImGui::TextUnformatted("no other word of this bank in the phase: no conflict here");
    }
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void verdict_lines(const Study& d, const Palette& p) {
  const Analysis& a = *d.evaluation.analysis;
  const ImU32 c = a.bank_conflicts() > 0 ? p.error : p.text_ok;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(c));
  ImGui::TextWrapped("%s", d.explanation.verdict.c_str());
  ImGui::PopStyleColor();
  if (a.packed) {
    ImGui::TextDisabled(
        "packed: every lane's partner l^%d is idle or on the same address, so "
        "the phases merged",
        a.packing_partner);
  }
}

}  // namespace

void draw_banks(const Study& d, const ViewStyle& v, Interaction& io) {
  io.geometry.banks.reset();
  const Evaluation& e = d.evaluation;
  const Palette& p = *v.palette;
  if (draw_refused(d, v, io)) return;
  if (draw_errors_instead(p, e.diagnostics, "the bank view")) return;
  verdict_lines(d, p);
  const Analysis& a = *e.analysis;
  const figures::Box area = available_box();
  if (area.width() < 64 || area.height() < 32) return;

  // The layout is banklab_figures' (the same as `banklab export --what banks`), legend included.
  // In a phone's column: 32 banks of 16 px and rows of 14, the lane numbers 11 px, scrolled to.
  const float font = ImGui::GetFontSize();
  const ReadableBox readable =
      begin_readable_box("##banks-readable", v, area,
                         ImVec2(32.0f * 16.0f + 5.0f * font,
                                14.0f * static_cast<float>(a.wavefront_count()) + 9.0f * font));
  const figures::Box box = readable.box;
  const figures::Figure f = figures::bank_figure(a, box, figure_style(v));
  BankViewGeometry g;
  g.grid = grid_geometry(*f.grid);
  g.label_width = g.grid.origin.x - box.x0;
  g.header_height = g.grid.origin.y - box.y0;
  io.geometry.banks = g;
  add_labels(io.geometry, f);

  ImGui::InvisibleButton("##bank-grid", ImVec2(box.width(), box.height()));
  const bool hovered = ImGui::IsItemHovered();
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, v.label_fonts);
  if (hovered) {
    if (auto hit = g.grid.hit(ImGui::GetIO().MousePos); hit && hit->row < a.wavefront_count()) {
      cell_tooltip(p, a, hit->row, hit->col, d.bank_load);
      std::uint32_t lanes = a.wavefronts[hit->row].banks[hit->col].lanes;
      if (std::popcount(lanes) == 1) io.hovering_lane = std::countr_zero(lanes);
    }
  }
  end_readable_box(readable);
}

}  // namespace banklab::gui
