#pragma once
// The inverse question: a tile is written one way and read another; which pad or swizzle makes
// every access conflict-free, keeps vector and matrix accesses legal, and costs the fewest
// bytes?
//
// An access family is one kind of warp instruction at every index a kernel performs over the
// whole tile (not only the first 32 rows, as a Scenario's --index does):
//
//   row[:W][:OP]     the tile walked row-major, W bytes (k = W / e elements) per lane:
//                    instruction j, lane L takes elements j*32k + L*k ... (continuing into the
//                    next rows), for every j until the tile ends;
//   column[:W][:OP]  lane L takes row R0 + L, elements N*k ... N*k + k-1, for every column group
//                    N and every block of 32 rows R0 (lanes past the last row idle);
//   ldmatrix.xM / stmatrix.x4   lanes 8m..8m+7 address 16-byte chunk N+m of rows R0..R0+7, for
//                    every block of 8 rows R0 and every group of M chunks N.
//
// solve() tries every layout of the search space (row pads 0 .. 128/e - 1; the xor swizzle;
// CuTe swizzles over bytes with B <= 5, the changed bits inside a 128-byte line, S both ways,
// which covers CuTe over elements (M lowered by log2 e); the TMA 32/64/128B modes, narrow boxes
// included; Triton's vec (up to 16 B), perPhase 1..8, maxPhase 2..32), drops the ones the tile
// refuses, merges the ones that store every element at the same byte (one candidate, several
// spellings), counts every instruction of every family with analyze(), and ranks:
//
//   1. total wavefronts over all families minus their ideal (the bank conflicts);
//   2. memory overhead in bytes (padding, or a narrow TMA box's gap);
//   3. simplicity: no swizzle < pad < xor < TMA < CuTe bytes < CuTe elements < Triton, and a
//      layout whose vector accesses need their elements reordered in registers comes last.
//
// A layout under which some family cannot run (a vector access misaligned, or its elements
// split by the swizzle), or that costs more than the overhead allowed, is rejected with the rule.
//
// Counting, exactly and fast enough for 128x128 tiles (docs/benchmarks.md):
//   - two instructions whose addresses differ by a multiple of 4 bytes cost the same (their
//     words shift together, their banks rotate, every bank's count of distinct words is kept),
//     so each pattern is analysed once, shifted to start in word 0, and its count reused;
//   - when the layout repeats every P rows shifted by P * pitch bytes, a multiple of 16, the
//     instructions of rows [T, 2T) are those of [0, T) shifted (T = lcm(P, the family's block of
//     rows)): the first T rows are counted and multiplied by R / T.
// The tests recount every candidate instruction by instruction without either shortcut.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/model/layout.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

struct AccessFamily {
  AccessPattern pattern = AccessPattern::row;  // row, column or matrix
  Op op = Op::ld;
  int width = 0;  // bytes per lane; 0 = the element size (16 for the matrix ops)

  int effective_width(DType dtype) const;
  friend bool operator==(const AccessFamily&, const AccessFamily&) = default;
};

// KIND[:WIDTH][:OP]: "row", "row:16:st", "column:4", "row:st", "ldmatrix.x4", "stmatrix.x4".
Expected<AccessFamily> parse_family(std::string_view text);
std::string to_string(
    const AccessFamily& f);  // canonical: "row:16:st", "column:4:ld", "ldmatrix.x4"
// In words: "16-byte row stores", "column reads", "ldmatrix.x4 reads".
std::string family_label(const AccessFamily& f, DType dtype);

// Every instruction of the family over the tile, as the layout places it. On a broken rule
// (alignment, contiguity) the result is an error naming it and the numbers; `permuted` is set
// when some lane's elements are contiguous but out of order (registers must reorder them).
// Precondition: t.check() passes and check_family(f, t) is done.
Expected<std::vector<WarpAccess>> family_accesses(const TileLayout& t, const AccessFamily& f,
                                                  bool* permuted = nullptr);
// Done when the family fits the tile's shape (any layout); otherwise the rule it breaks.
Expected<void> check_family(const AccessFamily& f, DType dtype, int rows, int cols);

struct FamilyCount {
  AccessFamily family;
  int instructions = 0;
  int wavefronts = 0;  // summed over the instructions
  int ideal = 0;
  int worst_ways = 0;  // the worst instruction's n-way conflict
  bool permuted = false;
};

struct Candidate {
  TileLayout layout;                  // the simplest spelling found
  std::vector<Spelling> spellings;    // every spelling of the search space that is this layout
  std::vector<FamilyCount> families;  // in request order
  int total_wavefronts = 0;
  int total_ideal = 0;
  std::int64_t overhead_bytes = 0;
  int simplicity = 0;                // lower is simpler
  bool bijective = false;            // every element in its own slot inside the tile (checked)
  std::vector<std::string> reasons;  // "conflict-free column reads", "128 B of padding (3.1 %)"
  int excess() const { return total_wavefronts - total_ideal; }
};

struct Rejected {
  TileLayout layout;
  std::string reason;  // "pad 1: conflict-free column reads, but 16-byte row stores become ..."
};

struct SolveRequest {
  DType dtype = DType::fp32;
  int rows = 32;
  int cols = 32;
  std::vector<AccessFamily> families;
  std::optional<std::int64_t> max_overhead_bytes;
};

struct SolveResult {
  std::vector<Candidate> candidates;  // best first
  std::vector<Rejected> rejected;
  int layouts_tried = 0;    // the search space, spellings included
  int invalid_skipped = 0;  // parameter sets the tile refuses (CuTe/Triton sweeps), not listed
  int analyses = 0;         // distinct patterns analysed by the core
};

// Errors: fewer than two families, a family that does not fit the tile, a bad tile.
Expected<SolveResult> solve(const SolveRequest& request);

// The counts of one layout (every family), as solve() makes them; an error names the broken rule.
Expected<Candidate> evaluate_candidate(const TileLayout& t,
                                       const std::vector<AccessFamily>& families);

}  // namespace banklab
