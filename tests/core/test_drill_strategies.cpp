// The drill measured as a test measures a candidate: responders that do not do the arithmetic
// the rubric asks for are simulated over fixed seeds, and each must score below the level it
// tries (issue 34). The figures each case asserts are printed with the figures before the
// generator was calibrated in the comments beside them.
//
//   no arithmetic   "1" for every count, bank 0, --pad 1, --swizzle xor, "no", option (a); or
//                   the same with "0" bank conflicts (conflict-free)
//   test-wise       no arithmetic, and the longest option (or the shortest, or the one that
//                   repeats the most of the question's words) at a choice
//   whole warp      the Hire formula everywhere: the most distinct words one bank holds over
//                   the whole warp, phases, packing and alignment ignored, the ideal as the
//                   requested bytes / 128 and the conflicts as the one less the other; the
//                   first pad or swizzle that formula calls conflict-free at the asked index;
//                   test-wise at a choice; right at every worth question (the formula's
//                   judgement is the recording's)
//
// The figures, measured over seeds 1-100 (`ctest --test-dir build -R drill_strategies -V`):
// before issue 34 / before the second calibration (phases, packing and broadcasts across
// phases asked where they change the answer, drawn twice at strong-hire; the options said in
// drawn phrasings) / now. No arithmetic at Hire 43 / 0 / 1 of 100; at Weak 22 / 0 / 0 of 40;
// at Strong Hire - / 2 / 2 of 100. The whole warp at Strong Hire 69% / 47% (56% with the floor
// rule) / 26%, placed there in - / 18 (28) / 1 of 100 five-question sessions. Over 400 choice
// questions the longest option is right in 41 of 67 / 24 / 91, the shortest - / 261 / 32, the
// most repeated wording - / 23 / 58 (chance: 100).
//
// [SECTION] The strategies
// [SECTION] Sessions and scores
// [SECTION] The calibration
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/teach/drill.hpp"

namespace banklab {
namespace {

// [SECTION] The strategies

std::string no_arithmetic(const Question& q) {
  switch (q.kind) {
    case AskKind::wavefronts:
    case AskKind::ways:
      return "1";
    case AskKind::bank:
      return "0";
    case AskKind::fix:
      return q.choice == FixChoice::pad_only || q.choice == FixChoice::pad_or_swizzle
                 ? "--pad 1"
                 : "--swizzle xor";
    case AskKind::worth:
      return "no";
    case AskKind::choice:
      return "a";
    case AskKind::design:
      return "--swizzle xor --align 16";
    case AskKind::ideal:
    case AskKind::conflicts:
      return "1";
  }
  return "1";
}

std::string letter(std::size_t i) {
  return std::string(1, static_cast<char>('a' + i));
}

// The longest option; the first of equals.
std::string longest_option(const Question& q) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < q.choices.size(); ++i)
    if (q.choices[i].text.size() > q.choices[best].text.size()) best = i;
  return letter(best);
}

// The shortest option; the first of equals.
std::string shortest_option(const Question& q) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < q.choices.size(); ++i)
    if (q.choices[i].text.size() < q.choices[best].text.size()) best = i;
  return letter(best);
}

std::set<std::string> words_of(const std::string& text) {
  std::set<std::string> out;
  std::string w;
  for (char ch : text + " ") {
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else {
      if (w.size() > 3) out.insert(w);
      w.clear();
    }
  }
  return out;
}

// The option that repeats the most words of the question before the options.
std::string wording_option(const Question& q) {
  const std::set<std::string> asked = words_of(q.text.substr(0, q.text.find("\n(a)")));
  std::size_t best = 0;
  int most = -1;
  for (std::size_t i = 0; i < q.choices.size(); ++i) {
    int shared = 0;
    for (const std::string& w : words_of(q.choices[i].text)) shared += asked.count(w) ? 1 : 0;
    if (shared > most) {
      most = shared;
      best = i;
    }
  }
  return letter(best);
}

