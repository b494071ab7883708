#pragma once
// The arithmetic, written out the way the lesson derives it: element -> byte -> word -> bank,
// the bank expression simplified, the distinct banks, the n-way conflict, the wavefronts
// against the floor the request size forces, and what that costs at 128 B per clock. Where a
// shortcut of the lesson does not hold for this case (bf16 tile[32][33], odd columns), it says so.
#include <string>
#include <vector>

#include "banklab/scenario.hpp"

namespace banklab {

struct Explanation {
  std::string formula;         // "element (r, c) -> byte 132r + 4c -> word 33r + c"
  std::string bank_expression; // "bank = (r + c) mod 32"
  std::vector<std::string> steps;  // the derivation, one line each
  std::string verdict;         // "32 lanes, 32 banks: conflict-free, 1 wavefront (ideal 1)"
  std::vector<std::string> caveats;  // where the lesson's shortcut fails, and other warnings
};

Explanation explain(const Scenario& s, const Evaluation& e);
// For raw accesses with no tile.
Explanation explain(const Analysis& a);

// All of it as plain text, one line per step.
std::string to_text(const Explanation& x);

}  // namespace banklab
