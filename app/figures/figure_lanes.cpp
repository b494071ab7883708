// The lane map as a figure: the 32 lanes along the top, the 32 banks along the bottom, a line
// from each lane to every bank it touches. A line has its word's colour in the bank view:
// green served, red a conflict (its bank holds several words of the phase), blue shared. Lines
// of lanes that share one word meet at a single point over the bank, the word, and one line
// runs on from it: a broadcast reads as one word served, never as a pile-up of lines. Under
// each lane, the wavefront that serves it.
#include <algorithm>
#include <bit>
#include <cmath>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"

namespace banklab::figures {
namespace {

using namespace detail;

struct LaneRows {
  float left = 0, pitch = 0, gap = 0, box_h = 0;
  float lane_top = 0, wave_top = 0, wave_h = 0, line_top = 0, bank_top = 0;
  Box lane(int i) const { return column(i, lane_top); }
  Box bank(int i) const { return column(i, bank_top); }
  Box wave(int i) const {
    const Box c = column(i, wave_top);
    return Box{c.x0, c.y0, c.x1, wave_top + wave_h};
  }
  float centre(int i) const { return left + pitch * (static_cast<float>(i) + 0.5f) - gap * 0.5f; }

 private:
  Box column(int i, float top) const {
    const float x = left + pitch * static_cast<float>(i);
    return Box{x, top, x + pitch - gap, top + box_h};
  }
};

// "3", or "0-3" for a lane whose words are served over several wavefronts; "-" when idle.
std::string wavefront_text(const LaneRecord& r) {
  if (!r.active || r.word_count == 0) return "-";
  const auto [lo, hi] =
      std::minmax_element(r.wavefronts.begin(), r.wavefronts.begin() + r.word_count);
  return *lo == *hi ? std::to_string(*lo) : std::to_string(*lo) + "-" + std::to_string(*hi);
}

void add_lines(Figure& f, const Analysis& a, const LaneRows& g, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const auto load = bank_load(a);
  const float width = std::max(1.5f, st.font / 8.0f);
  const float junction_y = g.bank_top - (g.bank_top - g.line_top) * 0.25f;
  // Where the lanes of each shared slot (wavefront, bank) meet: over the bank, side by side
  // when one bank holds several shared words.
  auto junction_x = [&](int w, int b) {
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
      const float lw = l == st.hovered_lane ? width * 2.0f : width;
      const bool shared = std::popcount(a.wavefronts[w].banks[b].lanes) > 1;
      const float x1 = shared ? junction_x(w, b) : g.centre(b);
      const float y1 = shared ? junction_y : g.bank_top;
      f.lines.push_back(Line{g.centre(l), g.line_top, x1, y1, lw, c, Role::access_line, l});
    }
  }
  // Each shared word once: the point where its lanes meet, its number, one line on to the bank.
  const float mark = std::max(4.0f, std::floor(st.font * 0.5f));
  for (int w = 0; w < a.wavefront_count(); ++w) {
    for (int b = 0; b < kBankCount; ++b) {
      const BankSlot& slot = a.wavefronts[w].banks[b];
      if (std::popcount(slot.lanes) < 2) continue;
      Rgba c = status_colour(p, slot_status(a, load, w, b));
      if (w >= st.served) c = with_alpha(c, 0.18f);
      const float x = junction_x(w, b);
      f.lines.push_back(
          Line{x, junction_y, g.centre(b), g.bank_top, width * 2.0f, c, Role::access_line, -1});
      f.overlays.push_back(Rect{
          Box{x - mark * 0.5f, junction_y - mark * 0.5f, x + mark * 0.5f, junction_y + mark * 0.5f},
          c, Fill::solid, Role::shared_word, w * kBankCount + b});
      const float size = std::max(st.min_font, st.font * 0.75f);
      const std::string text = "word " + std::to_string(slot.word);
      f.labels.push_back(at(text, size, p.text, x + mark, junction_y - size - mark * 0.5f,
                            Role::word_label, w * kBankCount + b));
    }
  }
}

}  // namespace

