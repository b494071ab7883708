// analyze(): the wavefront count of one warp-wide instruction, checked three ways: against
// every measured example of docs/hardware-rules.md, against the brute-force model in
// brute_force.cpp over 100,000 random accesses, and against the laws any count must obey.
//
// [SECTION] Accesses, checked
// [SECTION] Counts measured on the H200
// [SECTION] What every analysis must satisfy
// [SECTION] The lesson's numbers
// [SECTION] Printing and idle lanes
// [SECTION] Random accesses against the brute-force model
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/analysis.hpp"
#include "tests/core/brute_force.hpp"
#include "tests/core/random_access.hpp"

namespace banklab {
namespace {

// [SECTION] Accesses, checked

WarpAccess make_access(Op op, int width, const std::function<std::int64_t(int)>& offset_of_lane) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = offset_of_lane(lane);
  return a;
}

Analysis checked_analysis(const WarpAccess& a) {
  const std::vector<Diagnostic> diagnostics = check_access(a);
  INFO(a);
  REQUIRE_FALSE(has_error(diagnostics));
  return analyze(a);
}

// [SECTION] Counts measured on the H200

// One row of docs/hardware-rules.md, "Measured examples": measured on the H200 with Nsight Compute.
struct MeasuredExample {
  const char* pattern;
  int width;
  std::vector<Op> ops;  // "ld/st" rows hold for both
  std::function<std::int64_t(int)> offset;
  int wavefronts;
  int conflicts;
};

const std::vector<MeasuredExample>& measured_examples() {
  const std::vector<Op> ld_st = {Op::ld, Op::st};
  static const std::vector<MeasuredExample> kExamples = {
      {"float tile[32][32] column: 128*L", 4, ld_st, [](int l) { return 128 * l; }, 32, 31},
      {"float tile[32][33] column: 132*L", 4, ld_st, [](int l) { return 132 * l; }, 1, 0},
      {"float tile[32][36] column: 144*L", 4, ld_st, [](int l) { return 144 * l; }, 4, 3},
      {"XOR swizzle c^r, column 5: 4*(32L + (5^L))", 4, ld_st,
       [](int l) { return 4 * (32 * l + (5 ^ l)); }, 1, 0},
      {"all lanes one word", 4, ld_st, [](int) { return 36; }, 1, 0},
      {"lanes 0-15 active, 128*L",
       4,
       {Op::ld},
       [](int l) { return l < 16 ? 128 * l : kInactiveLane; },
       16,
       15},
      {"bf16 tile[32][32], column 3: 64*L + 6", 2, ld_st, [](int l) { return 64 * l + 6; }, 16, 15},
      {"bf16 tile[32][33], column 3: 66*L + 6", 2, ld_st, [](int l) { return 66 * l + 6; }, 2, 1},
      {"bf16 tile[32][34], column 3: 68*L + 6", 2, ld_st, [](int l) { return 68 * l + 6; }, 1, 0},
      {"fp8 32-byte rows, column: 32*L + 3", 1, ld_st, [](int l) { return 32 * l + 3; }, 8, 7},
      {"double tile[32][32] column: 256*L", 8, ld_st, [](int l) { return 256 * l; }, 32, 30},
      {"double tile[32][33] column: 264*L", 8, ld_st, [](int l) { return 264 * l; }, 2, 0},
      {"double row: 8*L", 8, ld_st, [](int l) { return 8 * l; }, 2, 0},
      {"all lanes one 8-byte address", 8, {Op::ld}, [](int) { return 64; }, 1, 0},
      {"all lanes one 8-byte address", 8, {Op::st}, [](int) { return 64; }, 2, 0},
      {"8*(L mod 16) (lane L and L+16 share)",
       8,
       {Op::ld},
       [](int l) { return 8 * (l % 16); },
       2,
       0},
      {"16-byte row: 16*L", 16, ld_st, [](int l) { return 16 * l; }, 4, 0},
      {"16-byte column of 128-byte rows: 128*L", 16, ld_st, [](int l) { return 128 * l; }, 32, 28},
      {"all lanes one 16-byte address", 16, {Op::ld}, [](int) { return 48; }, 2, 0},
      {"all lanes one 16-byte address", 16, {Op::st}, [](int) { return 48; }, 4, 0},
      {"lanes alternate offsets 0 and 128",
       16,
       {Op::ld},
       [](int l) { return 128 * (l % 2); },
       4,
       2},
      {"lanes alternate offsets 0 and 128",
       16,
       {Op::st},
       [](int l) { return 128 * (l % 2); },
       8,
       4},
      {"16*(L mod 8) (each quarter the same 128 B)",
       16,
       {Op::ld},
       [](int l) { return 16 * (l % 8); },
       4,
       0},
      {"ldmatrix.x4, 128-byte rows: 128*(L mod 8) + 16*(L div 8)",
       16,
       {Op::ldmatrix_x4},
       [](int l) { return 128 * (l % 8) + 16 * (l / 8); },
       32,
       28},
      {"same, chunk swizzled: 128*(L mod 8) + 16*((L div 8) ^ (L mod 8))",
       16,
       {Op::ldmatrix_x4},
       [](int l) { return 128 * (l % 8) + 16 * ((l / 8) ^ (l % 8)); },
       4,
       0},
      {"ldmatrix.x4, 64-byte rows: 64*(L mod 8) + 16*(L div 8)",
       16,
       {Op::ldmatrix_x4},
       [](int l) { return 64 * (l % 8) + 16 * (l / 8); },
       16,
       12},
      {"ldmatrix.x4, 80-byte rows",
       16,
       {Op::ldmatrix_x4},
       [](int l) { return 80 * (l % 8) + 16 * (l / 8); },
       4,
       0},
      {"stmatrix.x4, 128-byte rows, unswizzled",
       16,
       {Op::stmatrix_x4},
       [](int l) { return 128 * (l % 8) + 16 * (l / 8); },
       32,
       28},
  };
  return kExamples;
}

// [SECTION] What every analysis must satisfy

// Everything analyze() reports must be consistent with itself and with rule 1: the words and
// banks of every lane, the wavefront each word is served in, the slots of every wavefront, the
// phases, and the summary figures. Returns false (after failing a CHECK) at the first breach.
bool analysis_is_consistent(const Analysis& a) {
  const WarpAccess& acc = a.access;
  std::set<std::int64_t> all_words;
  std::set<int> all_banks;
  int active = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    const LaneRecord& rec = a.lanes[lane];
    if (!rec.active) continue;
    ++active;
    const std::int64_t first = acc.offsets[lane] / 4;
    const std::int64_t last = (acc.offsets[lane] + acc.width - 1) / 4;
    if (rec.byte != acc.offsets[lane] || rec.word_count != last - first + 1) {
      CHECK(rec.byte == acc.offsets[lane]);
      CHECK(rec.word_count == last - first + 1);
      return false;
    }
    int last_wavefront = -1;
    for (int i = 0; i < rec.word_count; ++i) {
      CAPTURE(i);
      const std::int64_t word = first + i;
      all_words.insert(word);
      all_banks.insert(static_cast<int>(word % 32));
      const int wf = rec.wavefronts[i];
      const bool in_range = wf >= 0 && wf < a.wavefront_count();
      if (rec.words[i] != word || rec.banks[i] != word % 32 || !in_range) {
        CHECK(rec.words[i] == word);
        CHECK(rec.banks[i] == word % 32);
        CHECK(in_range);
        return false;
      }
      const BankSlot& slot = a.wavefronts[wf].banks[rec.banks[i]];
      const Phase& phase = a.phases[rec.phase];
      const bool in_phase =
          wf >= phase.first_wavefront && wf < phase.first_wavefront + phase.wavefront_count;
      if (slot.word != word || !(slot.lanes >> lane & 1u) || !in_phase ||
          a.wavefronts[wf].phase != rec.phase) {
        CHECK(slot.word == word);
        CHECK((slot.lanes >> lane & 1u) == 1u);
        CHECK(in_phase);
        CHECK(a.wavefronts[wf].phase == rec.phase);
        return false;
      }
      last_wavefront = std::max(last_wavefront, wf);
    }
    if (rec.last_wavefront != last_wavefront) {
      CHECK(rec.last_wavefront == last_wavefront);
      return false;
    }
  }
  // Every served slot holds a word of its own bank, for lanes that really touch that word.
  for (int wf = 0; wf < a.wavefront_count(); ++wf) {
    for (int bank = 0; bank < kBankCount; ++bank) {
      const BankSlot& slot = a.wavefronts[wf].banks[bank];
      if (!slot.used()) continue;
      CAPTURE(wf);
      CAPTURE(bank);
      if (slot.word % 32 != bank || slot.lanes == 0) {
        CHECK(slot.word % 32 == bank);
        CHECK(slot.lanes != 0u);
        return false;
      }
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(slot.lanes >> lane & 1u)) continue;
        const LaneRecord& rec = a.lanes[lane];
        const bool touches =
            rec.active && slot.word >= rec.words[0] && slot.word < rec.words[0] + rec.word_count;
        if (!touches) {
          CAPTURE(lane);
          CHECK(touches);
          return false;
        }
      }
    }
  }
  // Within a phase each bank serves its distinct words in the order of the first lane that
  // touches each: the j-th such word of a bank goes out in the phase's j-th wavefront.
  for (const Phase& p : a.phases) {
    std::array<std::vector<std::int64_t>, kBankCount> queue;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneRecord& rec = a.lanes[lane];
      if (!(p.active_lanes >> lane & 1u)) continue;
      for (int i = 0; i < rec.word_count; ++i) {
        std::vector<std::int64_t>& q = queue[rec.banks[i]];
        const auto at = std::find(q.begin(), q.end(), rec.words[i]);
        const int rank = static_cast<int>(at - q.begin());
        if (at == q.end()) q.push_back(rec.words[i]);
        if (rec.wavefronts[i] != p.first_wavefront + rank) {
          CAPTURE(lane);
          CAPTURE(i);
          CHECK(rec.wavefronts[i] == p.first_wavefront + rank);
          return false;
        }
      }
    }
  }
  // Phases tile the wavefront list in order; the worst phase is the n-way figure.
  int next = 0;
  int worst = 0;
  for (const Phase& p : a.phases) {
    if (p.first_wavefront != next) {
      CHECK(p.first_wavefront == next);
      return false;
    }
    next += p.wavefront_count;
    worst = std::max(worst, p.wavefront_count);
  }
  const bool sums =
      next == a.wavefront_count() && worst == a.max_ways && active == a.active_lanes &&
      a.requested_bytes == std::int64_t{active} * acc.width &&
      a.distinct_words == std::ssize(all_words) && a.distinct_banks == std::ssize(all_banks);
  CHECK(next == a.wavefront_count());
  CHECK(worst == a.max_ways);
  CHECK(active == a.active_lanes);
  CHECK(a.requested_bytes == std::int64_t{active} * acc.width);
  CHECK(a.distinct_words == std::ssize(all_words));
  CHECK(a.distinct_banks == std::ssize(all_banks));
  return sums;
}

}  // namespace

