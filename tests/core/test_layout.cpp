// TileLayout: the layout function (r, c) -> byte, its banks, its validity rules, and the law
// that every valid layout stores each element in its own slot of the tile.
//
// [SECTION] Tiles and the swizzles to try
// [SECTION] Where the lesson's tiles put their elements
// [SECTION] Cost, declaration and the rules a tile obeys
// [SECTION] TMA boxes, CuTe and Triton
// [SECTION] Notations, the bank map and sizes
#include <doctest/doctest.h>

#include <bit>
#include <sstream>
#include <vector>

#include "core/model/layout.hpp"
#include "core/model/scenario.hpp"
#include "tests/core/brute_force.hpp"

namespace banklab {
namespace {

// [SECTION] Tiles and the swizzles to try

TileLayout tile(DType t, int rows, int cols, int pad = 0, SwizzleSpec swizzle = {}) {
  return TileLayout{t, rows, cols, pad, swizzle};
}

const SwizzleSpec kXor{SwizzleKind::xor_columns, {}};
const SwizzleSpec kTma128{SwizzleKind::tma128, {}};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The rule t breaks, as check() words it (it must break one).
std::string refusal(const TileLayout& t) {
  const Expected<void> valid = t.check();
  REQUIRE_FALSE(valid);
  return valid.error();
}

// Every swizzle the law test tries on a tile: none, xor, every CuTe Swizzle<B,M,S> with
// B <= 3, M <= 6, B <= |S| <= 4 over bytes and over elements (B = 0 is the identity, tried
// once), the three TMA modes, and Triton's vec/perPhase/maxPhase, powers of two and not.
std::vector<SwizzleSpec> swizzles_to_try() {
  std::vector<SwizzleSpec> out = {
      {SwizzleKind::none, {}},  kXor,    {SwizzleKind::tma32, {}},
      {SwizzleKind::tma64, {}}, kTma128, {SwizzleKind::cute, {0, 0, 0}}};
  for (int bits = 1; bits <= 3; ++bits) {
    for (int base = 0; base <= 6; ++base) {
      for (int shift = bits; shift <= 4; ++shift) {
        out.push_back({SwizzleKind::cute, {bits, base, shift}});
        if (base <= 2) out.push_back({SwizzleKind::cute, {bits, base, -shift}});
        if (base <= 2) out.push_back({SwizzleKind::cute_elem, {bits, base, shift}});
      }
    }
  }
  for (int vec : {1, 3, 8})
    for (int per_phase : {1, 3})
      for (int max_phase : {3, 8, 32})
        out.push_back({SwizzleKind::triton, {}, {vec, per_phase, max_phase}});
  return out;
}

}  // namespace

// [SECTION] Where the lesson's tiles put their elements

TEST_CASE("float tile[32][33] puts element (r, c) at byte 132r + 4c, bank (r + c) mod 32") {
  const TileLayout t = tile(DType::fp32, 32, 32, 1);
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 32; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(t(r, c) == 132 * r + 4 * c);
      CHECK(t.bank(r, c) == (r + c) % 32);
    }
  }
}

TEST_CASE("bf16 tile[32][32] puts element (r, c) in bank (16r + c/2) mod 32") {
  const TileLayout t = tile(DType::bf16, 32, 32);
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 32; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(t.bank(r, c) == (16 * r + c / 2) % 32);
      // Even rows on banks c/2, odd rows on 16 + c/2: two banks per column.
      CHECK(t.bank(r, c) == (r % 2 == 0 ? c / 2 : 16 + c / 2));
    }
  }
}

TEST_CASE("the xor swizzle stores element (r, c) at column c ^ r, in bank c ^ r") {
  const TileLayout t = tile(DType::fp32, 32, 32, 0, kXor);
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 32; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(t.physical_cell(r, c) == Cell{r, c ^ r});
      CHECK(t.bank(r, c) == (c ^ r));
    }
  }
}

TEST_CASE("the 128B TMA swizzle moves 16-byte chunk q of row r to chunk q ^ (r mod 8)") {
  const TileLayout t = tile(DType::fp32, 16, 32, 0, kTma128);
  REQUIRE(t.check());
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 32; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(t.physical_cell(r, c) == Cell{r, 4 * ((c / 4) ^ (r % 8)) + c % 4});
    }
  }
}

// [SECTION] Cost, declaration and the rules a tile obeys

