// solve(): the families, the search, the ranking, the lesson it must rediscover, and every
// candidate it returns counted again, instruction by instruction, by the brute-force model and
// (where a Scenario can say the instruction) by evaluate().
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/model/analysis.hpp"
#include "core/solve/solve.hpp"
#include "tests/core/brute_force.hpp"

namespace banklab {
namespace {

AccessFamily fam(const char* text) {
  const Expected<AccessFamily> f = parse_family(text);
  REQUIRE_MESSAGE(f.has_value(), text);
  return *f;
}

SolveResult solved(DType dtype, int rows, int cols, std::vector<AccessFamily> families,
                   std::optional<std::int64_t> max_overhead = std::nullopt) {
  const Expected<SolveResult> r = solve({dtype, rows, cols, std::move(families), max_overhead});
  REQUIRE_MESSAGE(r.has_value(), (r.has_value() ? "" : r.error()));
  REQUIRE_FALSE(r->candidates.empty());
  return *r;
}

bool has_spelling(const Candidate& c, const std::string& swizzle) {
  return std::any_of(c.spellings.begin(), c.spellings.end(),
                     [&](const Spelling& s) { return to_string(s.swizzle) == swizzle; });
}

const Rejected* rejected_pad(const SolveResult& r, int pad) {
  for (const Rejected& x : r.rejected) {
    if (x.layout.pad == pad && x.layout.swizzle.kind == SwizzleKind::none) return &x;
  }
  return nullptr;
}

// The family counted again without the solver's shortcuts (no shared patterns, no repeated
// rows): every instruction, by the core's analyze() and by the brute-force model.
brute::Count recount_family(const TileLayout& t, const AccessFamily& f) {
  const Expected<std::vector<WarpAccess>> accesses = family_accesses(t, f);
  REQUIRE_MESSAGE(accesses.has_value(), (accesses.has_value() ? "" : accesses.error()));
  brute::Count sum;
  for (const WarpAccess& a : *accesses) {
    const brute::Count c = brute::count(a);
    const Analysis core = analyze(a);
    CHECK(core.wavefront_count() == c.wavefronts);
    CHECK(core.ideal_wavefronts == c.ideal);
    sum.wavefronts += c.wavefronts;
    sum.ideal += c.ideal;
  }
  return sum;
}

// Every candidate's every family, recounted; its order and its bijection checked.
void verify(const SolveResult& r) {
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    const Candidate& c = r.candidates[i];
    CAPTURE(c.layout);
    REQUIRE(c.layout.check());
    CHECK(c.bijective);
    int total = 0;
    int ideal = 0;
    for (const FamilyCount& f : c.families) {
      CAPTURE(to_string(f.family));
      const brute::Count b = recount_family(c.layout, f.family);
      CHECK(f.wavefronts == b.wavefronts);
      CHECK(f.ideal == b.ideal);
      total += f.wavefronts;
      ideal += f.ideal;
    }
    CHECK(c.total_wavefronts == total);
    CHECK(c.total_ideal == ideal);
    CHECK(c.overhead_bytes == c.layout.overhead_bytes());
    for (const Spelling& s : c.spellings) {
      const TileLayout again{c.layout.dtype, c.layout.rows, c.layout.cols, s.pad, s.swizzle};
      CHECK(same_placement(c.layout, again));
    }
    if (i > 0) {
      const Candidate& p = r.candidates[i - 1];
      const bool ordered =
          p.excess() < c.excess() ||
          (p.excess() == c.excess() &&
           (p.overhead_bytes < c.overhead_bytes ||
            (p.overhead_bytes == c.overhead_bytes && p.simplicity <= c.simplicity)));
      CHECK(ordered);
    }
  }
}

}  // namespace

TEST_CASE("access families parse as KIND[:WIDTH][:OP] and print canonically") {
  CHECK(to_string(fam("row")) == "row:ld");
  CHECK(to_string(fam("row:16:st")) == "row:16:st");
  CHECK(to_string(fam("row:st")) == "row:st");
  CHECK(to_string(fam("column:4")) == "column:4:ld");
  CHECK(to_string(fam("ldmatrix.x4")) == "ldmatrix.x4");
  CHECK(to_string(fam("stmatrix.x4:16")) == "stmatrix.x4");
  CHECK(fam("ldmatrix.x2").pattern == AccessPattern::matrix);
  CHECK(family_label(fam("row:16:st"), DType::fp32) == "16-byte row stores");
  CHECK(family_label(fam("column"), DType::fp32) == "column reads");
  CHECK(family_label(fam("ldmatrix.x4"), DType::bf16) == "ldmatrix.x4 reads");
  SUBCASE("bad spellings name what was expected") {
    for (const char* text : {"", "diagonal", "row:3", "row:16:st:x", "row:st:16", "row:ldmatrix.x4",
                             "ldmatrix.x4:8", "ldmatrix.x4:st", "column:", ":16"}) {
      CAPTURE(text);
      const Expected<AccessFamily> f = parse_family(text);
      REQUIRE_FALSE(f.has_value());
      CHECK(f.error().find(std::string("'").append(text).append("'")) != std::string::npos);
    }
  }
}

