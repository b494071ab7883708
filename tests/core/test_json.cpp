// The JSON writers: every object must parse (nlohmann::json is only the reader here), carry the
// fields the CLI promises, and say the same as the analysis it was written from.
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/report/json.hpp"
#include "tests/core/random_access.hpp"

namespace banklab {
namespace {

using nlohmann::json;

json parsed(const std::string& text) {
  INFO(text);
  json j;
  REQUIRE_NOTHROW(j = json::parse(text));
  return j;
}

Scenario fp32_column(int pad, int c) {
  return Scenario{{DType::fp32, 32, 32, pad, {}}, AccessPattern::column, Op::ld, 0, c};
}

// The counts and the per-lane records of an analysis object against the analysis itself.
void check_analysis_fields(const json& j, const Analysis& a) {
  CHECK(j.at("wavefronts") == a.wavefront_count());
  CHECK(j.at("ideal_wavefronts") == a.ideal_wavefronts);
  CHECK(j.at("bank_conflicts") == a.bank_conflicts());
  CHECK(j.at("max_ways") == a.max_ways);
  CHECK(j.at("active_lanes") == a.active_lanes);
  CHECK(j.at("requested_bytes") == a.requested_bytes);
  CHECK(j.at("packed") == a.packed);
  CHECK(j.at("op") == std::string(op_name(a.access.op)));
  REQUIRE(j.at("lanes").size() == kWarpSize);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    CAPTURE(lane);
    const json& l = j.at("lanes")[static_cast<std::size_t>(lane)];
    const LaneRecord& rec = a.lanes[lane];
    CHECK(l.at("lane") == lane);
    CHECK(l.at("active") == rec.active);
    if (!rec.active) continue;
    CHECK(l.at("byte") == rec.byte);
    REQUIRE(l.at("words").size() == static_cast<std::size_t>(rec.word_count));
    for (int k = 0; k < rec.word_count; ++k) {
      CHECK(l.at("words")[static_cast<std::size_t>(k)] == rec.words[k]);
      CHECK(l.at("banks")[static_cast<std::size_t>(k)] == rec.banks[k]);
      CHECK(l.at("wavefronts")[static_cast<std::size_t>(k)] == rec.wavefronts[k]);
    }
    CHECK(l.at("shares_word") == rec.shares_word);
  }
}

TEST_CASE("the writer puts commas between elements and nests objects and arrays") {
  std::string out;
  JsonWriter w(out);
  w.begin_object().field("a", 1).key("list").begin_array();
  for (int i = 0; i < 3; ++i) w.begin_object().field("i", i).end_object();
  w.end_array().key("empty").begin_array().end_array().key("nothing").begin_object().end_object();
  w.field("no", false).field("text", "x").end_object();
  CHECK(
      out ==
      R"({"a":1,"list":[{"i":0},{"i":1},{"i":2}],"empty":[],"nothing":{},"no":false,"text":"x"})");
}

TEST_CASE("the writer's numbers: integers whole, reals with their decimals, never NaN") {
  std::string out;
  JsonWriter w(out);
  w.begin_array()
      .value(std::int64_t{-9'007'199'254'740'993})
      .value(std::uint64_t{141'000'000'000})
      .value(3.14159, 2)
      .value(2.5f)
      .value(0.1f)
      .value(std::nan(""), 1)
      .value(std::numeric_limits<float>::infinity())
      .end_array();
  CHECK(out == "[-9007199254740993,141000000000,3.14,2.5,0.1,null,null]");
  CHECK(parsed(out).size() == 7);
}

// The writer formats floats itself (libc++ 14, the browser build's, lacks to_chars for them):
// what it writes must be exactly what to_chars writes, for bit patterns of every kind.
TEST_CASE("a float is written as std::to_chars writes it: the shortest text that reads back") {
  const auto check = [](float f) {
    char expected[64];
    const auto [end, ec] = std::to_chars(expected, expected + sizeof expected, f);
    std::string out;
    JsonWriter(out).value(f);
    CAPTURE(out);
    CHECK(out == std::string_view(expected, end));
    return out == std::string_view(expected, end);
  };
  for (float f : {0.0f, -0.0f, 1.0f, 100.0f, 1e20f, 1e-5f, 1e-4f, 0.1f, 2.5f, 123456.0f, 1e7f,
                  16777216.0f, 240823472.0f, std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min()}) {
    check(f);
  }
  // Every exponent, random significands (a fixed seed): stops at the first difference.
  std::uint32_t bits = 12345;
  for (int i = 0; i < 100'000; ++i) {
    bits = bits * 1664525u + 1013904223u;
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    if (std::isfinite(f) && !check(f)) break;
  }
}

TEST_CASE("a real field with its decimals is followed by a comma like any other field") {
  std::string out;
  JsonWriter w(out);
  w.begin_object().field("ms", 1.5, 3).field("gbps", 4205.25, 1).field("n", 2).end_object();
  CHECK(out == R"({"ms":1.500,"gbps":4205.2,"n":2})");
  CHECK(parsed(out).size() == 3);
}

TEST_CASE("the lane mask as text: hex for JSON and flags, ranges for people") {
  CHECK(lane_mask_hex(0xFFFFFFFFu) == "0xffffffff");
  CHECK(lane_mask_hex(0x1u) == "0x1");
  CHECK(lane_ranges(0x0000FFFFu) == "0-15");
  CHECK(lane_ranges(0x00100003u) == "0-1, 20");
  CHECK(lane_ranges(0u) == "none");
  CHECK(format("%d of %s", 3, "32") == "3 of 32");
}

TEST_CASE("user text in a message: cut to 60 bytes at a character, control bytes escaped") {
  CHECK(quote("fp128") == "'fp128'");
  CHECK(shown("a\nb\x1b[0m") == "a\\x0ab\\x1b[0m");
  CHECK(shown(std::string(100, 'x')) == std::string(60, 'x') + "\u2026");
  // 59 ASCII bytes then a 3-byte character: the cut falls before it, not inside it.
  CHECK(shown(std::string(59, 'x') + "\u2026\u2026") == std::string(59, 'x') + "\u2026");
  CHECK(shown(std::string(100, 'x'), std::string_view::npos) == std::string(100, 'x'));
  // C1 controls (CSI is U+009B, two bytes in UTF-8) and bytes that are not UTF-8 act on some
  // terminals too (issue 22: a recording's device name); other characters pass.
  CHECK(shown("x\u009b2Jy") == "x\\xc2\\x9b2Jy");
  CHECK(shown("\x9b\xff\xc3(") == "\\x9b\\xff\\xc3(");
  CHECK(shown("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a UTF-16 surrogate
  CHECK(shown("H200 \u00e9\u2026\U0001F600") == "H200 \u00e9\u2026\U0001F600");
}

}  // namespace

TEST_CASE("an analysis writes one object with the counts, the lanes and the diagnostics") {
  WarpAccess a;
  a.op = Op::ld;
  a.width = 16;
  for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = lane % 2 == 0 ? 0 : 128;
  const Analysis result = analyze(a);
  std::string out;
  append_json(out, result, check_access(a));
  const json j = parsed(out);
  CHECK(j.at("ok") == true);
  CHECK(j.at("wavefronts") == 4);
  CHECK(j.at("bank_conflicts") == 2);
  CHECK(j.at("packing_partner") == 2);
  CHECK(j.at("diagnostics").empty());
  check_analysis_fields(j, result);
}

TEST_CASE("a batch of random analyses appends valid objects to one reused buffer") {
  brute::Rng rng(99);
  std::string out;
  for (int i = 0; i < 2'000; ++i) {
    const WarpAccess a = brute::random_access(rng);
    const Analysis result = analyze(a);
    out.clear();
    append_json(out, result, check_access(a));
    CAPTURE(i);
    const json j = parsed(out);
    check_analysis_fields(j, result);
  }
}

TEST_CASE("a scenario writes its choices, its analysis, its grid and its explanation") {
  const Scenario s = fp32_column(1, 5);
  const Study st = study(s);
  const Evaluation& e = st.evaluation;
  REQUIRE(e.ok());
  const Explanation& x = st.explanation;
  std::string out;
  append_json(out, st);
  const json j = parsed(out);
  CHECK(j.at("ok") == true);
  const json& sc = j.at("scenario");
  CHECK(sc.at("dtype") == "fp32");
  CHECK(sc.at("tile") == "32x32");
  CHECK(sc.at("pad") == 1);
  CHECK(sc.at("swizzle") == "none");
  CHECK(sc.at("access") == "column");
  CHECK(sc.at("index") == 5);
  CHECK(sc.at("width") == 4);
  CHECK(sc.at("lane_mask") == "0xffffffff");
  CHECK(j.at("description") == describe(s));
  check_analysis_fields(j, *e.analysis);
  // Element (r, c) of every lane, and the grid the GUI draws.
  CHECK(j.at("lanes")[7].at("row") == 7);
  CHECK(j.at("lanes")[7].at("col") == 5);
  REQUIRE(j.at("wavefront_banks").size() == 1);
  CHECK(j.at("wavefront_banks")[0].at("banks").size() == 32);
  REQUIRE(j.at("phases").size() == 1);
  CHECK(j.at("phases")[0].at("wavefronts") == 1);
  CHECK(j.at("explanation").at("verdict") == x.verdict);
  CHECK(j.at("explanation").at("steps").size() == x.steps.size());
  CHECK(j.at("explanation").at("bank_expression") == x.bank_expression);
}

TEST_CASE("a scenario that cannot be analysed writes ok false and its diagnostics") {
  Scenario s = fp32_column(1, 0);
  s.pattern = AccessPattern::row;
  s.op = Op::st;
  s.width = 16;
  const Study st = study(s);
  const Evaluation& e = st.evaluation;
  REQUIRE_FALSE(e.ok());
  std::string out;
  append_json(out, st);
  const json j = parsed(out);
  CHECK(j.at("ok") == false);
  CHECK_FALSE(j.contains("explanation"));  // an explanation only with an analysis
  CHECK_FALSE(j.contains("wavefronts"));
  REQUIRE_FALSE(j.at("diagnostics").empty());
  const json& d = j.at("diagnostics")[0];
  CHECK(d.at("severity") == "error");
  CHECK(d.at("rule") == "alignment");
  CHECK(d.at("lane") == 8);
  CHECK(d.at("message") == e.diagnostics[0].message);

  std::string bare;
  append_json_error(bare, e.diagnostics);
  const json k = parsed(bare);
  CHECK(k.at("ok") == false);
  CHECK(k.at("diagnostics").size() == e.diagnostics.size());
}

TEST_CASE("strings are escaped so that any text survives the round trip") {
  const std::string text =
      std::string("quote \" backslash \\ newline \n tab \t cr \r bell \a nul ") + '\0' +
      " unit \x1f end, and UTF-8: \xc3\xa9";
  std::string out;
  JsonWriter(out).value(text);
  CHECK(parsed(out).get<std::string>() == text);
}

TEST_CASE("text that is not UTF-8 still makes valid JSON, each bad byte a U+FFFD") {
  // Regression: messages quote user input, and a batch line's bytes need not be UTF-8.
  SUBCASE("stray, truncated, overlong and surrogate sequences") {
    for (const std::string bad : {"\xff", "\x80", "\xc3", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80",
                                  "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80"}) {
      CAPTURE(bad.size());
      std::string out;
      JsonWriter(out).value("a" + bad + "b");
      const std::string back = parsed(out).get<std::string>();
      CHECK(back.front() == 'a');
      CHECK(back.back() == 'b');
      CHECK(back.find("\xef\xbf\xbd") != std::string::npos);  // U+FFFD in UTF-8
    }
  }
  SUBCASE("valid sequences of every length pass unchanged") {
    const std::string text = "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf";
    std::string out;
    JsonWriter(out).value(text);
    CHECK(out == "\"" + text + "\"");
  }
  SUBCASE("a batch line with a bad op") {
    const Expected<WarpAccess> line = parse_pattern_line(
        "l\xff"
        "d 4 0");
    REQUIRE_FALSE(line.has_value());
    std::string out;
    append_json_error(out, {{Severity::error, "syntax", line.error(), -1}});
    CHECK(parsed(out).at("ok") == false);
  }
}

TEST_CASE("every preset writes an object with its name and scenario") {
  std::string out = "[";
  for (const Preset& p : presets()) {
    append_json(out, p);
    out += ',';
  }
  out.back() = ']';
  const json j = parsed(out);
  REQUIRE(j.size() == presets().size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    CAPTURE(i);
    CHECK(j[i].at("name") == std::string(presets()[i].name));
    CHECK(j[i].at("expected_wavefronts") == presets()[i].expected_wavefronts);
    CHECK(j[i].at("scenario").contains("access"));
  }
}

}  // namespace banklab