TEST_CASE("the one-column pad costs 128 B per float tile, about 3 percent") {
  const TileLayout plain = tile(DType::fp32, 32, 32);
  const TileLayout padded = tile(DType::fp32, 32, 32, 1);
  CHECK(plain.size_bytes() == 4096);
  CHECK(padded.size_bytes() - plain.size_bytes() == 128);
  CHECK(padded.pitch_bytes() == 132);
  // 128 / 4096 = 3.1 %.
  CHECK(100 * (padded.size_bytes() - plain.size_bytes()) / plain.size_bytes() == 3);
  SUBCASE("the bf16 pads: 66-byte rows misalign bf16x2, 68-byte rows keep 4-byte alignment") {
    CHECK(tile(DType::bf16, 32, 32, 1).pitch_bytes() == 66);
    CHECK(tile(DType::bf16, 32, 32, 2).pitch_bytes() == 68);
  }
  SUBCASE("the aligned fp32 pad: 36 floats, 144 bytes, a multiple of 16") {
    CHECK(tile(DType::fp32, 32, 32, 4).pitch_bytes() % 16 == 0);
    CHECK(padded.pitch_bytes() % 16 != 0);
  }
}

TEST_CASE("a tile prints as the C declaration a kernel would write") {
  CHECK(to_string(tile(DType::fp32, 32, 32, 1)) == "float tile[32][33]");
  CHECK(to_string(tile(DType::bf16, 32, 32, 0, kXor)) == "bf16 tile[32][32] xor");
  CHECK(to_string(tile(DType::fp32, 8, 32, 0, kTma128)) == "float tile[8][32] tma128");
  std::ostringstream os;
  os << tile(DType::fp64, 32, 32, 1);
  CHECK(os.str() == "double tile[32][33]");
  // Regression (found by the fuzzer): an absurd tile prints without overflowing C + P.
  CHECK(to_string(tile(DType::fp32, 1, 2147483647, 2147483647)) == "float tile[1][4294967294]");
}