TEST_CASE("a family that does not fit the tile, or a single family, is refused with the rule") {
  const Expected<SolveResult> one = solve({DType::fp32, 32, 32, {fam("column")}, std::nullopt});
  REQUIRE_FALSE(one.has_value());
  CHECK(one.error().find("two or more") != std::string::npos);
  const Expected<SolveResult> matrix =
      solve({DType::fp32, 12, 32, {fam("column"), fam("ldmatrix.x4")}, std::nullopt});
  REQUIRE_FALSE(matrix.has_value());
  CHECK(matrix.error().find("multiple of 8 rows") != std::string::npos);
  const Expected<SolveResult> narrow =
      solve({DType::fp64, 32, 32, {fam("column:4"), fam("row")}, std::nullopt});
  REQUIRE_FALSE(narrow.has_value());
  CHECK(narrow.error().find("cannot hold one 8-byte fp64") != std::string::npos);
  const Expected<SolveResult> tile =
      solve({DType::fp32, 0, 32, {fam("column"), fam("row")}, std::nullopt});
  REQUIRE_FALSE(tile.has_value());
  CHECK(tile.error().find("0x32") != std::string::npos);
}

TEST_CASE("fp32 scalar row writes and column reads: the xor swizzle or pad 1") {
  const SolveResult r = solved(DType::fp32, 32, 32, {fam("row:st"), fam("column")});
  verify(r);
  const Candidate& best = r.candidates[0];
  CHECK(best.layout.swizzle.kind == SwizzleKind::xor_columns);
  CHECK(best.excess() == 0);
  CHECK(best.overhead_bytes == 0);
  CHECK(has_spelling(best, "cute-elem:5,0,5"));
  CHECK(has_spelling(best, "triton:1,1,32"));
  const Candidate& second = r.candidates[1];
  CHECK(second.layout.swizzle.kind == SwizzleKind::none);
  CHECK(second.layout.pad == 1);
  CHECK(second.excess() == 0);
  CHECK(second.overhead_bytes == 128);
  // The plain tile: 32 wavefronts a column, 31 of them conflicts.
  const auto plain = std::find_if(r.candidates.begin(), r.candidates.end(), [](const Candidate& c) {
    return c.layout.pad == 0 && c.layout.swizzle.kind == SwizzleKind::none;
  });
  REQUIRE(plain != r.candidates.end());
  CHECK(plain->families[1].wavefronts == 32 * 32);
}

TEST_CASE(
    "fp32 16-byte row stores and column reads: a swizzle, since every conflict-free pad "
    "breaks 16-byte alignment") {
  const SolveResult r = solved(DType::fp32, 32, 32, {fam("row:16:st"), fam("column")});
  verify(r);
  const Candidate& best = r.candidates[0];
  CHECK(best.layout.swizzle.kind != SwizzleKind::none);
  CHECK(best.excess() == 0);
  CHECK(best.overhead_bytes == 0);
  // No pad is conflict-free and legal: the aligned pad 4 leaves a 4-way conflict.
  for (const Candidate& c : r.candidates) {
    if (c.layout.swizzle.kind == SwizzleKind::none && c.layout.pad > 0) {
      CAPTURE(c.layout);
      CHECK(c.excess() > 0);
      CHECK(c.layout.pitch_bytes() % 16 == 0);
    }
  }
  const auto pad4 = std::find_if(r.candidates.begin(), r.candidates.end(), [](const Candidate& c) {
    return c.layout.pad == 4 && c.layout.swizzle.kind == SwizzleKind::none;
  });
  REQUIRE(pad4 != r.candidates.end());
  CHECK(pad4->families[1].worst_ways == 4);
  const Rejected* pad1 = rejected_pad(r, 1);
  REQUIRE(pad1 != nullptr);
  CHECK(
      pad1->reason ==
      "pad 1: conflict-free column reads, but 16-byte row stores become misaligned: 132-byte rows");
}

