// The preset table: the lesson's scenarios by name. Each must give the count it claims, and
// that claim is checked against the brute-force model as well as against evaluate().
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "core/model/presets.hpp"
#include "core/report/explain.hpp"
#include "tests/core/brute_force.hpp"

namespace banklab {

TEST_CASE("every preset gives the count it claims, or the diagnostic that is its lesson") {
  REQUIRE_FALSE(presets().empty());
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    const Evaluation e = evaluate(p.scenario);
    if (p.expected_wavefronts < 0) {
      CHECK_FALSE(e.ok());
      CHECK(has_error(e.diagnostics));
      CHECK_FALSE(brute::access_of(p.scenario).has_value());
      continue;
    }
    REQUIRE(e.ok());
    CHECK(e.analysis->wavefront_count() == p.expected_wavefronts);
    const std::optional<WarpAccess> access = brute::access_of(p.scenario);
    REQUIRE(access.has_value());
    CHECK(brute::count(*access).wavefronts == p.expected_wavefronts);
  }
}

TEST_CASE("the lesson's scenarios are all presets, with the lesson's numbers") {
  struct Claim {
    const char* name;
    int wavefronts;
  };
  for (const Claim& claim : {Claim{"fp32-naive", 32},
                             {"fp32-pad1", 1},
                             {"fp32-pad4", 4},
                             {"fp32-xor", 1},
                             {"bf16-naive", 16},
                             {"bf16-pad1", 1},
                             {"bf16-pad1-odd", 2},
                             {"bf16-pad2", 1},
                             {"fp64-naive", 32},
                             {"fp64-pad1", 2},
                             {"ldmatrix-plain", 32},
                             {"ldmatrix-swizzled", 4},
                             {"broadcast", 1}}) {
    CAPTURE(claim.name);
    const Preset* p = find_preset(claim.name);
    REQUIRE(p != nullptr);
    CHECK(p->expected_wavefronts == claim.wavefronts);
  }
}

TEST_CASE("preset names are unique and findable, and every preset has a title and a lesson") {
  std::set<std::string_view> names;
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    CHECK(names.insert(p.name).second);
    CHECK(find_preset(p.name) == &p);
    CHECK_FALSE(p.title.empty());
    CHECK_FALSE(p.lesson.empty());
    CHECK(p.name.find(' ') == std::string_view::npos);  // a command-line word
  }
  CHECK(find_preset(kDefaultPreset) != nullptr);
  CHECK(find_preset("no-such-preset") == nullptr);
  CHECK(find_preset("") == nullptr);
}

}  // namespace banklab

// The one-liners state numbers: each is checked here against the core, so that a summary
// cannot drift from what the bank view shows.
namespace banklab {
namespace {

std::vector<int> numbers_before(std::string_view text, std::string_view suffix) {
  std::vector<int> out;
  for (std::size_t at = text.find(suffix); at != std::string_view::npos;
       at = text.find(suffix, at + 1)) {
    std::size_t begin = at;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1]))) --begin;
    if (begin < at) out.push_back(std::stoi(std::string(text.substr(begin, at - begin))));
  }
  return out;
}

}  // namespace

TEST_CASE("every 'n-way' and 'n wavefronts' a one-liner states is the core's count") {
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    CAPTURE(p.lesson);
    const Evaluation e = evaluate(p.scenario);
    if (!e.ok()) continue;
    for (int ways : numbers_before(p.lesson, "-way")) CHECK(ways == e.analysis->max_ways);
    // "n wavefronts" is either the whole instruction's or, after "each matrix", one phase's.
    int per_phase = 0;
    for (const Phase& ph : e.analysis->phases) per_phase = std::max(per_phase, ph.wavefront_count);
    for (int w : numbers_before(p.lesson, " wavefront")) {
      CHECK((w == e.analysis->wavefront_count() ||
             (w == per_phase && p.lesson.find("each matrix") != std::string_view::npos)));
    }
  }
}

TEST_CASE("the lanes, banks and rows the one-liners name are the core's") {
  struct Claim {
    const char* name;
    std::vector<int> lanes;  // the busiest bank's lanes, when the one-liner names them
    int bank;
    int distinct_banks;  // -1: not stated
  };
  for (const Claim& c :
       {Claim{"bf16-pad1-odd", {0, 31}, 1, -1}, Claim{"fp32-pad4", {0, 8, 16, 24}, 0, 8},
        Claim{"fp32-naive", {}, 0, 1}, Claim{"fp32-pad1-row-write", {}, -1, 32},
        Claim{"fp32-half-warp", {}, 0, 1}}) {
    CAPTURE(c.name);
    const Preset* p = find_preset(c.name);
    REQUIRE(p != nullptr);
    const Evaluation e = evaluate(p->scenario);
    REQUIRE(e.ok());
    const Culprits culprits = busiest(*e.analysis);
    if (!c.lanes.empty()) CHECK(culprits.lanes == c.lanes);
    if (c.bank >= 0) CHECK(culprits.bank == c.bank);
    if (c.distinct_banks >= 0) CHECK(e.analysis->distinct_banks == c.distinct_banks);
  }
  // fp8-naive: "rows r, r + 4, r + 8, ... share a bank": the busiest bank's lanes (one row
  // each) step by 4.
  const Evaluation fp8 = evaluate(find_preset("fp8-naive")->scenario);
  CHECK(busiest(*fp8.analysis).lanes == std::vector<int>{0, 4, 8, 12, 16, 20, 24, 28});
  CHECK(find_preset("fp8-naive")->lesson.find("rows r, r + 4, r + 8") != std::string_view::npos);
  // bf16-pad1-odd names the words too.
  const Evaluation odd = evaluate(find_preset("bf16-pad1-odd")->scenario);
  CHECK(busiest(*odd.analysis).words == std::vector<std::int64_t>{1, 513});
}

TEST_CASE("the padding-fails one-liners state the core's misaligned-row fractions") {
  struct Claim {
    const char* name;
    int step;    // pitch mod width
    int period;  // "n - 1 rows in n" are misaligned
    const char* fraction;
  };
  for (const Claim& c : {Claim{"fp32-pad1-vec16-store", 4, 4, "3 rows in 4"},
                         Claim{"bf16-pad1-pair-store", 2, 2, "1 row in 2"}}) {
    CAPTURE(c.name);
    const Preset* p = find_preset(c.name);
    REQUIRE(p != nullptr);
    const RowAlignment r = row_alignment(p->scenario.tile, p->scenario.effective_width());
    CHECK(r.step == c.step);
    CHECK(r.period == c.period);
    CHECK(r.misaligned.size() * static_cast<std::size_t>(c.period) ==
          static_cast<std::size_t>(p->scenario.tile.rows * (c.period - 1)));
    CHECK(p->lesson.find(c.fraction) != std::string_view::npos);
    CHECK(p->lesson.find(std::to_string(r.pitch) + " mod " + std::to_string(r.width) + " = " +
                         std::to_string(r.step)) != std::string_view::npos);
  }
}

}  // namespace banklab
