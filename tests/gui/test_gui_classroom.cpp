// What a class sees in the app, driven headless with synthetic keys, clicks and typing:
// presentation mode keeps the lesson (the step as a slide, PgDn/PgUp in its footer), a
// comparison is like for like and readable at 1280x720, the tile gets room in the default
// layout, typed code keeps its tile and leaves the lesson, an edit that does not evaluate marks
// the views stale, the light theme's panel text reads, and the Drill and Solve windows speak to
// people rather than in flags.
#include <doctest/doctest.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/figures/projector.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/code_state.hpp"
#include "app/gui/state/drill_state.hpp"
#include "app/gui/state/lesson_state.hpp"
#include "core/model/presets.hpp"
#include "tests/gui/imgui_items.hpp"

using namespace banklab;
using namespace banklab::gui;
using namespace banklab::gui::test;

namespace {

constexpr const char* kCode = "Code: the access as CUDA";

bool says(const figures::Figure& f, const std::string& text) {
  return std::ranges::any_of(f.labels, [&](const figures::Label& l) { return l.text == text; });
}

bool says_part(const figures::Figure& f, const std::string& text) {
  return std::ranges::any_of(
      f.labels, [&](const figures::Label& l) { return l.text.find(text) != std::string::npos; });
}

figures::Figure stage_at_720p(AppState& s) {
  return stage_figure(s, figures::Box{0, 0, 1280, 700}, stage_style(s, 700));
}

// The roles of a figure's numbers: at the projector's digit minimum or more.
bool is_number(figures::Role r) {
  using figures::Role;
  return r == Role::cell_label || r == Role::bank_label || r == Role::lane_label ||
         r == Role::wavefront_label || r == Role::slot_bank || r == Role::axis_label;
}

// The stage as presentation mode draws it in a window of `display` (no menu bar, the keys' line
// under it), checked against projector.hpp's minimums from the layout the code computed: every
// label's pixel height and rectangle. Numbers and a figure's words at the digit minimum, the
// verdict at the title minimum (`verdict`: in title type, as a single view's is), every label
// inside the window, none over another (more than a pixel and a half: the blank above a digit).
// `slide`: a lesson's slide or notes page, which takes the whole screen (its keys in its footer)
// and may hold no number (a notes page).
void check_projector_screen(AppState& s, ImVec2 display, bool verdict, bool slide = false) {
  const figures::TypeMinimums m = figures::projector_minimums(display.y);
  const figures::Box area{0, 0, display.x, slide ? display.y : display.y - 2.0f * m.body};
  const figures::Figure f = stage_figure(s, area, stage_style(s, display.y));
  REQUIRE_FALSE(f.labels.empty());
  int verdicts = 0;
  for (std::size_t i = 0; i < f.labels.size(); ++i) {
    const figures::Label& l = f.labels[i];
    CAPTURE(l.text);
    CAPTURE(figures::role_name(l.role));
    CHECK(l.size >= m.digits);
    if (l.role == figures::Role::verdict) {
      ++verdicts;
      if (verdict) CHECK(l.size >= m.title);
    }
    CHECK(area.contains(l.box, 0.5f));
    for (std::size_t j = i + 1; j < f.labels.size(); ++j) {
      const figures::Box& a = l.box;
      const figures::Box& b = f.labels[j].box;
      CAPTURE(f.labels[j].text);
      CHECK_FALSE(
          (a.x0 < b.x1 - 1.5f && b.x0 < a.x1 - 1.5f && a.y0 < b.y1 - 1.5f && b.y0 < a.y1 - 1.5f));
    }
  }
  CHECK(verdicts > 0);
  if (!slide)
    CHECK(std::ranges::any_of(f.labels, [](const figures::Label& l) { return is_number(l.role); }));
}

const ImVec2 kProjectorScreens[] = {ImVec2(1280, 720), ImVec2(1920, 1080)};

}  // namespace

