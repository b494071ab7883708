// Swizzle<B,M,S> and the TMA modes: the formula of docs/hardware-model.md, its bijectivity, and the
// spelling the CLI accepts.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/model/swizzle.hpp"
#include "tests/core/brute_force.hpp"

namespace banklab {
namespace {

// The rule s breaks, as check() words it (it must break one).
std::string refusal(const Swizzle& s) {
  const Expected<void> valid = s.check();
  REQUIRE_FALSE(valid);
  return valid.error();
}

}  // namespace

TEST_CASE("a swizzle prints as CuTe writes it") {
  std::ostringstream os;
  os << Swizzle{3, 4, 3};
  CHECK(os.str() == "Swizzle<3,4,3>");
}

TEST_CASE("Swizzle<B,M,S> applies CuTe's formula and is its own inverse, S negative too") {
  // Every valid parameter set with B <= 4, M <= 5, |S| <= 6 (S < 0: the bits at M are XORed
  // into the bits at M + |S|), on every offset of two periods.
  for (int bits = 0; bits <= 4; ++bits) {
    for (int base = 0; base <= 5; ++base) {
      for (int shift = -6; shift <= 6; ++shift) {
        if (shift > -bits && shift < bits) continue;
        const Swizzle s{bits, base, shift};
        CAPTURE(s);
        REQUIRE(s.check());
        const std::int64_t period = std::int64_t{1} << s.period_log2();
        std::vector<bool> hit(static_cast<std::size_t>(period), false);
        bool ok = true;
        for (std::int64_t x = 0; x < 2 * period && ok; ++x) {
          const std::int64_t y = s(x);
          ok = y == brute::swizzle(bits, base, shift, x) && s(y) == x &&
               y / period == x / period;  // stays inside its own period
          if (ok && x < period) {
            ok = !hit[static_cast<std::size_t>(y)];
            hit[static_cast<std::size_t>(y)] = true;
          }
          if (!ok) {
            CAPTURE(x);
            CHECK(y == brute::swizzle(bits, base, shift, x));
            CHECK(s(y) == x);
            CHECK(y / period == x / period);
          }
        }
        CHECK(ok);
      }
    }
  }
}

TEST_CASE("the 128B mode puts chunk q of a 128-byte row r at chunk q ^ (r mod 8)") {
  const Swizzle s = SwizzleSpec{SwizzleKind::tma128, {}}.byte_swizzle(1);
  for (int r = 0; r < 64; ++r) {
    for (int q = 0; q < 8; ++q) {
      for (int byte = 0; byte < 16; byte += 4) {
        CAPTURE(r);
        CAPTURE(q);
        CHECK(s(128 * r + 16 * q + byte) == 128 * r + 16 * (q ^ (r % 8)) + byte);
      }
    }
  }
}

TEST_CASE("Blackwell's atom modes are spelled, parsed and labelled as predicted") {
  for (const SwizzleKind kind : {SwizzleKind::tma128_atom32, SwizzleKind::tma128_atom64}) {
    const SwizzleSpec spec{kind};
    CAPTURE(spec);
    CHECK(parse_swizzle(to_string(spec)).value() == spec);
    CHECK(spec.is_tma());
    const SwizzleKindInfo& k = swizzle_kind(kind);
    CHECK(k.caveat == "predicted: not measured on Blackwell");
    CHECK(k.label.find("predicted: not measured on Blackwell") != std::string_view::npos);
    const TileLayout t{DType::bf16, 8, 64, 0, spec};
    REQUIRE(t.check());
    CHECK(k.native(t).find("predicted: not measured on Blackwell") != std::string::npos);
  }
  CHECK(to_string(SwizzleSpec{SwizzleKind::tma128_atom32}) == "tma128-atom32");
  CHECK(to_string(TileLayout{DType::fp32, 4, 32, 0, SwizzleSpec{SwizzleKind::tma128_atom32}}) ==
        "float tile[4][32] tma128-atom32 (predicted: not measured on Blackwell)");
  CHECK(swizzle_kind(SwizzleKind::tma128_atom64)
            .native(TileLayout{DType::fp32, 2, 32, 0, SwizzleSpec{SwizzleKind::tma128_atom64}}) ==
        "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B (predicted: not measured on Blackwell)");
  // Chunk q of row r at q ^ (r mod 4): fp32 row 1's first 32-byte chunk lands at chunk 1.
  const TileLayout t{DType::fp32, 4, 32, 0, SwizzleSpec{SwizzleKind::tma128_atom32}};
  CHECK(t(1, 0) == 128 + 32);
  CHECK(t(3, 9) == 3 * 128 + (1 ^ 3) * 32 + 4);
}

TEST_CASE("the TMA modes are Swizzle<1,4,3>, <2,4,3>, <3,4,3> with their spans and repeats") {
  struct Mode {
    SwizzleKind kind;
    Swizzle swizzle;
    int span;
    int repeat;
  };
  for (const Mode& m :
       {Mode{SwizzleKind::tma32, {1, 4, 3}, 32, 256}, Mode{SwizzleKind::tma64, {2, 4, 3}, 64, 512},
        Mode{SwizzleKind::tma128, {3, 4, 3}, 128, 1024},
        // Blackwell's atoms (predicted, not measured): CUTLASS's Swizzle<2,5,2> for 32-byte
        // atoms; 64-byte atoms as the driver describes them, Swizzle<1,6,1>.
        Mode{SwizzleKind::tma128_atom32, {2, 5, 2}, 128, 512},
        Mode{SwizzleKind::tma128_atom64, {1, 6, 1}, 128, 256}}) {
    const SwizzleSpec spec{m.kind, {}};
    CAPTURE(spec);
    CHECK(spec.byte_swizzle(1) == m.swizzle);
    CHECK(spec.tma_span_bytes() == m.span);
    CHECK(spec.tma_repeat_bytes() == m.repeat);
    // The repeat is the swizzle's period: the tile must hold whole ones.
    CHECK((1 << m.swizzle.period_log2()) == m.repeat);
  }
  SUBCASE("the other kinds have no span and permute no bytes") {
    for (SwizzleKind kind : {SwizzleKind::none, SwizzleKind::xor_columns}) {
      const SwizzleSpec spec{kind, {}};
      CAPTURE(spec);
      CHECK(spec.tma_span_bytes() == 0);
      CHECK(spec.tma_repeat_bytes() == 0);
      CHECK(spec.byte_swizzle(4)(12345) == 12345);
    }
  }
}

TEST_CASE("check() names the rule a swizzle's parameters break") {
  SUBCASE("valid") {
    CHECK(Swizzle{3, 4, 3}.check());
    CHECK(Swizzle{0, 0, 0}.check());
  }
  SUBCASE("negative B or M") {
    const std::string why = refusal(Swizzle{-1, 4, 3});
    CHECK(why.find("Swizzle<-1,4,3>") != std::string::npos);
    CHECK(why.find(">= 0") != std::string::npos);
    CHECK_FALSE(Swizzle{2, -1, 3}.check());
  }
  SUBCASE("|S| below B") {
    const std::string why = refusal(Swizzle{3, 4, 2});
    CHECK(why.find("|S| (2) must be >= B (3)") != std::string::npos);
    CHECK(refusal(Swizzle{3, 4, -1}).find("|S| (1) must be >= B (3)") != std::string::npos);
  }
  SUBCASE("a negative S of at least B is CuTe's left shift, CUTLASS's Swizzle<2,0,-2>") {
    CHECK(Swizzle{2, 0, -2}.check());
    CHECK(Swizzle{2, 0, -2}.period_log2() == 4);
  }
  SUBCASE("too many bits") {
    const std::string why = refusal(Swizzle{8, 20, 8});
    CHECK(why.find("36") != std::string::npos);
    CHECK(why.find("30") != std::string::npos);
  }
  SUBCASE("absurd parameters are refused without overflow") {
    CHECK_FALSE(refusal(Swizzle{2147483647, 2147483647, 2147483647}).empty());
  }
}

TEST_CASE("S < B is refused: with S = 0 the map clears bits, with 0 < S < B it is no involution") {
  // Swizzle<1,0,0>: x ^ (x & 1) maps 0 and 1 both to 0.
  CHECK(brute::swizzle(1, 0, 0, 0) == brute::swizzle(1, 0, 0, 1));
  CHECK_FALSE(Swizzle{1, 0, 0}.check());
  // Swizzle<2,0,1> is a bijection (a unipotent map over GF(2)) but not its own inverse; the
  // message must say what is wrong without claiming it is not a bijection.
  std::vector<bool> hit(8, false);
  for (std::int64_t x = 0; x < 8; ++x)
    hit[static_cast<std::size_t>(brute::swizzle(2, 0, 1, x))] = true;
  CHECK(std::count(hit.begin(), hit.end(), true) == 8);
  CHECK(brute::swizzle(2, 0, 1, brute::swizzle(2, 0, 1, 6)) != 6);
  const std::string why = refusal(Swizzle{2, 0, 1});
  CHECK(why.find("not its own inverse") != std::string::npos);
  CHECK(why.find("not a bijection") == std::string::npos);
}

TEST_CASE("every swizzle spelling parses back to itself") {
  const std::vector<SwizzleSpec> specs = {{SwizzleKind::none, {}},
                                          {SwizzleKind::xor_columns, {}},
                                          {SwizzleKind::cute, {3, 4, 3}},
                                          {SwizzleKind::cute, {0, 0, 0}},
                                          {SwizzleKind::cute, {2, 5, 4}},
                                          {SwizzleKind::tma32, {}},
                                          {SwizzleKind::tma64, {}},
                                          {SwizzleKind::tma128, {}},
                                          {SwizzleKind::cute, {2, 0, -2}},
                                          {SwizzleKind::cute_elem, {3, 3, 3}},
                                          {SwizzleKind::triton, {}, {8, 1, 8}},
                                          {SwizzleKind::triton, {}, {3, 5, 7}}};
  for (const SwizzleSpec& spec : specs) {
    CAPTURE(spec);
    const Expected<SwizzleSpec> parsed = parse_swizzle(to_string(spec));
    REQUIRE(parsed.has_value());
    CHECK(*parsed == spec);
  }
  CHECK(to_string(SwizzleSpec{SwizzleKind::cute, {3, 4, 3}}) == "cute:3,4,3");
  CHECK(to_string(SwizzleSpec{SwizzleKind::xor_columns, {}}) == "xor");
  CHECK(to_string(SwizzleSpec{SwizzleKind::cute_elem, {3, 3, 3}}) == "cute-elem:3,3,3");
  CHECK(to_string(SwizzleSpec{SwizzleKind::cute, {2, 0, -2}}) == "cute:2,0,-2");
  CHECK(to_string(SwizzleSpec{SwizzleKind::triton, {}, {8, 1, 8}}) == "triton:8,1,8");
}

TEST_CASE("a bad swizzle spelling gets a message that quotes it") {
  for (const char* text :
       {"", "tma256", "XOR", "cute:", "cute:3,4", "cute:3,4,3,", "cute:a,b,c", "cute:3;4;3",
        "cute:3,4,3x", "cute: 3,4,3", "cute-elem:", "cute-elem:3,3", "triton:", "triton:8,1",
        "triton:8,1,8,", "cuteelem:3,3,3"}) {
    CAPTURE(text);
    const Expected<SwizzleSpec> parsed = parse_swizzle(text);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().find(std::string("'").append(text).append("'")) != std::string::npos);
  }
  SUBCASE("parameters that break a rule are refused with the rule") {
    const Expected<SwizzleSpec> parsed = parse_swizzle("cute:3,4,1");
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().find("|S| (1) must be >= B (3)") != std::string::npos);
  }
}