TEST_CASE("check() refuses a tile that cannot exist, naming the rule and the numbers") {
  SUBCASE("sides <= 0 or absurd") {
    for (const auto& sides : {std::pair{0, 32},
                              {32, 0},
                              {-5, 32},
                              {32, 5000},
                              {2147483647, 2147483647},
                              {-2147483647 - 1, 1}}) {
      // Named copies: clang 14 (the sanitized build's) cannot capture structured bindings.
      const int rows = sides.first;
      const int cols = sides.second;
      CAPTURE(rows);
      CAPTURE(cols);
      const std::string why = refusal(tile(DType::fp32, rows, cols));
      CHECK(contains(why, std::to_string(rows) + "x" + std::to_string(cols)));
      CHECK(contains(why, "4096"));
    }
  }
  SUBCASE("the pitch of an absurd tile is computed in 64 bits (issue 9)") {
    // Regression: cols + pad was summed in int before widening.
    CHECK(tile(DType::fp64, 1, 2147483647, 2147483647).pitch_bytes() == 8 * 4294967294LL);
    CHECK(tile(DType::fp32, 1, -2147483647 - 1, -1).pitch_bytes() == -4 * 2147483649LL);
  }
  SUBCASE("pad < 0 or absurd") {
    for (int pad : {-1, -2147483647 - 1, 2000, 2147483647}) {
      CAPTURE(pad);
      const std::string why = refusal(tile(DType::fp32, 32, 32, pad));
      CHECK(contains(why, "pad " + std::to_string(pad)));
    }
  }
  SUBCASE("more than the 227 KB one block can have") {
    const std::string why = refusal(tile(DType::fp64, 128, 256));
    CHECK(contains(why, "262144"));
    CHECK(contains(why, "232448 B (227 KB), the most one block can have"));
    CHECK(contains(why, "233472 B (228 KB)"));  // the SM's, less 1 KB reserved per block
    CHECK(contains(why, "use fewer rows"));
    // 233472 B, the whole SM, is more than one block can have; 231424 B fits.
    CHECK(contains(refusal(tile(DType::fp64, 114, 256)), "232448"));
    CHECK(tile(DType::fp64, 113, 256).check());
  }
  SUBCASE("xor on a row that is not a power of two") {
    const std::string why = refusal(tile(DType::fp32, 32, 33, 0, kXor));
    CHECK(contains(why, "power of two"));
    CHECK(contains(why, "33"));
  }
  SUBCASE("a CuTe swizzle that splits elements") {
    const std::string why = refusal(tile(DType::fp64, 32, 32, 0, {SwizzleKind::cute, {1, 2, 3}}));
    CHECK(contains(why, "Swizzle<1,2,3>"));
    CHECK(contains(why, "M must be at least 3"));
    CHECK(contains(why, "cute-elem"));
  }
  SUBCASE("a CuTe swizzle that sends bytes past the end of the tile") {
    // bf16 tile[8][33] = 528 B: Swizzle<3,4,3> XORs bit 9 of byte 512 into bit 6, sending
    // bytes 512..527 to 576..591.
    const std::string why = refusal(tile(DType::bf16, 8, 32, 1, {SwizzleKind::cute, {3, 4, 3}}));
    CHECK(contains(why, "528"));
    CHECK(contains(why, "1024"));
    CHECK(contains(why, "byte 512 would move to 576"));
    // float tile[32][33] = 4224 B = 33 blocks of 128 B, which Swizzle<3,4,3> permutes in place.
    CHECK(tile(DType::fp32, 32, 32, 1, {SwizzleKind::cute, {3, 4, 3}}).check());
  }
  SUBCASE("a CuTe swizzle that sends only the tail of a block past the end") {
    // Regression: float tile[24][133] = 12768 B under Swizzle<2,6,2>. Byte 12672 moves to
    // 12736, so its 64-byte block's bytes 12704..12735 would land at 12768..12799; checking
    // only the first byte of each block missed them.
    const std::string why = refusal(tile(DType::fp32, 24, 128, 5, {SwizzleKind::cute, {2, 6, 2}}));
    CHECK(contains(why, "12768"));
    CHECK(contains(why, "byte 12704 would move to 12768"));
  }
  SUBCASE("a CuTe swizzle whose parameters are not a bijection") {
    const std::string why = refusal(tile(DType::fp32, 32, 32, 0, {SwizzleKind::cute, {2, 4, 1}}));
    CHECK(contains(why, "|S| (1) must be >= B (2)"));
  }
  SUBCASE("a TMA box row wider than the span, or not a multiple of 16 bytes") {
    // 256-byte rows under the 128-byte mode; 8-byte rows under the 32-byte mode.
    const std::string wide = refusal(tile(DType::fp32, 32, 64, 0, kTma128));
    CHECK(contains(wide, "256 B"));
    CHECK(contains(wide, "at most the swizzle span"));
    // 128B is the widest mode: no "wider mode" to suggest, the boxes instead.
    CHECK_FALSE(contains(wide, "wider mode"));
    CHECK(contains(wide, "no TMA mode is wider than 128B"));
    CHECK(contains(refusal(tile(DType::fp32, 32, 32, 0, {SwizzleKind::tma64})),
                   "or a wider mode (tma128)"));
    CHECK(contains(refusal(tile(DType::fp32, 32, 16, 0, {SwizzleKind::tma32})),
                   "or a wider mode (tma64 or tma128)"));
    const std::string tiny = refusal(tile(DType::fp32, 32, 2, 0, {SwizzleKind::tma32}));
    CHECK(contains(tiny, "multiple of 16 B"));
    CHECK(contains(tiny, "8 B"));
  }
  SUBCASE("a Triton layout on a shape that is not a power of two, or padded") {
    const std::string odd =
        refusal(tile(DType::bf16, 24, 64, 0, {SwizzleKind::triton, {}, {8, 1, 8}}));
    CHECK(contains(odd, "24x64"));
    CHECK(contains(odd, "power-of-two"));
    CHECK(contains(refusal(tile(DType::bf16, 32, 64, 2, {SwizzleKind::triton, {}, {8, 1, 8}})),
                   "no padding (pad 2"));
  }
  SUBCASE("a cute-elem swizzle is judged in bytes, and says so") {
    // Swizzle<1,0,-9> over fp32 elements is Swizzle<1,2,-9> in bytes: bit 2 is XORed into bit
    // 11, which sends byte 1028 of a 3072-byte float tile[32][24] to 3076.
    const std::string why =
        refusal(tile(DType::fp32, 32, 24, 0, {SwizzleKind::cute_elem, {1, 0, -9}}));
    CHECK(contains(why, "Swizzle<1,2,-9> (cute-elem:1,0,-9 on fp32 elements, in bytes)"));
    CHECK(contains(why, "not a bijection"));
    CHECK(contains(why, "byte 1028 would move to 3076"));
  }
  SUBCASE("a TMA repeat the tile does not align with") {
    // 4 rows of 128 B = 512 B, half of the 1024-byte repeat.
    const std::string why = refusal(tile(DType::fp32, 4, 32, 0, kTma128));
    CHECK(contains(why, "1024"));
    CHECK(contains(why, "512"));
  }
  SUBCASE("a padded TMA tile") {
    CHECK_FALSE(tile(DType::fp32, 8, 32, 1, kTma128).check());
  }
}

