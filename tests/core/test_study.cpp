// study(): one scenario's facts made once. Every part must be what the core's own functions
// give for that scenario (the front ends read it instead of calling them), for every preset;
// a previous study's tile parts are reused only for the same tile.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/model/presets.hpp"
#include "core/report/study.hpp"

namespace banklab {
namespace {

void check_explanation(const Explanation& got, const Explanation& want) {
  CHECK(got.formula == want.formula);
  CHECK(got.bank_expression == want.bank_expression);
  CHECK(got.steps == want.steps);
  CHECK(got.verdict == want.verdict);
  CHECK(got.caveats == want.caveats);
}

// The bank load counted again from the lanes' words: per phase, a bank's distinct words.
BankLoad distinct_words_per_bank(const Analysis& a) {
  BankLoad load(a.phases.size(), std::array<int, kBankCount>{});
  for (std::size_t ph = 0; ph < a.phases.size(); ++ph) {
    std::array<std::vector<std::int64_t>, kBankCount> words;
    for (const LaneRecord& l : a.lanes) {
      if (!l.active || l.phase != static_cast<int>(ph)) continue;
      for (int k = 0; k < l.word_count; ++k) {
        auto& bank = words[static_cast<std::size_t>(l.words[k] % kBankCount)];
        if (std::find(bank.begin(), bank.end(), l.words[k]) == bank.end())
          bank.push_back(l.words[k]);
      }
    }
    for (int b = 0; b < kBankCount; ++b) load[ph][b] = static_cast<int>(words[b].size());
  }
  return load;
}

}  // namespace

TEST_CASE("a study holds what each of the core's functions gives, for every preset") {
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    const Study st = study(p.scenario);
    const Evaluation e = evaluate(p.scenario);
    CHECK(st.scenario == p.scenario);
    CHECK(st.evaluation.diagnostics == e.diagnostics);
    REQUIRE(st.evaluation.ok() == e.ok());
    check_explanation(st.explanation, explain(p.scenario, e));
    REQUIRE(bool(st.tile_valid) == bool(p.scenario.tile.check()));
    if (st.tile_valid) {
      CHECK(st.bank_map == tile_bank_map(p.scenario.tile));
      CHECK(st.spellings.size() == spellings(p.scenario.tile).size());
    } else {
      CHECK(st.bank_map.empty());
    }
    if (e.ok()) {
      CHECK(st.bank_load == bank_load(*e.analysis));
    } else {
      CHECK(st.bank_load.empty());
    }
  }
}

TEST_CASE("bank_load counts each phase's distinct words per bank") {
  const Study naive = study(find_preset("fp32-naive")->scenario);
  REQUIRE(naive.evaluation.ok());
  REQUIRE(naive.bank_load.size() == 1);
  CHECK(naive.bank_load[0][0] == 32);  // the 32-way column read: bank 0 serves 32 words
  for (int b = 1; b < kBankCount; ++b) CHECK(naive.bank_load[0][b] == 0);
  const Study padded = study(find_preset("fp32-pad1")->scenario);
  REQUIRE(padded.evaluation.ok());
  for (int b = 0; b < kBankCount; ++b) CHECK(padded.bank_load[0][b] == 1);
  // Every preset, packed and multi-phase ones included, against a count from the lanes' words
  // (a bank serves its distinct words in as many wavefronts).
  for (const Preset& p : presets()) {
    CAPTURE(p.name);
    const Study st = study(p.scenario);
    if (st.evaluation.ok()) CHECK(st.bank_load == distinct_words_per_bank(*st.evaluation.analysis));
  }
}

TEST_CASE("a previous study's tile parts are reused for the same tile only") {
  const Scenario naive = find_preset("fp32-naive")->scenario;
  Scenario row = naive;
  row.pattern = AccessPattern::row;
  const Study first = study(naive);
  const Study same_tile = study(row, &first);
  CHECK(same_tile.bank_map == first.bank_map);
  CHECK(same_tile.evaluation.analysis->wavefront_count() == 1);  // the access is new
  const Study padded = study(find_preset("fp32-pad1")->scenario, &first);
  CHECK(padded.bank_map == tile_bank_map(padded.scenario.tile));
  CHECK(padded.bank_map != first.bank_map);
  // A default-constructed study has nothing to reuse, even where its tile is the same.
  const Study nothing;
  Scenario on_default_tile = naive;
  on_default_tile.tile = nothing.scenario.tile;
  const Study fresh = study(on_default_tile, &nothing);
  REQUIRE(bool(fresh.tile_valid) == bool(on_default_tile.tile.check()));
  if (fresh.tile_valid) CHECK(fresh.bank_map == tile_bank_map(on_default_tile.tile));
}

TEST_CASE("a refused scenario is studied: its explanation says why, nothing else is counted") {
  Scenario s = find_preset("fp32-naive")->scenario;
  s.tile.rows = 0;
  const Study st = study(s);
  CHECK_FALSE(st.evaluation.ok());
  CHECK_FALSE(st.tile_valid);
  CHECK(st.explanation.verdict.starts_with("cannot analyse: "));
  CHECK(st.bank_map.empty());
  CHECK(st.bank_load.empty());
}

}  // namespace banklab
