// A lesson step as a slide (slide.hpp). The layout tries the text beside the figures at three
// widths and over them, each with the largest text font that fits, lays the figures out in each
// and keeps the candidate whose figures' numbers come out largest (up to a size a room reads
// easily), then the one with the larger text.
//
// [SECTION] Sizes of text and numbers
// [SECTION] The parts and their figures
// [SECTION] Placing the parts
// [SECTION] A slide's scenario and parts
// [SECTION] Wrapping text
// [SECTION] Arranging the body
// [SECTION] The slide
#include "app/figures/slide.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>

#include "app/figures/descriptor_figure.hpp"
#include "app/figures/figure_common.hpp"
#include "core/code/code_view.hpp"
#include "core/report/study.hpp"

namespace banklab::figures {
namespace {

using namespace detail;

constexpr float kLineHeight = 1.35f;  // a text line's height in ems
constexpr float kGapLines = 0.6f;     // between paragraphs, in lines

// [SECTION] Sizes of text and numbers

float text_height(const std::vector<TextLine>& lines, float font) {
  const float line = std::floor(font * kLineHeight);
  float h = 0;
  for (const TextLine& l : lines) h += l.text.empty() ? std::floor(line * kGapLines) : line;
  return h;
}

int columns_for(float width, float font) {
  return std::max(12, static_cast<int>(width / text_width("0", font)));
}

// The roles whose numbers a student reads: a slide is as good as the smallest of them. (A
// tile's bank numbers are drawn only where their slots hold them readably: its rows' height
// measures it instead.)
bool is_number(Role r) {
  return r == Role::cell_label || r == Role::bank_label || r == Role::lane_label ||
         r == Role::wavefront_label;
}

// The smallest number the figure draws; 0 when its cells are too small to hold their lanes at
// all (the bank view drops the cell labels of hundreds of rows).
float smallest_number(const Figure& f, const Palette& p) {
  float smallest = 1e9f;
  bool cells = false, cell_labels = false;
  for (const Label& l : f.labels) {
    if (is_number(l.role)) smallest = std::min(smallest, l.size);
    cell_labels = cell_labels || l.role == Role::cell_label;
  }
  for (const Rect& r : f.rects) cells = cells || (r.role == Role::cell && r.colour != p.cell_empty);
  // A tile is as readable as its rows are tall: a bank number or lane fits a row's height.
  if (!f.heatmaps.empty() && f.grid) {
    smallest = std::min(smallest, std::min(f.grid->pitch_x * 1.2f, f.grid->pitch_y) - 1.0f);
  }
  return cells && !cell_labels ? 0.0f : smallest;
}

// [SECTION] The parts and their figures

// The Descriptor Lab's picture keeps its numbers at the minimum by drawing fewer lines and by
// leaving out a chunk's label where the chunk is too narrow for it: fewer lines than one swizzle
// repeat lose the pattern, and an unnamed chunk loses what it holds, so either counts as numbers
// under the minimum, in proportion.
float descriptor_numbers(const Slide& s, const Figure& f, float target) {
  if (!f.grid) return target;
  const int wanted = static_cast<int>(
      std::min<std::int64_t>(kDescriptorRepeatLines, s.study.scenario.tile.size_bytes() / 128));
  float numbers = target;
  if (f.grid->rows < wanted)
    numbers = target * static_cast<float>(f.grid->rows) / static_cast<float>(wanted);
  const auto cells = std::count_if(f.rects.begin(), f.rects.end(), [](const Rect& r) {
    return r.role == Role::cell && r.fill == Fill::solid;
  });
  const auto named = std::count_if(f.labels.begin(), f.labels.end(),
                                   [](const Label& l) { return l.role == Role::cell_label; });
  if (cells > 0 && named < cells)
    numbers = std::min(numbers, target * static_cast<float>(named) / static_cast<float>(cells));
  return numbers;
}

// How much room each part wants along the axis it is stacked on: bank views grow with their
// wavefronts, a code line is short.
float weight(SlidePart p, const Slide& s, bool vertical) {
  const Evaluation& e = s.study.evaluation;
  const int rows = e.ok() ? e.analysis->wavefront_count() : 8;
  switch (p) {
    case SlidePart::banks:
      return vertical ? std::clamp(1.0f + static_cast<float>(rows) / 8.0f, 1.2f, 4.0f) : 3.0f;
    case SlidePart::lanes:
      return vertical ? 1.6f : 3.0f;
    case SlidePart::tile:
      return vertical ? 2.6f : 2.2f;
    case SlidePart::tiles:
      return vertical ? 2.0f : 3.0f;
    case SlidePart::code:
      return vertical ? 0.7f : 1.5f;
    case SlidePart::compare:
      return 4.0f;
    case SlidePart::descriptor:
      return vertical ? 4.0f : 3.0f;
  }
  return 1.0f;
}

// The code line of the step's scenario, on a panel, in the figures' type (never below the digit
// minimum): a line too long for the box wraps as the slide's code does.
Figure code_part(const Slide& s, Box box, const FigureStyle& st) {
  const Palette& p = *st.palette;
  Figure f = blank_figure(box.x1, box.y1, p);
  const CodeView v = code_view(s.study);
  std::string code = "    " + v.declaration + "\n";
  for (const std::string& l : v.statement) code += "    " + l + "\n";
  if (v.statement.empty() && !v.note.empty()) code += "    // " + v.note + "\n";
  const float pad = std::floor(st.font * 0.5f);
  const float size = st.font;
  const std::vector<TextLine> lines = wrap_text(code, columns_for(box.width() - 2 * pad, size));
  const float h = std::floor(size * kLineHeight) * static_cast<float>(lines.size()) + 2 * pad;
  f.rects.push_back(
      Rect{Box{box.x0, box.y0, box.x1, box.y0 + h}, p.cell_empty, Fill::solid, Role::panel});
  float y = box.y0 + pad;
  for (const TextLine& l : lines) {
    f.labels.push_back(at(l.text, size, p.text, box.x0 + pad, y, Role::text));
    y += std::floor(size * kLineHeight);
  }
  return f;
}

// The step's scenario and the compared ones side by side, each headed by its name and verdict,
// each a bank view; no highlights (they belong to the step's scenario alone).
Figure compare_part(const Slide& s, Box box, const FigureStyle& style) {
  FigureStyle st = style;
  st.highlights = {};
  st.served = std::numeric_limits<int>::max();
  Figure f = blank_figure(box.x1, box.y1, *st.palette);
  std::vector<std::pair<std::string_view, const Study*>> all = {{"this step", &s.study}};
  for (const Compared& c : s.compare) all.emplace_back(c.name, &c.study);
  const auto n = static_cast<float>(all.size());
  // Side by side where 32 bank numbers fit across a column at the digit minimum, else one
  // under the other, each drawing the wavefronts that fit.
  const bool across = std::floor(box.width() / n / 40.0f) >= st.min_digits;
  const float w = across ? std::floor(box.width() / n) : box.width();
  const float h = across ? box.height() : std::floor(box.height() / n);
  st.page_font = st.font;
  if (across) st.font = std::min(st.font, std::floor(w / 40.0f));
  const float name_h = std::floor(st.page_font * 1.4f);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const float x = box.x0 + (across ? w * static_cast<float>(i) : 0.0f);
    const float y = box.y0 + (across ? 0.0f : h * static_cast<float>(i));
    f.labels.push_back(at(std::string(all[i].first), st.page_font, st.palette->text, x, y,
                          Role::heading, static_cast<int>(i)));
    append(f, page_figure(View::banks, *all[i].second, w, h - name_h, st), x, y + name_h);
  }
  return f;
}

// Why a view cannot be drawn (an access the core refuses for a reason other than alignment).
Figure refusal_part(const Slide& s, Box box, const FigureStyle& st) {
  Figure f = blank_figure(box.x1, box.y1, *st.palette);
  const std::string& why = s.study.explanation.verdict;
  std::istringstream lines(reflow(why, columns_for(box.width(), st.font)));
  float y = box.y0;
  for (std::string l; std::getline(lines, l); y += std::floor(st.font * kLineHeight)) {
    f.labels.push_back(at(l, st.font, st.palette->error, box.x0, y, Role::text));
  }
  return f;
}

Figure part_figure(const Slide& s, SlidePart part, Box box, const FigureStyle& st) {
  const TileLayout& tile = s.study.scenario.tile;
  const Evaluation& e = s.study.evaluation;
  if (part == SlidePart::code) return code_part(s, box, st);
  if (part == SlidePart::compare) return compare_part(s, box, st);
  if (part == SlidePart::descriptor && s.descriptor) {
    const StepDescriptor& d = *s.descriptor;
    return descriptor_figure(d.desc, step_operand(d, tile), step_fill(d, tile), d.k_step, box, st);
  }
  if (refused_rows(s.study)) return misalignment_figure(s.study, box, st);
  if (part == SlidePart::tile || part == SlidePart::tiles) {
    if (part == SlidePart::tile && st.tile_view != TileView::both) {
      return tile_figure(s.study, box, st);
    }
    Figure f = blank_figure(box.x1, box.y1, *st.palette);
    for (const Figure& half : tile_pair_figure(s.study, box, st)) append(f, half);
    return f;
  }
  if (!e.ok()) return refusal_part(s, box, st);
  return part == SlidePart::banks ? bank_figure(*e.analysis, box, st)
                                  : lane_figure(*e.analysis, box, st);
}

// [SECTION] Placing the parts

// The parts laid out in `area`, stacked (vertical) or side by side, sized by weight().
std::vector<Box> arrange(const Slide& s, const std::vector<SlidePart>& parts, Box area,
                         bool vertical, float gap) {
  float total = 0;
  for (SlidePart p : parts) total += weight(p, s, vertical);
  const float span =
      (vertical ? area.height() : area.width()) - gap * static_cast<float>(parts.size() - 1);
  std::vector<Box> out;
  float at0 = vertical ? area.y0 : area.x0;
  for (SlidePart p : parts) {
    const float size = std::floor(span * weight(p, s, vertical) / total);
    out.push_back(vertical ? Box{area.x0, at0, area.x1, at0 + size}
                           : Box{at0, area.y0, at0 + size, area.y1});
    at0 += size + gap;
  }
  return out;
}

// Parts stacked in one column: a part that draws less than its box (a bank view of one
// wavefront is a strip) keeps what it uses and the others share the rest; what no part can use
// (a tile whose width sets its size) goes below the last one, not between them.
std::vector<Box> settle(const Slide& s, const std::vector<SlidePart>& parts, std::vector<Box> boxes,
                        const FigureStyle& st, float gap) {
  if (boxes.size() < 2) return boxes;
  for (std::size_t i = 1; i < boxes.size(); ++i) {
    if (boxes[i].x0 != boxes[0].x0 || boxes[i].x1 != boxes[0].x1) return boxes;  // side by side
  }
  const auto used = [&](std::size_t i) {
    return std::ceil(content_bottom(part_figure(s, parts[i], boxes[i], st)) - boxes[i].y0) + 2.0f;
  };
  const auto stack = [&](const std::vector<float>& height) {
    float y = boxes[0].y0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      boxes[i] = Box{boxes[i].x0, y, boxes[i].x1, y + height[i]};
      y += height[i] + gap;
    }
  };
  std::vector<float> height(boxes.size());
  float spare = 0, growing = 0;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    height[i] = boxes[i].height();
    const float u = used(i);
    if (u < height[i] - gap) {
      spare += height[i] - u;
      height[i] = u;
    } else {
      growing += height[i];
    }
  }
  if (spare <= 0) return boxes;
  for (std::size_t i = 0; i < boxes.size() && growing > 0; ++i) {
    if (height[i] == boxes[i].height()) height[i] += std::floor(spare * height[i] / growing);
  }
  stack(height);
  // A part given more than it can use keeps only what it uses: the rest falls to the bottom.
  for (std::size_t i = 0; i < boxes.size(); ++i) height[i] = std::min(height[i], used(i));
  stack(height);
  return boxes;
}

