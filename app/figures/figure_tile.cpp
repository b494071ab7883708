// The tile as a figure to teach from: every slot coloured by its bank (a heat map), padding
// striped grey, the elements of the current access outlined and every lane numbered, rows and
// columns numbered along the edges, and the banks spelled out: the number in each slot where it
// reads (at FigureStyle::readable_font or more), else a key of the 32 bank colours under the
// grid. Logical: element (r, c) where the program indexes it, coloured by the bank it really
// lands in. Physical: the slots as stored, so a swizzle's moves show. Both: the two side by side
// over one key.
//
//   row axis | row marks | grid (pitch_x by pitch_y; rows grow taller than wide, up to 3x,
//            |           |       so that a lane number fits a row)
//   key: "bank" 0 1 2 ... 31 (swatches, numbered), then padding / misaligned rows / the access
//
// [SECTION] Slots, their banks and heat
// [SECTION] The key
// [SECTION] The lanes' frames and numbers
// [SECTION] One picture, logical or physical
// [SECTION] The public functions
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/figures/figure_common.hpp"
#include "core/base/format.hpp"
#include "core/model/hardware.hpp"

namespace banklab::figures {
namespace {

using namespace detail;

// A tile larger than this gets no bank number in its slots (thousands of labels a frame), only
// the key.
constexpr int kMaxNumberedSlots = 4096;

// [SECTION] Slots, their banks and heat

// A row has slots_per_row() slots: C + pad, or the span of a narrow TMA box whose rows sit at
// span pitch; slots no element lands in (padding, the box's gap) are striped.
bool empty_slot(const TileLayout& t, int r, int c, bool physical) {
  return physical ? t.is_gap_slot(r, c) : c >= t.cols;
}

int slot_bank(const TileLayout& t, int r, int c, bool physical) {
  return empty_slot(t, r, c, physical) || physical ? bank_of_byte(t.logical_byte(r, c))
                                                   : t.bank(r, c);
}

// The first `rows` rows' heat map (all of them, or those a projector's digits leave room for).
Heatmap heat(const TileLayout& t, int rows, Box box, bool physical, const FigureStyle& st) {
  Heatmap h{box, rows, t.slots_per_row(), {}, {}, physical};
  if (!st.heat_colours) return h;
  const Palette& p = *st.palette;
  h.colours.reserve(static_cast<std::size_t>(h.rows) * h.cols);
  h.striped.reserve(h.colours.capacity());
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < h.cols; ++c) {
      const bool padding = empty_slot(t, r, c, physical);
      h.colours.push_back(padding ? p.padding : p.banks[slot_bank(t, r, c, physical)]);
      h.striped.push_back(padding ? 1 : 0);
    }
  }
  return h;
}

// The tile's slots: slot (row, col) at (x + pitch_x * col, y + pitch_y * row), grown to at least
// 3 px across so that an outline of one element of a 256-row tile still shows.
struct Slots {
  float x = 0, y = 0, pitch_x = 0, pitch_y = 0;
  Box slot(Cell c) const {
    const auto col = static_cast<float>(c.col), row = static_cast<float>(c.row);
    const Box b{x + pitch_x * col, y + pitch_y * row, x + pitch_x * (col + 1),
                y + pitch_y * (row + 1)};
    const float gx = std::max(0.0f, 3.0f - pitch_x) * 0.5f;
    const float gy = std::max(0.0f, 3.0f - pitch_y) * 0.5f;
    return Box{b.x0 - gx, b.y0 - gy, b.x1 + gx, b.y1 + gy};
  }
};

// Whether two boxes share more than their last pixel and a half: a number 11 px tall in rows
// 10 px apart touches the next row's by its box's edge, where DejaVu's digits (0.73 em tall)
// leave blank room, so that is not a collision.
constexpr float kTouch = 1.5f;
bool collide(const Box& a, const Box& b) {
  return a.x0 < b.x1 - kTouch && b.x0 < a.x1 - kTouch && a.y0 < b.y1 - kTouch &&
         b.y0 < a.y1 - kTouch;
}