TEST_CASE("presentation mode: no menu bar, each view at the projector's minimums") {
  for (const ImVec2 display : kProjectorScreens) {
    for (const Theme theme : {Theme::dark, Theme::light}) {
      for (const char* preset : {"fp32-naive", "fp32-pad1", "fp32-xor", "bf16-pad1-pair-store"}) {
        CAPTURE(display.y);
        CAPTURE(theme_name(theme));
        CAPTURE(preset);
        Driver d(display);
        AppState s;
        s.user.settings.theme = theme;
        load_preset(s, preset);
        d.frame(s);
        d.key(s, GLFW_KEY_F5);
        REQUIRE(s.user.stage.presenting);
        // The picture alone: the main menu bar is not drawn (F5 and Esc leave, its line says).
        const ImGuiWindow* menu = ImGui::FindWindowByName("##MainMenuBar");
        CHECK((menu == nullptr || !menu->WasActive));
        for (const StageView v : {StageView::banks, StageView::lanes, StageView::tile}) {
          CAPTURE(static_cast<int>(v));
          s.user.stage.view = v;
          s.user.settings.tile_view = v == StageView::tile && std::string(preset) == "fp32-xor"
                                          ? figures::TileView::both
                                          : figures::TileView::logical;
          check_projector_screen(s, display, true);
          // The view fills the screen: a 1-wavefront bank view (fp32-pad1) drew its one row
          // 2.7 lines tall and left the lower 58 % of the screen empty.
          const figures::TypeMinimums m = figures::projector_minimums(display.y);
          const figures::Box area{0, 0, display.x, display.y - 2.0f * m.body};
          CHECK(figures::content_bottom(stage_figure(s, area, stage_style(s, display.y))) >=
                0.85f * area.height());
        }
      }
    }
  }
}

TEST_CASE("a comparison at the projector's minimums: panes level, like for like") {
  for (const ImVec2 display : kProjectorScreens) {
    for (const char* compare : {"naive-pad-swizzle", "transpose"}) {
      for (const StageView v : {StageView::banks, StageView::lanes}) {
        CAPTURE(display.y);
        CAPTURE(compare);
        CAPTURE(static_cast<int>(v));
        Driver d(display);
        AppState s;
        load_preset(s, "fp32-naive");
        set_compare(s.user.stage, builtin_comparison(compare));
        s.user.stage.view = v;
        d.frame(s);
        check_projector_screen(s, display, false);
        // Each pane's view starts level with the others': the first bank number of each.
        const figures::TypeMinimums m = figures::projector_minimums(display.y);
        const figures::Figure f = stage_figure(
            s, figures::Box{0, 0, display.x, display.y - 2.0f * m.body}, stage_style(s, display.y));
        std::vector<float> tops;
        for (const figures::Label& l : f.labels) {
          if (l.role == figures::Role::bank_label && l.index == 0) tops.push_back(l.box.y0);
        }
        REQUIRE(tops.size() == s.user.stage.compare.size());
        // Side by side they are level; one under another, a pane's height apart (the naive
        // pane's longer verdict once pushed its lane map 40 px below the others).
        std::ranges::sort(tops);
        for (std::size_t i = 2; i < tops.size(); ++i)
          CHECK(tops[i] - tops[i - 1] == doctest::Approx(tops[1] - tops[0]));
        if (tops[1] - tops[0] < display.y / 4) CHECK(tops[1] == tops[0]);
      }
    }
  }
}

