// The Strong Hire drill's descriptor questions (core/teach/drill_descriptor.cpp): four options
// written alike, exactly one right, each wrong one named as a mistake; the right one is what the
// Descriptor Lab says, recomputed here from the question's own words (the word decoded again,
// every offered descriptor checked against the fill the premise states); and the options' length
// does not give the answer away.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/model/descriptor_agreement.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/teach/drill.hpp"

namespace banklab {
namespace {

// The first `wanted` strong-hire questions of the descriptor family over seeds 1, 2, ...: made
// once per process (every case reads a prefix of the same list), since making a strong-hire
// question evaluates scenarios, and under the sanitizers this suite was the longest of the core's.
std::vector<Question> descriptor_questions(int wanted) {
  static const std::vector<Question> made = [] {
    constexpr int kMost = 200;  // the most any case reads
    std::vector<Question> out;
    for (std::uint64_t seed = 1; static_cast<int>(out.size()) < kMost; ++seed)
      for (int i = 0; i < 20; ++i) {
        Question q = make_question(DrillLevel::strong_hire, seed, i);
        if (q.family == "descriptor") out.push_back(std::move(q));
      }
    return out;
  }();
  REQUIRE(wanted <= static_cast<int>(made.size()));
  return {made.begin(), made.begin() + wanted};
}

std::string letter(std::size_t i) {
  return std::string(1, static_cast<char>('a' + i));
}

// "128-Byte swizzle, LBO 16 B, SBO 1024 B" read back.
struct OfferedFields {
  DescSwizzle mode = DescSwizzle::none;
  std::int64_t lbo = 0, sbo = 0;
};
OfferedFields read_fields(const std::string& text) {
  static const std::regex form(R"(^(.*), LBO (\d+) B, SBO (\d+) B$)");
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_match(text, m, form), text);
  OfferedFields f;
  bool found = false;
  for (const DescSwizzleInfo& s : desc_swizzles())
    if (s.ptx_name == m.str(1)) {
      f.mode = s.mode;
      found = true;
    }
  REQUIRE_MESSAGE(found, text);
  f.lbo = std::stoll(m.str(2));
  f.sbo = std::stoll(m.str(3));
  return f;
}

TEST_CASE("descriptor questions: four options alike, one right, every wrong one a mistake") {
  const std::vector<Question> questions = descriptor_questions(120);
  std::set<std::string> asks;
  for (const Question& q : questions) {
    CAPTURE(q.text);
    CHECK(q.kind == AskKind::choice);
    CHECK(q.level == DrillLevel::strong_hire);
    REQUIRE(q.choices.size() == 4);
    std::set<std::string> texts;
    int right = 0;
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      const Choice& c = q.choices[i];
      texts.insert(c.text);
      CHECK_FALSE(c.why.empty());
      const Grade g = grade(q, letter(i));
      CHECK(g.read);
      CHECK(g.right == (c.mistake == Mistake::none));
      CHECK(g.right == (static_cast<int>(i) == q.answer));
      if (!g.right) CHECK(g.mistake == c.mistake);
      right += g.right ? 1 : 0;
    }
    CHECK(texts.size() == 4);
    CHECK(right == 1);
    CHECK(q.target != Mistake::none);
    // The question is about the tile, not a warp: no lane is described.
    CHECK(q.text.find("lane ") == std::string::npos);
    asks.insert(q.text.substr(q.text.find('.') + 1, 30));
  }
  // All four forms come up.
  int decode = 0, which = 0, base = 0, advance = 0;
  for (const Question& q : questions) {
    decode += q.text.find("Which swizzle mode, LBO and SBO") != std::string::npos;
    which += q.text.find("makes wgmma read it") != std::string::npos;
    base += q.text.find("Which base offset") != std::string::npos;
    advance += q.text.find("descriptor of k-step") != std::string::npos;
  }
  MESSAGE("decode ", decode, ", which-reads ", which, ", base-offset ", base, ", k-advance ",
          advance, " of ", questions.size());
  CHECK(decode > 10);
  CHECK(which > 10);
  CHECK(base > 10);
  CHECK(advance > 10);
}

