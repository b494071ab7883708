// explain(): the derivation written the way the lesson writes it. The formulas and bank
// expressions are checked word for word for the lesson's tiles; the verdict must carry the
// analysis' own numbers for any scenario.
#include <doctest/doctest.h>

#include "core/model/presets.hpp"
#include "core/report/explain.hpp"
#include "core/report/request_summary.hpp"

namespace banklab {
namespace {

// Column c of a 32 x 32 tile, one element per lane.
Scenario column(DType dtype, int pad, int c, SwizzleSpec swizzle = {}) {
  return Scenario{{dtype, 32, 32, pad, swizzle}, AccessPattern::column, Op::ld, 0, c};
}

Explanation explained(const Scenario& s) {
  return explain(s, evaluate(s));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& line : lines)
    if (contains(line, part)) return true;
  return false;
}

}  // namespace

TEST_CASE("float tile[32][32]: word 32r + c, bank c, a 32-way conflict at 1/32 of the bandwidth") {
  const Explanation x = explained(column(DType::fp32, 0, 0));
  CHECK(x.formula == "element (r, c) of float tile[32][32] -> byte 128r + 4c -> word 32r + c");
  CHECK(x.bank_expression == "bank = (32r + c) mod 32 = c");
  CHECK(x.verdict ==
        "32-way bank conflict (all 32 lanes want bank 0, 32 distinct words): 32 wavefronts "
        "where 1 would do (31 excess)");
  CHECK(any_contains(x.steps, "bank 0 for every lane"));
  CHECK(any_contains(x.steps, "here s = 32, gcd = 32: 1 bank, 32-way"));
  CHECK(any_contains(x.steps, "32 clocks"));
  CHECK(any_contains(x.steps, "128-byte wavefront per clock"));
  CHECK(any_contains(x.steps, "3% of shared-memory bandwidth"));  // 1/32
}

TEST_CASE("float tile[32][33]: the odd stride reduces to bank (r + c) mod 32") {
  for (int c = 0; c < 32; ++c) {
    CAPTURE(c);
    const Explanation x = explained(column(DType::fp32, 1, c));
    CHECK(x.formula == "element (r, c) of float tile[32][33] -> byte 132r + 4c -> word 33r + c");
    CHECK(x.bank_expression == "bank = (33r + c) mod 32 = (r + c) mod 32");
    CHECK(x.verdict == "conflict-free: 1 wavefront, the minimum for this request");
    CHECK(any_contains(x.steps, "every one of the 32 columns"));
  }
}

TEST_CASE("float tile[32][36]: bank (4r + c) mod 32, a 4-way conflict") {
  const Explanation x = explained(column(DType::fp32, 4, 7));
  CHECK(x.bank_expression == "bank = (36r + c) mod 32 = (4r + c) mod 32");
  CHECK(contains(x.verdict, "4-way"));
  CHECK(contains(x.verdict, "4 wavefronts"));
}

TEST_CASE("bf16 and fp64 tiles derive the lesson's word formulas") {
  SUBCASE("bf16 tile[32][32]: word 16r + c/2") {
    const Explanation x = explained(column(DType::bf16, 0, 4));
    CHECK(contains(x.formula, "byte 64r + 2c -> word 16r + c/2"));
    CHECK(x.bank_expression == "bank = (16r + c/2) mod 32");
    CHECK(contains(x.verdict, "16-way"));
  }
  SUBCASE("bf16 tile[32][34]: word 17r + c/2") {
    const Explanation x = explained(column(DType::bf16, 2, 4));
    CHECK(contains(x.formula, "word 17r + c/2"));
    CHECK(contains(x.verdict, "conflict-free"));
  }
  SUBCASE("double tile[32][33]: word 66r + 2c, bank (2r + 2c) mod 32, 2 wavefronts") {
    const Explanation x = explained(column(DType::fp64, 1, 9));
    CHECK(contains(x.formula, "word 66r + 2c"));
    CHECK(x.bank_expression == "bank = (66r + 2c) mod 32 = (2r + 2c) mod 32");
    CHECK(x.verdict == "conflict-free: 2 wavefronts, the minimum for this request");
  }
}