// Every k-th index numbered, k the smallest power of two whose labels do not run together.
int axis_step(float pitch, float label) {
  int k = 1;
  while (static_cast<float>(k) * pitch < label && k < 1 << 12) k *= 2;
  return k;
}

// [SECTION] The key

// What the key under the grid holds: the 32 bank colours, numbered, in rows of 32, 16 or 8,
// then the legend items. Computed once, so the side-by-side pair reserves one key for both.
struct Key {
  float font = 0;      // the numbers' size
  int per_row = 32;    // swatches in a row
  float swatch_w = 0;  // one swatch
  float swatch_h = 0;
  float height = 0;  // the key and the legend items
  std::vector<LegendItem> items;
};

std::vector<LegendItem> legend_items(const Study& s, const FigureStyle& st) {
  const TileLayout& t = s.scenario.tile;
  const Palette& p = *st.palette;
  std::vector<LegendItem> items;
  if (t.slots_per_row() > t.cols)
    items.push_back({p.padding, Fill::striped, "no element (padding)"});
  if (!st.highlights.rows.empty()) {
    items.push_back({p.misaligned, Fill::striped,
                     st.row_width > 0
                         ? "row starts off a " + std::to_string(st.row_width) + "-byte boundary"
                         : "marked row",
                     false, st.row_width > 0 ? "misaligned row" : ""});
  }
  if (s.evaluation.ok())
    items.push_back({p.highlight, Fill::outline, "outlined: this access, by lane"});
  return items;
}

Key plan_key(const Study& s, float width, const FigureStyle& st) {
  Key k;
  const float readable = std::min(st.font, st.readable_font);
  k.font = std::max(readable, std::floor(st.font * 0.8f));
  const float caption_w = text_width("bank ", k.font);
  const float room = std::max(1.0f, width - caption_w);
  for (int n : {32, 16, 8}) {
    k.per_row = n;
    k.swatch_w = std::floor(room / static_cast<float>(n));
    if (k.swatch_w >= text_width("31", k.font) + 4.0f) break;
  }
  k.swatch_w = std::min(k.swatch_w, std::floor(k.font * 2.4f));
  k.swatch_h = std::floor(k.font * 1.4f);
  k.items = legend_items(s, st);
  Figure scratch;
  k.height = k.swatch_h * static_cast<float>(32 / k.per_row) + k.font * 0.4f +
             (k.items.empty() ? 0.0f : legend(scratch, k.items, 0, 0, width, st.font, *st.palette));
  return k;
}

void add_key(Figure& f, const Key& k, float x, float y, float width, const FigureStyle& st) {
  const Palette& p = *st.palette;
  f.labels.push_back(
      at("bank", k.font, p.text_dim, x, y + (k.swatch_h - k.font) * 0.5f, Role::caption));
  const float left = x + text_width("bank ", k.font);
  for (int b = 0; b < kBankCount; ++b) {
    const Box box{left + k.swatch_w * static_cast<float>(b % k.per_row),
                  y + k.swatch_h * static_cast<float>(b / k.per_row),
                  left + k.swatch_w * static_cast<float>(b % k.per_row + 1) - 1.0f,
                  y + k.swatch_h * static_cast<float>(b / k.per_row + 1) - 1.0f};
    f.rects.push_back(Rect{box, p.banks[b], Fill::solid, Role::legend, b});
    f.labels.push_back(centred(std::to_string(b),
                               fit_font(std::to_string(b), k.font, box.width(), box.height()),
                               p.on_bank, box, Role::legend, b));
  }
  if (!k.items.empty()) {
    legend(f, k.items, x, y + k.swatch_h * static_cast<float>(32 / k.per_row) + k.font * 0.4f,
           width, st.font, p);
  }
}

// [SECTION] The lanes' frames and numbers

