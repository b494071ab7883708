// banklab drill: questions from core's drill generator, answered on standard input (so a
// script can answer them too), graded by the core, each followed by the bank view and the
// derivation; a score and a place on the lesson's rubric at the end. --json prints the
// questions instead, one JSON object a line.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "app/cli/commands.hpp"
#include "app/cli/text_output.hpp"
#include "core/base/format.hpp"
#include "core/report/explain.hpp"
#include "core/teach/drill.hpp"

namespace banklab::cli {
namespace {

// The bank view and the derivation of the scenario that explains an answer, as analyze prints.
void append_shown(std::string& out, const Scenario& s) {
  const Evaluation e = evaluate(s);
  if (!e.ok()) {
    out += first_error(e.diagnostics) + "\n";
    return;
  }
  append_report(out, describe(s), *e.analysis, &e.elements, &s.tile, e.diagnostics, explain(s, e));
}

// An answer is one short line; a longer one (a file fed by mistake, `cat /dev/zero`) ends the
// drill rather than filling memory.
constexpr std::size_t kMaxAnswerBytes = 4096;

// Why the answers stopped before the questions did.
enum class InputEnd { answered, end_of_input, too_long, failed };

// One line of standard input without its '\n', at most kMaxAnswerBytes long; nothing past the
// limit is read.
InputEnd read_line(std::string& line) {
  line.clear();
  for (;;) {
    const int c = std::getc(stdin);
    if (c == '\n') return InputEnd::answered;
    if (c == EOF) {
      if (std::ferror(stdin)) return InputEnd::failed;
      return line.empty() ? InputEnd::end_of_input : InputEnd::answered;
    }
    if (line.size() == kMaxAnswerBytes) return InputEnd::too_long;
    line += static_cast<char>(c);
  }
}

// Reads lines until one is an answer to the session's question.
InputEnd read_answer(DrillSession& d) {
  for (;;) {
    print("> ");
    std::fflush(stdout);
    std::string line;
    if (const InputEnd end = read_line(line); end != InputEnd::answered) return end;
    if (d.answer(line)) return InputEnd::answered;
    print("Not an answer: " + d.graded()->feedback + ". Try again.\n");
  }
}

struct DrillOptions {
  DrillLevel level{};
  int count = 5;
  // Without --seed, a fresh one each run, printed so that the run can be repeated.
  std::uint64_t seed = 0;
  bool json = false;
};

Expected<DrillOptions> read_options(const frontend::Args& args) {
  if (!args.has("level")) return Error{"drill needs --level: weak, hire or strong-hire"};
  DrillOptions o;
  o.seed = std::random_device{}() & 0x7fffffff;
  return frontend::FlagReader(args)
      .value("level", o.level,
             frontend::choice(parse_level, "--level expects weak, hire or strong-hire, got "))
      .integer("count", o.count, 1, 1000)
      .integer("seed", o.seed, 0, INT64_MAX)
      .flag("json", o.json)
      .result(o);
}

}  // namespace

int run_drill(const frontend::Args& args) {
  const Expected<DrillOptions> o = read_options(args);
  if (!o) return bad_input(o.error());
  const DrillLevel level = o->level;
  const int count = o->count;
  const std::uint64_t seed_value = o->seed;

  if (o->json) {
    std::string out;
    for (int i = 0; i < count; ++i) {
      append_json(out, make_question(level, seed_value, i));
      out += '\n';
    }
    print(out);
    return kExitOk;
  }

  print("Drill at the " + std::string(level_name(level)) + " level, " + std::to_string(count) +
        (count == 1 ? " question" : " questions") + ", seed " + std::to_string(seed_value) +
        ". Answer each on one line: a number, yes or no, a fix as flags (--pad 2, "
        "--swizzle tma128), a letter, or a design (--swizzle S --align BYTES).\n");
  DrillSession d(level, seed_value);
  for (int i = 0; i < count; ++i) {
    if (i > 0) d.next();
    print("\nQuestion " + std::to_string(i + 1) + "/" + std::to_string(count) + ": " +
          d.question().text + "\n");
    const InputEnd end = read_answer(d);
    if (end == InputEnd::failed) {
      return failure(std::string("cannot read standard input: ") + std::strerror(errno));
    }
    if (end == InputEnd::too_long) {
      return bad_input("standard input: a line longer than " + std::to_string(kMaxAnswerBytes) +
                       " bytes; an answer is one short line");
    }
    if (end == InputEnd::end_of_input) {
      print("\nEnd of input: " + std::to_string(count - i) + " of " + std::to_string(count) +
            " questions left unanswered.\n");
      break;
    }
    const Grade& g = *d.graded();
    std::string out = g.feedback + "\n";
    if (g.mistake != Mistake::none) {
      out += "Mistake (" + std::string(mistake_name(g.mistake)) +
             "): " + std::string(mistake_text(g.mistake)) + "\n";
    }
    for (const std::string& line : g.details) out += "  " + line + "\n";
    if (g.shown) {
      out += '\n';
      append_shown(out, *g.shown);
    }
    print(out);
  }
  print("\nScore: " + std::to_string(d.right()) + "/" + std::to_string(count) + "\n" +
        place(level, d.right(), count).text + "\n");
  return kExitOk;
}

}  // namespace banklab::cli
