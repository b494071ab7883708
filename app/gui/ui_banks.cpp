// The bank view: 32 bank columns, one row per wavefront, each cell the word a bank serves in
// that wavefront and the lanes it goes to. Read it row by row as the hardware serves the warp:
// a row is one clock of shared-memory bandwidth; a bank that appears in several rows of one
// phase is the conflict; the yellow line under each phase's first row is the ideal.
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdio>
#include <vector>

#include "ui_common.hpp"
#include "views.hpp"

namespace banklab::gui {
namespace {

struct CellLook {
  ImU32 colour;
  QuadStyle style;
};

CellLook cell_look(const Palette& p, const BankSlot& slot, int bank_load) {
  if (!slot.used()) return {p.cell_empty, QuadStyle::solid};
  bool broadcast = std::popcount(slot.lanes) > 1;
  ImU32 c = bank_load > 1 ? p.cell_conflict : broadcast ? p.cell_broadcast : p.cell_served;
  return {c, broadcast ? QuadStyle::striped : QuadStyle::solid};
}

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
    ImGui::Text("bank %d serves word %lld (bytes %lld-%lld)", b,
                static_cast<long long>(slot.word), static_cast<long long>(slot.word * 4),
                static_cast<long long>(slot.word * 4 + 3));
    ImGui::Text("%s lane%s %s", load_op ? "to" : "from",
                std::popcount(slot.lanes) > 1 ? "s" : "", lane_ranges(slot.lanes).c_str());
    int n = load[wf.phase][b];
    if (std::popcount(slot.lanes) > 1) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.cell_broadcast),
                         load_op ? "%d lanes share this word: a broadcast, served once, no conflict"
                                 : "%d lanes store to this word: one merged write, no conflict",
                         std::popcount(slot.lanes));
    }
    if (n > 1) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.cell_conflict),
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

void legend(const Palette& p, float box) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto item = [&](ImU32 c, bool striped, const char* label) {
    ImVec2 at = ImGui::GetCursorScreenPos();
    at.y += (ImGui::GetTextLineHeight() - box) * 0.5f;
    dl->AddRectFilled(at, ImVec2(at.x + box, at.y + box), c);
    if (striped) {
      for (float k = 4; k < 2 * box; k += 6) {
        dl->AddLine(ImVec2(at.x + std::max(0.0f, k - box), at.y + std::min(k, box)),
                    ImVec2(at.x + std::min(k, box), at.y + std::max(0.0f, k - box)),
                    p.stripe_mark, 2.0f);
      }
    }
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
    ImGui::SameLine(0.0f, ImGui::GetFontSize() * 1.2f);
  };
  item(p.cell_served, false, "served");
  item(p.cell_conflict, false, "conflict (bank busy in several rows)");
  item(p.cell_broadcast, true, "lanes share a word");
  ImVec2 at = ImGui::GetCursorScreenPos();
  float y = at.y + ImGui::GetTextLineHeight() * 0.5f;
  dl->AddLine(ImVec2(at.x, y), ImVec2(at.x + box * 1.6f, y), p.ideal_line, 3.0f);
  ImGui::Dummy(ImVec2(box * 1.6f, box));
  ImGui::SameLine();
  ImGui::TextUnformatted("ideal");
  ImGui::NewLine();
}

// One frame of the bank view: the analysis, its grid and what the step-through has served.
struct BankPicture {
  const Analysis& a;
  const BankLoad& load;
  const ViewStyle& v;
  const Palette& p;
  GridGeometry grid;
  ImVec2 origin;
  float right = 0;  // room for the phase labels right of the grid
  int rows = 0;     // at least 1, so an empty access still shows its grid
  ImDrawList* dl = nullptr;
};

void verdict_lines(const Derived& d, const Palette& p) {
  const Analysis& a = *d.evaluation.analysis;
  if (d.explanation) {
    ImU32 c = a.bank_conflicts() > 0 ? p.cell_conflict : p.cell_served;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(c));
    ImGui::TextWrapped("%s", d.explanation->verdict.c_str());
    ImGui::PopStyleColor();
  }
  if (a.packed) {
    ImGui::TextDisabled("packed: every lane's partner l^%d is idle or on the same address, so "
                        "the phases merged",
                        a.packing_partner);
  }
}