// The lanes' frames: a lane's elements that lie side by side in a row share one frame (eight
// bf16 of a 16-byte lane are one frame, not eight that black out the slots between them).
std::vector<Box> lane_frames(const TileLayout& t, const LaneElements& el, bool physical,
                             const Slots& grid) {
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
  return frames;
}

// Every lane numbered in its first frame, dark on a light halo (it reads on every bank colour);
// lanes whose access starts in the same frame (a broadcast) share one label, "0-31"; a lesson
// step's lanes on a dark tab instead. Where the frame is smaller than the number, the number is
// centred on it anyway and, if that would run into a number already placed, moved beside the
// frame (above, below, then one, two or three widths right or left; a column's numbers right
// or left first, on their rows), on the tile: every number stays whole, readable and apart.
void add_lane_labels(Figure& f, const std::vector<std::pair<std::uint32_t, Box>>& firsts, Box grid,
                     const FigureStyle& st) {
  const Palette& p = *st.palette;
  const float readable = std::min(st.font, st.readable_font);
  std::vector<Box> placed;
  const Box* previous = nullptr;  // the frame numbered before this one
  for (const auto& first : firsts) {
    // Named, not a structured binding: clang before 16 cannot capture one (marked, below).
    const std::uint32_t lanes = first.first;
    const Box& frame = first.second;
    // A lane under the one before (a column's access) moves its number sideways first, on its
    // row; others (a row's access) above or below first, in their column: a number does not
    // drift along its neighbours (lane 29 sat on row 30 of fp32-xor's logical picture).
    const bool in_column = previous != nullptr && previous->x0 == frame.x0;
    previous = &frame;
    const int lane = std::countr_zero(lanes);
    const std::string n = std::popcount(lanes) == 1 ? std::to_string(lane) : lane_ranges(lanes);
    const float fits = fit_font(n, st.font, frame.width(), frame.height());
    const float size = std::max(fits, readable);
    Label lb = centred(n, size, p.on_bank, frame, Role::lane_label, lane);
    if (fits < readable) {
      lb.cell.reset();  // it names the frame but spills out of it
      const float w = text_width(n, size), h = size;
      // A place for the number, whole pixels, moved onto the tile where it would stick out
      // (over the row or column numbers along its edges).
      const auto place = [&](float x0, float y0) {
        x0 -= std::max(0.0f, x0 + w - grid.x1);
        y0 -= std::max(0.0f, y0 + h - grid.y1);
        x0 = std::floor(std::max(x0, grid.x0));
        y0 = std::floor(std::max(y0, grid.y0));
        return Box{x0, y0, x0 + w, y0 + h};
      };
      const float cx = (frame.x0 + frame.x1) * 0.5f, cy = (frame.y0 + frame.y1) * 0.5f;
      std::vector<Box> tries = {place(cx - w * 0.5f, cy - h * 0.5f)};
      const Box vertical[] = {place(cx - w * 0.5f, frame.y0 - h - 1.0f),
                              place(cx - w * 0.5f, frame.y1 + 1.0f)};
      if (!in_column) tries.insert(tries.end(), std::begin(vertical), std::end(vertical));
      for (int k = 0; k < 3; ++k) {
        const float step = static_cast<float>(k) * (w + 3.0f);
        tries.push_back(place(frame.x1 + 2.0f + step, cy - h * 0.5f));
        tries.push_back(place(frame.x0 - 2.0f - w - step, cy - h * 0.5f));
      }
      if (in_column) tries.insert(tries.end(), std::begin(vertical), std::end(vertical));
      const auto free = [&](const Box& b) {
        return std::none_of(std::begin(placed), std::end(placed),
                            [&](const Box& q) { return collide(q, b); });
      };
      const auto found = std::find_if(std::begin(tries), std::end(tries), free);
      lb.box = found != tries.end() ? *found : tries.front();
    }
    const bool marked =
        std::any_of(std::begin(st.highlights.lanes), std::end(st.highlights.lanes),
                    [&](int l) { return l >= 0 && l < kWarpSize && (lanes >> l & 1u); });
    lb.halo = marked ? p.spotlight : p.halo;
    if (marked) lb.colour = p.background;
    placed.push_back(Box{lb.box.x0 - 1.0f, lb.box.y0, lb.box.x1 + 1.0f, lb.box.y1});
    f.labels.push_back(std::move(lb));
  }
}