TEST_CASE("every valid layout stores every element in its own slot, as the formulas say") {
  // All dtypes x sides 8..128 x pads 0..8 x every swizzle to try: when check() accepts the
  // tile, each element must land on a distinct, element-aligned slot inside it, at the byte
  // the independent formula gives; the bank map must agree element by element.
  const std::vector<SwizzleSpec> swizzles = swizzles_to_try();
  int accepted = 0;
  int accepted_swizzled = 0;
  for (DType dtype : kAllDTypes) {
    for (int rows : {8, 16, 24, 32, 128}) {
      for (int cols : {8, 16, 24, 32, 128}) {
        for (int pad = 0; pad <= 8; ++pad) {
          for (const SwizzleSpec& sw : swizzles) {
            // The notations added for issue 14 on tiles of up to 4096 elements: enough for
            // every bit they touch, and the suite stays quick.
            const bool added = sw.kind == SwizzleKind::cute_elem ||
                               sw.kind == SwizzleKind::triton || sw.cute.shift < 0;
            if (added && rows * cols > 4096) continue;
            const TileLayout t = tile(dtype, rows, cols, pad, sw);
            if (!t.check()) continue;
            ++accepted;
            accepted_swizzled += sw.kind != SwizzleKind::none;
            const int e = dtype_bytes(dtype);
            std::vector<bool> used(static_cast<std::size_t>(t.size_bytes() / e), false);
            // The inverse and the gap: every element is found back at its byte, and the slots
            // no element lands in are exactly the overhead.
            const std::vector<std::int32_t> map = byte_map(t);
            int gaps = 0;
            const bool small = rows * t.slots_per_row() <= 2048;  // the slot walk costs most
            for (int pr = 0; pr < rows && small; ++pr)
              for (int ps = 0; ps < t.slots_per_row(); ++ps) gaps += t.is_gap_slot(pr, ps);
            if (small && gaps * e != t.overhead_bytes()) {
              CAPTURE(t);
              FAIL_CHECK("the gap slots are not the overhead: " << gaps * e << " B");
            }
            bool ok = true;
            for (int r = 0; r < rows && ok; ++r) {
              for (int c = 0; c < cols && ok; ++c) {
                const std::int64_t byte = t(r, c);
                const std::size_t slot = static_cast<std::size_t>(byte / e);
                ok = byte == brute::tile_byte(t, r, c) && byte >= 0 && byte % e == 0 &&
                     byte + e <= t.size_bytes() && !used[slot] && t.bank(r, c) == byte / 4 % 32 &&
                     (!small || t.element_at(byte) == Cell{r, c}) &&
                     map[static_cast<std::size_t>(r * cols + c)] == byte;
                if (ok) used[slot] = true;
                if (!ok) {
                  CAPTURE(t);
                  CAPTURE(r);
                  CAPTURE(c);
                  CAPTURE(byte);
                  CHECK(byte == brute::tile_byte(t, r, c));
                  CHECK(byte % e == 0);
                  CHECK(byte + e <= t.size_bytes());
                  CHECK(t.bank(r, c) == byte / 4 % 32);
                  CHECK(t.element_at(byte) == Cell{r, c});
                  FAIL_CHECK("two elements share a slot, or one leaves the tile");
                }
              }
            }
          }
        }
      }
    }
  }
  // The domain is not vacuous: thousands of layouts, most of them swizzled.
  CHECK(accepted > 5000);
  CHECK(accepted_swizzled > 3000);
}

// [SECTION] TMA boxes, CuTe and Triton