// Rows beyond each phase's first are the conflict's cost: tinted across the grid. Then the
// cells, the hovered lane's outlines and the current row.
void cell_quads(const BankPicture& b, DrawQueue& draw) {
  const Analysis& a = b.a;
  const GridGeometry& grid = b.grid;
  const Palette& p = b.p;
  int served = b.v.served;
  std::vector<Quad> quads;
  quads.reserve(kBankCount * b.rows + b.rows + 4);
  for (int w = 0; w < a.wavefront_count(); ++w) {
    const Phase& ph = a.phases[a.wavefronts[w].phase];
    if (w == ph.first_wavefront) continue;
    ImVec2 mn = grid.cell_min(w, 0);
    quads.push_back({ImVec2(b.origin.x, mn.y), ImVec2(grid.max().x + b.right, mn.y + grid.pitch.y),
                     p.excess_row, QuadStyle::solid});
  }
  for (int w = 0; w < b.rows; ++w) {
    for (int k = 0; k < kBankCount; ++k) {
      CellLook look{p.cell_empty, QuadStyle::solid};
      if (w < a.wavefront_count()) {
        const Wavefront& wf = a.wavefronts[w];
        look = cell_look(p, wf.banks[k], b.load[wf.phase][k]);
        if (wf.banks[k].used() && w >= served) look.colour = with_alpha(look.colour, 0.22f);
      }
      quads.push_back({grid.cell_min(w, k), grid.cell_max(w, k), look.colour, look.style});
    }
  }
  // The lane under the mouse (in any view) is outlined wherever it is served.
  if (b.v.hovered_lane >= 0) {
    for (int w = 0; w < a.wavefront_count(); ++w) {
      for (int k = 0; k < kBankCount; ++k) {
        if (a.wavefronts[w].banks[k].lanes >> b.v.hovered_lane & 1u) {
          quads.push_back(
              {grid.cell_min(w, k), grid.cell_max(w, k), p.ideal_line, QuadStyle::outline});
        }
      }
    }
  }
  bool stepping = served < a.wavefront_count() || b.v.playing;
  if (stepping && served > 0) {
    quads.push_back({ImVec2(grid.origin.x - 2, grid.cell_min(served - 1, 0).y - 2),
                     ImVec2(grid.max().x + 2, grid.cell_min(served - 1, 0).y + grid.pitch.y + 1),
                     p.current_row, QuadStyle::outline});
  }
  draw.add_quads(b.dl, quads);
}

// Phase boundaries and each phase's ideal (its first wavefront).
void phase_lines(const BankPicture& b, DrawQueue& draw) {
  const GridGeometry& grid = b.grid;
  std::vector<Segment> lines;
  float x0 = grid.origin.x - 3.0f;
  float x1 = grid.max().x + 3.0f;
  float line = 2.0f * ui_scale();
  for (const Phase& ph : b.a.phases) {
    if (ph.wavefront_count == 0) continue;
    float top = grid.origin.y + grid.pitch.y * static_cast<float>(ph.first_wavefront);
    // Both lines sit in the gap between two rows (an eighth of the font size) and are about as
    // wide (plus a pixel of smoothing), so they cover at most the outer pixel of a cell.
    if (ph.first_wavefront > 0) {
      lines.push_back({ImVec2(b.origin.x, top - grid.gap * 0.5f),
                       ImVec2(grid.max().x + b.right, top - grid.gap * 0.5f), line,
                       b.p.phase_line});
    }
    float y = top + grid.pitch.y - grid.gap * 0.5f;
    lines.push_back({ImVec2(x0, y), ImVec2(x1, y), line, b.p.ideal_line});
  }
  draw.add_segments(b.dl, lines);
}

// Text over the GL drawing: bank numbers, row labels, phase labels.
void axis_labels(const BankPicture& b) {
  const GridGeometry& grid = b.grid;
  const Palette& p = b.p;
  float font = ImGui::GetFontSize();
  char buf[64];
  float label_step = ImGui::CalcTextSize("00").x + 4.0f > grid.pitch.x ? 4.0f : 1.0f;
  for (int k = 0; k < kBankCount; k += static_cast<int>(label_step)) {
    std::snprintf(buf, sizeof buf, "%d", k);
    ImVec2 sz = ImGui::CalcTextSize(buf);
    b.dl->AddText(
        ImVec2(grid.cell_min(0, k).x + (grid.pitch.x - grid.gap - sz.x) * 0.5f, b.origin.y),
        p.text_dim, buf);
  }
  b.dl->AddText(ImVec2(b.origin.x, b.origin.y), p.text_dim, "bank");
  int row_label_every = grid.pitch.y < font ? (grid.pitch.y * 2 < font ? 4 : 2) : 1;
  for (int w = 0; w < b.rows; w += row_label_every) {
    std::snprintf(buf, sizeof buf, "wf %d", w);
    float y = grid.cell_min(w, 0).y + (grid.pitch.y - grid.gap - font) * 0.5f;
    b.dl->AddText(ImVec2(b.origin.x + 2.0f, y), w < b.v.served ? p.text : p.text_dim, buf);
  }
  if (b.a.phases.size() > 1) {
    for (std::size_t i = 0; i < b.a.phases.size(); ++i) {
      const Phase& ph = b.a.phases[i];
      if (ph.wavefront_count == 0) continue;
      std::snprintf(buf, sizeof buf, "phase %zu", i);
      b.dl->AddText(ImVec2(grid.max().x + font * 0.4f, grid.cell_min(ph.first_wavefront, 0).y),
                    p.phase_line, buf);
    }
  }
}

