// The browser edition's links (app/gui/platform/link.hpp), headless: a fragment reads as the
// options its pairs name, with the flags' own rules and messages; whatever a fragment holds, it
// gives options or one sentence, never a crash; and the fragment written for what is on screen
// reopens it: every preset, every lesson step, a changed scenario, typed code, a comparison and
// the windows and appearance.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/platform/link.hpp"
#include "app/gui/platform/startup.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/code_state.hpp"
#include "core/model/presets.hpp"
#include "core/teach/lesson.hpp"

using namespace banklab;
using namespace banklab::gui;

namespace {

constexpr WindowSize kSize{1280, 720};

// The state a fragment opens, as the page opens it; the fragment must be valid.
void open(AppState& s, const std::string& fragment) {
  Expected<Options> o = options_from_link(fragment);
  REQUIRE_MESSAGE(o.has_value(), fragment << ": " << (o ? "" : o.error()));
  apply_options(s, *o, nullptr, kSize, o->preset);
  REQUIRE(open_named(s, *o));
}

std::string error_of(const std::string& fragment) {
  Expected<Options> o = options_from_link(fragment);
  REQUIRE_FALSE(o.has_value());
  return o.error();
}

}  // namespace

TEST_CASE("percent escapes: every byte survives encoding, and a broken escape is an error") {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string encoded = percent_encode(all);
  CHECK(encoded.find_first_of("&=#+ ") == std::string::npos);  // nothing that splits a link
  REQUIRE(percent_decode(encoded).has_value());
  CHECK(*percent_decode(encoded) == all);
  CHECK(*percent_decode("a+b%20c%5b%5D") == "a+b c[]");  // '+' is a plus in a fragment
  for (const char* bad : {"%", "%2", "a%zz", "%%20", "%2G"}) {
    CAPTURE(bad);
    CHECK_FALSE(percent_decode(bad).has_value());
  }
}

TEST_CASE("a fragment reads as banklab-gui's flags") {
  SUBCASE("nothing asks for nothing") {
    REQUIRE(options_from_link("").has_value());
    CHECK(options_from_link("")->preset.empty());
    CHECK(options_from_link("&&")->lesson.empty());
  }
  SUBCASE("a preset, a lesson step, a comparison, a drill") {
    CHECK(options_from_link("preset=bf16-pad1-odd")->preset == "bf16-pad1-odd");
    const Expected<Options> lesson = options_from_link("lesson=transpose&step=6");
    CHECK(lesson->lesson == "transpose");
    CHECK(lesson->step == 5);
    CHECK(options_from_link("compare=fp32-naive,fp32-pad1")->compare.size() == 2);
    CHECK(options_from_link("compare=transpose")->compare.size() == 2);
    for (const char* seed : {"seed", "drill-seed"}) {
      const Expected<Options> drill = options_from_link(std::string("drill=hire&") + seed + "=7");
      REQUIRE(drill.has_value());
      CHECK(drill->drill == DrillLevel::hire);
      CHECK(drill->drill_seed == std::uint64_t{7});
    }
  }
  SUBCASE("analyze's scenario flags and its code form") {
    const Expected<Options> o = options_from_link("dtype=bf16&pad=1&index=3");
    REQUIRE(o->scenario.has_value());
    CHECK(o->scenario->tile.dtype == DType::bf16);
    CHECK(o->scenario->tile.pad == 1);
    CHECK(o->scenario->index == 3);
    const Expected<Options> code = options_from_link(
        "decl=__shared__%20float%20tile%5B32%5D%5B33%5D%3B&expr=v%20%3D%20tile%5BthreadIdx.x%5D%"
        "5Bj%5D"
        "&let=j%3D0&block=32x8");
    REQUIRE_MESSAGE(code.has_value(), code.error());
    CHECK(*code->code == "__shared__ float tile[32][33];\nv = tile[threadIdx.x][j]");
    REQUIRE(code->launch.has_value());
    CHECK(code->launch->lets == "j=0");
    CHECK(code->launch->block == std::array<int, 3>{32, 8, 1});
  }
  SUBCASE("the window's flags; a switch is on alone, =1 or =true, off as =0 or =false") {
    const Expected<Options> o = options_from_link(
        "preset=fp32-naive&present&theme=light&palette=colour-blind&tile-view=both");
    REQUIRE(o.has_value());
    CHECK(o->present);
    CHECK(o->theme == Theme::light);
    CHECK(o->scheme == Scheme::colour_blind);
    CHECK(o->tile_view == figures::TileView::both);
    CHECK(options_from_link("present=1")->present);
    CHECK(options_from_link("present=true")->present);
    CHECK_FALSE(options_from_link("present=0")->present);
    CHECK_FALSE(options_from_link("gpu=false")->gpu);
    CHECK(error_of("present=maybe") ==
          "'present' is on or off: present=1 or present=0, not 'maybe'");
  }
}