TEST_CASE("decode: the right option is the word decoded again, the others are not") {
  static const std::regex word_re(
      R"((wgmma \(sm90\)|tcgen05 \(sm100\)) shared-memory descriptor (0x[0-9a-f]{16}))");
  int checked = 0;
  for (const Question& q : descriptor_questions(120)) {
    std::smatch m;
    if (!std::regex_search(q.text, m, word_re)) continue;
    CAPTURE(q.text);
    const MmaArch arch = m.str(1).starts_with("wgmma") ? MmaArch::sm90 : MmaArch::sm100;
    const MatrixDescriptor d = decode(*parse_hex_word(m.str(2)), arch).fields;
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      const OfferedFields f = read_fields(q.choices[i].text);
      const bool same = f.mode == d.swizzle && f.lbo == d.lbo && f.sbo == d.sbo;
      CHECK(same == (static_cast<int>(i) == q.answer));
    }
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("which-reads: exactly the right option reads the fill the premise states") {
  static const std::regex fill_re(
      R"(TMA wrote (\w+) tile\[(\d+)\]\[(\d+)\] (tma\d+) with its .* at shared-memory byte (\d+)\.)");
  int checked = 0;
  for (const Question& q : descriptor_questions(120)) {
    if (q.text.find("makes wgmma read it") == std::string::npos) continue;
    CAPTURE(q.text);
    std::smatch m;
    REQUIRE(std::regex_search(q.text, m, fill_re));
    const std::string dtype = m.str(1) == "float" ? "fp32" : m.str(1);
    const std::vector<std::string> words = {
        "--dtype", dtype, "--tile", m.str(2) + "x" + m.str(3), "--swizzle", m.str(4)};
    const Expected<Scenario> s = scenario_from_words(words);
    REQUIRE(s.has_value());
    const OperandFill fill{s->tile, 1, std::stoll(m.str(5))};
    const OperandShape op{OperandMajor::k, s->tile.dtype};
    for (std::size_t i = 0; i < q.choices.size(); ++i) {
      const OfferedFields f = read_fields(q.choices[i].text);
      const MatrixDescriptor d{MmaArch::sm90, f.mode, fill.dest, f.lbo, f.sbo, 0, false};
      CHECK(check_agreement(d, op, fill).agrees() == (static_cast<int>(i) == q.answer));
    }
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("k-advance and base offset: the right start and base offset are the lab's") {
  // "TMA wrote 2 boxes of bf16 tile[64][32] tma64 ... box j at byte D + j x B." or, for one box,
  // "TMA wrote bf16 tile[64][64] tma128 with its ... at shared-memory byte D."
  static const std::regex boxes_re(
      R"(TMA wrote (\d+) boxes of (\w+) tile\[(\d+)\]\[(\d+)\] (tma\d+) .* box j at byte (\d+) \+)");
  static const std::regex box_re(
      R"(TMA wrote (\w+) tile\[(\d+)\]\[(\d+)\] (tma\d+) with its [^.]* at shared-memory byte (\d+)\.)");
  static const std::regex step_re(R"(descriptor of k-step (\d+) start)");
  static const std::regex base_re(R"(byte (\d+), \d+ bytes past a \d+-byte boundary)");
  int advances = 0, bases = 0;
  for (const Question& q : descriptor_questions(160)) {
    CAPTURE(q.text);
    const std::string right = q.choices[static_cast<std::size_t>(q.answer)].text;
    std::smatch m, step;
    if (std::regex_search(q.text, step, step_re)) {
      int boxes = 1;
      if (std::regex_search(q.text, m, boxes_re)) {
        boxes = std::stoi(m.str(1));
      } else {
        REQUIRE(std::regex_search(q.text, m, box_re));
      }
      const std::size_t at = boxes == 1 ? 0 : 1;  // the first group after the box count
      const std::string dtype = m.str(at + 1) == "float" ? "fp32" : m.str(at + 1);
      const Scenario s = *scenario_from_words(
          std::vector<std::string>{"--dtype", dtype, "--tile", m.str(at + 2) + "x" + m.str(at + 3),
                                   "--swizzle", m.str(at + 4)});
      const OperandFill fill{s.tile, boxes, std::stoll(m.str(at + 5))};
      const OperandShape op{OperandMajor::k, s.tile.dtype};
      const DescriptorAgreement a =
          check_agreement(*suggest_descriptor(MmaArch::sm90, op, fill), op, fill);
      CHECK(a.agrees());
      const auto k = static_cast<std::size_t>(std::stoi(step.str(1)));
      CHECK(right == "at byte " + std::to_string(a.steps[k].start));
      ++advances;
    } else if (std::regex_search(q.text, m, base_re)) {
      CHECK(right == "base offset 0");
      const Scenario s = *scenario_from_words(
          std::vector<std::string>{"--dtype", "bf16", "--tile", "64x64", "--swizzle", "tma128"});
      const OperandFill fill{s.tile, 1, std::stoll(m.str(1))};
      const OperandShape op{OperandMajor::k, DType::bf16};
      const std::optional<MatrixDescriptor> fits = suggest_descriptor(MmaArch::sm90, op, fill);
      REQUIRE(fits.has_value());
      CHECK(fits->base_offset == 0);
      CHECK(check_agreement(*fits, op, fill).agrees());
      ++bases;
    }
  }
  CHECK(advances > 10);
  CHECK(bases > 10);
}

TEST_CASE("the descriptor options' length does not give the answer away") {
  // The longest option (the first of equals) and the shortest: each right about as often as
  // chance, one in four, never more than one in three.
  const std::vector<Question> questions = descriptor_questions(200);
  int longest = 0, shortest = 0;
  for (const Question& q : questions) {
    std::size_t lo = 0, hi = 0;
    for (std::size_t i = 1; i < q.choices.size(); ++i) {
      if (q.choices[i].text.size() > q.choices[hi].text.size()) hi = i;
      if (q.choices[i].text.size() < q.choices[lo].text.size()) lo = i;
    }
    longest += static_cast<int>(hi) == q.answer;
    shortest += static_cast<int>(lo) == q.answer;
  }
  MESSAGE("of ", questions.size(), " descriptor questions the longest option is right in ", longest,
          ", the shortest in ", shortest);
  CHECK(longest * 3 <= static_cast<int>(questions.size()));
  CHECK(shortest * 3 <= static_cast<int>(questions.size()));
}

}  // namespace
}  // namespace banklab