TEST_CASE("parameters that break a rule are refused with it, in each notation") {
  const Expected<SwizzleSpec> elem = parse_swizzle("cute-elem:3,3,2");
  REQUIRE_FALSE(elem.has_value());
  CHECK(elem.error().find("|S| (2) must be >= B (3)") != std::string::npos);
  for (const char* text : {"triton:0,1,8", "triton:8,0,8", "triton:8,1,0", "triton:8,1,2000"}) {
    CAPTURE(text);
    const Expected<SwizzleSpec> parsed = parse_swizzle(text);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().find("between 1 and 1024") != std::string::npos);
  }
}

TEST_CASE("cute-elem:B,M,S swizzles element indices: in bytes it is Swizzle<B, M + log2 e, S>") {
  // Every element-form swizzle with B <= 3, M <= 3, |S| in B..5, every dtype: element i, byte
  // j inside it, lands at swizzle(i) * e + j.
  for (int e : {1, 2, 4, 8}) {
    for (int bits = 1; bits <= 3; ++bits) {
      for (int base = 0; base <= 3; ++base) {
        for (int shift = -5; shift <= 5; ++shift) {
          if (shift > -bits && shift < bits) continue;
          const SwizzleSpec spec{SwizzleKind::cute_elem, {bits, base, shift}};
          const Swizzle bytes = spec.byte_swizzle(e);
          CAPTURE(e);
          CAPTURE(spec);
          REQUIRE(bytes.check());
          bool ok = true;
          for (std::int64_t i = 0; i < 512 && ok; ++i) {
            for (int j = 0; j < e && ok; ++j) {
              ok = bytes(i * e + j) == brute::swizzle(bits, base, shift, i) * e + j;
            }
          }
          CHECK(ok);
        }
      }
    }
  }
  // FlashAttention-2's bf16 Swizzle<3,3,3>, composed with an element layout, is the 128-byte
  // TMA pattern in bytes.
  CHECK(SwizzleSpec{SwizzleKind::cute_elem, {3, 3, 3}}.byte_swizzle(2) ==
        SwizzleSpec{SwizzleKind::tma128}.byte_swizzle(2));
}