TEST_CASE("presentation mode in a lesson shows the step as a slide, and the clicker's keys") {
  Driver d(ImVec2(1280, 720));
  AppState s;
  // The step that pads the row, wherever the track puts it: "Step N of M" from the lesson.
  const Expected<Lesson> transpose = find_lesson("transpose");
  REQUIRE(transpose);
  const std::vector<LessonStep>& steps = transpose->steps;
  const int pad = static_cast<int>(
      std::find_if(steps.begin(), steps.end(),
                   [](const LessonStep& t) { return t.title.starts_with("Pad the row by one"); }) -
      steps.begin());
  REQUIRE(pad + 1 < static_cast<int>(steps.size()));
  const auto step_of = [&](int step) {
    return "Step " + std::to_string(step + 1) + " of " + std::to_string(steps.size());
  };
  REQUIRE(open_lesson(s, "transpose", pad));
  d.frame(s);
  d.key(s, GLFW_KEY_F5);
  REQUIRE(s.user.stage.presenting);
  CHECK(s.user.stage.view == StageView::slide);
  figures::Figure f = stage_at_720p(s);
  CHECK(says(f, s.lesson.lesson->title));
  CHECK(says(f, step_of(pad)));
  CHECK(says(f, s.lesson.filled.title));
  CHECK(says_part(f, "PgDn next step"));
  CHECK(says_part(f, "PgUp previous step"));
  // The text, in lines, under the title: its first words are on the slide.
  CHECK(says_part(f, "Append one unused float"));
  // Page Down (a clicker) moves the lesson on, and the slide with it.
  d.key(s, GLFW_KEY_PAGE_DOWN);
  CHECK(s.lesson.step == pad + 1);
  f = stage_at_720p(s);
  CHECK(says(f, step_of(pad + 1)));
  CHECK(says(f, s.lesson.filled.title));
  d.key(s, GLFW_KEY_PAGE_UP);
  CHECK(s.lesson.step == pad);
  // V: the slide, then each view alone, then the slide again.
  for (StageView v : {StageView::banks, StageView::lanes, StageView::tile, StageView::slide}) {
    d.key(s, GLFW_KEY_V);
    CHECK(s.user.stage.view == v);
  }
  // Leaving the lesson leaves the slide: the views cycle as before.
  leave_lesson(s);
  CHECK(s.user.stage.view == StageView::banks);
}

// Issue 33: the speaker notes on a key, as the HTML deck has them. N on a slide shows the text
// the slide left out, page by page at the slide's text size, then the slide again; every page
// at the projector's minimums. (N was "next preset", which left the lesson.)
TEST_CASE("presentation mode: N shows a slide's speaker notes, page by page, then the slide") {
  const Expected<Lesson> transpose = find_lesson("transpose");
  REQUIRE(transpose);
  for (const ImVec2 display : kProjectorScreens) {
    for (const Theme theme : {Theme::dark, Theme::light}) {
      CAPTURE(display.y);
      CAPTURE(theme_name(theme));
      Driver d(display);
      AppState s;
      s.user.settings.theme = theme;
      REQUIRE(open_lesson(s, "transpose", 0));
      d.frame(s);
      d.key(s, GLFW_KEY_F5);
      REQUIRE(showing_slide(s));
      // The first step whose text does not all fit its slide at this size.
      int step = 0;
      for (; step < static_cast<int>(transpose->steps.size()); ++step) {
        REQUIRE(open_lesson(s, "transpose", step));
        d.frame(s);
        REQUIRE(s.slide.has_value());
        if (!s.slide->layout.notes.empty()) break;
      }
      REQUIRE(step < static_cast<int>(transpose->steps.size()));
      const std::string notes = s.slide->layout.notes;
      const float text_font = s.slide->layout.text_font;
      std::string read;
      for (int page = 0;; ++page) {
        CAPTURE(page);
        d.key(s, GLFW_KEY_N);
        REQUIRE(s.lesson.step == step);  // still the lesson, not the next preset
        if (!showing_notes(s)) break;
        check_projector_screen(s, display, true, true);
        const figures::TypeMinimums m = figures::projector_minimums(display.y);
        const figures::Figure f =
            stage_figure(s, figures::Box{0, 0, display.x, display.y}, stage_style(s, display.y));
        CHECK(says_part(f, "Speaker notes"));
        for (const figures::Label& l : f.labels) {
          if (l.role != figures::Role::text) continue;
          CHECK(l.size == text_font);
          CHECK(l.size >= m.body);
          read += l.text + " ";
        }
        REQUIRE(page < 10);
      }
      CHECK(showing_slide(s));
      // Every word of the notes was on a page, in order.
      const auto words = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string w; in >> w;) out.push_back(w);
        return out;
      };
      CHECK(words(read) == words(notes));
    }
  }
}

