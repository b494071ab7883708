#pragma once
// What core computed for one scenario: everything a view needs to draw it (views.hpp).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"
#include "core/report/explain.hpp"

namespace banklab::gui {

// Per phase and bank: in how many wavefronts the bank serves a word. More than one is a
// conflict (that bank's distinct words are what serialise the phase).
using BankLoad = std::vector<std::array<int, kBankCount>>;

struct Derived {
  Scenario scenario;  // what the rest was computed from
  Evaluation evaluation;
  std::optional<Explanation> explanation;  // with a valid analysis only
  Expected<void> tile_valid;               // TileLayout::check() of the tile
  std::vector<std::uint8_t> bank_map;      // tile_bank_map(), row-major R x C, valid tile only
  std::vector<Spelling> spellings;         // the tile's layout in every notation, valid tile only
  BankLoad bank_load;                      // valid analysis only
  std::uint64_t revision = 0;              // 0: never derived; grows with every derive
};

// Everything the views need about sc. previous: a Derived whose tile map may be reused when
// the tile is the same (the map of a 256 x 256 tile is the expensive part).
Derived derive(const Scenario& sc, const Derived* previous = nullptr);

}  // namespace banklab::gui