TEST_CASE("Triton's swizzled shared layout matches the examples of the TritonGPU dialect") {
  // The dialect documents each encoding by the element stored in every slot of a small tile:
  // stored[r][c] is the element (row-major index) at slot (r, c). The layout is its own
  // inverse per row, so slot (r, c) holds element (r, c ^ column_xor(r, C)).
  struct Example {
    TritonSwizzle t;
    int rows, cols;
    std::vector<int> stored;
  };
  const Example examples[] = {
      {{1, 1, 4}, 4, 4, {0, 1, 2, 3, 5, 4, 7, 6, 10, 11, 8, 9, 15, 14, 13, 12}},
      {{1, 2, 4}, 4, 4, {0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 11, 10, 13, 12, 15, 14}},
      {{1, 1, 2}, 8, 4, {0,  1,  2,  3,  5,  4,  7,  6,  8,  9,  10, 11, 13, 12, 15, 14,
                         16, 17, 18, 19, 21, 20, 23, 22, 24, 25, 26, 27, 29, 28, 31, 30}},
      {{1, 2, 2}, 8, 4, {0,  1,  2,  3,  4,  5,  6,  7,  9,  8,  11, 10, 13, 12, 15, 14,
                         16, 17, 18, 19, 20, 21, 22, 23, 25, 24, 27, 26, 29, 28, 31, 30}},
      {{2, 1, 4}, 4, 8, {0,  1,  2,  3,  4,  5,  6,  7,  10, 11, 8,  9,  14, 15, 12, 13,
                         20, 21, 22, 23, 16, 17, 18, 19, 30, 31, 28, 29, 26, 27, 24, 25}},
  };
  for (const Example& ex : examples) {
    CAPTURE(ex.t.vec);
    CAPTURE(ex.t.per_phase);
    CAPTURE(ex.t.max_phase);
    for (int r = 0; r < ex.rows; ++r) {
      for (int c = 0; c < ex.cols; ++c) {
        CAPTURE(r);
        CAPTURE(c);
        const int element = r * ex.cols + (c ^ ex.t.column_xor(r, ex.cols));
        CHECK(element == ex.stored[static_cast<std::size_t>(r * ex.cols + c)]);
      }
    }
  }
}

