// banklab lesson list|show|check, run as a process.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/teach/lesson.hpp"
#include "tests/cli/run_banklab.hpp"

namespace banklab::test {

TEST_CASE("lesson list names every lesson with its title and step count") {
  const Run run = run_banklab("lesson list --json");
  REQUIRE(run.status == 0);
  const nlohmann::json list = parse_json(run);
  const Expected<LessonCatalogue> catalogue = load_lessons();
  REQUIRE(catalogue.has_value());
  const std::vector<Lesson>* lessons = &catalogue->lessons;
  REQUIRE(list.size() == lessons->size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    CHECK(list[i]["name"] == (*lessons)[i].name);
    CHECK(list[i]["title"] == (*lessons)[i].title);
    CHECK(list[i]["steps"] == (*lessons)[i].steps.size());
  }
  const Run text = run_banklab("lesson list");
  CHECK(text.status == 0);
  CHECK(text.out.find("transpose  (") != std::string::npos);
}

TEST_CASE("lesson show prints every step's title and its filled text") {
  const Expected<Lesson> lesson = find_lesson("transpose");
  REQUIRE(lesson.has_value());
  const Run run = run_banklab("lesson show transpose");
  REQUIRE(run.status == 0);
  for (const LessonStep& step : lesson->steps) {
    CAPTURE(step.title);
    CHECK(run.out.find(step.title) != std::string::npos);
    // The text's first words, as reflowed for the terminal.
    const std::string first = reflow(fill_step(step).text, 0).substr(0, 20);
    CHECK(run.out.find(first.substr(0, first.find(' ', 12))) != std::string::npos);
  }
  std::string flat = run.out;  // the terminal text is wrapped: compare as one line
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  CHECK(flat.find("all 32 lanes want bank 0") != std::string::npos);
  CHECK(flat.find("lanes 0, 8, 16 and 24 all want bank 0") != std::string::npos);
}

TEST_CASE("lesson check accepts the shipped files and rejects a bad one with FILE:LINE") {
  const Run ok = run_banklab("lesson check " + (*lessons_dir() / "interview.toml").string());
  CHECK(ok.status == 0);
  const TempFile bad("title = \"t\"\n[[step]]\ntitle = \"s\"\nargs = []\ntext = \"{nope}\"\n");
  const Run run = run_banklab("lesson check " + bad.path().string());
  CHECK(run.status == 2);
  CHECK(run.err == "banklab: " + bad.path().string() +
                       ":5: {nope}: unknown placeholder (see docs/lessons.md for the list)\n");
  const TempFile broken("title = \"t\n");
  const Run syntax = run_banklab("lesson check " + broken.path().string());
  CHECK(syntax.status == 2);
  CHECK(syntax.err.starts_with("banklab: " + broken.path().string() + ":1: "));
  // Regression: toml++ asserted on a table header that starts with a comma, and with assert()
  // on in Release the command aborted instead of naming the line.
  const TempFile comma("title = \"t\"\n[,\n");
  const Run header = run_banklab("lesson check " + comma.path().string());
  CHECK(header.status == 2);
  CHECK(header.err.starts_with("banklab: " + comma.path().string() + ":2: "));
}

TEST_CASE("lesson rejects what it cannot do, with exit status 2") {
  for (const char* args :
       {"lesson", "lesson nope", "lesson show", "lesson show nope", "lesson list extra",
        "lesson show transpose --json", "lesson check /no/such/file.toml"}) {
    CAPTURE(args);
    const Run run = run_banklab(args);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK(run.err.starts_with("banklab: "));
  }
  CHECK(run_banklab("lesson show nope")
            .err.find("the lessons are descriptor, interview, ldmatrix, measure, transpose") !=
        std::string::npos);
}

}  // namespace banklab::test

namespace banklab::test {

TEST_CASE("lesson show --markdown is a handout with every step's heading, text and code") {
  const Expected<Lesson> lesson = find_lesson("ldmatrix");
  REQUIRE(lesson.has_value());
  const Run run = run_banklab("lesson show ldmatrix --markdown");
  REQUIRE(run.status == 0);
  CHECK(run.out.starts_with("# " + lesson->title + "\n"));
  for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
    CAPTURE(i);
    CHECK(run.out.find("## " + std::to_string(i + 1) + ". " + lesson->steps[i].title + "\n") !=
          std::string::npos);
  }
  CHECK(run.out.find("\n```\nunsigned addr = __cvta_generic_to_shared(") != std::string::npos);
  CHECK(run_banklab("lesson list --markdown").status == 2);
}

}  // namespace banklab::test
