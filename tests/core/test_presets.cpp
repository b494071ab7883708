// The preset table: the lesson's scenarios by name. Each must give the count it claims, and
// that claim is checked against the brute-force model as well as against evaluate().
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "banklab/presets.hpp"
#include "brute_force.hpp"

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
  for (const Claim& claim : {Claim{"fp32-naive", 32}, {"fp32-pad1", 1}, {"fp32-pad4", 4},
                             {"fp32-xor", 1}, {"bf16-naive", 16}, {"bf16-pad1", 1},
                             {"bf16-pad1-odd", 2}, {"bf16-pad2", 1}, {"fp64-naive", 32},
                             {"fp64-pad1", 2}, {"ldmatrix-plain", 32}, {"ldmatrix-swizzled", 4},
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
