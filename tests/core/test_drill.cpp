// The drill: every generated answer is what evaluate() says for the question's own scenario,
// every fix the search finds works, every wrong answer built from a common mistake is marked
// wrong and named as that mistake, and the same seed asks the same questions everywhere.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include "core/teach/drill.hpp"

namespace banklab {
namespace {

// A fixed list: small seeds, a prime, one past 2^32, and a large one.
constexpr std::uint64_t kSeeds[] = {0,  1,  2,   3,   5,    8,          13,
                                    21, 42, 144, 997, 4099, 1ull << 32, 0x7fffffffffffffffull};
constexpr int kPerSeed = 16;

const Analysis& analysis_of(const Question& q, Evaluation& e) {
  e = evaluate(q.scenario);
  REQUIRE_MESSAGE(e.ok(), describe(q.scenario));
  return *e.analysis;
}

// The wrong number a mistake gives, computed here from the analysis, independently of the
// drill's own classifier; -1 where the mistake does not apply to this question.
int mistaken_number(const Question& q, const Analysis& a, Mistake m) {
  const bool wavefronts = q.kind == AskKind::wavefronts;
  switch (m) {
    case Mistake::element_index_banks: {
      const int e = q.scenario.tile.elem_bytes();
      if (q.kind == AskKind::bank) return static_cast<int>(a.lanes[q.lane].byte / e % 32);
      WarpAccess alt = a.access;  // element i taken for word i
      alt.width = 4;
      for (auto& o : alt.offsets)
        if (o >= 0) o = o / e * 4;
      const Analysis b = analyze(alt);
      return wavefronts ? b.wavefront_count() : b.max_ways;
    }
    case Mistake::broadcast_counted: {
      int total = 0, worst = 0;
      for (const Phase& p : a.phases) {
        std::array<int, 32> lanes_in_bank{};
        for (int lane = 0; lane < 32; ++lane) {
          if (!(p.active_lanes >> lane & 1u)) continue;
          for (int k = 0; k < a.lanes[lane].word_count; ++k)
            ++lanes_in_bank[a.lanes[lane].banks[k]];
        }
        const int cost = *std::max_element(lanes_in_bank.begin(), lanes_in_bank.end());
        total += cost;
        worst = std::max(worst, cost);
      }
      return wavefronts ? total : worst;
    }
    case Mistake::conflicts_for_wavefronts:
      return a.bank_conflicts();
    case Mistake::ways_for_wavefronts:
      return wavefronts ? a.max_ways : a.wavefront_count();
    default:
      return -1;
  }
}

// The wrong answer, as the user would type it, that each targeted mistake stands for.
std::string mistaken_answer(const Question& q, const Analysis& a) {
  switch (q.target) {
    case Mistake::bf16_pad_one_packed:
    case Mistake::pad_breaks_alignment:
    case Mistake::fix_misses_other_indices:
      return "--pad 1";
    case Mistake::aligned_pad_conflicts:
      return "--pad 4";
    case Mistake::padded_tensor_core_tile:
      return "--pad 8";
    case Mistake::hidden_behind_hbm:
      return "yes";
    case Mistake::deep_conflict_ignored:
      return "no";
    default:
      return std::to_string(mistaken_number(q, a, q.target));
  }
}

std::string answer_text(const Question& q) {
  if (q.kind == AskKind::worth) return q.answer ? "yes" : "no";
  if (q.kind != AskKind::fix) return std::to_string(q.answer);
  std::string text;
  for (const std::string& w : fix_flags(q.fix)) text += w + " ";
  return text;
}

std::string json_of(const Question& q) {
  std::string out;
  append_json(out, q);
  return out;
}

TEST_CASE("splitmix64 gives the published sequence, so the questions are the same everywhere") {
  SplitMix64 rng(0);
  CHECK(rng.next() == 0xe220a8397b1dcdafull);
  CHECK(rng.next() == 0x6e789e6aa1b965f4ull);
  CHECK(rng.next() == 0x06c45d188009454full);
  SplitMix64 small(7);
  for (int i = 0; i < 1000; ++i) {
    const int v = small.below(5);
    CHECK((v >= 0 && v < 5));
  }
}

TEST_CASE("The same level, seed and index give the same question; other seeds give others") {
  for (DrillLevel level : kAllDrillLevels) {
    std::set<std::string> distinct;
    for (std::uint64_t seed : kSeeds) {
      for (int i = 0; i < 4; ++i) {
        CAPTURE(seed);
        CAPTURE(i);
        const std::string first = json_of(make_question(level, seed, i));
        CHECK(first == json_of(make_question(level, seed, i)));
        distinct.insert(first);
      }
    }
    CHECK(distinct.size() > 40);  // of 56 draws
  }
  // Pinned: the first weak question of seed 1, as every platform must draw it.
  CHECK(
      json_of(make_question(DrillLevel::weak, 1, 0)) ==
      R"json({"kind":"ways","level":"weak","seed":1,"index":0,"args":["--dtype","fp32","--tile","32x16","--pad","8","--access","column","--index","1","--op","st","--width","4"],"question":"float tile[32][24], column 1, st 4 B per lane. Its worst phase is an n-way conflict: what is n? (1 = conflict-free)","answer":8})json");
}

TEST_CASE("Every answer is what evaluate() gives for the question's own scenario") {
  for (DrillLevel level : kAllDrillLevels) {
    for (std::uint64_t seed : kSeeds) {
      for (int i = 0; i < kPerSeed; ++i) {
        const Question q = make_question(level, seed, i);
        CAPTURE(json_of(q));
        Evaluation e;
        const Analysis& a = analysis_of(q, e);
        switch (q.kind) {
          case AskKind::wavefronts:
            CHECK(q.answer == a.wavefront_count());
            break;
          case AskKind::ways:
            CHECK(q.answer == a.max_ways);
            break;
          case AskKind::bank:
            REQUIRE(a.lanes[q.lane].active);
            CHECK(q.answer == a.lanes[q.lane].banks[0]);
            CHECK(q.text.find("lane " + std::to_string(q.lane)) != std::string::npos);
            break;
          case AskKind::worth: {
            // The lesson: 132 SMs x 128 B per clock x 1.7 GHz, divided by the conflict, against
            // HBM3's 3.35 TB/s.
            const double shared = 132.0 * 128 * 1.7e9 * a.ideal_wavefronts / a.wavefront_count();
            CHECK(a.bank_conflicts() > 0);
            CHECK(q.answer == (shared < 3.35e12 ? 1 : 0));
            CHECK((shared > 2 * 3.35e12 || shared * 2 < 3.35e12));  // never a close call
            break;
          }
          case AskKind::fix: {
            CHECK(a.bank_conflicts() > 0);
            const FixCheck c = check_fix(q, q.fix);
            CHECK(c.works);
            const Evaluation fixed = evaluate(apply_fix(q.scenario, q.fix));
            REQUIRE(fixed.ok());
            CHECK(fixed.analysis->wavefront_count() == fixed.analysis->ideal_wavefronts);
            break;
          }
        }
        const Grade g = grade(q, answer_text(q));
        CHECK(g.read);
        CHECK(g.right);
        CHECK(g.mistake == Mistake::none);
      }
    }
  }
}

TEST_CASE("A wrong answer built from a question's target mistake is wrong and named") {
  std::map<Mistake, int> seen;
  for (DrillLevel level : kAllDrillLevels) {
    for (std::uint64_t seed : kSeeds) {
      for (int i = 0; i < kPerSeed; ++i) {
        const Question q = make_question(level, seed, i);
        if (q.target == Mistake::none) continue;
        CAPTURE(json_of(q));
        Evaluation e;
        const Analysis& a = analysis_of(q, e);
        const std::string wrong = mistaken_answer(q, a);
        CAPTURE(wrong);
        const Grade g = grade(q, wrong);
        CHECK(g.read);
        CHECK_FALSE(g.right);
        CHECK(mistake_name(g.mistake) == mistake_name(q.target));
        CHECK_FALSE(mistake_text(g.mistake).empty());
        ++seen[q.target];
      }
    }
  }
  // Every mistake the drill knows is the target of some question in this fixed sample.
  for (Mistake m :
       {Mistake::broadcast_counted, Mistake::element_index_banks, Mistake::bf16_pad_one_packed,
        Mistake::hidden_behind_hbm, Mistake::deep_conflict_ignored, Mistake::pad_breaks_alignment,
        Mistake::aligned_pad_conflicts, Mistake::padded_tensor_core_tile,
        Mistake::fix_misses_other_indices, Mistake::conflicts_for_wavefronts,
        Mistake::ways_for_wavefronts}) {
    CAPTURE(mistake_name(m));
    CHECK(seen[m] > 0);
  }
}

TEST_CASE("Each level asks about what the rubric puts there") {
  for (std::uint64_t seed : kSeeds) {
    for (int i = 0; i < kPerSeed; ++i) {
      const Question weak = make_question(DrillLevel::weak, seed, i);
      CAPTURE(json_of(weak));
      CHECK(weak.scenario.tile.dtype == DType::fp32);
      CHECK(weak.scenario.effective_width() == 4);
      CHECK(weak.scenario.tile.swizzle.kind == SwizzleKind::none);
      CHECK(weak.kind != AskKind::fix);
      CHECK(weak.kind != AskKind::worth);
    }
  }
  std::map<DrillLevel, std::set<AskKind>> kinds;
  std::set<Op> strong_ops;
  std::set<SwizzleKind> strong_swizzles;
  for (DrillLevel level : kAllDrillLevels) {
    for (std::uint64_t seed : kSeeds) {
      for (int i = 0; i < kPerSeed; ++i) {
        const Question q = make_question(level, seed, i);
        kinds[level].insert(q.kind);
        if (level == DrillLevel::strong_hire) {
          strong_ops.insert(q.scenario.op);
          strong_swizzles.insert(q.scenario.tile.swizzle.kind);
          for (const Scenario& k : q.keep) CHECK(k.pattern == AccessPattern::row);
        }
      }
    }
  }
  CHECK(kinds[DrillLevel::weak].size() == 3);
  CHECK(kinds[DrillLevel::hire].size() == 5);
  CHECK(kinds[DrillLevel::strong_hire].size() == 5);
  CHECK(strong_ops.count(Op::ldmatrix_x4) == 1);
  CHECK(strong_ops.count(Op::stmatrix_x4) == 1);
  for (SwizzleKind k : {SwizzleKind::xor_columns, SwizzleKind::cute, SwizzleKind::tma128})
    CHECK(strong_swizzles.count(k) == 1);
}

// A hand-built question, for the cases the lesson names.
Question ask(AskKind kind, const Scenario& s, int lane = -1) {
  Question q;
  q.kind = kind;
  q.scenario = s;
  q.lane = lane;
  const Evaluation e = evaluate(s);
  REQUIRE(e.ok());
  q.answer = kind == AskKind::wavefronts ? e.analysis->wavefront_count()
             : kind == AskKind::ways     ? e.analysis->max_ways
                                         : e.analysis->lanes[lane].banks[0];
  return q;
}

Scenario column(DType d, int pad, int index) {
  Scenario s;
  s.tile = {d, 32, 32, pad, {}};
  s.index = index;
  return s;
}

TEST_CASE("The lesson's mistakes are recognised on its own examples") {
  SUBCASE("bf16 tile[32][32]: 16-way; 32 is the count from element indices") {
    const Question q = ask(AskKind::ways, column(DType::bf16, 0, 3));
    CHECK(q.answer == 16);
    CHECK(grade(q, "32").mistake == Mistake::element_index_banks);
    CHECK(grade(q, "16").right);
  }
  SUBCASE("bank of lane 1 in bf16 tile[32][32] column 3: word 17, bank 17; element 35 says 3") {
    const Question q = ask(AskKind::bank, column(DType::bf16, 0, 3), 1);
    CHECK(q.answer == 17);
    const Grade g = grade(q, "3");
    CHECK(g.mistake == Mistake::element_index_banks);
    REQUIRE(g.details.size() == 1);
    CHECK(g.details[0] ==
          "lane 1: element (1, 3) -> byte 70 -> word 70 / 4 = 17 -> bank 17 mod 32 = 17");
  }
  SUBCASE("all 32 lanes on one word: 1 wavefront; 32 counts the broadcast as a conflict") {
    Scenario s;
    s.pattern = AccessPattern::custom;
    s.width = 4;
    s.custom_offsets.fill(64);
    const Question q = ask(AskKind::wavefronts, s);
    CHECK(q.answer == 1);
    CHECK(grade(q, "32").mistake == Mistake::broadcast_counted);
  }
  SUBCASE("float tile[32][32] column: 32 wavefronts; 31 is Nsight's conflict count") {
    const Question q = ask(AskKind::wavefronts, column(DType::fp32, 0, 5));
    CHECK(grade(q, "31").mistake == Mistake::conflicts_for_wavefronts);
    CHECK(grade(q, "7").mistake == Mistake::none);
    CHECK_FALSE(grade(q, "7").right);
  }
  SUBCASE("double tile[32][32] column: 32 wavefronts from two 16-way phases") {
    const Question q = ask(AskKind::wavefronts, column(DType::fp64, 0, 0));
    CHECK(q.answer == 32);
    CHECK(grade(q, "16").mistake == Mistake::ways_for_wavefronts);
  }
}

TEST_CASE("Fixes are checked by the core at every index, with the tile's other accesses") {
  Question q = ask(AskKind::ways, column(DType::bf16, 0, 2));
  q.kind = AskKind::fix;
  SUBCASE("bf16: a pad of one is conflict-free on even columns only") {
    const FixCheck c = check_fix(q, Fix{.pad = 1, .swizzle = std::nullopt});
    CHECK(c.asked_index_ok);
    CHECK_FALSE(c.works);
    CHECK(c.why.find("column 1") != std::string::npos);
    CHECK(grade(q, "--pad 1").mistake == Mistake::fix_misses_other_indices);
    CHECK(grade(q, "--pad 2").right);
    CHECK(grade(q, "--swizzle xor").right);
  }
  SUBCASE("with packed bf16x2 row stores, the pad of one breaks them") {
    Scenario store = column(DType::bf16, 0, 0);
    store.pattern = AccessPattern::row;
    store.op = Op::st;
    store.width = 4;
    q.keep.push_back(store);
    const Grade g = grade(q, "pad=1");
    CHECK_FALSE(g.right);
    CHECK(g.mistake == Mistake::bf16_pad_one_packed);
    CHECK(g.verdict.find("4-byte access must be 4-byte aligned") != std::string::npos);
  }
  SUBCASE("a swizzle-only question refuses a pad, however well it works") {
    q.choice = FixChoice::swizzle_only;
    const Grade g = grade(q, "--pad 2");
    CHECK_FALSE(g.right);
    CHECK(g.mistake == Mistake::padded_tensor_core_tile);
  }
}

TEST_CASE("Answers that cannot be read are asked again, with the reason") {
  const Question number = ask(AskKind::wavefronts, column(DType::fp32, 0, 0));
  for (const char* text : {"", "  ", "abc", "3.5", "12abc", "99999999999"}) {
    CAPTURE(text);
    CHECK_FALSE(grade(number, text).read);
  }
  CHECK(grade(number, " 32 \r\n").right);
  Question worth = number;
  worth.kind = AskKind::worth;
  worth.answer = 1;
  CHECK_FALSE(grade(worth, "maybe").read);
  CHECK(grade(worth, "Yes").right);
  CHECK(grade(worth, "n").mistake == Mistake::deep_conflict_ignored);
  Question fix = number;
  fix.kind = AskKind::fix;
  for (const char* text :
       {"--pad", "--pad x", "--tile 32x33", "--swizzle bogus", "--pad 1 --pad 2",
        // A pad no tile takes is no answer either, in or out of int's range (issue 22).
        "--pad -1", "--pad=-1", "--pad 1025", "--pad 99999999999"}) {
    CAPTURE(text);
    const Grade g = grade(fix, text);
    CHECK_FALSE(g.read);
    CHECK_FALSE(g.verdict.empty());
  }
  CHECK(parse_fix("--swizzle cute:3,4,3 --pad 0").has_value());
  CHECK(fix_flags(*parse_fix("swizzle tma128")) == std::vector<std::string>{"--swizzle", "tma128"});
}

TEST_CASE("The session places the user on the rubric at 80% right") {
  CHECK(place(DrillLevel::hire, 4, 5).band == DrillLevel::hire);
  CHECK(place(DrillLevel::hire, 3, 5).band == DrillLevel::weak);
  CHECK(place(DrillLevel::strong_hire, 10, 10).band == DrillLevel::strong_hire);
  CHECK(place(DrillLevel::strong_hire, 7, 10).band == DrillLevel::hire);
  CHECK(place(DrillLevel::weak, 0, 3).band == DrillLevel::weak);
  CHECK(place(DrillLevel::weak, 0, 0).band == DrillLevel::weak);
  const Placement p = place(DrillLevel::strong_hire, 9, 10);
  CHECK(p.text.starts_with("Strong Hire: 9/10 at the strong-hire level"));
  CHECK(p.text.find("swizzled layouts") != std::string::npos);
  CHECK(place(DrillLevel::weak, 3, 3).text.ends_with("Next: --level hire."));
}

TEST_CASE("A drill session counts right answers and the streak, once per question") {
  DrillSession d(DrillLevel::hire, 11);
  CHECK(json_of(d.question()) == json_of(make_question(DrillLevel::hire, 11, 0)));
  CHECK_FALSE(d.answer("not an answer"));
  REQUIRE(d.graded());
  CHECK_FALSE(d.graded()->read);
  CHECK(d.answered() == 0);
  CHECK(d.answer(answer_text(d.question())));
  CHECK_FALSE(d.answer(answer_text(d.question())));  // answered already: not counted twice
  CHECK(d.right() == 1);
  CHECK(d.streak() == 1);
  d.next();
  CHECK_FALSE(d.graded());
  CHECK(json_of(d.question()) == json_of(make_question(DrillLevel::hire, 11, 1)));
  CHECK(d.answer(answer_text(d.question())));
  CHECK(d.streak() == 2);
  d.next();
  const std::string wrong = d.question().kind == AskKind::fix ? "--pad 0 --swizzle none"
                            : d.question().kind == AskKind::worth
                                ? (d.question().answer ? "no" : "yes")
                                : "999";
  CHECK(d.answer(wrong));
  CHECK(d.streak() == 0);
  CHECK(d.right() == 2);
  CHECK(d.answered() == 3);
  CHECK(d.placement().band == DrillLevel::weak);  // 2/3 is under 80%
}

}  // namespace
}  // namespace banklab