// [SECTION] The lesson's numbers

TEST_CASE(
    "every measured example of docs/hardware-rules.md gives the measured wavefronts and "
    "conflicts") {
  for (const MeasuredExample& ex : measured_examples()) {
    for (Op op : ex.ops) {
      CAPTURE(ex.pattern);
      CAPTURE(op);
      const WarpAccess a = make_access(op, ex.width, ex.offset);
      const Analysis result = checked_analysis(a);
      CHECK(result.wavefront_count() == ex.wavefronts);
      CHECK(result.bank_conflicts() == ex.conflicts);
      // The brute-force model must reproduce the measurements too, or it proves nothing below.
      CHECK(brute::count(a) == brute::Count{ex.wavefronts, ex.wavefronts - ex.conflicts});
      CHECK(analysis_is_consistent(result));
    }
  }
}

TEST_CASE("the lesson's bandwidth arithmetic follows from 128 B per wavefront and the counts") {
  // 132 SMs x 128 B per clock = 16,896 B per clock; at an assumed 1.7 GHz about 29 TB/s.
  constexpr double kSms = 132;
  constexpr double kClock = 1.7e9;
  constexpr double kHbm = 3.35e12;  // H100 SXM
  const double shared = kSms * kWavefrontBytes * kClock;
  CHECK(kSms * kWavefrontBytes == 16'896);
  CHECK(shared == doctest::Approx(28.7e12).epsilon(0.01));
  // The read phase runs at ideal / wavefronts of that: a 32-way conflict (float tile[32][32])
  // drops it under 1 TB/s, below HBM; a 2-way conflict (stride 34) leaves about 14 TB/s.
  const Analysis way32 = checked_analysis(make_access(Op::ld, 4, [](int l) { return 128 * l; }));
  const Analysis way2 = checked_analysis(make_access(Op::ld, 4, [](int l) { return 136 * l; }));
  REQUIRE(way32.max_ways == 32);
  REQUIRE(way2.max_ways == 2);
  const double at32 = shared * way32.ideal_wavefronts / way32.wavefront_count();
  const double at2 = shared * way2.ideal_wavefronts / way2.wavefront_count();
  CHECK(at32 < 1e12);
  CHECK(at32 < kHbm);
  CHECK(at2 == doctest::Approx(14.4e12).epsilon(0.01));
  CHECK(at2 > kHbm);
}

TEST_CASE("a broadcast is not a conflict") {
  SUBCASE("two lanes on one word of a conflict-free row") {
    const Analysis a =
        checked_analysis(make_access(Op::ld, 4, [](int l) { return l == 7 ? 0 : 4 * l; }));
    CHECK(a.wavefront_count() == 1);
    CHECK(a.bank_conflicts() == 0);
    CHECK(a.lanes[0].shares_word);
    CHECK(a.lanes[7].shares_word);
    CHECK_FALSE(a.lanes[1].shares_word);
    CHECK(a.distinct_words == 31);
  }
  SUBCASE("sub-word stores to different bytes of one word cost one") {
    const Analysis a = checked_analysis(make_access(Op::st, 1, [](int l) { return l % 4; }));
    CHECK(a.wavefront_count() == 1);
    CHECK(a.distinct_words == 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(a.lanes[lane].shares_word);
    }
  }
  SUBCASE("two distinct words of one bank do conflict") {
    const Analysis a =
        checked_analysis(make_access(Op::ld, 4, [](int l) { return l == 7 ? 128 : 4 * l; }));
    CHECK(a.wavefront_count() == 2);
    CHECK(a.bank_conflicts() == 1);
    CHECK(a.max_ways == 2);
  }
}

TEST_CASE("load packing pairs lanes with partner l^1 or l^2 and never l^3") {
  // 16-byte loads, partner lanes on one address, 32 distinct banks per half warp.
  const auto shared_by = [](int partner) {
    return make_access(Op::ld, 16, [partner](int l) { return 16 * std::min(l, l ^ partner); });
  };
  SUBCASE("l^1") {
    const Analysis a = checked_analysis(shared_by(1));
    CHECK(a.packed);
    CHECK(a.packing_partner == 1);
    CHECK(a.phases.size() == 2);
    CHECK(a.ideal_wavefronts == 2);
  }
  SUBCASE("l^2") {
    const Analysis a = checked_analysis(shared_by(2));
    CHECK(a.packed);
    CHECK(a.packing_partner == 2);
    CHECK(a.ideal_wavefronts == 2);
  }
  SUBCASE("l^3 does not pack") {
    const Analysis a = checked_analysis(shared_by(3));
    CHECK_FALSE(a.packed);
    CHECK(a.phases.size() == 4);
    CHECK(a.ideal_wavefronts == 4);
  }
  // Even lanes L at byte 4L: sixteen 8-byte loads over words 0..31, one wavefront once packed.
  SUBCASE("an idle partner counts as a shared one") {
    const Analysis a = checked_analysis(
        make_access(Op::ld, 8, [](int l) { return l % 2 == 1 ? kInactiveLane : 4 * l; }));
    CHECK(a.packed);
    CHECK(a.phases.size() == 1);
    CHECK(a.wavefront_count() == 1);
  }
  SUBCASE("stores never pack") {
    const Analysis a = checked_analysis(
        make_access(Op::st, 8, [](int l) { return l % 2 == 1 ? kInactiveLane : 4 * l; }));
    CHECK_FALSE(a.packed);
    CHECK(a.wavefront_count() == 2);
  }
}

TEST_CASE("ldmatrix ignores the lanes beyond the matrices it moves") {
  // Lanes 8-31 point at addresses that would conflict; x1 reads only lanes 0-7.
  const auto offset = [](int l) { return l < 8 ? 16 * l : 1024 * l; };
  SUBCASE("x1") {
    const Analysis a = checked_analysis(make_access(Op::ldmatrix_x1, 16, offset));
    CHECK(a.access.addressed_lanes() == 8);
    CHECK(a.wavefront_count() == 1);
    CHECK(a.ideal_wavefronts == 1);
    CHECK(a.active_lanes == 8);
    CHECK_FALSE(a.lanes[8].active);
  }
  SUBCASE("x2") {
    const Analysis a = checked_analysis(make_access(Op::ldmatrix_x2, 16, offset));
    CHECK(a.access.addressed_lanes() == 16);
    // Matrix 1 is rows 1024*L for L = 8..15: eight words of bank 0, eight deep.
    CHECK(a.wavefront_count() == 1 + 8);
    CHECK(a.ideal_wavefronts == 2);
    CHECK(a.active_lanes == 16);
  }
}

// [SECTION] Printing and idle lanes

TEST_CASE("an analysis prints its counts, its lane table and every wavefront's banks") {
  const Analysis a = checked_analysis(make_access(Op::ld, 4, [](int l) { return 128 * l; }));
  std::ostringstream os;
  os << a;
  const std::string text = os.str();
  CHECK(text.find("32 wavefronts, ideal 1, bank conflicts 31") != std::string::npos);
  // Lane 31 reads word 992 of bank 0, served last; wavefront 31 holds exactly that word.
  CHECK(text.find("wavefront 31 (phase 0): b0=w992\n") != std::string::npos);
  CHECK(text.find("wavefront  0 (phase 0): b0=w0\n") != std::string::npos);
}

TEST_CASE("no active lane costs nothing") {
  for (Op op : {Op::ld, Op::st}) {
    CAPTURE(op);
    const Analysis a = checked_analysis(make_access(op, 4, [](int) { return kInactiveLane; }));
    CHECK(a.wavefront_count() == 0);
    CHECK(a.ideal_wavefronts == 0);
    CHECK(a.active_lanes == 0);
    CHECK(a.max_ways == 0);
  }
}

// [SECTION] Random accesses against the brute-force model

TEST_CASE("100,000 random accesses agree with the brute-force model") {
  brute::Rng rng(20261129);
  int checked = 0;
  for (int i = 0; i < 100'000; ++i) {
    const WarpAccess access = brute::random_access(rng);
    CAPTURE(i);
    CAPTURE(access);
    const std::vector<Diagnostic> diagnostics = check_access(access);
    REQUIRE_FALSE(has_error(diagnostics));
    const Analysis a = analyze(access);
    const brute::Count expected = brute::count(access);
    if (a.wavefront_count() != expected.wavefronts || a.ideal_wavefronts != expected.ideal) {
      CHECK(a.wavefront_count() == expected.wavefronts);
      CHECK(a.ideal_wavefronts == expected.ideal);
      break;
    }
    // The full record is costlier to check; every tenth access covers every shape many times.
    if (i % 10 == 0 && !analysis_is_consistent(a)) break;
    ++checked;
  }
  CHECK(checked == 100'000);
}

TEST_CASE("counting laws hold for random accesses") {
  brute::Rng rng(7);
  for (int i = 0; i < 4'000; ++i) {
    const WarpAccess access = brute::random_access(rng);
    CAPTURE(i);
    CAPTURE(access);
    const Analysis a = analyze(access);
    const bool any_active = a.active_lanes > 0;
    CHECK(a.wavefront_count() >= a.ideal_wavefronts);
    CHECK((a.ideal_wavefronts >= 1) == any_active);
    CHECK(a.wavefront_count() <= kMaxWavefronts);
    // Switching a lane off never raises the count: its phase loses a word or keeps them all,
    // and packing only gets easier (a merged phase costs at most the sum of its halves).
    // ldmatrix/stmatrix lanes cannot be switched off (.sync.aligned).
    if (is_matrix_op(access.op)) continue;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!a.lanes[lane].active) continue;
      WarpAccess fewer = access;
      fewer.offsets[lane] = kInactiveLane;
      const Analysis b = analyze(fewer);
      if (b.wavefront_count() > a.wavefront_count()) {
        CAPTURE(lane);
        CHECK(b.wavefront_count() <= a.wavefront_count());
        break;
      }
    }
  }
}

}  // namespace banklab
