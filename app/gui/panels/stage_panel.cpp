// The stage: presentation mode (one view of the scenario on screen filling the window in large
// type, the verdict always on top; in a lesson, the step as a slide: its title, its text and the
// figures it names) and comparisons (2-4 scenarios side by side, each headed by its name, its
// wavefronts and its verdict). All are banklab_figures pages (the SVG export's), drawn at a font
// that grows with the window, so the back of a lecture room can read them.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/figures/projector.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/figure_draw.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {
namespace {

// The step's parts as its lesson names them (the core checked the names).
std::vector<figures::SlidePart> named_parts(const FilledStep& f) {
  std::vector<figures::SlidePart> parts;
  for (const std::string& name : f.show) {
    if (const auto p = figures::parse_slide_part(name)) parts.push_back(*p);
  }
  return parts;
}

figures::View figure_view(StageView v) {
  return v == StageView::lanes  ? figures::View::lanes
         : v == StageView::tile ? figures::View::tile
                                : figures::View::banks;
}

// Studies the compared scenarios when they changed (the core runs once per change).
void refresh_compared(AppState& s) {
  const std::vector<CompareItem>& items = s.user.stage.compare;
  bool same = s.compared.size() == items.size();
  for (std::size_t i = 0; same && i < items.size(); ++i) {
    same = s.compared[i].scenario == items[i].scenario;
  }
  if (same) return;
  s.compared.clear();
  for (const CompareItem& item : items) s.compared.push_back(study(item.scenario));
}

// The keys, in a line along the bottom; in a lesson the clicker's keys first.
constexpr const char* kHint =
    "F5 / Esc leave   Space play   Left/Right step   N/P preset   V view   T theme";
constexpr const char* kLessonHint =
    "PgDn next step   PgUp previous step   V slide / views   Space play   F5 / Esc leave";
constexpr const char* kSlideHint =
    "PgDn next step   PgUp previous step   N notes   V slide / views   Space play   F5 / Esc leave";

// The size of the smallest number a figure draws (lanes, banks, wavefronts, the tile's).
float smallest_number(const figures::Figure& f) {
  using figures::Role;
  float least = 1e9f;
  for (const figures::Label& l : f.labels) {
    if (l.role == Role::cell_label || l.role == Role::bank_label || l.role == Role::lane_label ||
        l.role == Role::wavefront_label || l.role == Role::slot_bank)
      least = std::min(least, l.size);
  }
  return least;
}

// Whether no two labels of the figure overlap (by more than the pixel and a half of blank room
// above a digit): a view grown past its room runs its numbers together.
bool labels_apart(const figures::Figure& f) {
  for (std::size_t i = 0; i < f.labels.size(); ++i) {
    for (std::size_t j = i + 1; j < f.labels.size(); ++j) {
      const figures::Box& a = f.labels[i].box;
      const figures::Box& b = f.labels[j].box;
      if (a.x0 < b.x1 - 1.5f && b.x0 < a.x1 - 1.5f && a.y0 < b.y1 - 1.5f && b.y0 < a.y1 - 1.5f)
        return false;
    }
  }
  return true;
}

// The lesson step's slide layout, computed once for its step, scenario and size (SlideCache).
const figures::SlideLayout& slide_layout(AppState& s, const figures::Slide& slide,
                                         figures::Box area, const figures::FigureStyle& st) {
  const auto tile_view = static_cast<std::uint8_t>(st.tile_view);
  const bool footer = !slide.footer.empty();
  SlideCache* c = s.slide ? &*s.slide : nullptr;
  if (!c || c->step != s.lesson.step || !(c->scenario == slide.study.scenario) ||
      c->width != area.width() || c->height != area.height() || c->font != st.font ||
      c->tile_view != tile_view || c->footer != footer) {
    s.slide =
        SlideCache{s.lesson.step, slide.study.scenario,
                   area.width(),  area.height(),
                   st.font,       tile_view,
                   footer,        figures::slide_layout(slide, area.width(), area.height(), st)};
    c = &*s.slide;
  }
  return c->layout;
}

// The slide, or its speaker notes' page (N), at `area`'s corner.
figures::Figure slide_figure(AppState& s, const figures::Slide& slide, figures::Box area,
                             const figures::FigureStyle& st) {
  const figures::SlideLayout& layout = slide_layout(s, slide, area, st);
  figures::Figure f;
  if (showing_notes(s)) {
    figures::append(f, figures::notes_figure(slide, layout, s.notes.page, &s.notes.pages, st),
                    area.x0, area.y0);
  } else {
    figures::append(f, figures::slide_figure(slide, layout, st), area.x0, area.y0);
  }
  f.width = area.x1;
  f.height = area.y1;
  f.background = st.palette->background;
  return f;
}

}  // namespace

