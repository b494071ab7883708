#pragma once
// One scenario studied: everything the core says about it, made once and read by every front
// end (the app's views, the figures, the slides, `banklab analyze`, `explain` and `export`).
//
//   const Study st = study(scenario);
//   if (st.evaluation.ok()) print(st.explanation.verdict, st.bank_load[0][bank]);
//
// The parts are the ones each front end used to pair again by hand: the scenario and its
// evaluation, the derivation in words, the tile's bank map and spellings, and how many
// wavefronts each bank serves per phase. A drawing reads them; it never calls explain() again.
#include <array>
#include <cstdint>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/analysis.hpp"
#include "core/model/hardware.hpp"
#include "core/model/layout.hpp"
#include "core/model/scenario.hpp"
#include "core/report/explain.hpp"

namespace banklab {

// Per phase and bank: in how many wavefronts the bank serves a word. More than one is a
// conflict (that bank's distinct words are what serialise the phase).
using BankLoad = std::vector<std::array<int, kBankCount>>;
BankLoad bank_load(const Analysis& a);

struct Study {
  Scenario scenario;          // what the rest was made from
  Evaluation evaluation;      // the tile's check, the access, the Analysis, the diagnostics
  Explanation explanation;    // explain(scenario, evaluation): the verdict, or why it is refused
  Expected<void> tile_valid;  // TileLayout::check() of the tile
  std::vector<std::uint8_t> bank_map;  // tile_bank_map(), row-major R x C, valid tile only
  std::vector<Spelling> spellings;     // the tile's layout in every notation, valid tile only
  BankLoad bank_load;                  // valid analysis only
};

// Everything the core says about s. previous: a study whose tile parts (the check, the bank map,
// the spellings) are reused when its tile is the same (the map of a 256 x 256 tile is the
// expensive part, and the app studies again on every edit).
Study study(const Scenario& s, const Study* previous = nullptr);

}  // namespace banklab
