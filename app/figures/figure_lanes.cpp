// The lane map as a figure: the 32 lanes along one side, the 32 banks along the other, a line
// from each lane to every bank it touches. A line has its word's colour in the bank view:
// green served, red a conflict (its bank holds several words of the phase), blue shared. Lines
// of lanes that share one word meet at a single point near the bank, the word, and one line
// runs on from it: a broadcast reads as one word served, never as a pile-up of lines. Beside
// each lane, the wavefront that serves it.
//
// Wide areas put the lanes along the top and the banks along the bottom; a tall narrow area (a
// pane of a three-way comparison, 426 px wide at 1280x720, where 32 boxes across could not hold
// an 11 px number) puts the lanes down the left and the banks down the right. The layout is
// computed once in "across" (the axis the 32 lanes and banks are spread on) and "along" (from
// the lanes to the banks) coordinates, and LaneRows turns those into x and y.
#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"

namespace banklab::figures {
namespace {

using namespace detail;

struct LaneRows {
  bool vertical = false;                          // lanes down the left, banks down the right
  float left = 0, pitch = 0, gap = 0, box_h = 0;  // across: first box, pitch; along: box depth
  float lane_top = 0, wave_top = 0, wave_h = 0, line_top = 0, bank_top = 0;  // along

  // A box from across a0..a1 and along b0..b1.
  Box box(float a0, float b0, float a1, float b1) const {
    return vertical ? Box{b0, a0, b1, a1} : Box{a0, b0, a1, b1};
  }
  // A point at (across, along).
  std::pair<float, float> point(float across, float along) const {
    return vertical ? std::pair{along, across} : std::pair{across, along};
  }
  Box lane(int i) const { return column(i, lane_top, box_h); }
  Box bank(int i) const { return column(i, bank_top, box_h); }
  Box wave(int i) const { return column(i, wave_top, wave_h); }
  float centre(int i) const { return left + pitch * (static_cast<float>(i) + 0.5f) - gap * 0.5f; }