figures::Slide lesson_slide(const AppState& s) {
  figures::Slide slide;
  const Lesson& l = *s.lesson.lesson;
  const FilledStep& f = s.lesson.filled;
  slide.track = l.title;
  slide.step = s.lesson.step + 1;
  slide.steps = static_cast<int>(l.steps.size());
  slide.title = f.title;
  slide.text = f.text;
  slide.study = s.study;
  if (f.descriptor) {
    // The Descriptor window's descriptor: the step's, or what the user has made of it since.
    FilledStep shown = f;
    shown.descriptor = s.user.descriptor;
    slide.descriptor = s.user.descriptor;
    slide.scenario_line = describe_step(shown);
  } else {
    slide.scenario_line = describe_step(f);
  }
  slide.parts = named_parts(f);
  for (const auto& [name, compared] : f.compare) {
    slide.compare.push_back(figures::Compared{name, compared});
  }
  return slide;
}

figures::FigureStyle stage_style(const AppState& s, float height) {
  figures::FigureStyle st = figure_style(view_style(s));
  // Large type: a 36th of the height, never below the UI's own size; no number under the
  // projector's digit minimum (a bank view draws the wavefronts that fit at it), the verdict in
  // title type.
  const figures::TypeMinimums m = figures::projector_minimums(height);
  st.font = std::floor(std::max({ImGui::GetFontSize(), height / 36.0f, m.digits}));
  st.min_font = m.digits;
  st.readable_font = m.digits;
  st.min_digits = m.digits;
  st.verdict_font = m.title;
  st.tile_caption = true;
  return st;
}

figures::Figure stage_figure(AppState& s, figures::Box area, figures::FigureStyle st) {
  figures::Figure f;
  f.width = area.x1;
  f.height = area.y1;
  f.background = st.palette->background;
  const std::vector<CompareItem>& items = s.user.stage.compare;
  if (items.empty() && s.user.stage.view == StageView::slide && in_lesson(s)) {
    figures::Slide slide = lesson_slide(s);
    if (s.user.stage.presenting && !s.exporting) slide.footer = kSlideHint;
    return slide_figure(s, slide, area, st);
  }
  if (items.empty()) {
    const Study& d = s.study;
    const auto page = [&](const figures::FigureStyle& style) {
      return figures::page_figure(figure_view(s.user.stage.view), d, area.width(), area.height(),
                                  style);
    };
    // The view takes the screen: its type grows (up to three times) where that makes its
    // smallest number larger and the page still fits, draws as many labels (a bank view that
    // would leave rows out stops) and runs none together; the scenario and the verdict over it
    // keep their size.
    // A bank view of few wavefronts grows its rows into the screen's height, not 2.7 lines each.
    st.max_row_pitch = area.height();
    figures::Figure best = page(st);
    figures::FigureStyle grown = st;
    grown.page_font = st.font;
    for (float scale : {1.3f, 1.6f, 2.0f, 2.5f, 3.0f}) {
      grown.font = std::floor(st.font * scale);
      figures::Figure larger = page(grown);
      if (figures::content_bottom(larger) <= area.height() &&
          larger.labels.size() >= best.labels.size() &&
          smallest_number(larger) > smallest_number(best) && labels_apart(larger)) {
        best = std::move(larger);
      }
    }
    figures::append(f, best, area.x0, area.y0);
    return f;
  }
  refresh_compared(s);
  // No step-through, no tile (its heat map is the scenario on screen's) and no lesson step's
  // highlights (they belong to the scenario on screen) in a comparison.
  st.served = kAllServed;
  st.hovered_lane = -1;
  st.highlights = {};
  const figures::View view =
      s.user.stage.view == StageView::lanes ? figures::View::lanes : figures::View::banks;
  const auto n = static_cast<float>(items.size());
  // Side by side where each column holds 32 bank numbers (or a lane map running down it) at
  // the digit minimum; else one pane under the other, each across the whole width.
  const float digits = st.min_digits;
  const float column = 32.0f * (figures::text_width("31", digits) + 4.0f) + 4.0f * st.font;
  const bool across = std::floor(area.width() / n) >= column;
  const float w = across ? std::floor(area.width() / n) : area.width();
  const float h = across ? area.height() : std::floor(area.height() / n);
  // The sentences keep large type, a 24th of a column's width at most, never under the body
  // minimum, and wrap.
  st.page_font = std::max(std::min(st.font, std::floor(w / 24.0f)),
                          figures::projector_minimums(area.height()).body);
  st.verdict_font = st.page_font;
  if (across && view == figures::View::banks) st.font = std::max(digits, std::floor(w / 40.0f));
  st.heading_beside = !across;
  const float name_h = std::floor(st.font * 1.5f);
  // The panes' headings in one size, the largest that fits them all. A heading too wide for its
  // pane keeps its name alone ("fp32-xor", not "fp32-xor: float tile[32][32], XOR swizzle c ^ r,
  // column 0" in smaller type): the page under it states the scenario in full.
  const float heading_font = std::floor(st.font * 1.2f);
  const auto fit = [&](const std::string& text) {
    return figures::fit_font(text, heading_font, w - st.font, name_h);
  };
  std::vector<std::string> headings;
  float size = heading_font;
  for (const CompareItem& item : items) {
    std::string heading = item.name;
    if (const std::size_t colon = heading.find(": ");
        fit(heading) < heading_font && colon != std::string::npos) {
      heading.resize(colon);
    }
    size = std::min(size, fit(heading));
    headings.push_back(std::move(heading));
  }
  // Every pane keeps the tallest pane's scenario and verdict, so that their views start level.
  for (std::size_t i = 0; i < items.size(); ++i) {
    const figures::Figure page = figures::page_figure(view, s.compared[i], w, h - name_h, st);
    for (const figures::Label& l : page.labels) {
      if (l.role == figures::Role::heading || l.role == figures::Role::verdict)
        st.page_heading = std::max(st.page_heading, l.box.y1 - std::floor(st.font * 0.8f));
    }
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const float x = area.x0 + (across ? w * static_cast<float>(i) : 0.0f);
    const float y = area.y0 + (across ? 0.0f : h * static_cast<float>(i));
    const std::string& name = headings[i];
    f.labels.push_back(
        figures::Label{figures::Box{x + st.font * 0.5f, y,
                                    x + st.font * 0.5f + figures::text_width(name, size), y + size},
                       size, st.palette->text, name, figures::Role::heading, static_cast<int>(i),
                       std::nullopt, figures::kNoColour});
    figures::append(f, figures::page_figure(view, s.compared[i], w, h - name_h, st), x, y + name_h);
  }
  return f;
}

