#pragma once
// A scenario is everything the user chooses: a tile and an access pattern over it (or 32 raw
// offsets), the op, the width per lane and which lanes take part. evaluate() turns it into the
// warp's 32 addresses, checks them, and analyses them. The GUI, the CLI, the presets and the
// GPU runs all start here.
//
//   row     --index N: lane L takes the k elements at row-major position N*C + L*k onward
//                      (k = width / element size), continuing into the next rows.
//   column  --index N: lane L takes elements (L, N*k ... N*k + k - 1); lanes >= R are idle.
//   matrix  --index N: ldmatrix/stmatrix; lanes 8m..8m+7 address 16-byte chunk N+m of rows
//                      0..7 (eight lanes, each one 16-byte chunk of eight consecutive rows).
//   raw:               32 explicit byte offsets (named "custom" in the JSON, kPatterns).
#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/model/analysis.hpp"
#include "core/model/layout.hpp"

namespace banklab {

enum class AccessPattern : std::uint8_t { row, column, matrix, raw };

std::string_view pattern_name(AccessPattern p);  // "row", "column", "matrix", "custom" (raw)
std::ostream& operator<<(std::ostream& os, AccessPattern p);

struct Scenario {
  TileLayout tile;
  AccessPattern pattern = AccessPattern::column;
  Op op = Op::ld;  // for the matrix pattern, one of the ldmatrix/stmatrix ops
  int width = 0;   // bytes per lane; 0 = the element size (16 for the matrix ops)
  int index = 0;   // the row, column or chunk N
  std::uint32_t lane_mask = 0xFFFFFFFFu;              // lanes switched off by the user are idle
  std::array<std::int64_t, kWarpSize> raw_offsets{};  // AccessPattern::raw only

  int effective_width() const;
  int elements_per_lane() const;  // k = width / element size (0 for raw offsets)

  friend bool operator==(const Scenario&, const Scenario&) = default;
};

// One descriptor per access pattern, as SwizzleKindInfo is for the swizzles (swizzle.hpp):
// its name, how describe() says its index, which indices fit a tile, where each lane starts,
// and how far the GUI steps it. evaluate() and the GUI read a pattern only through it. Three
// places write a pattern's own walk in their own terms and switch over AccessPattern: the
// solver, which walks every instruction of a pattern over a whole tile (core/solve/solve.cpp);
// the code form, which writes a lane's element as an expression of threadIdx.x
// (core/code/code_view.cpp); and the drill, which draws an index from every one the tile has
// and says the lanes and the index in words (core/teach/drill.cpp: pattern_indices(),
// index_name(); drill_generate.cpp: lanes_in_words()). A new pattern adds its case there too.
// (tests/core/brute_force.cpp keeps its own switch on purpose: it is the independent reference
// the model is tested against.)
struct AccessPatternInfo {
  AccessPattern pattern;
  std::string_view name;        // "row": pattern_name(), and --access's spelling of row and column
  std::string_view label;       // the GUI's name for it: "ldmatrix/stmatrix" for matrix
  std::string_view index_noun;  // what --index counts, as describe() says it: "16-byte chunk 2"
  // With k elements of the tile's type per lane (the width already checked): done when the
  // index fits the tile, otherwise the rule it breaks ("row index 40 is outside the tile: ...").
  Expected<void> (*check_index)(const Scenario& s, int k);
  // The first of the k elements lane `lane` takes; nullopt when the lane has none (past the
  // tile's rows or end, or beyond the matrices the op moves), and so sits idle.
  std::optional<Cell> (*lane_first)(const Scenario& s, int lane, int k);
  // The highest index at which the whole warp stays inside a valid tile (the GUI's slider runs
  // 0 to it); 0 where the pattern has no index.
  int (*last_index)(const Scenario& s, int k);
};

const AccessPatternInfo& access_pattern(AccessPattern p);
// Every pattern, in the enumerators' order.
std::span<const AccessPatternInfo> access_patterns();

// The first logical element a lane touches, and how many in a row it takes.
struct LaneElements {
  Cell first;
  int count = 0;  // 0: no tile element (idle lane, raw offsets)
};

struct Evaluation {
  std::vector<Diagnostic> diagnostics;  // errors mean no analysis
  std::optional<Analysis> analysis;
  std::array<LaneElements, kWarpSize> elements{};

  bool ok() const { return analysis.has_value(); }
};

// Where one lane's k elements (row-major from `first`, k <= 16) sit once the layout (pad,
// swizzle) has placed them. One access of k * e bytes can move them only when they form one
// contiguous block; its address is the lowest byte, which must also be aligned to the width.
struct LaneBlock {
  std::int64_t lowest = 0;
  bool contiguous = false;  // the k elements cover exactly [lowest, lowest + k * e)
  bool in_order = false;    // and in their logical order (else registers must reorder them)
};
LaneBlock lane_block(const TileLayout& t, Cell first, int k);
// The same from any function (r, c) -> byte over a tile of `cols` columns of e-byte elements
// (a tabulated byte_map, for the solver).
template <class ByteOf>
LaneBlock lane_block_of(const ByteOf& byte_of, int cols, int e, Cell first, int k) {
  LaneBlock block;
  block.lowest = INT64_MAX;
  std::int64_t bytes[16];
  const bool one_row = first.col + k <= cols;  // the usual case: no division per element
  for (int j = 0; j < k; ++j) {
    const std::int64_t pos = std::int64_t{first.row} * cols + first.col + j;
    bytes[j] = one_row ? byte_of(first.row, first.col + j)
                       : byte_of(static_cast<int>(pos / cols), static_cast<int>(pos % cols));
    block.lowest = bytes[j] < block.lowest ? bytes[j] : block.lowest;
  }
  std::uint32_t covered = 0;
  block.in_order = true;
  for (int j = 0; j < k; ++j) {
    const std::int64_t rel = bytes[j] - block.lowest;
    if (rel % e == 0 && rel < std::int64_t{k} * e) covered |= 1u << (rel / e);
    block.in_order = block.in_order && rel == std::int64_t{j} * e;
  }
  block.contiguous = covered == (1u << k) - 1;
  return block;
}

// Build the 32 addresses: diagnostics for every rule the scenario breaks (tile, index, width,
// alignment, contiguity of a lane's elements under the swizzle, bounds).
Expected<WarpAccess> build_access(const Scenario& s, std::array<LaneElements, kWarpSize>* elements,
                                  std::vector<Diagnostic>* diagnostics);
Evaluation evaluate(const Scenario& s);

// A tile scenario in one call, in the order a lesson says it: the tile, then the access.
Scenario tile_access(DType dtype, int rows, int cols, int pad, SwizzleSpec swizzle,
                     AccessPattern pattern, Op op, int index, int width = 0);

// "float tile[32][33], column 5, ld 4 B": what the user is looking at, in one line.
std::string describe(const Scenario& s);
std::ostream& operator<<(std::ostream& os, const Scenario& s);

// The bank of every element's first word, row-major (R*C entries), for heat maps.
std::vector<std::uint8_t> tile_bank_map(const TileLayout& t);

}  // namespace banklab
