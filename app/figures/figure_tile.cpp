// The tile as a figure: every slot coloured by its bank (a heat map), padding striped grey, the
// elements of the current access outlined and every lane's first element numbered. Logical:
// element (r, c) where the program indexes it, coloured by the bank it really lands in.
// Physical: the slots as stored, so a swizzle's moves show. Both: the two side by side.
#include <algorithm>
#include <cmath>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"
#include "core/model/hardware.hpp"

namespace banklab::figures {
namespace {

using namespace detail;

// A row has slots_per_row() slots: C + pad, or the span of a narrow TMA box whose rows sit at
// span pitch; slots no element lands in (padding, the box's gap) are striped.
Heatmap heat(const TileLayout& t, Box box, bool physical, const FigureStyle& st) {
  Heatmap h{box, t.rows, t.slots_per_row(), {}, {}, physical};
  if (!st.heat_colours) return h;
  const Palette& p = *st.palette;
  h.colours.reserve(static_cast<std::size_t>(h.rows) * h.cols);
  h.striped.reserve(h.colours.capacity());
  for (int r = 0; r < t.rows; ++r) {
    for (int c = 0; c < h.cols; ++c) {
      const bool padding = physical ? t.is_gap_slot(r, c) : c >= t.cols;
      const int bank = padding || physical ? bank_of_byte(t.logical_byte(r, c)) : t.bank(r, c);
      h.colours.push_back(padding ? p.padding : p.banks[bank]);
      h.striped.push_back(padding ? 1 : 0);
    }
  }
  return h;
}

// The tile's slots: slot (row, col) at (x + pitch * col, y + pitch * row), grown to at least 3 px
// across so that an outline of one element of a 256-row tile still shows.
struct Slots {
  float x = 0, y = 0, pitch = 0;
  Box slot(Cell c) const {
    const auto col = static_cast<float>(c.col), row = static_cast<float>(c.row);
    const Box b{x + pitch * col, y + pitch * row, x + pitch * (col + 1), y + pitch * (row + 1)};
    const float grow = std::max(0.0f, 3.0f - pitch) * 0.5f;
    return Box{b.x0 - grow, b.y0 - grow, b.x1 + grow, b.y1 + grow};
  }
};

// A lesson step's rows (in the error colour: the misaligned rows of a padded tile) and elements;
// drawn also when the access breaks a rule, since that is when the rows matter.
void add_highlights(Figure& f, const TileLayout& t, const Slots& s, float stroke,
                    const FigureStyle& st) {
  const Palette& p = *st.palette;
  const Highlights& h = st.highlights;
  for (int r : h.rows) {
    if (r < 0 || r >= t.rows) continue;
    const Box first = s.slot(Cell{r, 0}), last = s.slot(Cell{r, t.slots_per_row() - 1});
    f.overlays.push_back(Rect{Box{first.x0 - 1, first.y0, last.x1 + 1, last.y1}, p.error,
                              Fill::outline, Role::highlight, r, stroke});
  }
  for (const Cell& c : h.elements) {
    if (c.row < 0 || c.row >= t.rows || c.col < 0 || c.col >= t.cols) continue;
    const Cell at = st.tile_view == TileView::physical ? t.physical_cell(c.row, c.col) : c;
    f.overlays.push_back(Rect{s.slot(at), p.current_row, Fill::outline, Role::highlight,
                              c.row * t.cols + c.col, stroke});
  }
}

}  // namespace

std::optional<TileView> parse_tile_view(std::string_view text) {
  if (text == "logical") return TileView::logical;
  if (text == "physical") return TileView::physical;
  if (text == "both") return TileView::both;
  return std::nullopt;
}

std::string_view tile_view_name(TileView v) {
  return v == TileView::physical ? "physical" : v == TileView::both ? "both" : "logical";
}

Figure tile_figure(const TileLayout& t, const Evaluation& e, Box area, const FigureStyle& st) {
  const Palette& p = *st.palette;
  Figure f = blank_figure(area.x1, area.y1, p);
  const bool physical = st.tile_view == TileView::physical;
  const float caption_h = st.tile_caption ? std::floor(st.font * 1.4f) : 0.0f;
  const std::string caption =
      to_string(t) + (physical ? ": slots as stored" : ": elements as indexed") + "; colour = bank";
  if (st.tile_caption)
    f.labels.push_back(at(caption, fit_font(caption, st.font, area.width(), caption_h), p.text,
                          area.x0, area.y0, Role::caption));

  const auto slots = static_cast<float>(t.slots_per_row());
  const auto rows = static_cast<float>(t.rows);
  const float avail_w = area.width();
  const float avail_h = area.height() - caption_h;
  float pitch = std::min({st.font * 2.2f, avail_w / slots, avail_h / rows});
  if (pitch >= 4) pitch = std::floor(pitch);
  const float x = std::floor(area.x0 + std::max(0.0f, (avail_w - pitch * slots) * 0.5f));
  const float y = area.y0 + caption_h;
  f.grid = Grid{x, y, pitch, pitch, 0.0f, t.rows, t.slots_per_row()};
  f.heatmaps.push_back(heat(t, Box{x, y, x + pitch * slots, y + pitch * rows}, physical, st));
  // Outlines thin on small tiles (a frame 2 px wide on a 5 px slot hides its colour).
  const float stroke = std::clamp(pitch * 0.1f, 1.0f, 2.0f);
  const Slots grid{x, y, pitch};
  if (!e.ok()) {
    add_highlights(f, t, grid, stroke, st);
    return f;
  }

  const Analysis& a = *e.analysis;
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneElements& el = e.elements[l];
    if (!a.lanes[l].active || el.count == 0) continue;
    const bool lit = a.lanes[l].last_wavefront < st.served;
    Rgba c = lit ? p.highlight : with_alpha(p.highlight, 0.35f);
    if (std::ranges::find(st.highlights.lanes, l) != st.highlights.lanes.end()) c = p.current_row;
    if (l == st.hovered_lane) c = p.ideal_line;
    // A lane's elements that lie side by side in a row share one outline: eight bf16 of a
    // 16-byte lane are one frame, not eight that black out the slots between them.
    std::vector<Box> frames;
    Cell previous{-1, -1};
    for (int j = 0; j < el.count; ++j) {
      const std::int64_t pos = std::int64_t{el.first.row} * t.cols + el.first.col + j;
      Cell cell{static_cast<int>(pos / t.cols), static_cast<int>(pos % t.cols)};
      if (physical) cell = t.physical_cell(cell.row, cell.col);
      const Box b = grid.slot(cell);
      if (!frames.empty() && cell.row == previous.row && cell.col == previous.col + 1) {
        frames.back().x1 = b.x1;
      } else {
        frames.push_back(b);
      }
      previous = cell;
    }
    for (const Box& b : frames) {
      f.overlays.push_back(Rect{b, c, Fill::outline, Role::tile_outline, l, stroke});
    }
    // Every lane numbered in its first frame, dark on a light halo (reads on every bank
    // colour). Where the frame is too small for the smallest font, the number is centred on it
    // anyway and spills onto the neighbours; such a label names no cell.
    const std::string n = std::to_string(l);
    const Box& frame = frames.front();
    const float size = fit_font(n, st.font, frame.width(), frame.height());
    Label lb = centred(n, std::max(size, st.min_font), p.on_bank, frame, Role::lane_label, l);
    if (size < st.min_font) {
      const float w = text_width(n, st.min_font);
      const float left = std::floor((frame.x0 + frame.x1 - w) * 0.5f);
      lb.box = Box{left, lb.box.y0, left + w, lb.box.y1};
      lb.cell.reset();
    }
    lb.halo = p.halo;
    f.labels.push_back(std::move(lb));
  }
  add_highlights(f, t, grid, stroke, st);
  return f;
}