TEST_CASE("Triton's row XOR is vec * ((r / perPhase) mod maxPhase) mod C for powers of two") {
  for (int vec = 1; vec <= 16; vec *= 2) {
    for (int per_phase = 1; per_phase <= 8; per_phase *= 2) {
      for (int max_phase = 1; max_phase <= 32; max_phase *= 2) {
        for (int cols = 1; cols <= 128; cols *= 2) {
          const TritonSwizzle t{vec, per_phase, max_phase};
          bool ok = true;
          for (int r = 0; r < 256 && ok; ++r) {
            ok = t.column_xor(r, cols) == vec * (r / per_phase % max_phase) % cols;
          }
          CAPTURE(vec);
          CAPTURE(per_phase);
          CAPTURE(max_phase);
          CAPTURE(cols);
          CHECK(ok);
        }
      }
    }
  }
}

TEST_CASE("Triton's other parameter sets XOR the bases of the row's bits, as its linear layout") {
  // maxPhase 3, perPhase 1, vec 1, 4 columns: the bases of rows 1, 2, 4, 8 are 1, 2, 1, 2.
  // Row 3 XORs 1 and 2 (3), where the phase reading (3 mod 3 = 0) would say 0; row 5 XORs 1 and
  // 1 (0), where it would say 2.
  const TritonSwizzle t{1, 1, 3};
  CHECK(t.column_xor(1, 4) == 1);
  CHECK(t.column_xor(2, 4) == 2);
  CHECK(t.column_xor(3, 4) == 3);
  CHECK(t.column_xor(4, 4) == 1);
  CHECK(t.column_xor(5, 4) == 0);
  CHECK(t.column_xor(12, 4) == 3);
  // perPhase 3: rows 1 and 2 have phase 0, row 4 phase 1, row 8 phase 2.
  const TritonSwizzle p{2, 3, 4};
  CHECK(p.column_xor(1, 16) == 0);
  CHECK(p.column_xor(2, 16) == 0);
  CHECK(p.column_xor(4, 16) == 2);
  CHECK(p.column_xor(8, 16) == 4);
  CHECK(p.column_xor(12, 16) == 6);
}

