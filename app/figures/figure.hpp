#pragma once
// BankLab's pictures as plain data: rectangles, lines and text with positions and colours,
// computed from the core's results alone (no ImGui, no GL). `banklab export` writes them as SVG
// (svg.hpp); the tests read them to check that every label is drawn and inside its cell.
//
//   Figure f = bank_figure(analysis, Box{0, 0, 1280, 720},
//   FigureStyle{&palette_for(Theme::light)}); for (const Label& l : f.labels) if (l.role ==
//   Role::bank_label) ... l.box inside *l.cell
//
// Text is measured as DejaVu Sans Mono (every character 0.6 em wide, 1 em tall), the font the
// SVG asks for, so a label's box is where its glyphs go. Labels adapt to their cells: the font
// shrinks to fit, down to FigureStyle::min_font, and no label is dropped while a cell is at
// least that large.
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/figures/figure_palette.hpp"
#include "core/model/scenario.hpp"
#include "core/report/study.hpp"
#include "core/teach/lesson.hpp"

namespace banklab::figures {

struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  bool contains(const Box& b, float slack = 0.01f) const {
    return b.x0 >= x0 - slack && b.y0 >= y0 - slack && b.x1 <= x1 + slack && b.y1 <= y1 + slack;
  }
};

enum class Fill : std::uint8_t {
  solid,
  striped,  // the colour with diagonal stripes over it: shared words, padding
  outline,  // a frame `stroke` wide inside the box
};

// What a mark stands for, so that tests and hit-testing find it. `index` is the bank, lane,
// wavefront or phase it belongs to (-1 when none).
enum class Role : std::uint8_t {
  heading,          // the scenario in words
  verdict,          // the core's verdict: wavefronts, ideal, conflict
  caption,          // "bank", "lanes", "banks", the tile's declaration
  bank_label,       // bank numbers: over the bank view's columns, in the lane map's bank boxes
  lane_label,       // lane numbers: in the lane map's lane boxes, on the tile's elements
  wavefront_label,  // "wf 3" left of a bank-view row; a lane's wavefront under its box
  phase_label,
  cell,        // a bank-view cell (index: wavefront * 32 + bank)
  cell_label,  // the lanes a cell serves
  word_label,  // the word a cell or a shared-word junction holds
  excess_row,
  ideal_line,
  phase_line,
  lane_box,
  bank_box,
  access_line,  // lane map: a lane to the bank (or the shared word) it touches
  shared_word,  // lane map: the one word several lanes share, where their lines meet
  tile_outline,
  current_row,
  legend,
  highlight,   // a lesson step's lane, bank, row or element: a mark beside it, never over a number
  slot_bank,   // the tile: the bank number in a slot (where it reads)
  axis_label,  // the tile: a row or column number along its edges
  text,        // a slide's sentences and code (slide_figure)
  panel,       // a slide's background behind its code lines
};
std::string_view role_name(Role r);  // "bank_label", ...: SVG classes, test messages

struct Rect {
  Box box;
  Rgba colour;
  Fill fill = Fill::solid;
  Role role = Role::cell;
  int index = -1;
  float stroke = 1.0f;  // Fill::outline
};

struct Line {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width = 1.0f;
  Rgba colour;
  Role role = Role::access_line;
  int index = -1;
};

struct Label {
  Box box;  // where the glyphs go: top-left, width by the 0.6 em metric, height = size
  float size = 0;
  Rgba colour;
  std::string text;
  Role role = Role::caption;
  int index = -1;
  std::optional<Box> cell;  // the cell the label names, which it must fit inside
  Rgba halo = kNoColour;    // a rounded backing behind the text (alpha 0: none)
};

// The tile's heat map: one colour per slot, row-major; striped slots are padding. `physical`:
// the slots as stored (TileView::physical), not the elements as indexed. colours and striped
// are empty when FigureStyle::heat_colours is off.
struct Heatmap {
  Box box;
  int rows = 0, cols = 0;
  std::vector<Rgba> colours;
  std::vector<std::uint8_t> striped;
  bool physical = false;
};

// A regular grid of cells (the bank view's wavefronts x banks, the tile's rows x slots): cell
// (r, c) spans [x + c * pitch_x, x + (c + 1) * pitch_x - gap) and likewise in y.
struct Grid {
  float x = 0, y = 0, pitch_x = 0, pitch_y = 0, gap = 0;
  int rows = 0, cols = 0;
};

struct Figure {
  float width = 0, height = 0;
  std::optional<Grid> grid;  // the bank view's and the tile's cells, for hit-testing
  Rgba background;
  std::vector<Rect> rects;        // drawn in order, under the lines
  std::vector<Heatmap> heatmaps;  // under the rects: the tile's (two side by side: TileView::both)
  std::vector<Line> lines;
  std::vector<Rect> overlays;  // over the lines (outlines, markers)
  std::vector<Label> labels;   // on top of everything
};

// The tile's pictures: elements where the program indexes them, slots as stored, or both side by
// side (the logical on the left).
enum class TileView : std::uint8_t { logical, physical, both };
std::optional<TileView> parse_tile_view(std::string_view text);  // "logical", "physical", "both"
std::string_view tile_view_name(TileView v);

struct FigureStyle {
  FigureStyle() = default;
  explicit FigureStyle(const Palette* p) : palette(p) {}

