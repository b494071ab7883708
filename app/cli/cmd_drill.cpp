// banklab drill: questions from core's drill generator, answered on standard input (so a
// script can answer them too), graded by the core, each followed by the bank view and the
// derivation; a score and a place on the lesson's rubric at the end. --json prints the
// questions instead, one JSON object a line.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include "app/cli/commands.hpp"
#include "app/cli/syntax.hpp"
#include "app/cli/text_output.hpp"
#include "core/base/format.hpp"
#include "core/report/study.hpp"
#include "core/teach/drill.hpp"

namespace banklab::cli {
namespace {

// The bank view and the derivation of the scenario that explains an answer, as analyze prints.
void append_shown(std::string& out, const Study& s) {
  const Evaluation& e = s.evaluation;
  if (!e.ok()) {
    out += first_error(e.diagnostics) + "\n";
    return;
  }
  append_report(out, describe(s.scenario), *e.analysis, &e.elements, &s.scenario.tile,
                e.diagnostics, s.explanation);
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

// Why `line` is an answer of another kind than the question asks, or nothing: a fix the
// question does not let the student make (a swizzle where it asks for a pad, a pad where the
// tile must stay dense) answers another question, so it is asked again rather than scored. A
// pad on a tile TMA writes is not among them: that is one of the lesson's mistakes, graded.
std::optional<std::string> other_kind(const Question& q, const std::string& line) {
  if (q.kind != AskKind::fix ||
      (q.choice != FixChoice::pad_only && q.choice != FixChoice::swizzle_only))
    return std::nullopt;
  const Expected<Fix> fix = parse_fix(line);
  if (!fix) return std::nullopt;  // not a fix: the grader says why
  const FixCheck check = check_fix(q, *fix);
  if (check.allowed) return std::nullopt;
  return check.why;
}

// Reads lines until one is an answer to the session's question.
InputEnd read_answer(DrillSession& d) {
  for (;;) {
    print("> ");
    std::fflush(stdout);
    std::string line;
    if (const InputEnd end = read_line(line); end != InputEnd::answered) return end;
    if (const std::optional<std::string> why = other_kind(d.question(), line)) {
      print("Not this kind of answer: " + *why + ". Try again.\n");
      continue;
    }
    if (d.answer(line)) return InputEnd::answered;
    print("Not an answer: " + d.graded()->feedback + ". Try again.\n");
  }
}

// What follows an answer: the arithmetic behind it, the command that shows it, the mistake the
// answer matches, and last the verdict, so that it is the line in front of the student when
// the next question comes (with --verbose the bank view and the derivation come first).
std::string feedback(const Grade& g, bool verbose) {
  std::string out;
  if (verbose && g.shown) {
    append_shown(out, study(*g.shown));
    out += '\n';
  }
  for (const std::string& line : g.details) out += "  " + line + "\n";
  if (g.shown && !verbose) {
    std::string flags;
    for (const std::string& f : analyze_flags(*g.shown)) flags += " " + f;
    out += "  the bank view: banklab analyze" + flags + " (or drill --verbose)\n";
  }
  if (g.mistake != Mistake::none) {
    out += "Mistake (" + std::string(mistake_name(g.mistake)) +
           "): " + std::string(mistake_text(g.mistake)) + "\n";
  }
  return out + g.feedback + "\n";
}

struct DrillOptions {
  DrillLevel level{};
  int count = 5;
  // Without --seed, a fresh one each run, printed so that the run can be repeated.
  std::uint64_t seed = 0;
  bool json = false;
  bool verbose = false;  // the bank view and the derivation after each answer
};

Expected<DrillOptions> read_options(const frontend::Args& args) {
  DrillOptions o;  // without --level, the first level: DrillLevel{} is weak
  o.seed = std::random_device{}() & 0x7fffffff;
  return frontend::FlagReader<kDrill>(args)
      .value("level", o.level,
             frontend::choice(parse_level, "--level expects weak, hire or strong-hire, got "))
      .integer("count", o.count, 1, 1000)
      .integer("seed", o.seed, 0, INT64_MAX)
      .flag("json", o.json)
      .flag("verbose", o.verbose)
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
    print(feedback(*d.graded(), o->verbose));
  }
  print("\nScore: " + std::to_string(d.right()) + "/" + std::to_string(count) + "\n" +
        place(level, d.right(), count).text + "\n");
  return kExitOk;
}

}  // namespace banklab::cli