// [SECTION] One picture, logical or physical

// Where one picture's parts go in `area`: the row numbers (and a lesson step's row marks) left
// of the grid, the column numbers over it, the key under it; how many rows are drawn and how
// large each slot is.
struct TilePlan {
  float readable = 0;    // the lane and bank numbers never go below this
  float axis_font = 0;   // the row and column numbers
  float row_axis_w = 0;  // the row numbers' column
  float mark_w = 0;      // a marked row's bar (0: no row marked)
  float col_axis_h = 0;  // the column numbers' line
  float note_h = 0;      // the line that says how many rows are left out
  int rows = 0;          // rows drawn: all, or on a projector the first ones that fit
  int slots = 0;         // slots per row
  float x = 0, y = 0, pitch_x = 0, pitch_y = 0, grid_w = 0, grid_h = 0;

  Slots grid() const { return Slots{x, y, pitch_x, pitch_y}; }
  Box grid_box() const { return Box{x, y, x + grid_w, y + grid_h}; }
};

TilePlan plan_tile(const TileLayout& t, Box area, const FigureStyle& st, const Key& key) {
  TilePlan g;
  const float caption_h = st.tile_caption ? std::floor(st.font * 1.4f) : 0.0f;
  g.readable = std::min(st.font, st.readable_font);
  g.axis_font = std::max(std::min(st.font * 0.8f, st.font), std::min(st.min_font, st.font));
  g.slots = t.slots_per_row();
  g.row_axis_w = text_width(std::to_string(t.rows - 1), g.axis_font) + 4.0f;
  g.mark_w = st.highlights.rows.empty() ? 0.0f : std::max(5.0f, std::floor(st.font * 0.5f));
  g.col_axis_h = std::floor(g.axis_font * 1.2f);
  const float left = g.row_axis_w + (g.mark_w > 0 ? g.mark_w + 2.0f : 0.0f);
  const float avail_w =
      std::max(1.0f, area.width() - left - (g.mark_w > 0 ? g.mark_w + 2.0f : 0.0f));
  float avail_h =
      std::max(1.0f, area.height() - caption_h - g.col_axis_h - key.height - st.font * 0.5f);
  // On a projector (st.min_digits) a row holds a lane number at the digit minimum: where the
  // tile's rows cannot all be that tall, its first rows are drawn and a line says how many are
  // left out.
  g.rows = t.rows;
  const float digit_row = st.min_digits + 2.0f;
  g.note_h = std::floor(st.font * 1.4f);
  if (st.min_digits > 0 && g.rows > 1 && avail_h / static_cast<float>(g.rows) < digit_row) {
    avail_h = std::max(1.0f, avail_h - g.note_h);
    g.rows = std::clamp(static_cast<int>(avail_h / digit_row), 1, t.rows);
  }
  const auto rows = static_cast<float>(g.rows);
  g.pitch_x = std::min({st.font * 2.2f, avail_w / static_cast<float>(g.slots), avail_h / rows});
  if (g.pitch_x >= 4) g.pitch_x = std::floor(g.pitch_x);
  // Rows too short for a lane number grow taller than the slots are wide, up to 3x.
  g.pitch_y = g.pitch_x;
  if (g.pitch_y < g.readable + 2.0f) {
    g.pitch_y = std::min({g.readable + 2.0f, avail_h / rows, g.pitch_x * 3.0f});
    g.pitch_y = std::max(g.pitch_y, g.pitch_x);
    if (g.pitch_y >= 4) g.pitch_y = std::floor(g.pitch_y);
  }
  g.grid_w = g.pitch_x * static_cast<float>(g.slots);
  g.grid_h = g.pitch_y * rows;
  g.x = std::floor(area.x0 + left + std::max(0.0f, (avail_w - g.grid_w) * 0.5f));
  g.y = area.y0 + caption_h + g.col_axis_h;
  return g;
}