void draw_stage(AppState& s, Interaction& io, float top) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0, top));
  ImGui::SetNextWindowSize(ImVec2(display.x, display.y - top));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!ImGui::Begin("##stage", nullptr, flags)) {
    ImGui::End();
    return;
  }
  if (code_stale(s)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours(s).warning));
    ImGui::TextUnformatted(
        "Stale: the code being typed has an error; this is its last valid access.");
    ImGui::PopStyleColor();
  }
  figures::Box area = available_box();
  // The keys' line, in the body type of the projector minimums (the slide has its own footer).
  const float keys_font = figures::projector_minimums(display.y).body;
  area.y1 -= std::floor(keys_font * 1.35f);
  const bool slide =
      s.user.stage.view == StageView::slide && in_lesson(s) && s.user.stage.compare.empty();
  if (slide) area.y1 = display.y - top;  // the slide has the keys in its own footer
  // The type of the whole screen's height: a menu bar over a comparison does not shrink it.
  const figures::FigureStyle style = stage_style(s, display.y);
  figures::Figure f = stage_figure(s, area, style);
  if (!slide) {
    f.labels.push_back(figures::Label{
        figures::Box{area.x0, area.y1 + 2.0f,
                     area.x0 + figures::text_width(in_lesson(s) ? kLessonHint : kHint, keys_font),
                     area.y1 + 2.0f + keys_font},
        keys_font, style.palette->text_dim, in_lesson(s) ? kLessonHint : kHint,
        figures::Role::caption, -1, std::nullopt, figures::kNoColour});
  }
  add_labels(io.geometry, f);
  ImGui::InvisibleButton("##stage-area", ImVec2(area.width(), area.height()));
  draw_figure(f, ImGui::GetWindowDrawList(), *io.draw, s.res.label_fonts);
  ImGui::End();
}

bool showing_slide(const AppState& s) {
  return s.user.stage.presenting && s.user.stage.compare.empty() &&
         s.user.stage.view == StageView::slide && in_lesson(s);
}

bool showing_notes(const AppState& s) {
  return showing_slide(s) && s.notes.step == s.lesson.step;
}

void next_notes_page(AppState& s) {
  if (!showing_notes(s)) {
    s.notes = NotesShown{s.lesson.step, 0, 1};
  } else if (s.notes.page + 1 < s.notes.pages) {
    ++s.notes.page;
  } else {
    s.notes = NotesShown{};
  }
}

void cycle_stage_view(AppState& s) {
  StageView& v = s.user.stage.view;
  const bool alone = s.user.stage.compare.empty();
  const bool slides = alone && in_lesson(s);
  v = v == StageView::slide            ? StageView::banks
      : v == StageView::banks          ? StageView::lanes
      : v == StageView::lanes && alone ? StageView::tile
      : v == StageView::tile && slides ? StageView::slide
                                       : StageView::banks;
}

}  // namespace banklab::gui