Figure lane_figure(const Analysis& a, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float font = st.font;
  Figure f = blank_figure(area.x1, area.y1, p);

  const std::vector<LegendItem> items = {
      {p.cell_served, Fill::solid, "served", true},
      {p.cell_conflict, Fill::solid, "conflict: bank holds several words", true, "conflict"},
      {p.cell_broadcast, Fill::solid,
       is_load(a.access.op) ? "lanes share one word (broadcast)" : "lanes write one word (merged)",
       true, is_load(a.access.op) ? "broadcast" : "merged"}};
  LaneRows g;
  const float caption_h = std::floor(font * 1.3f);
  g.box_h = std::floor(std::min(font * 1.5f, area.height() * 0.12f));
  g.wave_h = std::floor(std::min(font, g.box_h));
  // The legend in brief ("conflict") where its full texts would leave the lines under two
  // lines of text.
  Figure key;
  const float rows_h = 2.0f * caption_h + 2.0f * g.box_h + g.wave_h + 4.0f;
  float legend_h = legend(key, items, 0, 0, area.width(), font, p);
  if (area.height() - rows_h - legend_h < 2.0f * font) {
    key = Figure{};
    legend_h = legend(key, items, 0, 0, area.width(), font, p, true);
  }
  g.pitch = std::floor(area.width() / 32.0f);
  // One pixel between boxes up to 19 px: a 17 px pitch keeps 16 px, room for "31" at 11 px.
  g.gap = std::max(1.0f, std::floor(g.pitch * 0.1f));
  g.left = area.x0 + std::floor((area.width() - g.pitch * 32.0f) * 0.5f);
  g.lane_top = area.y0 + caption_h;
  g.wave_top = g.lane_top + g.box_h + 2.0f;
  g.line_top = g.wave_top + g.wave_h + 2.0f;
  g.bank_top = area.y1 - legend_h - caption_h - g.box_h;

  add_lines(f, a, g, st);

  std::uint32_t touched = 0;
  for (const LaneRecord& r : a.lanes) {
    for (int i = 0; i < r.word_count; ++i) touched |= 1u << r.banks[i];
  }
  const float box_font = fit_font("31", font, g.pitch - g.gap, g.box_h);
  const float wave_font = fit_font("31", font, g.pitch - g.gap, g.wave_h);
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
    // A lesson step's lanes and banks.
    const auto outline = [&](const Box& b) {
      f.overlays.push_back(Rect{Box{b.x0 - 4, b.y0 - 4, b.x1 + 4, b.y1 + 4}, p.current_row,
                                Fill::outline, Role::highlight, i, 2.0f});
    };
    const auto marked = [i](const std::vector<int>& list) {
      return std::find(list.begin(), list.end(), i) != list.end();
    };
    if (marked(st.highlights.lanes)) outline(g.lane(i));
    if (marked(st.highlights.banks)) outline(g.bank(i));
    const bool used = touched >> i & 1u;
    f.rects.push_back(Rect{g.bank(i), used ? p.banks[i] : with_alpha(p.banks[i], 0.25f),
                           Fill::solid, Role::bank_box, i});
    const std::string n = std::to_string(i);
    f.labels.push_back(
        centred(n, box_font, r.active ? p.on_fill : p.text_dim, g.lane(i), Role::lane_label, i));
    f.labels.push_back(
        centred(n, box_font, used ? p.on_bank : p.text_dim, g.bank(i), Role::bank_label, i));
    const std::string wave = wavefront_text(r);
    f.labels.push_back(centred(wave, std::min(wave_font, fit_font(wave, font, g.pitch, g.wave_h)),
                               p.text, g.wave(i), Role::wavefront_label, i));
  }
  const float left = g.left;
  f.labels.push_back(
      at("lanes; under each, the wavefront that serves it",
         fit_font("lanes; under each, the wavefront that serves it", font, area.width(), caption_h),
         p.text_dim, left, area.y0, Role::caption));
  f.labels.push_back(
      at("banks", font, p.text_dim, left, g.bank_top + g.box_h + 2.0f, Role::caption));
  append(f, key, area.x0, g.bank_top + g.box_h + caption_h);
  return f;
}

}  // namespace banklab::figures