// Row and column numbers along the edges (every k-th, as many as do not run together); a
// lesson step's elements on tabs there.
void add_axes(Figure& f, const TileLayout& t, const TilePlan& g, bool physical,
              const FigureStyle& st) {
  const Palette& p = *st.palette;
  std::vector<int> marked_rows, marked_cols;
  for (const Cell& c : st.highlights.elements) {
    if (c.row < 0 || c.row >= t.rows || c.col < 0 || c.col >= t.cols) continue;
    const Cell at = physical ? t.physical_cell(c.row, c.col) : c;
    if (at.row >= g.rows) continue;
    marked_rows.push_back(at.row);
    marked_cols.push_back(at.col);
  }
  const int row_step = axis_step(g.pitch_y, g.axis_font);
  for (int r = 0; r < g.rows; ++r) {
    const bool marked =
        std::find(std::begin(marked_rows), std::end(marked_rows), r) != marked_rows.end();
    if (r % row_step != 0 && !marked) continue;
    // Right against the grid (or its row marks), wherever the grid is centred.
    const float axis_x1 = g.x - (g.mark_w > 0 ? g.mark_w + 4.0f : 2.0f);
    const Box cell{axis_x1 - g.row_axis_w, g.y + g.pitch_y * static_cast<float>(r), axis_x1,
                   g.y + g.pitch_y * static_cast<float>(r + 1)};
    if (marked) f.rects.push_back(Rect{cell, p.spotlight, Fill::solid, Role::highlight, r});
    Label l = centred(std::to_string(r), g.axis_font, marked ? p.background : p.text_dim, cell,
                      Role::axis_label, r);
    l.cell.reset();  // every k-th row: the number may be taller than its row
    f.labels.push_back(std::move(l));
  }
  const int col_step =
      axis_step(g.pitch_x, text_width(std::to_string(g.slots - 1), g.axis_font) + 3.0f);
  for (int c = 0; c < g.slots; ++c) {
    const bool marked =
        std::find(std::begin(marked_cols), std::end(marked_cols), c) != marked_cols.end();
    if (c % col_step != 0 && !marked) continue;
    const std::string n = std::to_string(c);
    const float cx = g.x + g.pitch_x * (static_cast<float>(c) + 0.5f);
    const float w = text_width(n, g.axis_font);
    const Box cell{cx - w * 0.5f - 1.0f, g.y - g.col_axis_h, cx + w * 0.5f + 1.0f, g.y - 1.0f};
    if (marked) f.rects.push_back(Rect{cell, p.spotlight, Fill::solid, Role::highlight, c});
    f.labels.push_back(at(n, g.axis_font, marked ? p.background : p.text_dim,
                          std::floor(cx - w * 0.5f), g.y - g.col_axis_h, Role::axis_label, c));
  }
}

// A lesson step's rows (the misaligned rows of a padded tile): hatched bars beside them, in a
// colour that is neither a bank's nor the conflict's; drawn also when the access breaks a
// rule, since that is when the rows matter.
void add_row_marks(Figure& f, const TilePlan& g, const FigureStyle& st) {
  const Palette& p = *st.palette;
  for (int r : st.highlights.rows) {
    if (r < 0 || r >= g.rows) continue;
    const float y0 = g.y + g.pitch_y * static_cast<float>(r);
    const float y1 = y0 + std::max(g.pitch_y - (g.pitch_y >= 4 ? 1.0f : 0.0f), 1.0f);
    f.rects.push_back(Rect{Box{g.x - g.mark_w - 2.0f, y0, g.x - 2.0f, y1}, p.misaligned,
                           Fill::striped, Role::highlight, r});
    f.rects.push_back(Rect{Box{g.x + g.grid_w + 2.0f, y0, g.x + g.grid_w + 2.0f + g.mark_w, y1},
                           p.misaligned, Fill::striped, Role::highlight, r});
  }
}