// The Hire formula over the whole warp: the most distinct words in one bank, phases ignored.
int whole_warp_ways(const Scenario& s) {
  const Evaluation e = evaluate(s);
  if (!e.ok()) return 0;
  std::array<std::set<std::int64_t>, 32> words;
  for (const LaneRecord& l : e.analysis->lanes) {
    if (!l.active) continue;
    for (int k = 0; k < l.word_count; ++k) words[l.banks[k]].insert(l.words[k]);
  }
  std::size_t most = 1;
  for (const auto& w : words) most = std::max(most, w.size());
  return static_cast<int>(most);
}

// The first fix the formula calls conflict-free at the asked index: pads 1 to 16, then the
// swizzles a candidate would name, what the question allows tried first.
std::string formula_fix(const Question& q) {
  std::vector<std::string> tries;
  const bool pads = q.choice == FixChoice::pad_only || q.choice == FixChoice::pad_or_swizzle;
  if (pads)
    for (int pad = 1; pad <= 16; ++pad) tries.push_back("--pad " + std::to_string(pad));
  if (q.choice != FixChoice::pad_only)
    for (const char* sw : {"xor", "tma32", "tma64", "tma128"})
      tries.push_back(std::string("--swizzle ") + sw);
  for (const std::string& t : tries) {
    const Expected<Fix> f = parse_fix(t);
    if (f && whole_warp_ways(check_fix(q, *f).fixed) == 1) return t;
  }
  return tries.front();
}

// The floor as the Hire formula puts it: the requested bytes / 128, packing ignored.
int formula_ideal(const Scenario& s) {
  const Evaluation e = evaluate(s);
  if (!e.ok()) return 1;
  return std::max<int>(1, static_cast<int>((e.analysis->requested_bytes + 127) / 128));
}

std::string whole_warp(const Question& q) {
  switch (q.kind) {
    case AskKind::wavefronts:
    case AskKind::ways:
      return std::to_string(whole_warp_ways(q.scenario));
    case AskKind::ideal:
      return std::to_string(formula_ideal(q.scenario));
    case AskKind::conflicts:
      return std::to_string(std::max(0, whole_warp_ways(q.scenario) - formula_ideal(q.scenario)));
    case AskKind::bank: {
      const Evaluation e = evaluate(q.scenario);
      return std::to_string(e.analysis->lanes[q.lane].banks[0]);
    }
    case AskKind::fix:
      return formula_fix(q);
    case AskKind::worth:
      return q.answer ? "yes" : "no";
    case AskKind::choice:
      return longest_option(q);
    case AskKind::design: {
      const std::string f = formula_fix(q);
      const Expected<Fix> fix = parse_fix(f);
      const int align =
          fix && fix->swizzle ? std::max(16, fix->swizzle->tma_alignment_bytes()) : 16;
      return f + " --align " + std::to_string(align);
    }
  }
  return "1";
}

using Strategy = std::string (*)(const Question&);

// [SECTION] Sessions and scores

// The first `count` questions of the session (level, seed): a session asks make_question(level,
// seed, 0), then index 1, 2, ... (test_drill checks that DrillSession does, and that it counts
// a read answer once, right or not). Made once per process: the cases answer the same sessions
// with up to six strategies, and making the questions was most of the suite's time (issue 36).
const std::vector<Question>& session_questions(DrillLevel level, std::uint64_t seed, int count) {
  static std::map<std::pair<DrillLevel, std::uint64_t>, std::vector<Question>> made;
  std::vector<Question>& questions = made[{level, seed}];
  for (int i = static_cast<int>(questions.size()); i < count; ++i)
    questions.push_back(make_question(level, seed, i));
  return questions;
}

// Right answers of one session of `count` questions, each answer read as the session reads it.
int session_right(DrillLevel level, std::uint64_t seed, int count, Strategy answer) {
  const std::vector<Question>& questions = session_questions(level, seed, count);
  int right = 0;
  for (int i = 0; i < count; ++i) {
    const Question& q = questions[static_cast<std::size_t>(i)];
    const std::string a = answer(q);
    const Grade g = grade(q, a);
    REQUIRE_MESSAGE(g.read, q.text, " <- ", a);
    right += g.right ? 1 : 0;
  }
  return right;
}

// Sessions (seeds 1..sessions) at 80% or more.
int passed(DrillLevel level, int sessions, int count, Strategy answer) {
  int n = 0;
  for (int seed = 1; seed <= sessions; ++seed)
    if (session_right(level, static_cast<std::uint64_t>(seed), count, answer) * 5 >= count * 4) ++n;
  return n;
}

