// Lessons as data: the shipped files load, every step fills, the texts state no number of
// their own, and a malformed file gives FILE:LINE and a reason, never a crash.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/model/scenario_keys.hpp"
#include "core/report/explain.hpp"
#include "core/teach/lesson.hpp"
#include "core/teach/measured.hpp"

namespace banklab {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One step wrapped in a lesson, for the error cases.
std::string lesson_with(const std::string& step) {
  return "title = \"t\"\n[[step]]\n" + step;  // [[step]] is line 2, its first key line 3
}

std::string error_of(const std::string& toml) {
  const Expected<Lesson> l = parse_lesson(toml, "bad.toml");
  REQUIRE_FALSE(l.has_value());
  return l.error();
}

}  // namespace

TEST_CASE("the shipped lessons load, and every step's scenario and text fill") {
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE_MESSAGE(catalogue.has_value(), (catalogue ? "" : catalogue.error()));
  CHECK(catalogue->problems.empty());
  const std::vector<Lesson>* lessons = &catalogue->lessons;
  const std::regex unfilled(R"(\{[a-z_]+(:[A-Za-z0-9-]+)?\})");
  std::set<std::string> names;
  for (const Lesson& l : *lessons) names.insert(l.name);
  CHECK(names == std::set<std::string>{"interview", "ldmatrix", "transpose"});
  for (const Lesson& l : *lessons) {
    CAPTURE(l.name);
    CHECK_FALSE(l.title.empty());
    CHECK(l.steps.size() >= 9);
    for (const LessonStep& step : l.steps) {
      CAPTURE(step.title);
      const FilledStep f = fill_step(step);
      CHECK_FALSE(std::regex_search(f.text, unfilled));  // every placeholder filled
      CHECK_FALSE(f.text.empty());
      // A scenario that breaks a rule is there to show the rule: the step says so.
      if (!f.evaluation.ok())
        CHECK((step.text.find("{error}") != std::string::npos || step.misaligned_rows));
      for (int lane : f.highlights.lanes) CHECK((lane >= 0 && lane < 32));
      for (int bank : f.highlights.banks) CHECK((bank >= 0 && bank < 32));
      for (int row : f.highlights.rows) CHECK((row >= 0 && row < f.scenario.tile.rows));
    }
  }
}

TEST_CASE("a lesson text states no count of its own: results are placeholders") {
  // "4-way", "32 wavefronts", "3.0%", "bank 5", "8 banks": a number the core must give.
  const std::regex stated(R"((\d+-way)|(\d+ wavefront)|(\d+(\.\d+)? ?%)|(bank \d)|(\d+ banks?\b))");
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE(catalogue.has_value());
  for (const Lesson& l : catalogue->lessons)
    for (const LessonStep& step : l.steps) {
      CAPTURE(l.name);
      CAPTURE(step.text);
      std::smatch m;
      const bool found = std::regex_search(step.text, m, stated);
      CAPTURE(m.str());
      CHECK_FALSE(found);
    }
}

TEST_CASE("placeholders are filled from the core, for the lanes that collide") {
  const Scenario s = *scenario_from_words(std::vector<std::string>{"--pad", "4"});
  const Evaluation e = evaluate(s);
  const Expected<std::string> t = fill_text(
      "{busiest_lanes} want bank {busiest_bank}: {ways}-way, {wavefronts} for {ideal}; "
      "stride {stride}, gcd {gcd}, {stride_banks} banks; pad {pad_bytes} B "
      "({pad_percent}%); lane 8: word {word:8}, bank {bank:8}; {{literal}}",
      s, e);
  REQUIRE(t.has_value());
  CHECK(*t ==
        "lanes 0, 8, 16 and 24 want bank 0: 4-way, 4 for 1; stride 36, gcd 4, 8 banks; pad "
        "512 B (11.1%); lane 8: word 288, bank 0; {literal}");
  LessonStep step;
  step.scenario = s;
  step.text = "x";
  step.busiest_lanes = step.busiest_banks = true;
  const FilledStep f = fill_step(step);
  CHECK(f.highlights.lanes == std::vector<int>{0, 8, 16, 24});
  CHECK(f.highlights.banks == std::vector<int>{0});
}

