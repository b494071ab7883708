// The one table of scenario keys (core/model/scenario_keys.hpp): what each key prints reads back
// as the same scenario, the two forms keep apart, and an error from a file's line names the line.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/model/presets.hpp"
#include "core/model/scenario_keys.hpp"

namespace banklab {
namespace {

Scenario raw_scenario() {
  Scenario s;
  s.pattern = AccessPattern::raw;
  s.op = Op::st;
  s.width = 8;
  for (int lane = 0; lane < kWarpSize; ++lane) s.raw_offsets[lane] = lane % 3 ? 8 * lane : -1;
  s.lane_mask = 0x7FFFFFFEu;
  return s;
}

TEST_CASE("Every preset, printed by the table's keys, reads back as itself") {
  std::vector<Scenario> all;
  for (const Preset& p : presets()) all.push_back(p.scenario);
  all.push_back(raw_scenario());
  for (const Scenario& s : all) {
    CAPTURE(describe(s));
    const std::vector<KeyValue> values = scenario_key_values(s);
    const Expected<Scenario> back = scenario_from_keys(values);
    REQUIRE(back);
    CHECK(*back == s);
  }
}

TEST_CASE("Every preset, written as flag words by the table's keys, reads back as itself") {
  std::vector<const ScenarioKey*> every_key;
  for (const ScenarioKey& k : kScenarioKeys) every_key.push_back(&k);
  std::vector<Scenario> all;
  for (const Preset& p : presets()) all.push_back(p.scenario);
  all.push_back(raw_scenario());
  for (const Scenario& s : all) {
    CAPTURE(describe(s));
    const std::vector<std::string> words = scenario_words(s, every_key);
    const Expected<Scenario> back = scenario_from_words(words);
    REQUIRE(back);
    CHECK(*back == s);
  }
}

TEST_CASE("Flag words are the keys asked for, in the order asked, as the table prints them") {
  Scenario s;
  s.tile.pad = 2;
  s.tile.swizzle = SwizzleSpec{SwizzleKind::tma128};
  const ScenarioKey* const keys[] = {&named_key("swizzle"), &named_key("pad"), &named_key("preset"),
                                     &named_key("offsets")};
  // preset has no printer and a tile scenario prints no offsets: both left out.
  CHECK(scenario_words(s, keys) == std::vector<std::string>{"--swizzle", "tma128", "--pad", "2"});
}

TEST_CASE("A tile scenario prints every key but preset and offsets; a raw one its offsets") {
  std::vector<std::string> keys;
  for (const KeyValue& v : scenario_key_values(Scenario{})) keys.push_back(v.key);
  CHECK(keys == std::vector<std::string>{"dtype", "tile", "pad", "swizzle", "access", "index", "op",
                                         "lanes"});
  keys.clear();
  for (const KeyValue& v : scenario_key_values(raw_scenario())) keys.push_back(v.key);
  CHECK(keys == std::vector<std::string>{"width", "op", "lanes", "offsets"});
}

TEST_CASE("Keys apply in table order, whatever order they are given in") {
  const std::vector<KeyValue> given = {{0, "pad", "2"}, {0, "preset", "fp32-naive"}};
  const Expected<Scenario> s = scenario_from_keys(given);
  REQUIRE(s);
  CHECK(s->tile.pad == 2);  // the preset first, then the pad on top of it
}

TEST_CASE("An error from a file's line starts with the file and the line") {
  const std::vector<KeyValue> file = {{1, "dtype", "bf16"}, {4, "pad", "two"}};
  const Expected<Scenario> s = scenario_from_keys(file, "mine.txt");
  REQUIRE_FALSE(s);
  CHECK(s.error() == "mine.txt:4: --pad expects a whole number, got 'two'");
  // A flag (line 0) is named without a place.
  const std::vector<KeyValue> flag = {{0, "pad", "two"}};
  CHECK(scenario_from_keys(flag, "mine.txt").error() == "--pad expects a whole number, got 'two'");
}

TEST_CASE("The raw form takes offsets with the keys both forms share, and nothing else") {
  std::string offsets;
  for (int lane = 0; lane < kWarpSize; ++lane)
    offsets += (lane ? "," : "") + std::to_string(4 * lane);
  SUBCASE("a matrix op implies 16 bytes a lane; any other op needs --width") {
    const std::vector<KeyValue> matrix = {{0, "offsets", offsets}, {0, "op", "ldmatrix.x4"}};
    const Expected<Scenario> s = scenario_from_keys(matrix);
    REQUIRE(s);
    CHECK(s->pattern == AccessPattern::raw);
    CHECK(s->width == 16);
    const std::vector<KeyValue> no_width = {{2, "offsets", offsets}};
    CHECK(scenario_from_keys(no_width, "f").error() ==
          "f:2: --offsets needs --width: the bytes each lane moves (1, 2, 4, 8 or 16)");
  }
  SUBCASE("a key of the scenario form beside offsets is refused at its line") {
    const std::vector<KeyValue> mixed = {{1, "offsets", offsets}, {3, "pad", "1"}};
    CHECK(scenario_from_keys(mixed, "f").error() ==
          "f:3: --pad belongs to the scenario form; --offsets gives the 32 byte offsets directly");
  }
  SUBCASE("the raw form's op may be a matrix op; the scenario form's may not") {
    const std::vector<KeyValue> tile = {{0, "op", "ldmatrix.x4"}};
    CHECK(scenario_from_keys(tile).error().starts_with("--op ldmatrix.x4 is a matrix op"));
    const std::vector<KeyValue> raw = {{0, "offsets", offsets}, {0, "op", "nop"}};
    CHECK(scenario_from_keys(raw).error() ==
          "--op expects ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4, got 'nop'");
  }
}

TEST_CASE("A lesson's words name a scenario with the same keys") {
  const std::vector<std::string> words = {"--dtype", "bf16", "--pad=1", "--index", "3"};
  const Expected<Scenario> s = scenario_from_words(words);
  REQUIRE(s);
  CHECK(s->tile.dtype == DType::bf16);
  CHECK(s->tile.pad == 1);
  CHECK(s->index == 3);
  const std::vector<std::string> unknown = {"--colour", "red"};
  CHECK(scenario_from_words(unknown).error() ==
        "--colour is not a scenario flag (" + scenario_key_names() + ")");
  const std::vector<std::string> twice = {"--pad", "1", "--pad", "2"};
  CHECK(scenario_from_words(twice).error() == "--pad is given twice");
}

}  // namespace
}  // namespace banklab
