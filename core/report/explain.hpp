#pragma once
// The arithmetic, written out the way the lesson derives it: element -> byte -> word -> bank,
// the bank expression simplified, the distinct banks, the n-way conflict, the wavefronts
// against the floor the request size forces, and what that costs at 128 B per clock. Where a
// shortcut of the lesson does not hold for this case (bf16 tile[32][33], odd columns), it says so.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/scenario.hpp"

namespace banklab {

struct Explanation {
  std::string formula;               // "element (r, c) -> byte 132r + 4c -> word 33r + c"
  std::string bank_expression;       // "bank = (r + c) mod 32"
  std::vector<std::string> steps;    // the derivation, one line each
  std::string verdict;               // "32 lanes, 32 banks: conflict-free, 1 wavefront (ideal 1)"
  std::vector<std::string> caveats;  // where the lesson's shortcut fails, and other warnings
};

// The bank that sets the worst phase's cost (the lowest such bank), the lanes that want it and
// the distinct words they want: "lanes 0, 8, 16 and 24 all want bank 0: 4-way".
struct Culprits {
  int phase = -1;  // -1 when no lane is active
  int bank = -1;
  int ways = 0;  // distinct words of that bank in that phase
  std::vector<int> lanes;
  std::vector<std::int64_t> words;  // sorted, distinct
};
Culprits busiest(const Analysis& a);

// The word stride between consecutive lanes when all 32 lanes form one phase, each touching
// one word, at a fixed positive stride: the case of the rule "a word stride s spreads 32 lanes
// over 32 / gcd(s, 32) banks, gcd(s, 32)-way".
std::optional<std::int64_t> word_stride(const Analysis& a);

// The lanes an explanation shows: the first and last active lanes, the busiest bank's lanes
// (up to four) when they collide, else the first three; sorted.
std::vector<int> example_lanes(const Analysis& a);

// Which rows of a tile can take an access of `width` bytes at their first element: row r
// starts r * pitch bytes into the tile, aligned when width divides it. With pitch mod width = m
// the misalignment of row r is m*r mod width, and every `period`-th row is aligned.
struct RowAlignment {
  int width = 0;
  std::int64_t pitch = 0;
  std::int64_t step = 0;     // pitch mod width: how far each row slips
  int period = 1;            // width / gcd(pitch, width): rows 0, period, 2*period ... are aligned
  std::vector<int> aligned;  // row indices
  std::vector<int> misaligned;  // row indices
  int aligning_pad = 0;         // the smallest pad >= the tile's that makes every row aligned
};
RowAlignment row_alignment(const TileLayout& t, int width);

// What the pad costs: rows x pad x element size, and that as a share of the padded tile.
struct PadCost {
  std::int64_t bytes = 0;
  std::int64_t tile_bytes = 0;
  double percent = 0.0;
};
PadCost pad_cost(const TileLayout& t);

// "lane 0", "lanes 0 and 31", "lanes 0, 8, 16 and 24", "lanes 0-15", "lanes 0, 2, 4, ..., 30",
// "lanes 1, 5, 6, 9, ... (12 lanes)"; list_lanes says "all 32 lanes" for the whole warp.
std::string list_numbers(const std::vector<std::int64_t>& v, const std::string& what = "lanes");
std::string list_lanes(const std::vector<int>& lanes);

Explanation explain(const Scenario& s, const Evaluation& e);
// For raw accesses with no tile.
Explanation explain(const Analysis& a);

// All of it as plain text, one line per step.
std::string to_text(const Explanation& x);

}  // namespace banklab