// The access outlined: each lane's frames (dimmed until its wavefront is served, the hovered
// lane in the ideal line's colour), into `covered`; returns the frames lanes start in, with the
// lanes that start in each (a broadcast's lanes share one).
std::vector<std::pair<std::uint32_t, Box>> add_lane_frames(Figure& f, const Study& s,
                                                           const TilePlan& g, bool physical,
                                                           const FigureStyle& st,
                                                           std::vector<Box>& covered) {
  const TileLayout& t = s.scenario.tile;
  const Evaluation& e = s.evaluation;
  const Palette& p = *st.palette;
  const float stroke = std::clamp(std::min(g.pitch_x, g.pitch_y) * 0.1f, 1.0f, 2.0f);
  std::vector<std::pair<std::uint32_t, Box>> firsts;
  if (!e.ok()) return firsts;
  const Analysis& a = *e.analysis;
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneElements& el = e.elements[l];
    if (!a.lanes[l].active || el.count == 0) continue;
    const bool served = a.lanes[l].last_wavefront < st.served;
    Rgba c = served ? p.highlight : with_alpha(p.highlight, 0.35f);
    if (l == st.hovered_lane) c = p.ideal_line;
    std::vector<Box> frames = lane_frames(t, el, physical, g.grid());
    std::erase_if(frames, [&](const Box& b) { return b.y0 >= g.y + g.grid_h - 0.5f; });
    if (frames.empty()) continue;  // in the rows left out
    for (const Box& b : frames) {
      f.overlays.push_back(Rect{b, c, Fill::outline, Role::tile_outline, l, stroke});
      covered.push_back(b);
    }
    const auto same = std::find_if(std::begin(firsts), std::end(firsts), [&](const auto& q) {
      return q.second.x0 == frames.front().x0 && q.second.y0 == frames.front().y0;
    });
    if (same != firsts.end()) {
      same->first |= 1u << l;
    } else {
      firsts.emplace_back(1u << l, frames.front());
    }
  }
  return firsts;
}

// Bank numbers in the slots that no frame or lane number covers, where they are readable and
// the tile is small enough to number every slot.
void add_slot_banks(Figure& f, const TileLayout& t, const TilePlan& g, bool physical,
                    const FigureStyle& st, std::vector<Box> taken) {
  const float bank_font = fit_font("31", st.font * 0.75f, g.pitch_x - 1.0f, g.pitch_y - 1.0f);
  if (bank_font < g.readable || t.rows * g.slots > kMaxNumberedSlots) return;
  for (const Label& l : f.labels) {
    if (l.role == Role::lane_label) taken.push_back(l.box);
  }
  const Slots grid = g.grid();
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.slots; ++c) {
      if (empty_slot(t, r, c, physical)) continue;
      const Box b = grid.slot(Cell{r, c});
      if (std::any_of(std::begin(taken), std::end(taken),
                      [&](const Box& q) { return collide(q, b); }))
        continue;
      const int bank = slot_bank(t, r, c, physical);
      f.labels.push_back(
          centred(std::to_string(bank), bank_font, st.palette->on_bank, b, Role::slot_bank, bank));
    }
  }
}

