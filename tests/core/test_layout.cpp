// TileLayout: the layout function (r, c) -> byte, its banks, its validity rules, and the law
// that every valid layout stores each element in its own slot of the tile.
#include <doctest/doctest.h>

#include <sstream>
#include <vector>

#include "banklab/layout.hpp"
#include "banklab/scenario.hpp"
#include "brute_force.hpp"

namespace banklab {
namespace {

TileLayout tile(DType t, int rows, int cols, int pad = 0, SwizzleSpec swizzle = {}) {
  return TileLayout{t, rows, cols, pad, swizzle};
}

const SwizzleSpec kXor{SwizzleKind::xor_columns, {}};
const SwizzleSpec kTma128{SwizzleKind::tma128, {}};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every swizzle the law test tries on a tile: none, xor, every CuTe Swizzle<B,M,S> with
// B <= 3, M <= 6, B <= S <= 4 (B = 0 is the identity, tried once), and the three TMA modes.
std::vector<SwizzleSpec> swizzles_to_try() {
  std::vector<SwizzleSpec> out = {{SwizzleKind::none, {}},
                                  kXor,
                                  {SwizzleKind::tma32, {}},
                                  {SwizzleKind::tma64, {}},
                                  kTma128,
                                  {SwizzleKind::cute, {0, 0, 0}}};
  for (int bits = 1; bits <= 3; ++bits)
    for (int base = 0; base <= 6; ++base)
      for (int shift = bits; shift <= 4; ++shift)
        out.push_back({SwizzleKind::cute, {bits, base, shift}});
  return out;
}

}  // namespace

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
  REQUIRE(t.check().empty());
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 32; ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(t.physical_cell(r, c) == Cell{r, 4 * ((c / 4) ^ (r % 8)) + c % 4});
    }
  }
}

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
    for (const auto& [rows, cols] : {std::pair{0, 32}, {32, 0}, {-5, 32}, {32, 5000},
                                     {2147483647, 2147483647}, {-2147483647 - 1, 1}}) {
      CAPTURE(rows);
      CAPTURE(cols);
      const std::string why = tile(DType::fp32, rows, cols).check();
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
      const std::string why = tile(DType::fp32, 32, 32, pad).check();
      CHECK(contains(why, "pad " + std::to_string(pad)));
    }
  }
  SUBCASE("more than 228 KB") {
    const std::string why = tile(DType::fp64, 128, 256).check();
    CHECK(contains(why, "262144"));
    CHECK(contains(why, "233472"));
    CHECK(tile(DType::fp64, 114, 256).check().empty());  // 233472 B: exactly 228 KB fits
  }
  SUBCASE("xor on a row that is not a power of two") {
    const std::string why = tile(DType::fp32, 32, 33, 0, kXor).check();
    CHECK(contains(why, "power of two"));
    CHECK(contains(why, "33"));
  }
  SUBCASE("a CuTe swizzle that splits elements") {
    const std::string why = tile(DType::fp64, 32, 32, 0, {SwizzleKind::cute, {1, 2, 3}}).check();
    CHECK(contains(why, "Swizzle<1,2,3>"));
    CHECK(contains(why, "M must be at least 3"));
  }
  SUBCASE("a CuTe swizzle that sends bytes past the end of the tile") {
    // bf16 tile[8][33] = 528 B: Swizzle<3,4,3> XORs bit 9 of byte 512 into bit 6, sending
    // bytes 512..527 to 576..591.
    const std::string why = tile(DType::bf16, 8, 32, 1, {SwizzleKind::cute, {3, 4, 3}}).check();
    CHECK(contains(why, "528"));
    CHECK(contains(why, "1024"));
    CHECK(contains(why, "byte 512 would move to 576"));
    // float tile[32][33] = 4224 B = 33 blocks of 128 B, which Swizzle<3,4,3> permutes in place.
    CHECK(tile(DType::fp32, 32, 32, 1, {SwizzleKind::cute, {3, 4, 3}}).check().empty());
  }
  SUBCASE("a CuTe swizzle that sends only the tail of a block past the end") {
    // Regression: float tile[24][133] = 12768 B under Swizzle<2,6,2>. Byte 12672 moves to
    // 12736, so its 64-byte block's bytes 12704..12735 would land at 12768..12799; checking
    // only the first byte of each block missed them.
    const std::string why = tile(DType::fp32, 24, 128, 5, {SwizzleKind::cute, {2, 6, 2}}).check();
    CHECK(contains(why, "12768"));
    CHECK(contains(why, "byte 12704 would move to 12768"));
  }
  SUBCASE("a CuTe swizzle whose parameters are not a bijection") {
    const std::string why = tile(DType::fp32, 32, 32, 0, {SwizzleKind::cute, {2, 4, 1}}).check();
    CHECK(contains(why, "S (1) must be >= B (2)"));
  }
  SUBCASE("a TMA span that differs from the row") {
    // 64-byte rows under the 128-byte mode, 256-byte rows under it.
    const std::string narrow = tile(DType::fp32, 32, 16, 0, kTma128).check();
    CHECK(contains(narrow, "128"));
    CHECK(contains(narrow, "64 B"));
    const std::string wide = tile(DType::fp32, 32, 64, 0, kTma128).check();
    CHECK(contains(wide, "256 B"));
  }
  SUBCASE("a TMA repeat the tile does not align with") {
    // 4 rows of 128 B = 512 B, half of the 1024-byte repeat.
    const std::string why = tile(DType::fp32, 4, 32, 0, kTma128).check();
    CHECK(contains(why, "1024"));
    CHECK(contains(why, "512"));
  }
  SUBCASE("a padded TMA tile") {
    CHECK_FALSE(tile(DType::fp32, 8, 32, 1, kTma128).check().empty());
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
            const TileLayout t = tile(dtype, rows, cols, pad, sw);
            if (!t.check().empty()) continue;
            ++accepted;
            accepted_swizzled += sw.kind != SwizzleKind::none;
            const int e = dtype_bytes(dtype);
            std::vector<bool> used(static_cast<std::size_t>(t.size_bytes() / e), false);
            bool ok = true;
            for (int r = 0; r < rows && ok; ++r) {
              for (int c = 0; c < cols && ok; ++c) {
                const std::int64_t byte = t(r, c);
                const std::size_t slot = static_cast<std::size_t>(byte / e);
                ok = byte == brute::tile_byte(t, r, c) && byte >= 0 && byte % e == 0 &&
                     byte + e <= t.size_bytes() && !used[slot] &&
                     t.bank(r, c) == byte / 4 % 32;
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

TEST_CASE("the bank map lists the bank of every element, row-major") {
  for (const TileLayout& t : {tile(DType::fp32, 32, 32, 1), tile(DType::bf16, 16, 64, 0, kTma128),
                              tile(DType::fp8, 8, 32, 3)}) {
    CAPTURE(t);
    REQUIRE(t.check().empty());
    const std::vector<std::uint8_t> banks = tile_bank_map(t);
    REQUIRE(banks.size() == static_cast<std::size_t>(t.rows * t.cols));
    for (int r = 0; r < t.rows; ++r) {
      for (int c = 0; c < t.cols; ++c) {
        CAPTURE(r);
        CAPTURE(c);
        CHECK(banks[static_cast<std::size_t>(r * t.cols + c)] == brute::tile_byte(t, r, c) / 4 % 32);
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
    for (const char* text : {"", "32", "x32", "32x", "32x32x", "axb", "32 x 32", "32x32 ",
                             "99999999999x1"}) {
      CAPTURE(text);
      const Expected<Cell> parsed = parse_tile_size(text);
      REQUIRE_FALSE(parsed.has_value());
      CHECK(contains(parsed.error(), std::string("'").append(text).append("'")));
    }
  }
}

}  // namespace banklab
