#pragma once
// An independent, deliberately naive model of how an H100/H200 counts shared-memory
// wavefronts, written from the rules of docs/hardware-model.md and nothing else, so that the
// core's analyze() and layout arithmetic can be checked against a second implementation.
//
// It favours obviousness over cleverness: every (bank, word) pair of a phase listed, sorted and
// counted, the phases listed lane by lane, the swizzle formula spelled out again. It uses the core
// only for its plain enums and structs (Op, TileLayout, SwizzleKind), never for any arithmetic.
#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <vector>

#include "core/model/access.hpp"
#include "core/model/layout.hpp"
#include "core/model/scenario.hpp"

namespace banklab::brute {

struct Count {
  int wavefronts = 0;
  int ideal = 0;
  int conflicts() const { return wavefronts - ideal; }
  friend bool operator==(const Count&, const Count&) = default;
};
std::ostream& operator<<(std::ostream& os, const Count& c);

// The lanes of each phase, after load packing: docs/hardware-rules.md rules 2, 4 and 5.
std::vector<std::vector<int>> phases(Op op, int width,
                                     const std::array<std::int64_t, kWarpSize>& offsets);

// Rules 1-6: the sum over phases of the most distinct words any bank serves, and the number of
// phases with an active lane.
Count count(Op op, int width, const std::array<std::int64_t, kWarpSize>& offsets);
inline Count count(const WarpAccess& a) {
  return count(a.op, a.width, a.offsets);
}

// The layout function of layout.hpp, written out again from its formulas:
//   none: r*pitch + c*e;  xor: r*pitch + (c ^ (r mod C))*e;  cute/tma: Swizzle(r*pitch + c*e);
//   cute-elem: Swizzle(element index)*e;  triton: r*pitch + (c ^ XOR of row-bit bases)*e.
std::int64_t tile_byte(const TileLayout& t, int r, int c);

// The 32 addresses of a scenario, from scenario.hpp's definitions of the row, column, matrix
// and raw patterns and tile_byte(): nullopt when some lane's elements do not form one
// aligned, contiguous block. Precondition: the tile is valid and the index inside it.
std::optional<WarpAccess> access_of(const Scenario& s);

// CuTe's Swizzle<B,M,S> on one offset, as docs/hardware-rules.md defines it.
std::int64_t swizzle(int bits, int base, int shift, std::int64_t x);

}  // namespace banklab::brute