// What a slide's sizes follow: its minimums (screen_minimums(): a phone's are not a projector's)
// and the height its proportions (margins, gaps, the largest type) are taken from: the slide's
// own, or on a portrait screen (a phone) that of a 16:9 slide of its width, so that the type
// does not outgrow the width (a 38 px title on a 390 px phone held three words a line).
struct SlideFrame {
  TypeMinimums minimums;
  float width = 0, height = 0;
};
SlideFrame slide_frame(float width, float height) {
  const float proportions =
      width < height ? std::min(height, std::floor(width * 9.0f / 16.0f)) : height;
  return SlideFrame{screen_minimums(width, height), width, proportions};
}

// The figures' style on a slide: type a room reads, growing with the slide (a 45th of its
// proportions' height, at most a 24th of its width), never below the style's or the digit
// minimum (labels do not shrink under it; a bank view too tall for it draws fewer rows).
FigureStyle part_style(const FigureStyle& st, const SlideFrame& frame) {
  const float digits = frame.minimums.digits;
  FigureStyle out = st;
  out.font = std::max(digits, std::min(std::max(st.font, std::floor(frame.height / 45.0f)),
                                       std::floor(frame.width / 24.0f)));
  out.min_font = digits;
  out.readable_font = digits;
  out.min_digits = digits;
  out.tile_caption = true;
  return out;
}