TEST_CASE("misaligned rows are data, for the padding-fails steps") {
  LessonStep step;
  step.scenario = *scenario_from_words(
      std::vector<std::string>{"--pad", "1", "--access", "row", "--op", "st", "--width", "16"});
  step.text = "{pitch_bytes} mod {width} = {row_step}; {misaligned_rows} rows; {error}";
  step.misaligned_rows = true;
  const FilledStep f = fill_step(step);
  CHECK_FALSE(f.evaluation.ok());
  CHECK(f.text.starts_with("132 mod 16 = 4; 24 rows; lane 8: a 16-byte access"));
  CHECK(f.highlights.rows.size() == 24);
  CHECK(f.highlights.rows.front() == 1);
}

TEST_CASE("a malformed lesson gives FILE:LINE and what is wrong") {
  struct Case {
    std::string toml;
    std::string error;
  };
  const std::string ok_step = "title = \"s\"\nargs = []\ntext = \"x\"\n";
  for (const Case& c : std::vector<Case>{
           {"title = \"t\"\n[[step]\n", "bad.toml:2: "},
           {"title = \"t\"\n", "bad.toml:1: the lesson has no [[step]]"},
           {"[[step]]\n" + ok_step, "bad.toml:1: the lesson has no 'title'"},
           {"title = \"t\"\ncolour = 1\n[[step]]\n" + ok_step, "bad.toml:2: unknown key 'colour'"},
           {lesson_with("title = \"s\"\ntext = \"x\"\n"), "bad.toml:2: the step has no 'args'"},
           {lesson_with("title = \"s\"\nargs = [\"--pad\", \"x\"]\ntext = \"x\"\n"),
            "bad.toml:4: the scenario: --pad expects a whole number, got 'x'"},
           {lesson_with("title = \"s\"\nargs = [\"--colour\", \"red\"]\ntext = \"x\"\n"),
            "bad.toml:4: the scenario: --colour is not a scenario flag"},
           {lesson_with("title = \"s\"\nargs = [\"--tile\", \"8x0\"]\ntext = \"x\"\n"),
            "bad.toml:4: the scenario's tile: tile 8x0"},
           {lesson_with("title = \"s\"\nargs = []\ntext = \"\"\"\nfine\nthen {nope}\n\"\"\"\n"),
            "bad.toml:7: {nope}: unknown placeholder"},
           {lesson_with("title = \"s\"\nargs = []\ntext = \"{bank:40}\"\n"),
            "bad.toml:5: {bank:40}: the lane must be a number 0..31"},
           {lesson_with("title = \"s\"\nargs = []\ntext = \"{ways\"\n"),
            "bad.toml:5: '{' without its '}'"},
           {lesson_with("title = \"s\"\nargs = [\"--pad\", \"1\", \"--width\", \"16\", "
                        "\"--access\", \"row\"]\ntext = \"{wavefronts}\"\n"),
            "bad.toml:5: {wavefronts}: needs a scenario the core can analyse"},
           {lesson_with(ok_step + "lanes = [0, 32]\n"), "bad.toml:6: 'lanes' holds numbers 0..31"},
           {lesson_with(ok_step + "rows = \"everything\"\n"), "bad.toml:6: 'rows' must be"},
           {lesson_with(ok_step + "elements = [[0, 40]]\n"), "bad.toml:6: each element is"},
           {lesson_with(ok_step + "size = 3\n"), "bad.toml:6: unknown key 'size' in a step"},
           {lesson_with("title = 3\nargs = []\ntext = \"x\"\n"), "bad.toml:3: 'title' must be"},
       }) {
    CAPTURE(c.toml);
    const std::string error = error_of(c.toml);
    CAPTURE(error);
    CHECK(error.starts_with(c.error));
    CHECK(error.find('\n') == std::string::npos);
  }
}

