// WarpAccess: the ops, the rules an access must obey before it is analysed, and the batch-line
// format that must round-trip exactly.
#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "core/model/analysis.hpp"
#include "tests/core/random_access.hpp"

namespace banklab {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

WarpAccess uniform(Op op, int width, std::int64_t stride, std::int64_t start = 0) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = start + stride * lane;
  return a;
}

std::string offsets_text(std::int64_t stride, int count) {
  std::string out;
  for (int lane = 0; lane < count; ++lane) {
    if (lane > 0) out += ',';
    out += std::to_string(stride * lane);
  }
  return out;
}

// The single error check_access() reports, or fails the test.
Diagnostic only_error(const WarpAccess& a) {
  std::vector<Diagnostic> errors;
  for (const Diagnostic& d : check_access(a))
    if (d.severity == Severity::error) errors.push_back(d);
  REQUIRE(errors.size() >= 1);
  return errors.front();
}

}  // namespace

TEST_CASE("every op has a name that parses back, and the facts the counting needs") {
  for (Op op : kAllOps) {
    CAPTURE(op);
    CHECK(parse_op(op_name(op)) == op);
  }
  CHECK_FALSE(parse_op("ldmatrix").has_value());
  CHECK_FALSE(parse_op("LD").has_value());
  SUBCASE("matrices and addressed lanes") {
    CHECK(matrix_count(Op::ld) == 0);
    CHECK(matrix_count(Op::ldmatrix_x1) == 1);
    CHECK(matrix_count(Op::ldmatrix_x2) == 2);
    CHECK(matrix_count(Op::ldmatrix_x4) == 4);
    CHECK(matrix_count(Op::stmatrix_x4) == 4);
    CHECK(uniform(Op::st, 4, 4).addressed_lanes() == 32);
    CHECK(uniform(Op::ldmatrix_x1, 16, 16).addressed_lanes() == 8);
    CHECK(uniform(Op::ldmatrix_x2, 16, 16).addressed_lanes() == 16);
  }
  SUBCASE("LDSM counts under op_ld, STSM under op_st") {
    CHECK(is_load(Op::ld));
    CHECK(is_load(Op::ldmatrix_x4));
    CHECK_FALSE(is_load(Op::st));
    CHECK_FALSE(is_load(Op::stmatrix_x4));
    CHECK(is_matrix_op(Op::stmatrix_x4));
    CHECK_FALSE(is_matrix_op(Op::st));
  }
}

TEST_CASE("check_access() names the rule, the lane and the numbers") {
  SUBCASE("a width the hardware does not have") {
    const Diagnostic d = only_error(uniform(Op::ld, 3, 4));
    CHECK(d.rule == "width");
    CHECK(contains(d.message, "3 is not"));
  }
  SUBCASE("ldmatrix moves 16 bytes per row address") {
    const Diagnostic d = only_error(uniform(Op::ldmatrix_x4, 8, 16));
    CHECK(d.rule == "width");
    CHECK(contains(d.message, "ldmatrix.x4"));
    CHECK(contains(d.message, "width 8"));
  }
  SUBCASE("a 16-byte store into a 132-byte row") {
    // Row 1 of float tile[32][33] starts at byte 132, which is 4 past a multiple of 16.
    const Diagnostic d = only_error(uniform(Op::st, 16, 132));
    CHECK(d.rule == "alignment");
    CHECK(d.lane == 1);
    CHECK(contains(d.message, "lane 1"));
    CHECK(contains(d.message, "16-byte"));
    CHECK(contains(d.message, "132"));
  }
  SUBCASE("a 4-byte bf16x2 access into a 66-byte row") {
    const Diagnostic d = only_error(uniform(Op::ld, 4, 66));
    CHECK(d.rule == "alignment");
    CHECK(d.lane == 1);
    CHECK(contains(d.message, "66"));
    CHECK(contains(d.message, "4-byte"));
  }
  SUBCASE("an offset past the 228 KB of shared memory") {
    WarpAccess a = uniform(Op::ld, 4, 4);
    a.offsets[9] = kSharedMemoryBytes;
    const Diagnostic d = only_error(a);
    CHECK(d.rule == "bounds");
    CHECK(d.lane == 9);
    CHECK(contains(d.message, "233472"));
    SUBCASE("the last word still fits") {
      a.offsets[9] = kSharedMemoryBytes - 4;
      CHECK_FALSE(has_error(check_access(a)));
    }
    SUBCASE("a 16-byte access is checked for alignment, then for bounds") {
      WarpAccess b = uniform(Op::ld, 16, 16);
      b.offsets[3] = kSharedMemoryBytes - 8;
      CHECK(only_error(b).rule == "alignment");
      b.offsets[3] = kSharedMemoryBytes;
      CHECK(only_error(b).rule == "bounds");
    }
  }
  SUBCASE("offsets near INT64_MAX are out of bounds, with no overflow (issue 9)") {
    // Regression: the bound was checked as off + width > 228 KB, which overflows here (UBSan;
    // in Release a negative bank and an out-of-bounds write in the analysis).
    for (int width : {1, 2, 4, 8, 16}) {
      CAPTURE(width);
      const std::int64_t top = INT64_MAX / width * width;  // aligned, so only the bound fails
      WarpAccess a = uniform(Op::ld, width, width);
      a.offsets[31] = top;
      const Diagnostic d = only_error(a);
      CHECK(d.rule == "bounds");
      CHECK(d.lane == 31);
      CHECK(contains(d.message, std::to_string(top) + ".." + std::to_string(top + (width - 1))));
      a.offsets[31] = kSharedMemoryBytes - width;  // the last slot still fits
      CHECK_FALSE(has_error(check_access(a)));
    }
    const Expected<WarpAccess> line =
        parse_pattern_line("ld 16 " + offsets_text(16, 31) + ",9223372036854775792");
    REQUIRE(line.has_value());
    CHECK(only_error(*line).rule == "bounds");
  }
  SUBCASE("a negative offset other than -1") {
    WarpAccess a = uniform(Op::ld, 4, 4);
    a.offsets[0] = -8;
    const Diagnostic d = only_error(a);
    CHECK(d.rule == "bounds");
    CHECK(contains(d.message, "-8"));
  }
  SUBCASE("ldmatrix without a row address") {
    WarpAccess a = uniform(Op::ldmatrix_x2, 16, 16);
    a.offsets[12] = kInactiveLane;
    const Diagnostic d = only_error(a);
    CHECK(d.rule == "matrix-lanes");
    CHECK(d.lane == 12);
  }
  SUBCASE("ldmatrix ignores lanes past its matrices, and says so in a note") {
    const std::vector<Diagnostic> ds = check_access(uniform(Op::ldmatrix_x1, 16, 16));
    CHECK_FALSE(has_error(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].severity == Severity::note);
    CHECK(contains(ds[0].message, "8-31"));
  }
  SUBCASE("a clean access has no diagnostic at all") {
    CHECK(check_access(uniform(Op::ld, 4, 132)).empty());
    CHECK(check_access(uniform(Op::ldmatrix_x4, 16, 16)).empty());
  }
}