TEST_CASE("bf16 tile[32][33]: the explanation says the shortcut fails for odd columns") {
  for (int c = 0; c < 32; ++c) {
    CAPTURE(c);
    const Explanation x = explained(column(DType::bf16, 1, c));
    CHECK(contains(x.verdict, c % 2 == 0 ? "conflict-free: 1 wavefront" : "2-way"));
    CHECK(any_contains(x.caveats, "even columns take 1 wavefront, odd columns 2"));
    CHECK(any_contains(x.caveats, "measured on the H200"));
  }
}

TEST_CASE("the 128B swizzle is explained as chunk q of row r at chunk q ^ (r mod 8)") {
  Scenario s = column(DType::fp32, 0, 0, SwizzleSpec{SwizzleKind::tma128, {}});
  const Explanation x = explained(s);
  CHECK(contains(x.formula, "Swizzle<3,4,3>(128r + 4c)"));
  CHECK(contains(x.formula, "chunk q ^ (r mod 8)"));
}

TEST_CASE("a warp that runs off the tile's bottom is not a different count for the layout") {
  // float tile[32][36], float4 row stores: a warp covers rows N..N+3, so rows 29, 30 and 31
  // leave lanes idle; those are other accesses, not rows the layout treats differently.
  Scenario s = column(DType::fp32, 4, 0);
  s.pattern = AccessPattern::row;
  s.op = Op::st;
  s.width = 16;
  const Explanation x = explained(s);
  CHECK(x.caveats.empty());
  CHECK(any_contains(
      x.steps,
      "the same count holds for every one of the 29 rows whose warp stays inside the tile"));
}

TEST_CASE("the verdict and the steps name the busiest bank's lanes and words") {
  const Explanation x = explained(column(DType::fp32, 4, 0));
  CHECK(x.verdict ==
        "4-way bank conflict (lanes 0, 8, 16 and 24 all want bank 0, 4 distinct words): "
        "4 wavefronts where 1 would do (3 excess)");
  CHECK(any_contains(x.steps, "(lanes 0, 8, 16 and 24 want words 0, 288, 576 and 864)"));
  // The example lanes are the colliding ones.
  for (const char* lane : {"lane 0:", "lane 8:", "lane 16:", "lane 24:"})
    CHECK(any_contains(x.steps, lane));
  CHECK(any_contains(x.steps, "here s = 36, gcd = 4: 8 banks, 4-way"));
  CHECK(any_contains(x.steps, "the pad costs 32 x 4 x 4 B = 512 B, 11.1% of the 4608-byte tile"));
  CHECK(list_lanes({0, 1, 2, 3, 4, 5, 6, 7}) == "lanes 0-7");
  CHECK(list_lanes({0, 2, 4, 6, 8, 10, 12}) == "lanes 0, 2, 4, ..., 12");
  CHECK(list_lanes({1, 5, 6, 9, 12, 20, 30}) == "lanes 1, 5, 6, 9, ... (7 lanes)");
  CHECK(list_lanes({3}) == "lane 3");
  const Explanation odd = explained(column(DType::bf16, 1, 3));
  CHECK(contains(odd.verdict, "lanes 0 and 31 want bank 1"));
}

TEST_CASE("XOR and byte swizzles are explained by the permutation and the bits they move") {
  const Explanation x =
      explained(column(DType::fp32, 0, 5, SwizzleSpec{SwizzleKind::xor_columns, {}}));
  CHECK(any_contains(x.steps, "permutes the row's 32 columns"));
  CHECK(any_contains(x.steps, "lane 0 -> column 5, lane 1 -> column 4, lane 2 -> column 7"));
  const Preset* p = find_preset("ldmatrix-swizzled");
  REQUIRE(p != nullptr);
  const Explanation t = explained(p->scenario);
  CHECK(any_contains(t.steps, "bit  9 8 7 6 5 4 3 2 1 0"));
  CHECK(any_contains(t.steps, "     y y y z z z . . . ."));
  CHECK(any_contains(t.steps, "x ^ ((x & 896) >> 3)"));
  CHECK(any_contains(t.steps, "bits 7 and up are the row number and bits 4..6 the 16-byte chunk"));
}