// Text reflowed at `width` pixels in `font`: the lines of a header's title or verdict.
std::vector<std::string> header_lines(std::string_view text, float width, float font) {
  std::vector<std::string> out;
  std::istringstream lines(reflow(text, columns_for(width, font)));
  for (std::string l; std::getline(lines, l);) out.push_back(l);
  return out;
}

// The header's labels from its top-left corner (x, y), `width` wide: the track and the step
// number, the title, the scenario, the verdict; the layout measures it, the slide draws it.
std::vector<Label> header_labels(const Slide& s, const SlideLayout& L, float x, float y,
                                 float width, const Palette& p) {
  std::vector<Label> out;
  const std::string step = "Step " + std::to_string(s.step) + " of " + std::to_string(s.steps);
  const float step_w = text_width(step, L.header_font);
  // The track's name in the body size, cut with an ellipsis where it would reach the step.
  std::string track = s.track;
  const auto room = static_cast<std::size_t>(
      std::max(4.0f, (width - step_w - L.header_font) / text_width("0", L.header_font)));
  if (track.size() > room) track = track.substr(0, room - 3) + "...";
  out.push_back(at(track, L.header_font, p.text_dim, x, y, Role::caption));
  out.push_back(at(step, L.header_font, p.text_dim, x + width - step_w, y, Role::caption));
  y += std::floor(L.header_font * kLineHeight);
  for (const std::string& line : header_lines(s.title, width, L.title_font)) {
    out.push_back(at(line, L.title_font, p.title, x, y, Role::heading));
    y += std::floor(L.title_font * 1.25f);
  }
  const std::string scenario_line =
      s.scenario_line.empty() ? describe(s.study.scenario) : s.scenario_line;
  for (const std::string& line : header_lines(scenario_line, width, L.header_font)) {
    out.push_back(at(line, L.header_font, p.text, x, y, Role::heading));
    y += std::floor(L.header_font * kLineHeight);
  }
  const Evaluation& e = s.study.evaluation;
  const bool conflict = e.ok() && e.analysis->bank_conflicts() > 0;
  const bool wrong = s.descriptor ? !step_agreement(*s.descriptor, s.study.scenario.tile).agrees()
                                  : !e.ok() || conflict;
  const Rgba verdict = wrong ? p.error : p.text_ok;
  for (const std::string& line : header_lines(slide_verdict(s), width, L.verdict_font)) {
    out.push_back(at(line, L.verdict_font, verdict, x, y, Role::verdict));
    y += std::floor(L.verdict_font * 1.25f);
  }
  return out;
}

}  // namespace