TEST_CASE("a slide laid out once is reused until its step or its size changes") {
  Driver d(ImVec2(1280, 720));
  AppState s;
  REQUIRE(open_lesson(s, "interview", 0));
  s.user.stage.presenting = true;
  d.frame(s);
  REQUIRE(s.slide);
  const int step = s.slide->step;
  d.frame(s);
  CHECK(s.slide->step == step);
  step_lesson(s, 1);
  d.frame(s);
  CHECK(s.slide->step == step + 1);
}

TEST_CASE("the built-in comparison is like for like, and three panes read at 1280x720") {
  const std::vector<CompareItem> items = builtin_comparison("naive-pad-swizzle");
  REQUIRE(items.size() == 3u);
  for (const CompareItem& i : items) CHECK(i.scenario.index == 0);  // column 0 of all three
  CHECK(items[2].name.find("column 0") != std::string::npos);
  AppState s;
  load_preset(s, "fp32-naive");
  set_compare(s.user.stage, items);
  CHECK(s.user.stage.view == StageView::lanes);  // three panes open on the lane map
  Driver d(ImVec2(1280, 720));
  d.frame(s);
  const figures::Figure f = stage_at_720p(s);
  int numbers = 0;
  for (const figures::Label& l : f.labels) {
    if (l.role != figures::Role::lane_label && l.role != figures::Role::bank_label) continue;
    ++numbers;
    CAPTURE(l.text);
    CHECK(l.size >= 16.0f);  // the projector's digit minimum (7 px before issue 33)
  }
  CHECK(numbers == 3 * 64);
  // The panes' headings (index: the pane): one size, the largest; each says its column, the
  // XOR pane's column 0 like the others'.
  std::vector<const figures::Label*> headings;
  for (const figures::Label& l : f.labels) {
    if (l.role == figures::Role::heading && l.index >= 0) headings.push_back(&l);
  }
  REQUIRE(headings.size() == 3u);
  for (const figures::Label* h : headings) {
    CAPTURE(h->text);
    CHECK(h->size == headings.front()->size);
    CHECK(h->size >= 16.0f);
  }
  CHECK(headings[2]->text.starts_with("fp32-xor"));
  CHECK(says_part(f, "XOR swizzle c ^ r, column 0"));
  // Two panes have room for the bank view: the view stays what it was.
  s.user.stage.view = StageView::banks;
  set_compare(s.user.stage, builtin_comparison("transpose"));
  CHECK(s.user.stage.view == StageView::banks);
}

TEST_CASE("the tile takes the place that gives its rows more room, and reads from the back") {
  // 1280x720: the lower row would leave 32 rows 5 px each, beside the bank view they get 11 px.
  // 1920x1080: below, 8 px a row, too small for a lane number in each row (the numbers moved
  // onto other columns' elements); beside the bank view, 14 px.
  const struct {
    ImVec2 display;
    float least_row_px;
  } screens[] = {{ImVec2(1280, 720), 11.0f}, {ImVec2(1920, 1080), 14.0f}};
  for (const auto& screen : screens) {
    CAPTURE(screen.display.x);
    const PanelLayout l = default_layout(screen.display, 20.0f, 1.0f);
    CHECK(l.tile_pos.y == l.banks_pos.y);
    CHECK(l.arithmetic_pos.y > l.banks_pos.y);  // the arithmetic's text goes below, and scrolls
    Driver d(screen.display);
    AppState s;
    load_preset(s, "fp32-naive");
    d.settle(s);
    REQUIRE(s.frame.geometry.tile.has_value());
    CHECK(s.frame.geometry.tile->grid.rows == 32);
    CHECK(s.frame.geometry.tile->grid.pitch.y >= screen.least_row_px);
  }
}

