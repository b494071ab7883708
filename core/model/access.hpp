#pragma once
// One warp-wide shared-memory instruction: what it is (ld, st, ldmatrix, stmatrix), how many
// bytes each lane moves, and the byte offset of every lane (-1 for a lane that does not take
// part). This is all the hardware sees, and all the analysis needs.
#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/base/diagnostic.hpp"
#include "core/base/expected.hpp"
#include "core/model/hardware.hpp"

namespace banklab {

enum class Op : std::uint8_t {
  ld,           // LDS: 1, 2, 4, 8 or 16 bytes per lane
  st,           // STS
  ldmatrix_x1,  // LDSM: lanes 0-7 give the row addresses of one 8x8 b16 matrix
  ldmatrix_x2,  // lanes 0-15, two matrices
  ldmatrix_x4,  // lanes 0-31, four matrices
  stmatrix_x4,  // STSM: lanes 0-31, four matrices
};

inline constexpr Op kAllOps[] = {Op::ld,          Op::st,          Op::ldmatrix_x1,
                                 Op::ldmatrix_x2, Op::ldmatrix_x4, Op::stmatrix_x4};

std::string_view op_name(Op op);  // "ld", "st", "ldmatrix.x4", ...
std::optional<Op> parse_op(std::string_view text);
bool is_matrix_op(Op op);
int matrix_count(Op op);  // 1, 2 or 4 for the matrix ops, 0 otherwise
// Loads count under Nsight Compute's op_ld (LDSM too); stores under op_st (STSM too).
bool is_load(Op op);
std::ostream& operator<<(std::ostream& os, Op op);

inline constexpr std::int64_t kInactiveLane = -1;

struct WarpAccess {
  Op op = Op::ld;
  int width = 4;  // bytes per lane: 1, 2, 4, 8 or 16 (16 for the matrix ops)
  std::array<std::int64_t, kWarpSize> offsets{};  // byte offsets; kInactiveLane = no access

  bool active(int lane) const { return offsets[lane] != kInactiveLane; }
  // Lanes whose address the instruction uses: all 32 for ld/st, 8 per matrix for ldmatrix.
  int addressed_lanes() const;

  friend bool operator==(const WarpAccess&, const WarpAccess&) = default;
};

// The rules an access must obey before it can be analysed: a width the hardware has, every
// offset aligned to the width and inside the 228 KB of shared memory, 16 bytes for the matrix
// ops. Each message names the rule, the lane and the numbers.
std::vector<Diagnostic> check_access(const WarpAccess& access);

// "ld 4 0,4,8,...": the batch-line format, also what operator<< prints.
std::string to_string(const WarpAccess& access);
std::ostream& operator<<(std::ostream& os, const WarpAccess& access);

// Parsers for the command line and batch files; each error says what was expected.
Expected<int> parse_width(std::string_view text);
// 32 comma-separated byte offsets, -1 for an inactive lane.
Expected<std::array<std::int64_t, kWarpSize>> parse_offsets(std::string_view text);
// One batch line: "OP WIDTH o0,...,o31". Blank space may separate the fields.
Expected<WarpAccess> parse_pattern_line(std::string_view line);

}  // namespace banklab
