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
//   custom:            32 explicit byte offsets.
#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "banklab/access.hpp"
#include "banklab/analysis.hpp"
#include "banklab/layout.hpp"

namespace banklab {

enum class AccessPattern : std::uint8_t { row, column, matrix, custom };

std::string_view pattern_name(AccessPattern p);  // "row", "column", "matrix", "custom"
std::ostream& operator<<(std::ostream& os, AccessPattern p);

struct Scenario {
  TileLayout tile;
  AccessPattern pattern = AccessPattern::column;
  Op op = Op::ld;            // for the matrix pattern, one of the ldmatrix/stmatrix ops
  int width = 0;             // bytes per lane; 0 = the element size (16 for the matrix ops)
  int index = 0;             // the row, column or chunk N
  std::uint32_t lane_mask = 0xFFFFFFFFu;  // lanes switched off by the user are idle
  std::array<std::int64_t, kWarpSize> custom_offsets{};  // AccessPattern::custom only

  int effective_width() const;
  int elements_per_lane() const;  // k = width / element size (0 for custom)

  friend bool operator==(const Scenario&, const Scenario&) = default;
};

// The first logical element a lane touches, and how many in a row it takes.
struct LaneElements {
  Cell first;
  int count = 0;  // 0: no tile element (idle lane, custom offsets)
};

struct Evaluation {
  std::vector<Diagnostic> diagnostics;  // errors mean no analysis
  std::optional<Analysis> analysis;
  std::array<LaneElements, kWarpSize> elements{};

  bool ok() const { return analysis.has_value(); }
};

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