// One picture (logical or physical) in `area`, its key `key` reserved under the grid (drawn by
// the caller when `draw_key`).
Figure one_tile(const Study& s, Box area, const FigureStyle& st, const Key& key, bool draw_key) {
  const TileLayout& t = s.scenario.tile;
  const Palette& p = *st.palette;
  Figure f = blank_figure(area.x1, area.y1, p);
  const bool physical = st.tile_view == TileView::physical;
  const std::string caption =
      to_string(t) + (physical ? ": slots as stored" : ": elements as indexed") + "; colour = bank";
  if (st.tile_caption)
    f.labels.push_back(caption_fitting({caption, to_string(t)}, st.font, st.min_font, area.width(),
                                       p.text, area.x0, area.y0));
  const TilePlan g = plan_tile(t, area, st, key);
  f.grid = Grid{g.x, g.y, g.pitch_x, g.pitch_y, 0.0f, g.rows, g.slots};
  f.heatmaps.push_back(heat(t, g.rows, g.grid_box(), physical, st));
  if (g.rows < t.rows && (draw_key || !physical)) {  // said once under a pair
    const std::string rest = "rows " + std::to_string(g.rows) + " to " +
                             std::to_string(t.rows - 1) + " not drawn: " + std::to_string(t.rows) +
                             " in all";
    f.labels.push_back(at(rest, fit_font(rest, st.font, area.width(), g.note_h), p.text_dim,
                          area.x0, g.y + g.grid_h + key.height + st.font * 0.5f, Role::caption));
  }
  add_axes(f, t, g, physical, st);
  add_row_marks(f, g, st);
  // The access: frames, then the lane numbers, then bank numbers in the slots left free.
  std::vector<Box> covered;
  const auto firsts = add_lane_frames(f, s, g, physical, st, covered);
  add_lane_labels(f, firsts, g.grid_box(), st);
  add_slot_banks(f, t, g, physical, st, std::move(covered));
  if (draw_key) add_key(f, key, area.x0, g.y + g.grid_h + st.font * 0.5f, area.width(), st);
  return f;
}

}  // namespace

// [SECTION] The public functions

std::optional<TileView> parse_tile_view(std::string_view text) {
  if (text == "logical") return TileView::logical;
  if (text == "physical") return TileView::physical;
  if (text == "both") return TileView::both;
  return std::nullopt;
}

std::string_view tile_view_name(TileView v) {
  return v == TileView::physical ? "physical" : v == TileView::both ? "both" : "logical";
}

Figure tile_figure(const Study& s, Box area, const FigureStyle& st) {
  return one_tile(s, area, st, plan_key(s, area.width(), st), true);
}

std::array<Figure, 2> tile_pair_figure(const Study& s, Box area, const FigureStyle& st) {
  const TileLayout& t = s.scenario.tile;
  const Palette& p = *st.palette;
  const float caption_h = std::floor(st.font * 1.4f);
  float y = area.y0;
  std::optional<Label> declaration;
  if (st.tile_caption) {
    const std::string text = to_string(t) + "; colour = bank";
    declaration = caption_fitting({text, to_string(t)}, st.font, st.min_font, area.width(), p.text,
                                  area.x0, y);
    y += caption_h;
  }
  // One key for both pictures, under them.
  const Key key = plan_key(s, area.width(), st);
  const float gap = std::floor(st.font);
  const float half = std::floor((area.width() - gap) * 0.5f);
  std::array<Figure, 2> out;
  float bottom = 0.0f;
  for (int k = 0; k < 2; ++k) {
    const float x0 = area.x0 + static_cast<float>(k) * (half + gap);
    FigureStyle one = st;
    one.tile_view = k == 0 ? TileView::logical : TileView::physical;
    one.tile_caption = false;
    out[k] = one_tile(s, Box{x0, y + caption_h, x0 + half, area.y1}, one, key, false);
    // The caption over the grid itself, so that it names the picture under it; in a narrow
    // half, the picture's name alone.
    const Grid& g = *out[k].grid;
    const float x = g.x, w = x0 + half - x;
    // In one size for both halves, so that "physical" does not shrink beside "logical".
    const std::string full = k == 0 ? "logical: elements as indexed" : "physical: slots as stored";
    const bool whole = text_width("logical: elements as indexed", st.font) <= w &&
                       text_width("physical: slots as stored", st.font) <= w;
    out[k].labels.push_back(caption_fitting({whole ? full : full.substr(0, full.find(':'))},
                                            st.font, st.min_font, w, p.text, x, y));
    bottom = std::max(bottom, g.y + g.pitch_y * static_cast<float>(g.rows));
  }
  add_key(out[0], key, area.x0, bottom + st.font * 0.5f, area.width(), st);
  if (declaration) out[0].labels.push_back(*declaration);
  return out;
}

}  // namespace banklab::figures