TEST_CASE("a TMA box narrower than the span is placed at span pitch, and the gap is known") {
  // bf16 32x16 under the 128B mode: 32-byte box rows at 128-byte pitch, as the H200 places them
  // (issue 14: all 9,984 measured placements match this swizzle on rows padded to the span).
  const TileLayout t = tile(DType::bf16, 32, 16, 0, kTma128);
  REQUIRE(t.check());
  CHECK(t.row_bytes() == 32);
  CHECK(t.pitch_bytes() == 128);
  CHECK(t.size_bytes() == 4096);
  CHECK(t.overhead_bytes() == 4096 - 1024);
  CHECK(t.slots_per_row() == 64);
  // Chunk q of row r lands at chunk q ^ (r mod 8) of the 128-byte row: rows 0 and 1 keep their
  // data in chunks {0, 1} and {1, 0}; row 2 moves it to chunks {2, 3}.
  CHECK(t.physical_cell(2, 0) == Cell{2, 16});
  CHECK(t.physical_cell(2, 8) == Cell{2, 24});
  CHECK(t.is_gap_slot(2, 0));
  CHECK_FALSE(t.is_gap_slot(2, 16));
  CHECK(t.element_at(2 * 128 + 16 * 2) == Cell{2, 0});
  // The same bytes as the tile padded to the span and swizzled in bytes.
  CHECK(same_placement(t, tile(DType::bf16, 32, 16, 48, {SwizzleKind::cute, {3, 4, 3}})));
  CHECK(to_string(t) == "bf16 tile[32][16] tma128");
}

TEST_CASE("cute-elem:3,3,3 on bf16 (FlashAttention-2's Swizzle<3,3,3>) is cute:3,4,3 in bytes") {
  const TileLayout elem = tile(DType::bf16, 64, 64, 0, {SwizzleKind::cute_elem, {3, 3, 3}});
  const TileLayout bytes = tile(DType::bf16, 64, 64, 0, {SwizzleKind::cute, {3, 3, 3}});
  REQUIRE(elem.check());
  CHECK(same_placement(elem, tile(DType::bf16, 64, 64, 0, kTma128)));
  // Typed literally over bytes, Swizzle<3,3,3> XORs 8-byte halves of chunks instead.
  REQUIRE(bytes.check());
  CHECK_FALSE(same_placement(elem, bytes));
}

TEST_CASE("Triton with power-of-two parameters equals its CuTe reduction") {
  // B = log2 maxPhase, M = log2(vec * e), S = log2(row bytes * perPhase) - M, whenever
  // vec * maxPhase fits in the row (else Triton's "% C" wraps and no Swizzle spells it).
  int compared = 0;
  for (DType dtype : kAllDTypes) {
    const int e = dtype_bytes(dtype);
    for (int cols : {8, 16, 32, 64, 128}) {
      for (int vec = 1; vec <= 16; vec *= 2) {
        for (int per_phase = 1; per_phase <= 8; per_phase *= 2) {
          for (int max_phase = 1; max_phase <= 16; max_phase *= 2) {
            if (vec * max_phase > cols) continue;
            const int m = std::countr_zero(static_cast<unsigned>(vec * e));
            const int s = std::countr_zero(static_cast<unsigned>(cols * e * per_phase)) - m;
            const int b = std::countr_zero(static_cast<unsigned>(max_phase));
            const TileLayout tr =
                tile(dtype, 64, cols, 0, {SwizzleKind::triton, {}, {vec, per_phase, max_phase}});
            const TileLayout cu = tile(dtype, 64, cols, 0, {SwizzleKind::cute, {b, m, s}});
            CAPTURE(tr);
            CAPTURE(cu);
            REQUIRE(tr.check());
            if (!cu.check()) continue;  // the tile is not a whole number of periods
            CHECK(same_placement(tr, cu));
            ++compared;
          }
        }
      }
    }
  }
  CHECK(compared > 300);
}

TEST_CASE("a short Triton tile wraps the XOR inside its row, as Triton lays it out") {
  // vec 8, maxPhase 8 on a 16-column bf16 tile: vec * phase runs to 56, wrapped mod 16.
  const TileLayout t = tile(DType::bf16, 16, 16, 0, {SwizzleKind::triton, {}, {8, 1, 8}});
  REQUIRE(t.check());
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(t.physical_cell(r, c) == Cell{r, c ^ (8 * (r % 8) % 16)});
    }
  }
  // Its CuTe reduction, Swizzle<3,4,1>, reaches into the next row instead: not the same.
  CHECK_FALSE(same_placement(t, tile(DType::bf16, 16, 16, 0, {SwizzleKind::cute, {3, 4, 1}})));
}