TEST_CASE("a bad fragment is one sentence naming what is wrong") {
  CHECK(error_of("preset=fp128-naive").find("fp128-naive") != std::string::npos);
  CHECK(error_of("frobnicate=1").starts_with("unknown key 'frobnicate'"));
  CHECK(error_of("=1").starts_with("unknown key ''"));
  CHECK(error_of("pad") == "'pad' needs a value: pad=P");
  CHECK(error_of("pad=1&pad=2") == "--pad is given twice");
  CHECK(error_of("index=%zz").find("'%zz'") != std::string::npos);
  CHECK(error_of("step=3").find("--step goes with --lesson") != std::string::npos);
  // What would reach the user's files, or is the browser's to decide, is refused by name.
  for (const char* key :
       {"screenshot=a.png", "scenario=/etc/passwd", "gpu-results=r.json", "export-dir=/tmp",
        "geometry=g.json", "size=640x480", "help", "bench-frames=100000"}) {
    CAPTURE(key);
    const std::string e = error_of(key);
    CHECK(e.find("a link cannot") != std::string::npos);
    CHECK(e.find('\n') == std::string::npos);
  }
  CHECK(error_of(std::string(kMaxLinkBytes + 1, 'a')).find("characters long") != std::string::npos);
  // A comparison names presets and comparisons: '-' is not standard input (which the page would
  // read with window.prompt), nor is any other name a scenario file (issue 36).
  for (const char* compare : {"compare=fp32-naive,-", "compare=-,fp32-naive",
                              "compare=fp32-naive,%2Fetc%2Fpasswd", "compare=transpose,x.toml"}) {
    CAPTURE(compare);
    const std::string e = error_of(compare);
    CHECK(e.starts_with("compare: '"));
    CHECK(e.find("a link cannot name a scenario file") != std::string::npos);
  }
  CHECK(error_of("compare=fp32-naive,-").starts_with("compare: '-' is neither a preset"));
  CHECK(options_from_link("compare=fp32-naive,transpose").has_value());
}

TEST_CASE("code that does not evaluate stays in the box and in the link (issue 36)") {
  const std::string decl = "decl=__shared__%20float%20t%5B32%5D%5B33%5D%3B";
  for (const std::string& fragment :
       {decl + "&expr=t%5BthreadIdx.x%5D%5Bk%5D",
        decl + "&expr=t%5BthreadIdx.x%5D%5B0%5D&block=1024x1x1&warp=all"}) {
    CAPTURE(fragment);
    AppState s;
    open(s, fragment);
    REQUIRE(code_stale(s));  // the Code window shows the error over the scenario on screen
    CHECK(s.user.code.text.starts_with("__shared__ float t[32][33];\nt[threadIdx.x]"));
    CHECK_FALSE(s.user.code.error.empty());
    const std::string link = link_to(s);
    CHECK(link.starts_with("code=__shared__%20float%20t%5B32%5D%5B33%5D%3B%0At%5BthreadIdx.x%5D"));
    CHECK(link.find("preset=") == std::string::npos);
    AppState again;  // the link reopens the same text, with the same error
    open(again, link);
    CHECK(again.user.code.text == s.user.code.text);
    CHECK(again.user.code.block == s.user.code.block);
    CHECK(again.user.code.warp == s.user.code.warp);
    CHECK(again.user.code.error == s.user.code.error);
  }
  AppState undefined;
  open(undefined, decl + "&expr=t%5BthreadIdx.x%5D%5Bk%5D");
  CHECK(undefined.user.code.error.find("k is not defined") != std::string::npos);
  // Fixed, the code is on screen and the link is the code's.
  REQUIRE(set_code(undefined, "__shared__ float t[32][33];\nt[threadIdx.x][0]"));
  CHECK_FALSE(code_stale(undefined));
  CHECK(link_to(undefined).starts_with("code="));
}

// Issue 37: the scenario the options named waited in AppState::user for the first frame's
// refresh(); the first frame now draws from the Study startup made.
TEST_CASE("startup studies the scenario it opens, before the first frame") {
  for (const char* fragment : {"swizzle=tma128&dtype=bf16", "preset=fp32-naive",
                               "lesson=transpose&step=3", "pad=1&index=5"}) {
    CAPTURE(fragment);
    AppState s;
    open(s, fragment);
    CHECK(s.study_revision > 0);
    CHECK(s.study.scenario == s.user.scenario);
    CHECK(s.user.step.served == wavefront_total(s));
    CHECK_FALSE(refresh(s));  // nothing left for the first frame to study
  }
}