// Issue 33: a phone (390x844) opening a lesson step got the desktop's columns squeezed: the Code
// window over the Controls, bank digits of 3 px. Below kOneColumnWidth the windows go to one
// column, none over another and all inside the screen, and the bank view and the lane map keep
// their numbers at 11 px, scrolled to where the window is smaller.
TEST_CASE("a phone's width: one column, no window over another, numbers of 11 px") {
  const ImVec2 phone(390, 844);
  Driver d(phone);
  AppState s;
  d.app_fonts(s);
  REQUIRE(open_lesson(s, "transpose", 2));
  d.settle(s);
  d.frame(s);
  std::vector<const ImGuiWindow*> shown;
  for (const ImGuiWindow* w : GImGui->Windows) {
    if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow) ||
        (w->Flags & ImGuiWindowFlags_Tooltip) || std::string_view(w->Name) == "##MainMenuBar" ||
        std::string_view(w->Name).starts_with("Debug##"))
      continue;
    shown.push_back(w);
  }
  REQUIRE(shown.size() == 3);  // the lesson, the bank view, the lane map
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const ImRect a = shown[i]->Rect();
    CAPTURE(shown[i]->Name);
    CHECK(a.Min.x >= 0.0f);
    CHECK(a.Max.x <= phone.x);
    CHECK(a.Max.y <= phone.y);
    CHECK(a.GetWidth() == phone.x);
    for (std::size_t j = i + 1; j < shown.size(); ++j) {
      CAPTURE(shown[j]->Name);
      CHECK_FALSE(a.Overlaps(shown[j]->Rect()));
    }
  }
  int numbers = 0;
  for (const figures::Label& l : s.frame.geometry.labels) {
    if (l.role != figures::Role::bank_label && l.role != figures::Role::cell_label &&
        l.role != figures::Role::lane_label)
      continue;
    CAPTURE(l.text);
    CHECK(l.size >= 11.0f);
    ++numbers;
  }
  CHECK(numbers >= 3 * 32);  // the bank view's banks, the lane map's lanes and banks at least
  // The windows with no place in the column are left out until the window is wider.
  CHECK(s.user.views.controls);
  CHECK(ImGui::FindWindowByName("Controls") == nullptr);
}

TEST_CASE("typed code keeps its tile: each lane's (r, c) in the array it declares") {
  AppState s;
  load_preset(s, "fp32-naive");
  REQUIRE(set_code(s,
                   "__shared__ __nv_bfloat16 s[64][72];\n"
                   "ldmatrix_x4(&s[threadIdx.x % 16][threadIdx.x / 16 * 8])"));
  refresh(s);
  const Study& d = s.study;
  REQUIRE(d.evaluation.ok());
  CHECK(d.scenario.tile.rows == 64);
  CHECK(d.scenario.tile.cols == 72);
  // Lane L gives the row address of row L % 16, column (L / 16) * 8: eight bf16 each.
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    const LaneElements& el = d.evaluation.elements[static_cast<std::size_t>(lane)];
    CHECK(el.first.row == lane % 16);
    CHECK(el.first.col == lane / 16 * 8);
    CHECK(el.count == 8);
  }
  // Once a control changes the access, the offsets are raw numbers again, tied to no tile.
  toggle_lane(s, 3);
  refresh(s);
  CHECK(std::ranges::all_of(s.study.evaluation.elements,
                            [](const LaneElements& l) { return l.count == 0; }));
}

TEST_CASE("typing in the Code window leaves the lesson; an edit that does not evaluate is stale") {
  Driver d(ImVec2(1920, 1080));
  AppState s;
  REQUIRE(open_lesson(s, "transpose", 0));
  d.settle(s);
  REQUIRE(in_lesson(s));
  REQUIRE(d.replace_text(s, {kCode, "##code"}, "__shared__ float t[32][33];\nt[threadIdx.x][1]"));
  d.frame(s);
  CHECK_FALSE(in_lesson(s));
  CHECK(s.user.code.left_lesson == "transpose, step 1");
  CHECK_FALSE(code_stale(s));
  REQUIRE(s.study.evaluation.ok());
  CHECK(s.study.evaluation.analysis->wavefront_count() == 1);  // the typed pad, not the step's
  // A broken edit: the views keep the last valid access and say they are stale.
  REQUIRE(d.replace_text(s, {kCode, "##code"}, "__shared__ float t[32][33];\nt[threadIdx.x]["));
  d.frame(s);
  CHECK_FALSE(s.user.code.error.empty());
  CHECK(code_stale(s));
  CHECK(s.study.evaluation.analysis->wavefront_count() == 1);
  REQUIRE(d.replace_text(s, {kCode, "##code"}, "__shared__ float t[32][32];\nt[threadIdx.x][1]"));
  d.frame(s);
  CHECK_FALSE(code_stale(s));
  CHECK(s.study.evaluation.analysis->wavefront_count() == 32);
}

