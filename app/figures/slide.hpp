#pragma once
// A lesson step as a slide, what a class sees: a header (the track, "Step 3 of 18", the step's
// title, the scenario and its verdict), the step's text in large type, and the figures the step
// names filling the rest. The same figure is drawn by the app's presentation mode, written as
// PNG by `banklab-gui --lesson NAME --export-dir DIR`, and (its figures) as SVG in the HTML deck.
//
//   +--------------------------------------------------------------+
//   | The shared-memory transpose ...                 Step 3 of 18 |  header
//   | Pad the row by one: an odd stride                            |  (title size)
//   | float tile[32][33], column 0, ld 4 B                         |
//   | conflict-free: 1 wavefront                                   |  verdict (title size)
//   +------------------------+-------------------------------------+
//   | Append one unused float | bank view                          |  text beside the figures,
//   | to every row: ...       | lane map                           |  or over them: whichever
//   +------------------------+-------------------------------------+  gives the figures larger
//   | PgDn next  PgUp previous  ...                                |  numbers; footer (the app)
//
// Every size keeps projector.hpp's minimums: the text's font is the largest (up to a 28th of the
// height) that fits its box and at least the body minimum; where the whole text does not fit at
// that size, the slide shows its first paragraphs and the rest become the step's speaker notes
// (the deck shows them on a key, the handout has the whole text); a bank view too tall for its
// numbers at the digit minimum draws its first rows and says how many it left out.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/figures/figure.hpp"
#include "app/figures/projector.hpp"
#include "core/teach/lesson_descriptor.hpp"

namespace banklab::figures {

// What a slide shows beside its text (a lesson step's `show`): the bank view, the lane map, the
// tile (as the Tile window shows it), the tile as indexed and as stored side by side (a
// swizzle's picture), the code line, the step's scenario compared with others, or the Descriptor
// Lab's picture of the tile read through the step's descriptor (descriptor_figure.hpp).
enum class SlidePart : std::uint8_t { banks, lanes, tile, tiles, code, compare, descriptor };
std::optional<SlidePart> parse_slide_part(std::string_view text);  // "banks", ... "compare"
std::string_view slide_part_name(SlidePart p);

// A scenario shown beside the step's own in a compare part.
struct Compared {
  std::string name;
  Study study;
};

struct Slide {
  std::string track;  // the lesson's title
  int step = 1;       // 1-based
  int steps = 1;
  std::string title;
  std::string text;               // reflowable paragraphs; lines indented by four spaces are code
  Study study;                    // the step's scenario, studied
  std::string scenario_line;      // the scenario in one line; empty: describe(study.scenario)
  std::vector<SlidePart> parts;   // empty: default_parts()
  std::vector<Compared> compare;  // for SlidePart::compare, after the step's own scenario
  // A step read through a descriptor: what SlidePart::descriptor draws and the header's verdict.
  std::optional<StepDescriptor> descriptor;
  std::string footer;  // the keys, in the app; empty: no footer
};

// The header's last line, in title-size type: the core's verdict, or why the core refuses the
// access; for a step read through a descriptor, whether it reads what TMA wrote.
std::string slide_verdict(const Slide& s);

// What a step shows when it names nothing: the tile (with the rows it cannot start in and the
// arithmetic) for a refused access; else the bank view and the lane map.
std::vector<SlidePart> default_parts(const Study& s);
std::vector<SlidePart> slide_parts(const Slide& s);  // s.parts, or default_parts()

// Where everything goes on a slide of width x height.
struct SlideLayout {
  float width = 0, height = 0;
  TypeMinimums minimums;  // screen_minimums(width, height): every size below is at least these
  Box header, text, footer;
  float header_font = 0, title_font = 0, verdict_font = 0, text_font = 0, footer_font = 0;
  std::string shown;  // the step's text the slide sets: all of it, or the paragraphs that fit
  std::string notes;  // the rest, the speaker notes; empty when the whole text is on the slide
  std::vector<SlidePart> parts;
  std::vector<Box> part_boxes;  // one per part, beside or under the text
  // On a phone (narrower than kHandheldWidth) whose width cannot hold a figure's numbers at the
  // digit minimum: no figure, and this line, in `note`, names the figures left out.
  std::string left_out;
  Box note;
};
SlideLayout slide_layout(const Slide& s, float width, float height, const FigureStyle& st);

// The whole slide, laid out by slide_layout() (or given a layout computed before for it).
Figure slide_figure(const Slide& s, float width, float height, const FigureStyle& st);
Figure slide_figure(const Slide& s, const SlideLayout& layout, const FigureStyle& st);
// The step's speaker notes (the text its slide left out, layout.notes) as pages of the slide's
// size: its header, then the notes in the slide's text type across the whole width, as many
// lines as fit above the footer; `page` (0-based) of `*pages`. A step whose text is all on its
// slide says so.
Figure notes_figure(const Slide& s, const SlideLayout& layout, int page, int* pages,
                    const FigureStyle& st);
inline constexpr std::string_view kNoNotes = "The whole text of this step is on the slide.";

// The text as the slide (and the app's Lesson panel) sets it, `columns` characters wide:
// paragraphs reflowed (a word longer than a line broken after '_', '.' or '/'), code lines kept
// and, where longer, broken after a space, comma, dot or bracket, the rest hanging four spaces
// deeper than the line's own indent. An indent deeper than a quarter of the width (one that
// aligns with the line above) is cut to that. `code` marks a line of code; an empty line
// separates paragraphs.
struct TextLine {
  std::string text;
  bool code = false;
};
std::vector<TextLine> wrap_text(std::string_view text, int columns);

}  // namespace banklab::figures