TEST_CASE("text is reflowed into paragraphs, code lines kept") {
  CHECK(reflow("one\ntwo\n\nthree\n    code(1);\n    code(2);\nfour\n", 0) ==
        "one two\n\nthree\n    code(1);\n    code(2);\nfour\n");
  CHECK(reflow("aaa bbb ccc ddd", 8) == "aaa bbb\nccc ddd\n");
}

TEST_CASE("every placeholder is documented, and every measured figure is in gpu-results.md") {
  const std::string lessons_doc =
      read(std::filesystem::path(BANKLAB_SOURCE_DIR) / "docs/lessons.md");
  for (const Placeholder& p : placeholders()) {
    CAPTURE(p.name);
    CHECK(lessons_doc.find("{" + std::string(p.name) + "}") != std::string::npos);
  }
  const std::string results =
      read(std::filesystem::path(BANKLAB_SOURCE_DIR) / "docs/gpu-results.md");
  for (const Measured& m : measured()) {
    CAPTURE(m.key);
    CHECK(results.find(m.value) != std::string::npos);
    CHECK(lessons_doc.find(std::string(m.key)) != std::string::npos);
  }
  CHECK(results.find(std::to_string(kH200SmCount) + " SMs") != std::string::npos);
}

}  // namespace banklab

namespace banklab {

TEST_CASE("the Markdown handout has every step's heading, image and text, code fenced") {
  const Expected<Lesson> lesson = find_lesson("transpose");
  REQUIRE(lesson.has_value());
  std::vector<std::string> images;
  for (std::size_t i = 0; i < lesson->steps.size(); ++i)
    images.push_back("step-" + std::to_string(i + 1) + ".png");
  const std::string md = to_markdown(*lesson, images);
  for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
    CAPTURE(i);
    const FilledStep f = fill_step(lesson->steps[i]);
    const std::size_t heading = md.find("## " + std::to_string(i + 1) + ". " + f.title + "\n");
    REQUIRE(heading != std::string::npos);
    CHECK(md.find("![Step " + std::to_string(i + 1) + "](" + images[i] + ")", heading) ==
          md.find('\n', heading) + 2);
    // The first line of the step's text, as it is (prose lines are one paragraph each).
    CHECK(md.find(f.text.substr(0, f.text.find('\n')), heading) != std::string::npos);
  }
  CHECK(md.find("\n```\nfloat v;\nv = tile[threadIdx.x][0];\n```\n") != std::string::npos);
}

TEST_CASE("a lessons folder with a bad file, a FIFO and a folder: the good lessons load") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("banklab-lessons-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path shipped = *lessons_dir();
  fs::copy_file(shipped / "interview.toml", dir / "interview.toml");
  std::ofstream(dir / "broken.toml") << "title = \"t\n";
  REQUIRE(::mkfifo((dir / "fifo.toml").c_str(), 0600) == 0);  // read, it would never end
  fs::create_directories(dir / "folder.toml");
  std::ofstream(dir / "notes.txt") << "not a lesson";

  const Expected<LessonCatalogue> catalogue = load_lessons(dir);
  REQUIRE(catalogue.has_value());
  REQUIRE(catalogue->lessons.size() == 1);
  CHECK(catalogue->lessons[0].name == "interview");
  REQUIRE(catalogue->problems.size() == 3);  // sorted by file name
  CHECK(catalogue->problems[0].starts_with((dir / "broken.toml").string() + ":1: "));
  CHECK(catalogue->problems[1] == (dir / "fifo.toml").string() + ": not a regular file");
  CHECK(catalogue->problems[2] == (dir / "folder.toml").string() + ": a folder, not a lesson file");

  CHECK(load_lesson(dir / "folder.toml").error() ==
        (dir / "folder.toml").string() + ": a folder, not a lesson file");
  CHECK_FALSE(load_lessons(dir / "missing").has_value());
  fs::remove_all(dir);
}

}  // namespace banklab
