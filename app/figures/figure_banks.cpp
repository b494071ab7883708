// The bank view as a figure: 32 bank columns, one row per wavefront, each cell the word a bank
// serves in that wavefront and the lanes it goes to. A row is one clock of shared-memory
// bandwidth; a bank busy in several rows of one phase is the conflict (red); the yellow line
// under each phase's first row is the ideal, the tinted rows below it the excess.
#include <algorithm>
#include <bit>
#include <cmath>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"
#include "core/base/format.hpp"

namespace banklab::figures {
namespace {

using namespace detail;

struct BankGrid {
  float x = 0, y = 0;  // top-left of cell (0, 0)
  float pitch_x = 0, pitch_y = 0, gap = 0;
  int rows = 0;
  Box cell(int row, int bank) const {
    const float x0 = x + pitch_x * static_cast<float>(bank);
    const float y0 = y + pitch_y * static_cast<float>(row);
    return Box{x0, y0, x0 + pitch_x - gap, y0 + pitch_y - gap};
  }
  float right() const { return x + pitch_x * 32.0f; }
  float bottom() const { return y + pitch_y * static_cast<float>(rows); }
};

// Whether a lesson step's highlights light the cell (wavefront w, bank b): it serves a listed
// lane, or lies in a listed bank. Without highlights every cell is lit.
bool lit(const Analysis& a, const Highlights& h, int w, int b) {
  if (h.lanes.empty() && h.banks.empty()) return true;
  if (std::find(std::begin(h.banks), std::end(h.banks), b) != h.banks.end()) return true;
  const std::uint32_t lanes = w < a.wavefront_count() ? a.wavefronts[w].banks[b].lanes : 0u;
  return std::any_of(std::begin(h.lanes), std::end(h.lanes),
                     [&](int l) { return in_warp(l) && (lanes >> l & 1u); });
}

// The text colour that reads best on a fill (composited over the page): a dimmed cell is pale
// in the light theme, where white lane numbers would vanish.
Rgba ink_on(const Palette& p, Rgba fill) {
  const Rgba under = over(fill, p.background);
  return contrast_ratio(p.on_fill, under) >= contrast_ratio(p.on_bank, under) ? p.on_fill
                                                                              : p.on_bank;
}

// Rows beyond each phase's first tinted, the cells, the stepping and hover outlines. A lesson
// step's lanes and banks are a spotlight: the cells they name keep their colour, the others
// fade, so nothing is drawn over a lane number.
void add_cells(Figure& f, const Analysis& a, const BankGrid& g, float left, float right,
               const FigureStyle& st) {
  const Palette& p = *st.palette;
  const auto load = bank_load(a);
  const int drawn = std::min(a.wavefront_count(), g.rows);
  for (int w = 0; w < drawn; ++w) {
    if (w == a.phases[a.wavefronts[w].phase].first_wavefront) continue;
    const Box c = g.cell(w, 0);
    f.rects.push_back(Rect{Box{left, c.y0, right, c.y0 + g.pitch_y}, p.excess_row, Fill::solid,
                           Role::excess_row, w});
  }
  for (int w = 0; w < g.rows; ++w) {
    for (int b = 0; b < kBankCount; ++b) {
      Rgba colour = p.cell_empty;
      Fill fill = Fill::solid;
      if (w < a.wavefront_count()) {
        const BankSlot& slot = a.wavefronts[w].banks[b];
        colour = status_colour(p, slot_status(a, load, w, b));
        if (std::popcount(slot.lanes) > 1) fill = Fill::striped;
        if (slot.used() && w >= st.served) colour = with_alpha(colour, 0.22f);
        if (slot.used() && !lit(a, st.highlights, w, b)) colour = with_alpha(colour, 0.4f);
      }
      f.rects.push_back(Rect{g.cell(w, b), colour, fill, Role::cell, w * kBankCount + b});
    }
  }
  const float stroke = std::clamp(g.pitch_x * 0.1f, 1.0f, 2.0f);
  if (st.hovered_lane >= 0) {
    for (int w = 0; w < drawn; ++w) {
      for (int b = 0; b < kBankCount; ++b) {
        if (a.wavefronts[w].banks[b].lanes >> st.hovered_lane & 1u) {
          f.overlays.push_back(Rect{g.cell(w, b), p.ideal_line, Fill::outline, Role::lane_box,
                                    st.hovered_lane, stroke});
        }
      }
    }
  }
  if (st.served > 0 && st.served < a.wavefront_count() && st.served <= drawn) {
    const Box c = g.cell(st.served - 1, 0);
    f.overlays.push_back(Rect{Box{g.x - 2, c.y0 - 2, g.right() + 1, c.y0 + g.pitch_y + 1},
                              p.current_row, Fill::outline, Role::current_row, st.served - 1,
                              stroke});
  }
}

// A lesson step's banks, marked outside the grid: the bank's number on a filled tab (the tab
// under the number, the number in the page's colour) and a bar under its column, below the
// last row. `header` is the band the bank numbers sit in.
void add_bank_marks(Figure& f, const BankGrid& g, Box header, float bar, const FigureStyle& st) {
  const Palette& p = *st.palette;
  for (int b : st.highlights.banks) {
    if (!in_warp(b)) continue;
    const Box top = g.cell(0, b);
    f.rects.push_back(Rect{Box{top.x0, header.y0, top.x1, header.y1}, p.spotlight, Fill::solid,
                           Role::highlight, b});
    f.rects.push_back(Rect{Box{top.x0, g.bottom() + 1.0f, top.x1, g.bottom() + 1.0f + bar},
                           p.spotlight, Fill::solid, Role::highlight, b});
  }
}

// Phase boundaries (purple) and each phase's ideal (yellow, under its first wavefront).
void add_phase_lines(Figure& f, const Analysis& a, const BankGrid& g, float left, float right,
                     float width) {
  for (std::size_t i = 0; i < a.phases.size(); ++i) {
    const Phase& ph = a.phases[i];
    if (ph.wavefront_count == 0 || ph.first_wavefront >= g.rows) continue;
    const float top = g.y + g.pitch_y * static_cast<float>(ph.first_wavefront);
    if (ph.first_wavefront > 0) {
      f.lines.push_back(Line{left,
                             top - g.gap * 0.5f,
                             right,
                             top - g.gap * 0.5f,
                             width,
                             {},
                             Role::phase_line,
                             static_cast<int>(i)});
    }
    const float y = top + g.pitch_y - g.gap * 0.5f;
    f.lines.push_back(
        Line{g.x - 3, y, g.right() + 3, y, width, {}, Role::ideal_line, static_cast<int>(i)});
  }
}

// The label of the lanes a served cell goes to: one lane's number; several lanes' ranges ("0-31")
// where they fit at `font`; else their count ("x16") at `readable` or more, across the run of
// adjacent cells the same lanes share where one cell is too narrow (a wide access: 16 bytes are
// four banks); else the count alone (no lane is numbered 32 or above). `last`: the last bank the
// label spans.
struct LanesLabel {
  std::string text;
  float size = 0;
  Box box;
  int last = 0;
};
LanesLabel lanes_label(const Wavefront& wf, int bank, const BankGrid& g, Box box, float font,
                       float readable) {
  const std::uint32_t lanes = wf.banks[bank].lanes;
  const int n = std::popcount(lanes);
  LanesLabel l{n == 1 ? std::to_string(std::countr_zero(lanes)) : lane_ranges(lanes), 0, box, bank};
  const float cell_w = box.width();
  l.size = fit_font(l.text, font, cell_w, box.height());
  if (l.size >= font || n == 1) return l;
  l.text = "x" + std::to_string(n);
  l.size = fit_font(l.text, font, cell_w, box.height());
  if (l.size >= readable) return l;
  int last = bank;
  while (last + 1 < kBankCount && wf.banks[last + 1].lanes == lanes) ++last;
  const Box run{box.x0, box.y0, box.x1 + g.pitch_x * static_cast<float>(last - bank), box.y1};
  if (const float size = fit_font(l.text, font, run.width(), run.height()); size >= readable)
    return LanesLabel{l.text, size, run, last};
  l.text = std::to_string(n);
  l.size = fit_font(l.text, font, cell_w, box.height());
  return l;
}

// The lanes each served cell goes to, in one font for the whole grid so that it reads evenly;
// the word below them where the cells are tall enough.
void add_cell_labels(Figure& f, const Analysis& a, const BankGrid& g, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float cell_w = g.pitch_x - g.gap;
  const float cell_h = g.pitch_y - g.gap;
  const float one_line = fit_font("31", st.font, cell_w, cell_h);
  const bool two_lines = cell_h >= 2.2f * one_line && one_line >= st.min_font;
  const float lanes_h = two_lines ? std::floor(cell_h * 0.55f) : cell_h;
  const float font = fit_font("31", st.font, cell_w, lanes_h);
  if (font < std::min(st.min_font, 6.0f)) return;  // hundreds of rows: the tooltips remain
  const auto load = bank_load(a);
  std::int64_t widest = 0;
  for (const Wavefront& wf : a.wavefronts) {
    for (const BankSlot& slot : wf.banks) widest = std::max<std::int64_t>(widest, slot.word);
  }
  const float word_font =
      fit_font("w" + std::to_string(widest), font * 0.8f, cell_w, cell_h - lanes_h);
  const bool words = two_lines && word_font >= std::min(st.min_font, font);
  // A count of lanes ("x16") is read from the back of the room as a lane number is.
  const float readable = std::min(font, std::max(st.min_font, st.readable_font));
  for (int w = 0; w < std::min(a.wavefront_count(), g.rows); ++w) {
    int spanned_to = -1;  // the cells up to this bank are under a count label of a run
    for (int b = 0; b < kBankCount; ++b) {
      const BankSlot& slot = a.wavefronts[w].banks[b];
      if (!slot.used()) continue;
      const Box c = g.cell(w, b);
      const Rgba ink =
          lit(a, st.highlights, w, b)
              ? p.on_fill
              : ink_on(p, with_alpha(status_colour(p, slot_status(a, load, w, b)), 0.4f));
      const Rgba colour = w < st.served ? ink : with_alpha(ink, 0.35f);
      if (b > spanned_to) {
        const Box lanes_box{c.x0, c.y0, c.x1, words ? c.y0 + lanes_h : c.y1};
        const LanesLabel l = lanes_label(a.wavefronts[w], b, g, lanes_box, font, readable);
        spanned_to = l.last;
        f.labels.push_back(
            centred(l.text, l.size, colour, l.box, Role::cell_label, w * kBankCount + b));
      }
      if (words) {
        f.labels.push_back(centred("w" + std::to_string(slot.word), word_font,
                                   with_alpha(colour, 0.85f), Box{c.x0, c.y0 + lanes_h, c.x1, c.y1},
                                   Role::word_label, w * kBankCount + b));
      }
    }
  }
}

// The room beside the grid: row names on the left ("wf 12"; in brief "12") and, with several
// phases, phase names on the right ("phase 1"; in brief "ph 1").
struct Margins {
  float left = 0, right = 0;
  bool brief = false;
};

Margins margins(float font, bool several_phases, bool brief) {
  return Margins{
      text_width(brief ? "00" : "wf 00", font) + font * 0.5f,
      several_phases ? text_width(brief ? "ph 0" : "phase 0", font) + font * 0.5f : font * 0.3f,
      brief};
}

}  // namespace

Figure bank_figure(const Analysis& a, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float font = st.font;
  Figure f = blank_figure(area.x1, area.y1, p);

  const bool several_phases = a.phases.size() > 1;
  std::vector<LegendItem> items = {
      {p.cell_served, Fill::solid, "served"},
      {p.cell_conflict, Fill::solid, std::string(kConflictLegend), false, "conflict"},
      {p.cell_broadcast, Fill::striped,
       is_load(a.access.op) ? "lanes share a word (broadcast)" : "lanes write one word (merged)",
       false, is_load(a.access.op) ? "broadcast" : "merged"},
      {p.ideal_line, Fill::solid, "ideal", true}};
  if (several_phases) items.push_back({p.phase_line, Fill::solid, "phase boundary", true, "phase"});
  const float header_h = std::floor(font * 1.3f);
  // Room under the grid for the bars that mark a lesson step's banks.
  const float mark_h = st.highlights.banks.empty() ? 0.0f : std::max(3.0f, std::floor(font * 0.3f));
  BankGrid g;
  g.rows = std::max(1, a.wavefront_count());
  const float tallest = st.max_row_pitch > 0 ? st.max_row_pitch : font * 2.7f;
  auto row_pitch = [&](float legend_h) {
    const float avail_h = area.height() - header_h - legend_h - mark_h - font * 0.4f;
    return std::min(tallest, std::max(avail_h, 0.0f) / static_cast<float>(g.rows));
  };
  // The legend in brief ("conflict") where its full texts would take pixels from rows that are
  // not yet 2.7 lines tall (rows grown into a screen's height have pixels to spare).
  Figure scratch, key;
  const auto cramped_pitch = [&](bool brief_legend) {
    return std::floor(std::min(
        font * 2.7f, row_pitch(legend(scratch, items, 0, 0, area.width(), font, p, brief_legend))));
  };
  const bool brief = cramped_pitch(true) > cramped_pitch(false);
  const float legend_h = legend(key, items, 0, 0, area.width(), font, p, brief);
  g.pitch_y = row_pitch(legend_h);
  // On a projector the lane numbers keep st.min_digits: where every wavefront's row cannot hold
  // them, the first rows that can are drawn and a line under them says how many are left out.
  const float summary_h = std::floor(font * 1.4f);
  const float digit_pitch = st.min_digits + std::max(1.0f, std::floor(font / 8.0f)) + 2.0f;
  if (st.min_digits > 0 && g.rows > 1 && g.pitch_y < digit_pitch) {
    const float avail_h = area.height() - header_h - legend_h - mark_h - font * 0.4f - summary_h;
    g.rows = std::clamp(static_cast<int>(avail_h / digit_pitch), 1, g.rows);
    g.pitch_y = std::min(tallest, std::max(avail_h, 0.0f) / static_cast<float>(g.rows));
  }
  const int left_out = std::max(0, a.wavefront_count() - g.rows);
  // The names in brief where the full ones would leave the lane numbers a smaller font.
  auto pitch_x = [&](const Margins& m) {
    return std::min(font * 3.0f, std::max(area.width() - m.left - m.right, 0.0f) / 32.0f);
  };
  auto lane_font = [&](const Margins& m) {
    return fit_font("31", font, std::floor(pitch_x(m)) - 1.0f, std::floor(g.pitch_y) - 1.0f);
  };
  Margins m = margins(font, several_phases, false);
  if (lane_font(margins(font, several_phases, true)) > lane_font(m)) {
    m = margins(font, several_phases, true);
  }
  const float label_w = m.left, right_w = m.right;
  const float avail_w = area.width() - label_w - right_w;
  g.pitch_x = pitch_x(m);
  if (g.pitch_x >= 4) g.pitch_x = std::floor(g.pitch_x);
  if (g.pitch_y >= 4) g.pitch_y = std::floor(g.pitch_y);
  g.gap = g.pitch_x >= 6 && g.pitch_y >= 6 ? std::max(1.0f, std::floor(font / 8.0f)) : 0.0f;
  g.x = std::floor(area.x0 + label_w + std::max(0.0f, (avail_w - g.pitch_x * 32.0f) * 0.5f));
  g.y = std::floor(area.y0 + header_h);
  const float left = area.x0;
  const float right = g.right() + right_w;

  f.grid = Grid{g.x, g.y, g.pitch_x, g.pitch_y, g.gap, g.rows, kBankCount};
  add_cells(f, a, g, left, right, st);
  add_phase_lines(f, a, g, left, right, std::max(2.0f, font / 8.0f));
  for (Line& l : f.lines) l.colour = l.role == Role::ideal_line ? p.ideal_line : p.phase_line;

  // Every bank numbered over its column, every row named, in the largest font that fits. A
  // lesson step's banks: the number on its tab, in the page's colour.
  const float bank_font = fit_font("31", font, g.pitch_x - g.gap, header_h);
  // "bank" over the row names, where it fits in readable type (the brief names' narrow column
  // on a projector has no room: the numbers over the columns stand alone there).
  if (const float size = fit_font("bank", font, label_w, header_h); size >= st.min_font)
    f.labels.push_back(at("bank", size, p.text_dim, left, area.y0, Role::caption));
  const Highlights& h = st.highlights;
  for (int b = 0; b < kBankCount; ++b) {
    const Box c = g.cell(0, b);
    const bool marked = std::find(std::begin(h.banks), std::end(h.banks), b) != h.banks.end();
    f.labels.push_back(centred(std::to_string(b), bank_font, marked ? p.background : p.text_dim,
                               Box{c.x0, area.y0, c.x1, area.y0 + header_h}, Role::bank_label, b));
  }
  add_bank_marks(f, g, Box{g.x, area.y0, g.right(), area.y0 + header_h}, mark_h, st);
  const float row_h = g.pitch_y - g.gap;
  const bool long_names = !m.brief && fit_font("wf 00", font, label_w - 2, row_h) >= st.min_font;
  const float row_font = fit_font(long_names ? "wf 00" : "00", font, label_w - 2, row_h);
  for (int w = 0; w < g.rows; ++w) {
    const Box c = g.cell(w, 0);
    f.labels.push_back(centred((long_names ? "wf " : "") + std::to_string(w), row_font,
                               w < st.served ? p.text : p.text_dim, Box{left, c.y0, g.x - 2, c.y1},
                               Role::wavefront_label, w));
  }
  for (std::size_t i = 0; several_phases && i < a.phases.size(); ++i) {
    const Phase& ph = a.phases[i];
    if (ph.wavefront_count == 0 || ph.first_wavefront >= g.rows) continue;
    const float size = std::min(font, std::max(row_h, st.min_font));
    f.labels.push_back(at(std::string(m.brief ? "ph " : "phase ") + std::to_string(i), size,
                          p.phase_line, g.right() + font * 0.4f, g.cell(ph.first_wavefront, 0).y0,
                          Role::phase_label, static_cast<int>(i)));
  }
  add_cell_labels(f, a, g, st);
  float below = g.bottom() + mark_h + font * 0.4f;
  if (left_out > 0) {
    const int n = a.wavefront_count();
    const std::string rest = "and " + std::to_string(left_out) + " more wavefront" +
                             (left_out == 1 ? "" : "s") + " (" + std::to_string(g.rows) +
                             (left_out == 1 ? "" : " to " + std::to_string(n - 1)) +
                             ") not drawn: " + std::to_string(n) + " in all";
    f.labels.push_back(at(rest, fit_font(rest, font, area.width(), summary_h), p.text_dim, left,
                          below, Role::caption));
    below += summary_h;
  }
  append(f, key, area.x0, below);
  return f;
}

}  // namespace banklab::figures