// [SECTION] Notations, the bank map and sizes

TEST_CASE("every layout spells itself in each notation that can express it, exactly") {
  auto notations = [](const TileLayout& t) {
    std::vector<std::string> out;
    for (const Spelling& s : spellings(t)) out.push_back(s.notation + " " + to_string(s.swizzle));
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(notations(tile(DType::fp32, 32, 32, 0, kXor)) == V{"banklab xor", "cute (bytes) cute:5,2,5",
                                                           "cute (elements) cute-elem:5,0,5",
                                                           "triton triton:1,1,32"});
  CHECK(notations(tile(DType::bf16, 64, 64, 0, kTma128)) ==
        V{"tma tma128", "cute (bytes) cute:3,4,3", "cute (elements) cute-elem:3,3,3",
          "triton triton:8,1,8"});
  CHECK(notations(tile(DType::bf16, 64, 64, 0, {SwizzleKind::triton, {}, {8, 1, 8}})) ==
        V{"triton triton:8,1,8", "cute (bytes) cute:3,4,3", "cute (elements) cute-elem:3,3,3",
          "tma tma128"});
  CHECK(notations(tile(DType::fp32, 32, 32, 1)) == V{"banklab none"});
  // A narrow TMA box: the byte form needs the rows padded to the span; Triton cannot say it.
  const std::vector<Spelling> narrow = spellings(tile(DType::bf16, 32, 16, 0, kTma128));
  REQUIRE(narrow.size() == 3);
  CHECK(narrow[1].args() == std::vector<std::string>{"--pad", "48", "--swizzle", "cute:3,4,3"});
  CHECK(narrow[0].native == "CU_TENSOR_MAP_SWIZZLE_128B (32-byte box rows at 128-byte pitch)");
  // And over a whole domain: every spelling listed is valid and stores every element where
  // the layout does.
  int listed = 0;
  for (DType dtype : kAllDTypes) {
    for (int cols : {8, 16, 32, 64}) {
      for (const SwizzleSpec& sw : swizzles_to_try()) {
        const TileLayout t = tile(dtype, 32, cols, 0, sw);
        if (!t.check()) continue;
        for (const Spelling& s : spellings(t)) {
          const TileLayout again = tile(dtype, 32, cols, s.pad, s.swizzle);
          CAPTURE(t);
          CAPTURE(again);
          REQUIRE(again.check());
          CHECK(same_placement(t, again));
          ++listed;
        }
      }
    }
  }
  CHECK(listed > 1000);
}

TEST_CASE("the bank map lists the bank of every element, row-major") {
  for (const TileLayout& t : {tile(DType::fp32, 32, 32, 1), tile(DType::bf16, 16, 64, 0, kTma128),
                              tile(DType::fp8, 8, 32, 3)}) {
    CAPTURE(t);
    REQUIRE(t.check());
    const std::vector<std::uint8_t> banks = tile_bank_map(t);
    REQUIRE(banks.size() == static_cast<std::size_t>(t.rows * t.cols));
    for (int r = 0; r < t.rows; ++r) {
      for (int c = 0; c < t.cols; ++c) {
        CAPTURE(r);
        CAPTURE(c);
        CHECK(banks[static_cast<std::size_t>(r * t.cols + c)] ==
              brute::tile_byte(t, r, c) / 4 % 32);
      }
    }
  }
  CHECK(tile_bank_map(tile(DType::fp32, 0, 32)).empty());
}

TEST_CASE("tile sizes parse as RxC") {
  SUBCASE("accepted") {
    CHECK(parse_tile_size("32x32")->row == 32);
    CHECK(parse_tile_size("8X64")->col == 64);
    CHECK(*parse_tile_size("16x128") == Cell{16, 128});
  }
  SUBCASE("refused, quoting the text") {
    for (const char* text :
         {"", "32", "x32", "32x", "32x32x", "axb", "32 x 32", "32x32 ", "99999999999x1"}) {
      CAPTURE(text);
      const Expected<Cell> parsed = parse_tile_size(text);
      REQUIRE_FALSE(parsed.has_value());
      CHECK(contains(parsed.error(), std::string("'").append(text).append("'")));
    }
  }
}

}  // namespace banklab