// Each cell's lanes (and words, in tall cells). One font for every cell's lanes and one
// decision about words, so the grid reads evenly: the normal font if lane 31 fits, else the
// small one, else no label (tooltips remain). Tall cells take the lanes on top and the word
// below.
void cell_labels(const BankPicture& b) {
  const Analysis& a = b.a;
  const GridGeometry& grid = b.grid;
  float font = ImGui::GetFontSize();
  char buf[64];
  const ImU32 cell_text = b.p.on_fill;
  const ImFont* normal = ImGui::GetFont();
  const ImFont* small = b.v.small_font ? b.v.small_font : normal;
  float cell_w = grid.pitch.x - grid.gap;
  float cell_h = grid.pitch.y - grid.gap;
  bool two_lines = cell_h >= 2.2f * font;
  float lanes_h = two_lines ? cell_h * 0.5f + font * 0.1f : cell_h;
  auto fits = [&](const ImFont* f, const char* text, float h) {
    ImVec2 sz = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, text);
    return sz.x + 2.0f <= cell_w && sz.y <= h;
  };
  const ImFont* lane_font = fits(normal, "31", lanes_h)  ? normal
                            : fits(small, "31", lanes_h) ? small
                                                         : nullptr;
  std::int64_t widest_word = 0;
  for (const Wavefront& wf : a.wavefronts) {
    for (const BankSlot& slot : wf.banks) widest_word = std::max<std::int64_t>(widest_word, slot.word);
  }
  std::snprintf(buf, sizeof buf, "w%lld", static_cast<long long>(widest_word));
  bool words = two_lines && fits(small, buf, cell_h * 0.5f);
  for (int w = 0; w < a.wavefront_count() && lane_font; ++w) {
    for (int k = 0; k < kBankCount; ++k) {
      const BankSlot& slot = a.wavefronts[w].banks[k];
      if (!slot.used()) continue;
      ImVec2 mn = grid.cell_min(w, k);
      ImVec2 mx = grid.cell_max(w, k);
      ImU32 tc = w < b.v.served ? cell_text : with_alpha(cell_text, 0.35f);
      std::string lanes = std::popcount(slot.lanes) == 1
                              ? std::to_string(std::countr_zero(slot.lanes))
                              : lane_ranges(slot.lanes);
      ImVec2 lanes_max(mx.x, words ? mn.y + lanes_h : mx.y);
      if (!text_in_box(b.dl, mn, lanes_max, tc, lanes.c_str(), lane_font) &&
          std::popcount(slot.lanes) > 1) {
        std::snprintf(buf, sizeof buf, "x%d", std::popcount(slot.lanes));
        text_in_box(b.dl, mn, lanes_max, tc, buf, lane_font);
      }
      if (words) {
        std::snprintf(buf, sizeof buf, "w%lld", static_cast<long long>(slot.word));
        text_in_box(b.dl, ImVec2(mn.x, mn.y + cell_h * 0.5f), mx, with_alpha(tc, 0.8f), buf, small);
      }
    }
  }
}

}  // namespace

void draw_banks(const Derived& d, const ViewStyle& v, Interaction& io) {
  io.geometry.banks.reset();
  const Evaluation& e = d.evaluation;
  const Palette& p = *v.palette;
  if (draw_errors_instead(p, e.diagnostics, "the bank view")) return;
  verdict_lines(d, p);
  const Analysis& a = *e.analysis;
  float font = ImGui::GetFontSize();
  int rows = std::max(1, a.wavefront_count());
  ImGuiStyle& style = ImGui::GetStyle();
  float legend_h = ImGui::GetTextLineHeightWithSpacing() + style.ItemSpacing.y;
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y -= legend_h;
  if (avail.x < 64 || avail.y < 32) return;

  BankViewGeometry g;
  g.label_width = ImGui::CalcTextSize("wf 00").x + font * 0.6f;
  g.header_height = font + 4.0f;
  float right = a.phases.size() > 1 ? ImGui::CalcTextSize("phase 0").x + font * 0.6f : font * 0.5f;
  g.grid =
      fit_grid(ImVec2(origin.x + g.label_width, origin.y + g.header_height),
               ImVec2(avail.x - g.label_width - right, avail.y - g.header_height), rows, kBankCount,
               ImVec2(font * 3.0f, font * 2.7f), std::max(1.0f, font / 8.0f), false);
  io.geometry.banks = g;

  ImGui::InvisibleButton("##bank-grid", ImVec2(avail.x, g.grid.max().y - origin.y));
  bool hovered = ImGui::IsItemHovered();
  BankPicture b{a, d.bank_load, v, p, g.grid, origin, right, rows, ImGui::GetWindowDrawList()};
  cell_quads(b, *io.draw);
  phase_lines(b, *io.draw);
  axis_labels(b);
  cell_labels(b);
  if (hovered) {
    if (auto hit = g.grid.hit(ImGui::GetIO().MousePos); hit && hit->row < a.wavefront_count()) {
      cell_tooltip(p, a, hit->row, hit->col, d.bank_load);
      std::uint32_t lanes = a.wavefronts[hit->row].banks[hit->col].lanes;
      if (std::popcount(lanes) == 1) io.hovering_lane = std::countr_zero(lanes);
    }
  }
  legend(p, font * 0.8f);
}

}  // namespace banklab::gui