// [SECTION] A slide's scenario and parts

std::string slide_verdict(const Slide& s) {
  if (s.descriptor) return descriptor_verdict(*s.descriptor, s.study.scenario.tile);
  return verdict_line(s.study);
}

std::optional<SlidePart> parse_slide_part(std::string_view text) {
  for (SlidePart p : {SlidePart::banks, SlidePart::lanes, SlidePart::tile, SlidePart::tiles,
                      SlidePart::code, SlidePart::compare, SlidePart::descriptor}) {
    if (text == slide_part_name(p)) return p;
  }
  return std::nullopt;
}

std::string_view slide_part_name(SlidePart p) {
  static constexpr std::string_view kNames[] = {"banks", "lanes",   "tile",      "tiles",
                                                "code",  "compare", "descriptor"};
  return kNames[static_cast<int>(p)];
}

std::vector<SlidePart> default_parts(const Study& s) {
  if (refused_rows(s)) return {SlidePart::tile};
  return {SlidePart::banks, SlidePart::lanes};
}

std::vector<SlidePart> slide_parts(const Slide& s) {
  std::vector<SlidePart> parts = s.parts.empty() ? default_parts(s.study) : s.parts;
  // A refused access is one picture (the tile and its arithmetic), whichever views are named.
  if (refused_rows(s.study)) {
    std::vector<SlidePart> kept;
    bool drawn = false;
    for (SlidePart p : parts) {
      const bool view =
          p != SlidePart::code && p != SlidePart::compare && p != SlidePart::descriptor;
      if (view && drawn) continue;
      drawn = drawn || view;
      kept.push_back(view ? SlidePart::tile : p);
    }
    parts = kept;
  }
  return parts;
}

// [SECTION] Wrapping text

namespace {

// A line longer than `columns` in pieces of at most `columns` characters (later ones
// `columns - indent`), each cut after the last of `breaks` that leaves it a third full, else at
// the width; the pieces after the first are prefixed with `indent` spaces.
void add_broken(std::vector<TextLine>& out, std::string rest, int columns, int indent,
                std::string_view breaks, bool code) {
  const std::string lead(static_cast<std::size_t>(indent), ' ');
  bool first = true;
  for (int width = std::max(8, columns); static_cast<int>(rest.size()) > width;
       width = std::max(8, columns - indent)) {
    std::size_t cut = rest.find_last_of(breaks, static_cast<std::size_t>(width - 1));
    if (cut == std::string::npos || cut < static_cast<std::size_t>(width / 3)) {
      cut = static_cast<std::size_t>(width - 1);
    }
    std::string piece = rest.substr(0, cut + 1);
    while (piece.ends_with(' ')) piece.pop_back();
    out.push_back(TextLine{(first ? "" : lead) + piece, code});
    rest = rest.substr(std::min(rest.find_first_not_of(' ', cut + 1), rest.size()));
    first = false;
  }
  out.push_back(TextLine{(first ? "" : lead) + rest, code});
}

}  // namespace