  const Palette* palette = nullptr;
  float font = 16.0f;     // pixels: captions, legends, the largest labels
  float min_font = 9.0f;  // labels shrink to fit their cells down to this size
  // The tile's lane and bank numbers never go below this (or `font`, if smaller): at 1280x720 a
  // room reads 11 px; a lane number too large for its slot is placed beside it instead.
  float readable_font = 11.0f;
  // The bank view's numbers never go below this (0: no floor): where its wavefronts do not all
  // fit at it, it draws the first ones that do and says under them how many it left out
  // (projector.hpp's digits, on a slide or a presentation screen).
  float min_digits = 0.0f;
  // The bank view's tallest row; 0: 2.7 times `font`, a window's. Presentation mode lets a few
  // wavefronts' rows share the screen's height (a 1-wavefront access filled its top 200 px).
  float max_row_pitch = 0.0f;
  // A page's heading and verdict (page_figure), wrapped to its width; 0: `font`. A compare's
  // narrow columns shrink `font` so that 32 bank numbers fit, but not the sentences.
  float page_font = 0.0f;
  float verdict_font = 0.0f;  // a page's verdict line (presentation mode: title type); 0: page's
  // The height a page keeps for its scenario and verdict at least: the panes of a comparison
  // keep their tallest one's, so that their views start level.
  float page_heading = 0.0f;
  // A page's scenario and verdict in a column left of its view (a third of the width), not over
  // it: the wide, short panes of a comparison one under another give the view their height.
  bool heading_beside = false;
  int served = std::numeric_limits<int>::max();  // wavefronts lit so far (stepping)
  int hovered_lane = -1;                         // outlined wherever it is served
  TileView tile_view = TileView::logical;        // tile_figure: both draws the logical one
  bool tile_caption = true;  // the tile's declaration over it (the GUI has its own line)
  // The heat map's colour per slot (Heatmap::colours, striped), what the SVG draws. The GUI
  // draws the heat map from a texture made once per tile (HeatmapImage), so it asks for the
  // box alone: 66,048 slots of a 256 x 258 tile, every frame, were most of a frame's CPU time.
  bool heat_colours = true;
  // A lesson step's highlights, never drawn over a number: the bank view keeps the colour of
  // the cells that serve a listed lane or lie in a listed bank and fades the others, and puts
  // each listed bank's number on a tab with a bar under its column; the lane map fades the
  // other lanes' lines and puts bars over listed lanes and under listed banks; the tile puts
  // listed lanes' numbers on tabs, listed elements' row and column numbers on tabs, and
  // hatched bars beside listed rows (the misaligned rows of row_alignment()).
  Highlights highlights;
  int row_width = 0;  // the access width the listed rows are misaligned for (their legend)
};

// The rows a refused access could not start in: when a pad shifts rows off the alignment of an
// access wider than an element (core's row_alignment()) and that is why evaluate() refused it;
// nullopt for any other scenario. page_figure, the app's views and the slides draw such a
// scenario as the tile with those rows marked and the arithmetic beside it.
std::optional<RowAlignment> refused_rows(const Study& s);
// The style with the rows a refused access could not start in marked (row_width set); the
// style unchanged for any other scenario.
FigureStyle mark_refused_rows(FigureStyle st, const Study& s);

// The width of text in a font of `size` pixels (0.6 em per character of DejaVu Sans Mono).
float text_width(std::string_view text, float size);
// The largest size, at most `size`, at which text fits a box of w x h (a pixel of margin).
float fit_font(std::string_view text, float size, float w, float h);

// The bank view: one row per wavefront, one column per bank, a legend under it.
Figure bank_figure(const Analysis& a, Box area, const FigureStyle& st);
// The lane map: 32 lane boxes above 32 bank boxes, a line per word a lane touches, coloured as
// the bank view colours that word's cell; lanes sharing a word meet at one point over the bank.
Figure lane_figure(const Analysis& a, Box area, const FigureStyle& st);
// The study's tile: the heat map of banks, padding striped, the access outlined, every lane
// numbered. Its evaluation may hold no analysis (the tile alone is drawn).
Figure tile_figure(const Study& s, Box area, const FigureStyle& st);
// The logical ([0]) and the physical ([1]) tile side by side in area, each under its caption
// ("logical: elements as indexed", "physical: slots as stored"), with its own grid and heat map;
// the tile's declaration over both when st.tile_caption. page_figure draws it for TileView::both.
std::array<Figure, 2> tile_pair_figure(const Study& s, Box area, const FigureStyle& st);

// A refused access drawn: the tile with the rows it cannot start in marked (mark_refused_rows)
// beside (or, in a narrow area, over) the arithmetic that finds them, core's derivation.
// Precondition: refused_rows(s).
Figure misalignment_figure(const Study& s, Box area, const FigureStyle& st);

// The verdict a page or a slide states: the core's (the study's explanation), or for an access
// refused for its rows' alignment, how many rows start off the boundary ("refused: 16 of 32 rows
// start off a 4-byte boundary").
std::string verdict_line(const Study& s);

// A whole page for export: the scenario in words, the verdict, then the view.
enum class View : std::uint8_t { banks, lanes, tile };
std::optional<View> parse_view(std::string_view text);  // "banks", "lanes", "tile"
Figure page_figure(View v, const Study& s, float width, float height, const FigureStyle& st);

// How far down a figure draws anything: where its content ends.
float content_bottom(const Figure& f);

// Moves every mark of `part` by (dx, dy) into `into` (compare pages, headings over views).
void append(Figure& into, const Figure& part, float dx = 0, float dy = 0);

}  // namespace banklab::figures