TEST_CASE("whatever a fragment holds, it opens or says why (fixed-seed random fragments)") {
  // Pieces of real links and of hostile ones, glued at random.
  const std::vector<std::string> pieces = {"preset=",     "fp32-naive",
                                           "lesson=",     "transpose",
                                           "step=",       "0",
                                           "-1",          "99999999999",
                                           "compare=",    ",",
                                           "drill=",      "hire",
                                           "seed=",       "pad=",
                                           "dtype=",      "bf16",
                                           "decl=",       "expr=",
                                           "%5B",         "%",
                                           "%00",         "&",
                                           "=",           "present",
                                           "theme=",      "light",
                                           "zoom=",       "nan",
                                           "clock=",      "solve=",
                                           "row:st",      "tile=",
                                           "65536x65536", "offsets=",
                                           "0,4,8",       "let=",
                                           "j%3D0",       "block=",
                                           "1024x2",      "warp=all",
                                           "code=",       "tile[",
                                           "%E2%80",      "tile-view=",
                                           "both",        "lanes=",
                                           "0x0",         "swizzle=cute:9,9,9",
                                           "-",           "bench-frames=",
                                           "100000"};
  std::uint64_t seed = 2024;
  int opened = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string fragment;
    const int n = 1 + static_cast<int>(seed % 9);
    for (int k = 0; k < n; ++k) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      fragment += pieces[(seed >> 33) % pieces.size()];
    }
    CAPTURE(fragment);
    const Expected<Options> o = options_from_link(fragment);
    if (!o) {
      CHECK_FALSE(o.error().empty());
      continue;
    }
    AppState s;
    apply_options(s, *o, nullptr, kSize, o->preset);
    (void)open_named(s, *o);
    refresh(s);
    ++opened;
  }
  CHECK(opened > 100);  // the pieces make valid links often enough to reach apply_options
}

TEST_CASE("the fragment written for what is on screen reopens it") {
  SUBCASE("every preset") {
    for (const Preset& p : presets()) {
      CAPTURE(p.name);
      AppState s;
      load_preset(s, p.name);
      const std::string link = link_to(s);
      CHECK(link == "preset=" + std::string(p.name));
      AppState again;
      open(again, link);
      CHECK(again.user.scenario == s.user.scenario);
    }
  }
  SUBCASE("every step of every lesson") {
    const Expected<LessonCatalogue> catalogue = load_lessons();
    REQUIRE(catalogue.has_value());
    CHECK(catalogue->problems.empty());
    for (const Lesson& l : catalogue->lessons) {
      for (int step = 0; step < static_cast<int>(l.steps.size()); ++step) {
        CAPTURE(l.name);
        CAPTURE(step);
        AppState s;
        REQUIRE(open_lesson(s, l.name, step));
        const std::string link = link_to(s);
        CHECK(link == "lesson=" + l.name + "&step=" + std::to_string(step + 1));
        AppState again;
        open(again, link);
        CHECK(again.lesson.step == step);
        CHECK(again.user.scenario == s.user.scenario);
      }
    }
  }
  SUBCASE("a scenario changed from its preset, raw offsets, and typed code") {
    AppState s;
    load_preset(s, "bf16-pad1-odd");
    s.user.scenario.tile.pad = 3;
    s.user.scenario.index = 5;
    AppState again;
    open(again, link_to(s));
    CHECK(again.user.scenario == s.user.scenario);

    AppState raw;
    load_preset(raw, "fp32-naive");
    set_pattern(raw, AccessPattern::raw);
    REQUIRE(set_raw_offsets(raw,
                            "0, 128, 0, 128, 4, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, "
                            "48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, -1"));
    const std::string raw_link = link_to(raw);
    CHECK(raw_link.find("offsets=") != std::string::npos);
    AppState raw_again;
    open(raw_again, raw_link);
    CHECK(raw_again.user.scenario.raw_offsets == raw.user.scenario.raw_offsets);

    AppState typed;
    load_preset(typed, "fp32-naive");
    typed.user.code.lets = "j=3";
    REQUIRE(
        set_code(typed, "#define N 32\n__shared__ float tile[N][N + 1];\ntile[threadIdx.x][j]"));
    const std::string code_link = link_to(typed);
    CHECK(code_link.starts_with("code=%23define%20N%2032%0A"));
    AppState typed_again;
    open(typed_again, code_link);
    CHECK(typed_again.user.code.text == typed.user.code.text);
    CHECK(typed_again.user.code.lets == "j=3");
    CHECK(typed_again.user.scenario == typed.user.scenario);
  }
  SUBCASE("a comparison, the windows and the appearance") {
    AppState s;
    open(s, "compare=transpose&present=1&theme=light&palette=colour-blind&tile-view=physical");
    CHECK(link_to(s) ==
          "compare=transpose&present=1&theme=light&palette=colour-blind&tile-view=physical");
    AppState presets_compared;
    open(presets_compared, "compare=fp32-naive,fp32-pad1,fp32-xor");
    // Not "naive-pad-swizzle": that comparison reads the swizzle at column 0, the preset at 5.
    CHECK(link_to(presets_compared) == "compare=fp32-naive,fp32-pad1,fp32-xor");
    AppState drill;
    open(drill, "preset=fp32-naive&drill=strong-hire&seed=11&gpu=1&solve=row:st,column");
    CHECK(link_to(drill) ==
          "preset=fp32-naive&gpu=1&solve=row:st,column&drill=strong-hire&drill-seed=11");
  }
}