TEST_CASE("a diagnostic prints severity, rule and message, which names the lane itself") {
  const Diagnostic d{Severity::error, "alignment", "lane 8: bad", 8};
  std::ostringstream os;
  os << d;
  CHECK(os.str() == "error [alignment]: lane 8: bad");
  CHECK(first_error({{Severity::note, "n", "first", -1}, d}) == "lane 8: bad");
  CHECK(first_error({{Severity::warning, "w", "x", -1}}).empty());
}

TEST_CASE("the batch line of any access parses back to the same access and the same count") {
  brute::Rng rng(42);
  for (int i = 0; i < 20'000; ++i) {
    const WarpAccess a = brute::random_access(rng);
    const std::string line = to_string(a);
    CAPTURE(line);
    const Expected<WarpAccess> parsed = parse_pattern_line(line);
    REQUIRE(parsed.has_value());
    CHECK(*parsed == a);
    const Analysis one = analyze(a);
    const Analysis two = analyze(*parsed);
    CHECK(one.wavefront_count() == two.wavefront_count());
    CHECK(one.ideal_wavefronts == two.ideal_wavefronts);
  }
}

TEST_CASE("a batch line tolerates blanks between fields, and an offset list blanks around items") {
  const std::string offsets = offsets_text(4, 32);
  for (const std::string& line : {"ld 4 " + offsets, "  ld\t4   " + offsets + "\r"}) {
    CAPTURE(line);
    const Expected<WarpAccess> parsed = parse_pattern_line(line);
    REQUIRE(parsed.has_value());
    CHECK(*parsed == uniform(Op::ld, 4, 4));
  }
  const auto list = parse_offsets(offsets_text(4, 31) + ", 124 ");
  REQUIRE(list.has_value());
  CHECK(*list == uniform(Op::ld, 4, 4).offsets);
  CHECK(to_string(uniform(Op::st, 8, 8)) == "st 8 " + offsets_text(8, 32));
}

TEST_CASE("a bad batch line gets a message that says what was expected") {
  struct Bad {
    std::string line;
    std::string says;
  };
  const std::string ok = offsets_text(4, 32);
  for (const Bad& bad :
       {Bad{"", "3 fields"}, Bad{"ld 4", "3 fields"},
        Bad{"ld 4 " + ok + " extra", "too many fields"}, Bad{"lds 4 " + ok, "unknown op 'lds'"},
        Bad{"ld 3 " + ok, "bad width '3'"}, Bad{"ld four " + ok, "bad width 'four'"},
        Bad{"ld 4 " + offsets_text(4, 31), "got 31 offsets"},
        Bad{"ld 4 " + offsets_text(4, 33), "too many offsets"},
        Bad{"ld 4 " + ok + ",", "too many offsets"},
        Bad{"ld 4 x" + ok, "bad offset 'x0' for lane 0"},
        Bad{"ld 4 0,,8" + ok.substr(ok.find(",12")), "bad offset '' for lane 1"},
        Bad{"ld 4 99999999999999999999" + ok.substr(1), "bad offset"}}) {
    CAPTURE(bad.line);
    const Expected<WarpAccess> parsed = parse_pattern_line(bad.line);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(contains(parsed.error(), bad.says));
  }
}

TEST_CASE("widths parse as 1, 2, 4, 8 or 16") {
  for (int w : {1, 2, 4, 8, 16}) CHECK(*parse_width(std::to_string(w)) == w);
  for (const char* text : {"", "0", "3", "32", "-4", "4B", " 4"}) {
    CAPTURE(text);
    CHECK_FALSE(parse_width(text).has_value());
  }
}

}  // namespace banklab