TEST_CASE("the panels' text reads in both themes: text and dim text against every backdrop") {
  for (Theme theme : {Theme::dark, Theme::light}) {
    CAPTURE(theme_name(theme));
    ImGuiStyle style;
    apply_style(style, theme, 1.0f);
    const auto solid = [&](ImGuiCol c) {
      // A translucent colour as it shows over the window.
      const ImVec4 top = style.Colors[c];
      const ImVec4 under = style.Colors[ImGuiCol_WindowBg];
      const auto mix = [&](float a, float b) {
        return static_cast<std::uint8_t>(std::lround((a * top.w + b * (1.0f - top.w)) * 255.0f));
      };
      return figures::Rgba{mix(top.x, under.x), mix(top.y, under.y), mix(top.z, under.z), 255};
    };
    // Text on everything that carries a label; dim text where the panels draw it: captions
    // and hints on the window, menus, the menu bar (the preset's name), a field's hint, tables.
    for (ImGuiCol back : {ImGuiCol_WindowBg, ImGuiCol_PopupBg, ImGuiCol_MenuBarBg, ImGuiCol_FrameBg,
                          ImGuiCol_Button, ImGuiCol_Header, ImGuiCol_TitleBgActive,
                          ImGuiCol_TableRowBgAlt, ImGuiCol_Tab}) {
      CAPTURE(back);
      CHECK(figures::contrast_ratio(solid(ImGuiCol_Text), solid(back)) >= 4.5f);
    }
    for (ImGuiCol back : {ImGuiCol_WindowBg, ImGuiCol_PopupBg, ImGuiCol_MenuBarBg, ImGuiCol_FrameBg,
                          ImGuiCol_TableRowBgAlt}) {
      CAPTURE(back);
      CHECK(figures::contrast_ratio(solid(ImGuiCol_TextDisabled), solid(back)) >= 4.5f);
    }
  }
}

TEST_CASE("the Drill window speaks to people: no placement after one answer, no flags") {
  DrillSession session(DrillLevel::weak, 1);
  REQUIRE(session.answer("999"));
  const std::string one = drill_summary(session);
  CHECK(one.starts_with("0 of 1 right so far"));
  CHECK(one.find("Weak:") == std::string::npos);
  CHECK(one.find("--") == std::string::npos);
  // The right answer to each further question, whatever it asks.
  const auto right = [](const Question& q) {
    if (q.kind == AskKind::fix) {
      std::string fix;
      for (const std::string& w : fix_flags(q.fix)) fix += w + " ";
      return fix;
    }
    if (q.kind == AskKind::worth) return std::string(q.answer ? "yes" : "no");
    return std::to_string(q.answer);
  };
  for (int i = 1; i < kAnswersToPlace; ++i) {
    session.next();
    REQUIRE(session.answer(right(session.question())));
    REQUIRE(session.graded()->right);
  }
  const std::string placed = drill_summary(session);
  CHECK(placed.starts_with("The basics: 4 of 5 right at the weak level"));
  CHECK(placed.find("choose hire under Level") != std::string::npos);
  CHECK(placed.find("--") == std::string::npos);
  CHECK(for_people("Wrong: with --pad 2 --swizzle xor, ...") ==
        "Wrong: with pad 2 swizzle xor, ...");
}