std::vector<TextLine> wrap_text(std::string_view text, int columns) {
  std::vector<TextLine> out;
  std::istringstream lines(reflow(text, columns));
  for (std::string l; std::getline(lines, l);) {
    if (l.starts_with("    ")) {
      // A code line: as written, broken where it runs past the width, after a space, a comma,
      // a dot or an opening bracket ("__cvta_generic_to_shared("), the rest hanging below it
      // (a statement wrapped reads as one, not as the next line of the block).
      std::string code = l.substr(4);
      const int own = static_cast<int>(std::min(code.find_first_not_of(' '), code.size()));
      const int most = std::max(columns, 8) / 4;
      if (own > most) code.erase(0, static_cast<std::size_t>(own - most));
      add_broken(out, std::move(code), columns, std::min(own, most) + 4, " ,.([", true);
    } else {
      // Prose is reflowed at its spaces; a word longer than the line (a profiler metric such
      // as "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") breaks after '_', '.' or '/'.
      add_broken(out, l, columns, 0, "_./", false);
    }
  }
  while (!out.empty() && out.back().text.empty()) out.pop_back();
  return out;
}

// [SECTION] Arranging the body

namespace {

// One arrangement of a slide's body: the text's box and font, a box per part, and the smallest
// number its figures draw.
struct Candidate {
  Box text;
  float font = 0;
  std::vector<Box> boxes;
  float numbers = 0;
};

// The text's largest font, from a 28th of the slide's height down to the body minimum, at which
// it fits w x h; nullopt where even the minimum does not.
std::optional<float> text_fitting(std::string_view text, float w, float h,
                                  const SlideFrame& frame) {
  const float least = frame.minimums.body;
  for (float f = std::max(least, std::floor(frame.height / 28.0f)); f >= least; f -= 1.0f) {
    if (text_height(wrap_text(text, columns_for(w, f)), f) <= h) return f;
  }
  return std::nullopt;
}

// The best arrangement of `parts` and `text` in `body`: the text beside the figures (at a third
// to a half of the width), beside the first figure with the others under it, or over the
// figures; each with the largest text font that fits, never below the body minimum. Best: the
// figures' smallest number, up to the digit minimum, then the larger text. Nullopt: the text
// does not fit at the body minimum in any of them.
std::optional<Candidate> arrange_body(const Slide& s, std::string_view text,
                                      const std::vector<SlidePart>& parts, Box body,
                                      const SlideFrame& frame, const FigureStyle& st) {
  const float gap = std::floor(frame.height / 36.0f);
  const float target = frame.minimums.digits;
  const FigureStyle parts_st = part_style(st, frame);
  std::optional<Candidate> best;
  const auto keep = [&](Candidate c) {
    c.numbers = 1e9f;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const Figure f = part_figure(s, parts[i], c.boxes[i], parts_st);
      c.numbers = std::min(c.numbers, smallest_number(f, *st.palette));
      if (parts[i] == SlidePart::descriptor)
        c.numbers = std::min(c.numbers, descriptor_numbers(s, f, target));
    }
    const auto key = [&](const Candidate& k) {
      return std::pair{std::min(k.numbers, target), k.font};
    };
    if (!best || key(c) > key(*best)) best = c;
  };
  const auto consider = [&](Box text_box, Box fig_box, float font) {
    for (bool vertical : {true, false}) {
      if (!vertical && parts.size() < 2) continue;
      keep(Candidate{text_box, font,
                     settle(s, parts, arrange(s, parts, fig_box, vertical, gap), parts_st, gap),
                     0});
    }
  };
  const auto fitting = [&](float w, float h) { return text_fitting(text, w, h, frame); };
  if (parts.empty()) {  // no figure (none fits a phone's width): the text takes the body
    if (const auto f = fitting(body.width(), body.height())) {
      const float th = text_height(wrap_text(text, columns_for(body.width(), *f)), *f);
      keep(Candidate{Box{body.x0, body.y0, body.x1, body.y0 + th}, *f, {}, 0});
    }
    return best;
  }
  for (float share : {0.34f, 0.42f, 0.5f}) {
    const float tw = std::floor(body.width() * share);
    if (const auto f = fitting(tw, body.height())) {
      consider(Box{body.x0, body.y0, body.x0 + tw, body.y1},
               Box{body.x0 + tw + gap, body.y0, body.x1, body.y1}, *f);
    }
    // The first figure on the right at full height, the others under the text: a bank view of
    // 32 wavefronts needs the height, a lane map the width.
    for (float under = 0.3f; parts.size() > 1 && under <= 0.55f; under += 0.125f) {
      const float lower = std::floor(body.height() * under);
      const auto f = fitting(tw, body.height() - lower - gap);
      if (!f) continue;
      const float th = text_height(wrap_text(text, columns_for(tw, *f)), *f);
      const Box rest{body.x0, body.y0 + th + gap, body.x0 + tw, body.y1};
      const std::vector<SlidePart> others(parts.begin() + 1, parts.end());
      Candidate c{Box{body.x0, body.y0, body.x0 + tw, body.y0 + th}, *f, {}, 0};
      c.boxes.push_back(Box{body.x0 + tw + gap, body.y0, body.x1, body.y1});
      for (const Box& b : settle(s, others, arrange(s, others, rest, true, gap), parts_st, gap)) {
        c.boxes.push_back(b);
      }
      keep(c);
    }
  }
  // Over: the text across the top, the figures keep at least 40% of the height.
  if (const auto f = fitting(body.width(), body.height() * 0.6f)) {
    const float th = text_height(wrap_text(text, columns_for(body.width(), *f)), *f);
    consider(Box{body.x0, body.y0, body.x1, body.y0 + th},
             Box{body.x0, body.y0 + th + gap, body.x1, body.y1}, *f);
  }
  return best;
}

}  // namespace

