// Swizzle<B,M,S> and the TMA modes: the formula of hardware-rules.md, its bijectivity, and the
// spelling the CLI accepts.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "banklab/swizzle.hpp"
#include "brute_force.hpp"

namespace banklab {

TEST_CASE("a swizzle prints as CuTe writes it") {
  std::ostringstream os;
  os << Swizzle{3, 4, 3};
  CHECK(os.str() == "Swizzle<3,4,3>");
}

TEST_CASE("Swizzle<B,M,S> applies the formula of hardware-rules.md and is its own inverse") {
  // Every valid parameter set with B <= 4, M <= 5, S <= 6, on every offset of two periods.
  for (int bits = 0; bits <= 4; ++bits) {
    for (int base = 0; base <= 5; ++base) {
      for (int shift = bits; shift <= 6; ++shift) {
        const Swizzle s{bits, base, shift};
        CAPTURE(s);
        REQUIRE(s.check().empty());
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
  const Swizzle s = SwizzleSpec{SwizzleKind::tma128, {}}.byte_swizzle();
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

TEST_CASE("the TMA modes are Swizzle<1,4,3>, <2,4,3>, <3,4,3> with their spans and repeats") {
  struct Mode {
    SwizzleKind kind;
    Swizzle swizzle;
    int span;
    int repeat;
  };
  for (const Mode& m : {Mode{SwizzleKind::tma32, {1, 4, 3}, 32, 256},
                        Mode{SwizzleKind::tma64, {2, 4, 3}, 64, 512},
                        Mode{SwizzleKind::tma128, {3, 4, 3}, 128, 1024}}) {
    const SwizzleSpec spec{m.kind, {}};
    CAPTURE(spec);
    CHECK(spec.byte_swizzle() == m.swizzle);
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
      CHECK(spec.byte_swizzle()(12345) == 12345);
    }
  }
}

TEST_CASE("check() names the rule a swizzle's parameters break") {
  SUBCASE("valid") {
    CHECK(Swizzle{3, 4, 3}.check().empty());
    CHECK(Swizzle{0, 0, 0}.check().empty());
  }
  SUBCASE("negative") {
    const std::string why = Swizzle{-1, 4, 3}.check();
    CHECK(why.find("Swizzle<-1,4,3>") != std::string::npos);
    CHECK(why.find(">= 0") != std::string::npos);
  }
  SUBCASE("S below B") {
    const std::string why = Swizzle{3, 4, 2}.check();
    CHECK(why.find("S (2) must be >= B (3)") != std::string::npos);
  }
  SUBCASE("too many bits") {
    const std::string why = Swizzle{8, 20, 8}.check();
    CHECK(why.find("36") != std::string::npos);
    CHECK(why.find("30") != std::string::npos);
  }
  SUBCASE("absurd parameters are refused without overflow") {
    const std::string why = Swizzle{2147483647, 2147483647, 2147483647}.check();
    CHECK_FALSE(why.empty());
  }
}

TEST_CASE("S < B is refused: with S = 0 the map clears bits, with 0 < S < B it is no involution") {
  // Swizzle<1,0,0>: x ^ (x & 1) maps 0 and 1 both to 0.
  CHECK(brute::swizzle(1, 0, 0, 0) == brute::swizzle(1, 0, 0, 1));
  CHECK_FALSE(Swizzle{1, 0, 0}.check().empty());
  // Swizzle<2,0,1> is a bijection (a unipotent map over GF(2)) but not its own inverse; the
  // message must say what is wrong without claiming it is not a bijection.
  std::vector<bool> hit(8, false);
  for (std::int64_t x = 0; x < 8; ++x) hit[static_cast<std::size_t>(brute::swizzle(2, 0, 1, x))] = true;
  CHECK(std::count(hit.begin(), hit.end(), true) == 8);
  CHECK(brute::swizzle(2, 0, 1, brute::swizzle(2, 0, 1, 6)) != 6);
  const std::string why = Swizzle{2, 0, 1}.check();
  CHECK(why.find("not its own inverse") != std::string::npos);
  CHECK(why.find("not a bijection") == std::string::npos);
}

TEST_CASE("every swizzle spelling parses back to itself") {
  const std::vector<SwizzleSpec> specs = {
      {SwizzleKind::none, {}},  {SwizzleKind::xor_columns, {}}, {SwizzleKind::cute, {3, 4, 3}},
      {SwizzleKind::cute, {0, 0, 0}}, {SwizzleKind::cute, {2, 5, 4}}, {SwizzleKind::tma32, {}},
      {SwizzleKind::tma64, {}}, {SwizzleKind::tma128, {}}};
  for (const SwizzleSpec& spec : specs) {
    CAPTURE(spec);
    const Expected<SwizzleSpec> parsed = parse_swizzle(to_string(spec));
    REQUIRE(parsed.has_value());
    CHECK(*parsed == spec);
  }
  CHECK(to_string(SwizzleSpec{SwizzleKind::cute, {3, 4, 3}}) == "cute:3,4,3");
  CHECK(to_string(SwizzleSpec{SwizzleKind::xor_columns, {}}) == "xor");
}

TEST_CASE("a bad swizzle spelling gets a message that quotes it") {
  for (const char* text : {"", "tma256", "XOR", "cute:", "cute:3,4", "cute:3,4,3,", "cute:a,b,c",
                           "cute:3;4;3", "cute:3,4,3x", "cute: 3,4,3"}) {
    CAPTURE(text);
    const Expected<SwizzleSpec> parsed = parse_swizzle(text);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().find(std::string("'").append(text).append("'")) != std::string::npos);
  }
  SUBCASE("parameters that break a rule are refused with the rule") {
    const Expected<SwizzleSpec> parsed = parse_swizzle("cute:3,4,1");
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().find("S (1) must be >= B (3)") != std::string::npos);
  }
}

}  // namespace banklab
