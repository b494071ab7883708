// banklab lesson list|show|check: the guided tracks of assets/lessons, with their numbers
// filled in by the core. All the reading and checking is core's (core/teach/lesson.hpp); this
// file lays the results out.
#include <cstdint>
#include <filesystem>
#include <string>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/frontend/file_io.hpp"
#include "core/base/json_writer.hpp"
#include "core/teach/lesson.hpp"

namespace banklab::cli {
namespace {

// The lessons that load, and each file that does not on stderr: listed, the others stay usable,
// and the exit status (1) says the list is not whole. No lessons folder is the installation's
// fault, not the user's: 1 as well.
int list(bool json) {
  const Expected<LessonCatalogue> catalogue = load_lessons();
  if (!catalogue) return failure(catalogue.error());
  const std::vector<Lesson>& lessons = catalogue->lessons;
  std::string out;
  if (json) {
    JsonWriter w(out);
    w.begin_array();
    for (const Lesson& l : lessons) {
      w.begin_object();
      w.field("name", l.name).field("title", l.title).field("summary", l.summary);
      w.field("steps", static_cast<std::int64_t>(l.steps.size()));
      w.end_object();
    }
    w.end_array();
    out += '\n';
  } else {
    for (const Lesson& l : lessons) {
      out += l.name + "  (" + std::to_string(l.steps.size()) + " steps)  " + l.title + "\n";
    }
  }
  print(out);
  int status = kExitOk;
  for (const std::string& problem : catalogue->problems) {
    status = failure(problem + " (left out of the list)");
  }
  return status;
}

int show(const std::string& name, bool markdown) {
  if (const Expected<std::filesystem::path> dir = lessons_dir(); !dir) return failure(dir.error());
  const Expected<Lesson> lesson = find_lesson(name);
  if (!lesson) return bad_input(lesson.error());
  if (markdown) {
    print(to_markdown(*lesson));
    return kExitOk;
  }
  std::string out = lesson->title + "\n";
  if (!lesson->summary.empty()) out += lesson->summary + "\n";
  for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
    const FilledStep f = fill_step(lesson->steps[i]);
    out += "\n## " + std::to_string(i + 1) + "/" + std::to_string(lesson->steps.size()) + ". " +
           f.title + "\n";
    out += "   " + describe_step(f) + "\n\n";
    out += reflow(f.text, 88);
    if (!out.ends_with('\n')) out += '\n';
  }
  print(out);
  return kExitOk;
}

// A lesson file, or standard input for `-`, checked as the lessons folder's files are.
int check(const std::string& file) {
  const Expected<std::string> text =
      frontend::read_input_file(file, kMaxLessonFileBytes, "lesson file");
  if (!text) return bad_input(text.error());
  const std::string name = frontend::input_name(file);
  const Expected<Lesson> lesson = parse_lesson(*text, name);
  if (!lesson) return bad_input(lesson.error());
  print(name + ": " + lesson->name + ", " + std::to_string(lesson->steps.size()) +
        " steps, every scenario valid and every placeholder filled\n");
  return kExitOk;
}

struct LessonOptions {
  std::vector<std::string> words;  // list | show NAME | check FILE
  bool json = false;
  bool markdown = false;
};

Expected<LessonOptions> read_options(const frontend::Args& args) {
  LessonOptions o;
  o.words = args.positionals();
  return frontend::FlagReader<kLesson>(args)
      .flag("json", o.json)
      .flag("markdown", o.markdown)
      .result(o);
}

}  // namespace

int run_lesson(const frontend::Args& args) {
  const Expected<LessonOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  const std::vector<std::string>& words = o->words;
  const std::string& action = words[0];
  const bool json = o->json;
  const bool markdown = o->markdown;
  if (action == "list" && words.size() == 1 && !markdown) return list(json);
  if (json) return bad_input("--json goes with 'lesson list' only");
  if (action == "show" && words.size() == 2) return show(words[1], markdown);
  if (markdown) return bad_input("--markdown goes with 'lesson show NAME' only");
  if (action == "check" && words.size() == 2) return check(words[1]);
  if (action == "list") return bad_input("'lesson list' takes no argument");
  if (action == "show" || action == "check")
    return bad_input("'lesson " + action + "' needs " + (action == "show" ? "NAME" : "FILE"));
  return bad_input("'" + action + "' is not a lesson action; use list, show NAME or check FILE");
}

}  // namespace banklab::cli