// [SECTION] The slide

namespace {

// Where a slide's text may stop and the speaker notes begin: its paragraphs and code lines
// (reflow()'s lines, blank lines between paragraphs kept).
std::vector<std::string> text_units(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream lines(reflow(text, 0));
  for (std::string l; std::getline(lines, l);) out.push_back(l);
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

std::string joined(std::span<const std::string> units) {
  std::string out;
  for (const std::string& u : units) out += u + "\n";
  return out;
}

// What the slide says where its text goes on in the notes.
constexpr std::string_view kContinued = "(continued in the speaker notes)";

// The step's text split into what the slide shows and the notes: the whole text when an
// arrangement fits it at the body minimum with the figures' numbers at the digit minimum; else
// the most leading paragraphs (and code lines) that do; where none does, the cut that gives
// the figures the largest numbers; where no paragraph fits, a first paragraph cut at a word.
struct Split {
  std::string shown, notes;
  Candidate body;
};
std::optional<Split> split_text(const Slide& s, const std::vector<SlidePart>& parts, Box body,
                                const SlideFrame& frame, const FigureStyle& st) {
  const float digits = frame.minimums.digits;
  const std::vector<std::string> units = text_units(s.text);
  const auto head = [&](std::size_t n) {
    return n == units.size() ? s.text
                             : joined(std::span(units).first(n)) + "\n" + std::string(kContinued);
  };
  // The widest boxes any arrangement gives the text: a head that fits neither fits none.
  const auto may_fit = [&](std::string_view text) {
    if (parts.empty()) return text_fitting(text, body.width(), body.height(), frame).has_value();
    return text_fitting(text, std::floor(body.width() * 0.5f), body.height(), frame) ||
           text_fitting(text, body.width(), body.height() * 0.6f, frame);
  };
  std::optional<Split> fallback;
  for (std::size_t n = units.size(); n >= 1; --n) {
    if (n < units.size() && units[n - 1].empty()) continue;  // cut after a paragraph, not a gap
    const std::string text = head(n);
    if (!may_fit(text)) continue;
    const std::optional<Candidate> c = arrange_body(s, text, parts, body, frame, st);
    if (!c) continue;
    std::string notes = joined(std::span(units).subspan(n));
    notes.erase(0, notes.find_first_not_of('\n') == std::string::npos
                       ? notes.size()
                       : notes.find_first_not_of('\n'));
    Split split{text, std::move(notes), *c};
    if (c->numbers >= digits) return split;
    if (!fallback || c->numbers > fallback->body.numbers) fallback = std::move(split);
  }
  if (fallback || units.empty()) return fallback;
  // A first paragraph longer than the slide: its first words, the rest in the notes.
  std::istringstream words(units.front());
  std::vector<std::string> all;
  for (std::string w; words >> w;) all.push_back(w);
  for (std::size_t n = all.size(); n >= 1; --n) {
    std::string text;
    for (std::size_t k = 0; k < n; ++k) text += (k ? " " : "") + all[k];
    text += " ...\n\n" + std::string(kContinued);
    if (!may_fit(text)) continue;
    if (const std::optional<Candidate> c = arrange_body(s, text, parts, body, frame, st)) {
      std::string rest;
      for (std::size_t k = n; k < all.size(); ++k) rest += (k > n ? " " : "") + all[k];
      return Split{text, "... " + rest + "\n" + joined(std::span(units).subspan(1)), *c};
    }
  }
  return std::nullopt;
}

// What a phone's slide calls a part it leaves out.
std::string_view part_title(SlidePart p) {
  static constexpr std::string_view kTitles[] = {
      "bank view", "lane map", "tile", "tile as indexed and as stored", "code", "comparison"};
  return kTitles[static_cast<int>(p)];
}

// A phone's slide where its figures cannot keep their numbers at the digit minimum: each part
// alone (a lane map runs down a narrow screen), the one with the largest numbers that reach it;
// where none does, no figure, and a line at the foot of the body (taken from `body`) says which
// it left out.
void fit_handheld(const Slide& s, SlideLayout& L, std::optional<Split>& best, Box& body,
                  const SlideFrame& frame, const FigureStyle& st) {
  if (best && best->body.numbers >= L.minimums.digits) return;
  std::optional<Split> kept;
  for (SlidePart p : L.parts) {
    std::optional<Split> alone = split_text(s, {p}, body, frame, st);
    if (alone && alone->body.numbers >= L.minimums.digits &&
        (!kept || alone->body.numbers > kept->body.numbers)) {
      kept = std::move(alone);
      L.parts = {p};
    }
  }
  if (kept) {
    best = std::move(kept);
    return;
  }
  std::string names;
  for (std::size_t i = 0; i < L.parts.size(); ++i) {
    names += (i == 0                    ? ""
              : i + 1 == L.parts.size() ? " and the "
                                        : ", the ") +
             std::string(part_title(L.parts[i]));
  }
  L.left_out = "Turn the screen for the " + names + ": too narrow to read here.";
  const float note_h = text_height(
      wrap_text(L.left_out, columns_for(body.width(), L.minimums.body)), L.minimums.body);
  body.y1 -= note_h;
  L.note = Box{body.x0, body.y1, body.x1, body.y1 + note_h};
  L.parts.clear();
  best = split_text(s, {}, body, frame, st);
}

}  // namespace

SlideLayout slide_layout(const Slide& s, float width, float height, const FigureStyle& st) {
  SlideLayout L;
  L.width = width;
  L.height = height;
  const SlideFrame frame = slide_frame(width, height);
  L.minimums = frame.minimums;
  L.parts = slide_parts(s);
  const float margin = std::max(8.0f, std::floor(frame.height / 36.0f));
  // Header: the track and step number and the scenario in body type, the title and the verdict
  // in title type.
  L.header_font = L.minimums.body;
  L.title_font = std::max(L.minimums.title, std::floor(frame.height / 22.0f));
  L.verdict_font = L.title_font;
  float header_bottom = margin;
  for (const Label& l : header_labels(s, L, margin, margin, width - 2 * margin, *st.palette)) {
    header_bottom = std::max(header_bottom, l.box.y0 + std::floor(l.size * 1.25f));
  }
  L.header = Box{margin, margin, width - margin, header_bottom};
  L.footer_font = s.footer.empty() ? 0.0f : L.minimums.body;
  const float footer_h = s.footer.empty() ? 0.0f : std::floor(L.footer_font * kLineHeight);
  L.footer = Box{margin, height - margin * 0.5f - footer_h, width - margin, height - margin * 0.5f};
  Box body{margin, L.header.y1 + margin * 0.5f, width - margin,
           L.footer.y0 - (s.footer.empty() ? 0.0f : margin * 0.5f)};
  std::optional<Split> best = split_text(s, L.parts, body, frame, st);
  // Parts the step did not name (the defaults) give way: where the second figure would leave
  // numbers under the digit minimum, the slide shows the first one alone, larger.
  if (s.parts.empty() && L.parts.size() > 1 && (!best || best->body.numbers < L.minimums.digits)) {
    const std::vector<SlidePart> first(L.parts.begin(), L.parts.begin() + 1);
    std::optional<Split> alone = split_text(s, first, body, frame, st);
    if (alone && (!best || alone->body.numbers > best->body.numbers)) {
      best = std::move(alone);
      L.parts = first;
    }
  }
  if (width < kHandheldWidth) fit_handheld(s, L, best, body, frame, st);
  if (!best) {  // not even a word of text fits (a slide a few pixels tall): the figures alone
    best = Split{"", s.text,
                 Candidate{Box{body.x0, body.y0, body.x0, body.y0}, L.minimums.body,
                           arrange(s, L.parts, body, true, margin), 0}};
  }
  L.shown = best->shown;
  L.notes = best->notes;
  L.text = best->body.text;
  L.text_font = best->body.font;
  L.part_boxes = best->body.boxes;
  return L;
}

Figure slide_figure(const Slide& s, float width, float height, const FigureStyle& st) {
  return slide_figure(s, slide_layout(s, width, height, st), st);
}

namespace {

// The keys in the footer's size, as many as fit (they are listed in order of use).
Label footer_label(const Slide& s, const SlideLayout& L, const Palette& p) {
  std::string keys = s.footer;
  while (text_width(keys, L.footer_font) > L.footer.width() &&
         keys.rfind("   ") != std::string::npos)
    keys.resize(keys.rfind("   "));
  return at(keys, L.footer_font, p.text_dim, L.footer.x0, L.footer.y0, Role::caption);
}

}  // namespace

Figure notes_figure(const Slide& s, const SlideLayout& L, int page, int* pages,
                    const FigureStyle& st) {
  const Palette& p = *st.palette;
  Figure f = blank_figure(L.width, L.height, p);
  for (Label& l : header_labels(s, L, L.header.x0, L.header.y0, L.header.width(), p)) {
    f.labels.push_back(std::move(l));
  }
  const float line_h = std::floor(L.text_font * kLineHeight);
  const float top = L.header.y1 + std::floor(L.height / 72.0f);
  const float bottom = s.footer.empty() ? L.height - L.header.x0 : L.footer.y0 - L.header.x0 * 0.5f;
  // Pages of whole lines: the caption, then as many of the notes' lines as fit under it.
  const std::vector<TextLine> lines =
      wrap_text(L.notes.empty() ? kNoNotes : L.notes, columns_for(L.header.width(), L.text_font));
  const auto per_page = static_cast<std::size_t>(std::max(1.0f, (bottom - top) / line_h - 1.0f));
  const int count = static_cast<int>((lines.size() + per_page - 1) / per_page);
  if (pages) *pages = std::max(count, 1);
  page = std::clamp(page, 0, std::max(count, 1) - 1);
  std::string caption = "Speaker notes";
  if (count > 1) caption += ", page " + std::to_string(page + 1) + " of " + std::to_string(count);
  f.labels.push_back(at(caption, L.text_font, p.text_dim, L.header.x0, top, Role::caption));
  float y = top + line_h;
  const std::size_t first = static_cast<std::size_t>(page) * per_page;
  for (std::size_t i = first; i < std::min(lines.size(), first + per_page); ++i) {
    if (lines[i].code) {
      f.rects.push_back(Rect{Box{L.header.x0 - 2.0f, y, L.header.x1, y + line_h}, p.cell_empty,
                             Fill::solid, Role::panel});
    }
    if (!lines[i].text.empty())
      f.labels.push_back(at(lines[i].text, L.text_font, p.text, L.header.x0, y, Role::text));
    y += line_h;
  }
  if (!s.footer.empty()) f.labels.push_back(footer_label(s, L, p));
  return f;
}

Figure slide_figure(const Slide& s, const SlideLayout& L, const FigureStyle& st) {
  const Palette& p = *st.palette;
  Figure f = blank_figure(L.width, L.height, p);
  for (Label& l : header_labels(s, L, L.header.x0, L.header.y0, L.header.width(), p)) {
    f.labels.push_back(std::move(l));
  }
  // The text: paragraphs, code lines on a panel.
  const float line_h = std::floor(L.text_font * kLineHeight);
  float y = L.text.y0;
  for (const TextLine& l : wrap_text(L.shown, columns_for(L.text.width(), L.text_font))) {
    if (l.text.empty()) {
      y += std::floor(line_h * kGapLines);
      continue;
    }
    if (l.code) {
      f.rects.push_back(Rect{Box{L.text.x0 - 2.0f, y, L.text.x1, y + line_h}, p.cell_empty,
                             Fill::solid, Role::panel});
    }
    f.labels.push_back(at(l.text, L.text_font, p.text, L.text.x0, y, Role::text));
    y += line_h;
  }
  if (!L.left_out.empty()) {
    y = L.note.y0;
    for (const TextLine& l : wrap_text(L.left_out, columns_for(L.note.width(), L.minimums.body))) {
      f.labels.push_back(at(l.text, L.minimums.body, p.text_dim, L.note.x0, y, Role::caption));
      y += std::floor(L.minimums.body * kLineHeight);
    }
  }
  const FigureStyle parts_st = part_style(st, slide_frame(L.width, L.height));
  for (std::size_t i = 0; i < L.parts.size(); ++i) {
    append(f, part_figure(s, L.parts[i], L.part_boxes[i], parts_st));
  }
  if (L.parts.size() > 1) f.grid.reset();  // several grids: none is the figure's
  if (!s.footer.empty()) f.labels.push_back(footer_label(s, L, p));
  return f;
}

}  // namespace banklab::figures