std::array<Figure, 2> tile_pair_figure(const TileLayout& t, const Evaluation& e, Box area,
                                       const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float caption_h = std::floor(st.font * 1.4f);
  float y = area.y0;
  std::optional<Label> declaration;
  if (st.tile_caption) {
    const std::string text = to_string(t) + "; colour = bank";
    declaration = at(text, fit_font(text, st.font, area.width(), caption_h), p.text, area.x0, y,
                     Role::caption);
    y += caption_h;
  }
  const float gap = std::floor(st.font);
  const float half = std::floor((area.width() - gap) * 0.5f);
  std::array<Figure, 2> out;
  for (int k = 0; k < 2; ++k) {
    const float x0 = area.x0 + static_cast<float>(k) * (half + gap);
    FigureStyle one = st;
    one.tile_view = k == 0 ? TileView::logical : TileView::physical;
    one.tile_caption = false;
    out[k] = tile_figure(t, e, Box{x0, y + caption_h, x0 + half, area.y1}, one);
    // The caption over the grid itself, so that it names the picture under it; in a narrow
    // half, the picture's name alone.
    const float x = out[k].grid->x, w = x0 + half - x;
    std::string text = k == 0 ? "logical: elements as indexed" : "physical: slots as stored";
    if (fit_font(text, st.font, w, caption_h) < st.min_font) text.resize(text.find(':'));
    out[k].labels.push_back(
        at(text, fit_font(text, st.font, w, caption_h), p.text, x, y, Role::caption));
  }
  if (declaration) out[0].labels.push_back(*declaration);
  return out;
}

}  // namespace banklab::figures