TEST_CASE("a pad that misaligns vector stores is explained row by row") {
  const Preset* p = find_preset("fp32-pad1-vec16-store");
  REQUIRE(p != nullptr);
  const Explanation x = explained(p->scenario);
  CHECK(any_contains(x.steps,
                     "132 mod 16 = 4: row r starts 4r mod 16 bytes past a 16-byte boundary"));
  CHECK(any_contains(x.steps, "rows 0, 4, 8, ..., 28; misaligned: 24 of 32 rows (3 in 4)"));
  CHECK(any_contains(x.steps, "a pad of 4 (144-byte rows) aligns every row"));
  CHECK(x.verdict.starts_with(
      "cannot analyse: 24 of 32 rows (3 in 4) are misaligned for 16-byte accesses; lane 8: "));
  const RowAlignment r = row_alignment(p->scenario.tile, 16);
  CHECK(r.aligned == std::vector<int>{0, 4, 8, 12, 16, 20, 24, 28});
  CHECK(r.misaligned.size() == 24);
  CHECK(r.aligning_pad == 4);
}

TEST_CASE("a broadcast is explained as lanes served together") {
  const Preset* p = find_preset("broadcast");
  REQUIRE(p != nullptr);
  const Explanation x = explained(p->scenario);
  CHECK(any_contains(x.steps, "same word"));
  CHECK(contains(x.verdict, "conflict-free"));
}

TEST_CASE("a scenario that cannot be analysed is explained by its diagnostics") {
  Scenario s = column(DType::fp32, 1, 0);
  s.pattern = AccessPattern::row;
  s.op = Op::st;
  s.width = 16;
  const Explanation x = explained(s);
  CHECK(contains(x.verdict, "cannot analyse: "));
  CHECK(contains(x.verdict, "byte 132"));
  CHECK(any_contains(x.steps, "16-byte aligned"));
}

TEST_CASE("raw offsets are explained from the word arithmetic alone") {
  WarpAccess a;
  for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = 128 * lane;
  const Explanation x = explain(analyze(a));
  CHECK(contains(x.formula, "bank = word mod 32"));
  CHECK(x.verdict ==
        "32-way bank conflict (all 32 lanes want bank 0, 32 distinct words): 32 wavefronts "
        "where 1 would do (31 excess)");
}

TEST_CASE("every preset's explanation states its own count, and prints as text") {
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    const Evaluation e = evaluate(p.scenario);
    const Explanation x = explain(p.scenario, e);
    const std::string text = to_text(x);
    CHECK(contains(text, "=> " + x.verdict + "\n"));
    for (const std::string& caveat : x.caveats) CHECK(contains(text, "note: " + caveat));
    if (e.ok()) {
      const int w = e.analysis->wavefront_count();
      CHECK(contains(x.verdict, std::to_string(w) + (w == 1 ? " wavefront" : " wavefronts")));
      CHECK(any_contains(x.steps, "bank conflicts = " + std::to_string(w) + " - " +
                                      std::to_string(e.analysis->ideal_wavefronts)));
    } else {
      CHECK(contains(x.verdict, first_error(e.diagnostics)));
    }
  }
}

TEST_CASE("the request's summary counts lanes, words, banks and phases, one in the singular") {
  const Scenario naive = column(DType::fp32, 0, 0);
  CHECK(request_summary(*evaluate(naive).analysis) ==
        "32 active lanes request 128 B: 32 distinct words in 1 bank, 1 phase");
  // One lane: "1 words, 1 banks" was the app's Arithmetic window's wording.
  WarpAccess one;
  one.offsets.fill(kInactiveLane);
  one.offsets[0] = 0;
  CHECK(request_summary(analyze(one)) ==
        "1 active lane requests 4 B: 1 distinct word in 1 bank, 1 phase");
}

}  // namespace banklab