TEST_CASE("each kind's solver sweep gives layouts of its own kind whose parameters are valid") {
  // The solver sweeps every kind through its descriptor (core/solve/solve.cpp); a sweep that
  // gave another kind, or a spec its own rules refuse, would be a layout nobody can name.
  for (const int e : {1, 2, 4, 8}) {
    for (const std::int64_t tile_bytes : {std::int64_t{1024}, std::int64_t{64} * 64 * e}) {
      for (const SwizzleKindInfo& k : swizzle_kinds()) {
        std::vector<SwizzleSpec> swept;
        k.sweep(k, e, tile_bytes, swept);
        for (const SwizzleSpec& sw : swept) {
          CAPTURE(to_string(sw));
          CHECK(sw.kind == k.kind);
          CHECK(k.check_parameters(sw).has_value());
        }
        // A kind a user names (xor, the TMA modes) is its one layout; none is the solver's pads.
        if (k.named_in_sweep) CHECK(swept == std::vector<SwizzleSpec>{k.example});
        if (k.kind == SwizzleKind::none || k.kind == SwizzleKind::cute_elem) CHECK(swept.empty());
        // The parameter sweeps: CuTe's bits, base and shift; Triton's vector and phases.
        if (k.kind == SwizzleKind::cute || k.kind == SwizzleKind::triton) CHECK(swept.size() > 10);
      }
    }
  }
}

}  // namespace banklab