 private:
  Box column(int i, float top, float depth) const {
    const float a = left + pitch * static_cast<float>(i);
    return box(a, top, a + pitch - gap, top + depth);
  }
};

// "3", or "0-3" for a lane whose words are served over several wavefronts; "-" when idle.
std::string wavefront_text(const LaneRecord& r) {
  if (!r.active || r.word_count == 0) return "-";
  const auto [lo, hi] =
      std::minmax_element(r.wavefronts.begin(), r.wavefronts.begin() + r.word_count);
  return *lo == *hi ? std::to_string(*lo) : std::to_string(*lo) + "-" + std::to_string(*hi);
}

// Whether a lesson step's highlights light lane l's line to bank b (every line without them).
bool line_lit(const Highlights& h, int l, int b) {
  if (h.lanes.empty() && h.banks.empty()) return true;
  return std::find(std::begin(h.lanes), std::end(h.lanes), l) != h.lanes.end() ||
         std::find(std::begin(h.banks), std::end(h.banks), b) != h.banks.end();
}

Line line(const LaneRows& g, float a0, float b0, float a1, float b1, float width, Rgba c,
          int index) {
  const auto [x0, y0] = g.point(a0, b0);
  const auto [x1, y1] = g.point(a1, b1);
  return Line{x0, y0, x1, y1, width, c, Role::access_line, index};
}

void add_lines(Figure& f, const Analysis& a, const LaneRows& g, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const auto load = bank_load(a);
  const float width = std::max(1.5f, st.font / 8.0f);
  const float junction = g.bank_top - (g.bank_top - g.line_top) * 0.25f;  // along
  // Where the lanes of each shared slot (wavefront, bank) meet: before the bank, side by side
  // when one bank holds several shared words.
  auto junction_across = [&](int w, int b) {
    int k = 0, n = 0;
    for (int v = 0; v < a.wavefront_count(); ++v) {
      if (std::popcount(a.wavefronts[v].banks[b].lanes) < 2) continue;
      if (v == w) k = n;
      ++n;
    }
    const float step = std::min(g.pitch * 0.3f, st.font);
    return g.centre(b) + (static_cast<float>(k) - static_cast<float>(n - 1) * 0.5f) * step;
  };
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneRecord& r = a.lanes[l];
    if (!r.active) continue;
    for (int i = 0; i < r.word_count; ++i) {
      const int w = r.wavefronts[i], b = r.banks[i];
      Rgba c = status_colour(p, slot_status(a, load, w, b));
      if (w >= st.served) c = with_alpha(c, 0.18f);
      if (!line_lit(st.highlights, l, b)) c = with_alpha(c, 0.3f);
      const float lw = l == st.hovered_lane ? width * 2.0f : width;
      const bool shared = std::popcount(a.wavefronts[w].banks[b].lanes) > 1;
      f.lines.push_back(line(g, g.centre(l), g.line_top,
                             shared ? junction_across(w, b) : g.centre(b),
                             shared ? junction : g.bank_top, lw, c, l));
    }
  }
  // Each shared word once: the point where its lanes meet, its number, one line on to the bank.
  const float mark = std::max(4.0f, std::floor(st.font * 0.5f));
  std::vector<std::pair<int, std::int32_t>> named;  // (bank, word) already numbered
  for (int w = 0; w < a.wavefront_count(); ++w) {
    for (int b = 0; b < kBankCount; ++b) {
      const BankSlot& slot = a.wavefronts[w].banks[b];
      if (std::popcount(slot.lanes) < 2) continue;
      Rgba c = status_colour(p, slot_status(a, load, w, b));
      if (w >= st.served) c = with_alpha(c, 0.18f);
      const float across = junction_across(w, b);
      f.lines.push_back(line(g, across, junction, g.centre(b), g.bank_top, width * 2.0f, c, -1));
      // Named, not a structured binding: clang before 16 cannot capture one (placed, below).
      const std::pair<float, float> meet = g.point(across, junction);
      const float x = meet.first, y = meet.second;
      f.overlays.push_back(
          Rect{Box{x - mark * 0.5f, y - mark * 0.5f, x + mark * 0.5f, y + mark * 0.5f}, c,
               Fill::solid, Role::shared_word, w * kBankCount + b});
      // Its number beside the point, once per word and bank (a 16-byte store of one address
      // meets the same word in every phase). Where it would run into the number of a word in
      // a neighbouring bank (words 0..3 side by side), "w2" instead, and a line further back
      // if even that collides; never into the lanes' row.
      if (std::find(std::begin(named), std::end(named), std::pair{b, slot.word}) != named.end())
        continue;
      named.emplace_back(b, slot.word);
      const float size = std::max(st.min_font, st.font * 0.75f);
      // Horizontal: above and right of the point; vertical: left of it, centred on it.
      const auto placed = [&](std::string text) {
        const float w_text = text_width(text, size);
        return g.vertical ? at(std::move(text), size, p.text, x - mark - w_text, y - size * 0.5f,
                               Role::word_label, w * kBankCount + b)
                          : at(std::move(text), size, p.text, x + mark, y - size - mark * 0.5f,
                               Role::word_label, w * kBankCount + b);
      };
      Label label = placed("word " + std::to_string(slot.word));
      const auto overlaps = [&](const Label& l) {
        return l.role == Role::word_label && l.box.x0 < label.box.x1 && label.box.x0 < l.box.x1 &&
               l.box.y0 < label.box.y1 && label.box.y0 < l.box.y1;
      };
      if (std::any_of(std::begin(f.labels), std::end(f.labels), overlaps))
        label = placed("w" + std::to_string(slot.word));
      const float back = g.vertical ? label.box.width() + mark : std::floor(size * 1.15f);
      const auto room = [&] {
        return g.vertical ? label.box.x0 - back >= g.line_top : label.box.y0 - back >= g.line_top;
      };
      while (std::any_of(std::begin(f.labels), std::end(f.labels), overlaps) && room()) {
        if (g.vertical) {
          label.box.x0 -= back;
          label.box.x1 -= back;
        } else {
          label.box.y0 -= back;
          label.box.y1 -= back;
        }
      }
      f.labels.push_back(std::move(label));
    }
  }
}

// The lane map's layout in `area`: the rows (LaneRows), the key under it (its legend in brief
// where the full texts would take the room the lines need), and the room kept for captions and
// for the bars that mark a lesson step's lanes and banks.
struct LanePlan {
  LaneRows rows;
  Figure key;
  float caption_h = 0;
  float mark_h = 0;     // a marked lane's or bank's bar
  float bank_mark = 0;  // the room after the bank boxes for their bars (0: no bank marked)
};

LanePlan plan_lanes(const Analysis& a, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float font = st.font;
  const std::vector<LegendItem> items = {
      {p.cell_served, Fill::solid, "served", true},
      {p.cell_conflict, Fill::solid, std::string(kConflictLegend), true, "conflict"},
      {p.cell_broadcast, Fill::solid,
       is_load(a.access.op) ? "lanes share a word (broadcast)" : "lanes write one word (merged)",
       true, is_load(a.access.op) ? "broadcast" : "merged"}};
  LanePlan plan;
  LaneRows& g = plan.rows;
  // Lanes down the side where 32 boxes across the width could not hold a readable number
  // (17 px a box, 11 px numbers) but 32 rows down the height can.
  const float readable_pitch = text_width("31", std::min(font, st.readable_font)) + 4.0f;
  g.vertical = area.width() / 32.0f < readable_pitch && area.height() > area.width();
  const float caption_h = plan.caption_h = std::floor(font * 1.3f);
  // Room for the bars that mark a lesson step's lanes (before their boxes) and banks (after).
  plan.mark_h = std::max(3.0f, std::floor(font * 0.3f));
  const float lane_mark = st.highlights.lanes.empty() ? 0.0f : plan.mark_h + 1.0f;
  const float bank_mark = plan.bank_mark = st.highlights.banks.empty() ? 0.0f : plan.mark_h + 1.0f;
  // The legend in brief ("conflict") where its full texts would take what the lines need.
  Figure& key = plan.key;
  float legend_h = legend(key, items, 0, 0, area.width(), font, p);
  const float along_total = g.vertical ? area.width() : area.height();
  if (g.vertical) {
    g.box_h = std::floor(std::max(text_width("31", font) + 6.0f, font * 2.0f));
    g.wave_h = std::floor(text_width("0-31", font * 0.8f) + 4.0f);
    if (area.height() - 2.0f * caption_h - legend_h < 32.0f * font) {
      key = Figure{};
      legend_h = legend(key, items, 0, 0, area.width(), font, p, true);
    }
  } else {
    g.box_h = std::floor(std::min(font * 1.5f, area.height() * 0.12f));
    g.wave_h = std::floor(std::min(font, g.box_h));
    // On a projector the boxes and the wavefront row hold numbers at the digit minimum, where
    // the area has room for them and the lines between (else the numbers tell it is too small).
    const float box_h = std::max(g.box_h, st.min_digits + 4.0f);
    const float wave_h = std::max(g.wave_h, st.min_digits + 2.0f);
    if (st.min_digits > 0 && area.height() - legend_h - 2.0f * caption_h - 2.0f * box_h - wave_h -
                                     lane_mark - bank_mark >=
                                 2.0f * font) {
      g.box_h = box_h;
      g.wave_h = wave_h;
    }
    const float rows_h =
        2.0f * caption_h + 2.0f * g.box_h + g.wave_h + 4.0f + lane_mark + bank_mark;
    if (area.height() - rows_h - legend_h < 2.0f * font) {
      key = Figure{};
      legend_h = legend(key, items, 0, 0, area.width(), font, p, true);
    }
  }
  // Across: 32 boxes; one pixel between them up to 19 px (a 17 px pitch keeps 16 px, room for
  // "31" at 11 px).
  const float across0 = g.vertical ? area.y0 + caption_h : area.x0;
  const float across_total =
      g.vertical ? area.height() - caption_h - legend_h - font * 0.5f : area.width();
  g.pitch = std::floor(across_total / 32.0f);
  g.gap = std::max(1.0f, std::floor(g.pitch * 0.1f));
  g.left = across0 + std::floor((across_total - g.pitch * 32.0f) * 0.5f);
  // Along: lane marks, lane boxes, wavefront numbers, the lines, bank boxes, bank marks.
  const float along0 = g.vertical ? area.x0 : area.y0 + caption_h;
  const float along1 = g.vertical ? area.x0 + along_total : area.y1 - legend_h - caption_h;
  g.lane_top = along0 + lane_mark;
  g.wave_top = g.lane_top + g.box_h + 2.0f;
  g.line_top = g.wave_top + g.wave_h + 2.0f;
  g.bank_top = along1 - g.box_h - bank_mark;
  return plan;
}

// The 32 lane boxes (lit once served), the wavefront that serves each, the 32 bank boxes (faded
// where no lane touches the bank), and a lesson step's lanes and banks marked by bars.
void add_boxes(Figure& f, const Analysis& a, const LanePlan& plan, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float font = st.font;
  const LaneRows& g = plan.rows;
  std::uint32_t touched = 0;
  for (const LaneRecord& r : a.lanes) {
    for (int i = 0; i < r.word_count; ++i) touched |= 1u << r.banks[i];
  }
  const Box one = g.lane(0);
  const float box_font = fit_font("31", font, one.width(), one.height());
  const Box wave_one = g.wave(0);
  const float wave_font = fit_font("31", font, wave_one.width(), wave_one.height());
  for (int i = 0; i < kWarpSize; ++i) {
    const LaneRecord& r = a.lanes[i];
    Rgba lane = p.lane_off;
    if (r.active) lane = r.last_wavefront < st.served ? p.lane_on : with_alpha(p.lane_on, 0.3f);
    f.rects.push_back(Rect{g.lane(i), lane, Fill::solid, Role::lane_box, i});
    if (i == st.hovered_lane) {
      const Box b = g.lane(i);
      f.overlays.push_back(Rect{Box{b.x0 - 2, b.y0 - 2, b.x1 + 2, b.y1 + 2}, p.highlight,
                                Fill::outline, Role::lane_box, i, 2.0f});
    }
    // A lesson step's lanes and banks: a bar before the lane's box, after the bank's, in the
    // room kept for them (never over a number).
    const float a0 = g.left + g.pitch * static_cast<float>(i), a1 = a0 + g.pitch - g.gap;
    if (std::find(std::begin(st.highlights.lanes), std::end(st.highlights.lanes), i) !=
        st.highlights.lanes.end()) {
      f.rects.push_back(Rect{g.box(a0, g.lane_top - 1.0f - plan.mark_h, a1, g.lane_top - 1.0f),
                             p.spotlight, Fill::solid, Role::highlight, i});
    }
    if (std::find(std::begin(st.highlights.banks), std::end(st.highlights.banks), i) !=
        st.highlights.banks.end()) {
      const float end = g.bank_top + g.box_h;
      f.rects.push_back(Rect{g.box(a0, end + 1.0f, a1, end + 1.0f + plan.mark_h), p.spotlight,
                             Fill::solid, Role::highlight, i});
    }
    const bool used = touched >> i & 1u;
    f.rects.push_back(Rect{g.bank(i), used ? p.banks[i] : with_alpha(p.banks[i], 0.25f),
                           Fill::solid, Role::bank_box, i});
    const std::string n = std::to_string(i);
    f.labels.push_back(
        centred(n, box_font, r.active ? p.on_fill : p.text, g.lane(i), Role::lane_label, i));
    f.labels.push_back(
        centred(n, box_font, used ? p.on_bank : p.text_dim, g.bank(i), Role::bank_label, i));
    const std::string wave = wavefront_text(r);
    const Box wb = g.wave(i);
    f.labels.push_back(centred(wave,
                               std::min(wave_font, fit_font(wave, font, wb.width(), wb.height())),
                               p.text, wb, Role::wavefront_label, i));
  }
}

// "lanes" and "banks" beside their rows, and the key under (or, lanes down the side, beside)
// the map.
void add_captions(Figure& f, const LanePlan& plan, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float font = st.font;
  const LaneRows& g = plan.rows;
  if (g.vertical) {
    f.labels.push_back(at("lanes", font, p.text_dim, area.x0, area.y0, Role::caption));
    const float w = text_width("banks", font);
    f.labels.push_back(
        at("banks", font, p.text_dim, g.bank_top + g.box_h - w, area.y0, Role::caption));
    append(f, plan.key, area.x0, g.left + g.pitch * 32.0f + font * 0.5f);
  } else {
    const std::string caption = "lanes; under each, the wavefront that serves it";
    f.labels.push_back(at(caption, fit_font(caption, font, area.width(), plan.caption_h),
                          p.text_dim, g.left, area.y0, Role::caption));
    f.labels.push_back(at("banks", font, p.text_dim, g.left,
                          g.bank_top + g.box_h + plan.bank_mark + 2.0f, Role::caption));
    append(f, plan.key, area.x0, g.bank_top + g.box_h + plan.bank_mark + plan.caption_h);
  }
}

}  // namespace

Figure lane_figure(const Analysis& a, Box area, const FigureStyle& st) {
  Figure f = blank_figure(area.x1, area.y1, *st.palette);
  const LanePlan plan = plan_lanes(a, area, st);
  add_lines(f, a, plan.rows, st);
  add_boxes(f, a, plan, st);
  add_captions(f, plan, area, st);
  return f;
}

}  // namespace banklab::figures