TEST_CASE("bf16 packed-pair stores and column reads: not pad 1") {
  const SolveResult r = solved(DType::bf16, 32, 32, {fam("row:4:st"), fam("column")});
  verify(r);
  const Rejected* pad1 = rejected_pad(r, 1);
  REQUIRE(pad1 != nullptr);
  CHECK(pad1->reason.find("4-byte row stores become misaligned: 66-byte rows") !=
        std::string::npos);
  const Candidate& best = r.candidates[0];
  CHECK(best.excess() == 0);
  CHECK_FALSE(best.layout.pad == 1);
  // Pad 2 keeps pairs aligned and columns conflict-free, but two rows share a warp's store.
  const auto pad2 = std::find_if(r.candidates.begin(), r.candidates.end(), [](const Candidate& c) {
    return c.layout.pad == 2 && c.layout.swizzle.kind == SwizzleKind::none;
  });
  REQUIRE(pad2 != r.candidates.end());
  CHECK(pad2->families[1].wavefronts == pad2->families[1].ideal);
}

TEST_CASE("ldmatrix on 128-byte rows: the 128B swizzle") {
  const SolveResult r = solved(DType::bf16, 64, 64, {fam("row:16:st"), fam("ldmatrix.x4")});
  verify(r);
  const Candidate& best = r.candidates[0];
  CHECK(best.layout.swizzle.kind == SwizzleKind::tma128);
  CHECK(best.excess() == 0);
  CHECK(best.overhead_bytes == 0);
  CHECK(has_spelling(best, "cute:3,4,3"));
  CHECK(has_spelling(best, "cute-elem:3,3,3"));
  CHECK(has_spelling(best, "triton:8,1,8"));
  // Unswizzled, each ldmatrix.x4 takes 4 x 8 = 32 wavefronts against 4.
  const auto plain = std::find_if(r.candidates.begin(), r.candidates.end(), [](const Candidate& c) {
    return c.layout.pad == 0 && c.layout.swizzle.kind == SwizzleKind::none;
  });
  REQUIRE(plain != r.candidates.end());
  CHECK(plain->families[1].worst_ways == 8);
}

TEST_CASE("--max-overhead rejects the layouts that waste more, and keeps the rest") {
  const SolveResult r = solved(DType::fp32, 32, 32, {fam("row:st"), fam("column")}, 256);
  verify(r);
  for (const Candidate& c : r.candidates) CHECK(c.overhead_bytes <= 256);
  const Rejected* pad3 = rejected_pad(r, 3);
  REQUIRE(pad3 != nullptr);
  CHECK(pad3->reason ==
        "pad 3: 384 B of padding (9.4 %): 140-byte rows, over --max-overhead 256 B");
}

TEST_CASE("every candidate of larger and odder tiles counts as the brute-force model does") {
  // Tall tiles (several 32-row blocks: the solver counts one period of rows and multiplies),
  // wide rows (several row instructions a row), matrix ops, narrow TMA boxes, every dtype.
  struct Case {
    DType dtype;
    int rows, cols;
    std::vector<const char*> families;
  };
  const Case cases[] = {
      {DType::fp32, 64, 64, {"row:16:st", "column", "ldmatrix.x2"}},
      {DType::bf16, 32, 16, {"row:16:st", "ldmatrix.x2", "column:4"}},
      {DType::fp8, 64, 32, {"row:4:st", "column"}},
      {DType::fp64, 32, 16, {"row:16", "column:st"}},
      {DType::bf16, 24, 48, {"row:4:st", "column"}},
  };
  for (const Case& k : cases) {
    std::vector<AccessFamily> families;
    for (const char* f : k.families) families.push_back(fam(f));
    const SolveResult r = solved(k.dtype, k.rows, k.cols, families);
    CAPTURE(dtype_name(k.dtype));
    CAPTURE(k.rows);
    CAPTURE(k.cols);
    verify(r);
    CHECK(r.layouts_tried > 100);
  }
}

TEST_CASE("the instructions of a family are the Scenario's, index by index, on 32-row tiles") {
  // float tile[32][32]: the row walk with 1 float a lane is row N; the column reads are column
  // N; evaluate() counts each, and their sum is the family's.
  const TileLayout t{DType::fp32, 32, 32, 0, {SwizzleKind::tma128}};
  const Expected<Candidate> c = evaluate_candidate(t, {fam("row:st"), fam("column")});
  REQUIRE(c.has_value());
  int rows = 0;
  int columns = 0;
  for (int n = 0; n < 32; ++n) {
    Scenario s;
    s.tile = t;
    s.index = n;
    s.pattern = AccessPattern::row;
    s.op = Op::st;
    rows += evaluate(s).analysis->wavefront_count();
    s.pattern = AccessPattern::column;
    s.op = Op::ld;
    columns += evaluate(s).analysis->wavefront_count();
  }
  CHECK(c->families[0].wavefronts == rows);
  CHECK(c->families[1].wavefronts == columns);
  CHECK(c->families[1].instructions == 32);
}

}  // namespace banklab