// The share right over sessions x count questions, in percent.
double score(DrillLevel level, int sessions, int count, Strategy answer) {
  int right = 0;
  for (int seed = 1; seed <= sessions; ++seed)
    right += session_right(level, static_cast<std::uint64_t>(seed), count, answer);
  return 100.0 * right / (sessions * count);
}

// [SECTION] The calibration

TEST_CASE("A responder who does no arithmetic is never placed at Hire, nor passes Weak") {
  for (Strategy s : {no_arithmetic, +[](const Question& q) {
                       return q.kind == AskKind::conflicts ? std::string("0") : no_arithmetic(q);
                     }}) {
    const int hire = passed(DrillLevel::hire, 100, 5, s);
    const int weak = passed(DrillLevel::weak, 40, 20, s);
    const int strong = passed(DrillLevel::strong_hire, 100, 5, s);
    MESSAGE("no arithmetic: Hire in ", hire, " of 100 five-question hire sessions (was 43); ",
            "80%+ in ", weak, " of 40 twenty-question weak sessions (was 22); Strong Hire in ",
            strong, " of 100");
    // The bounds; measured 1, 0, 2 (0 conflicts: 1, 0, 1).
    CHECK(hire <= 2);
    CHECK(weak <= 1);
    CHECK(strong <= 2);
  }
}

TEST_CASE("Reading the options' length or wording scores below the level it tries") {
  for (DrillLevel level : {DrillLevel::hire, DrillLevel::strong_hire}) {
    for (Strategy s : {+[](const Question& q) {
                         return q.kind == AskKind::choice ? longest_option(q) : no_arithmetic(q);
                       },
                       +[](const Question& q) {
                         return q.kind == AskKind::choice ? shortest_option(q) : no_arithmetic(q);
                       },
                       +[](const Question& q) {
                         return q.kind == AskKind::choice ? wording_option(q) : no_arithmetic(q);
                       }}) {
      const double pct = score(level, 100, 10, s);
      MESSAGE(level_name(level), ": test-wise ", pct, "% right over 1,000 questions");
      CHECK(pct < 50);
    }
  }
  // At the choices alone: the longest option, the shortest, and the most repeated wording,
  // right no more often than chance (one in four) over 400 choice questions of both levels that
  // ask them.
  int asked = 0, longest = 0, shortest = 0, wording = 0;
  for (std::uint64_t seed = 1; asked < 400; ++seed) {
    for (int i = 0; i < 40 && asked < 400; ++i) {
      const Question& q =
          session_questions(seed % 2 ? DrillLevel::strong_hire : DrillLevel::hire, seed, i + 1)[i];
      if (q.kind != AskKind::choice) continue;
      ++asked;
      longest += grade(q, longest_option(q)).right ? 1 : 0;
      shortest += grade(q, shortest_option(q)).right ? 1 : 0;
      wording += grade(q, wording_option(q)).right ? 1 : 0;
    }
  }
  MESSAGE("of 400 choice questions the longest option is right in ", longest,
          " (was 41 of 67), the shortest in ", shortest,
          " (was 261), the most repeated wording in ", wording);
  CHECK(longest <= 100);
  CHECK(shortest <= 100);
  CHECK(wording <= 100);
}

TEST_CASE("The Hire formula places at Hire, and below Strong Hire") {
  const double hire = score(DrillLevel::hire, 100, 10, whole_warp);
  const double strong = score(DrillLevel::strong_hire, 100, 10, whole_warp);
  const int strong_passed = passed(DrillLevel::strong_hire, 100, 5, whole_warp);
  MESSAGE("whole-warp formula: ", hire, "% at hire (was 100), ", strong,
          "% at strong-hire (was 69, then 56); Strong Hire in ", strong_passed,
          " of 100 five-question sessions (was 28)");
  CHECK(hire >= 80);
  // Measured 26.4% and 1 of 100: the bounds leave a margin of about 3 points and 1 session
  // (the bound is 2 of 100).
  CHECK(strong < 30);
  CHECK(strong_passed <= 2);
}

}  // namespace
}  // namespace banklab
