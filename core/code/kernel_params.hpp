#pragma once
// What kernel code is evaluated for, besides the code: the block, the warp, the values of names
// the code leaves open (--let), the op of a bare access, the size of an extern array; and the
// text forms the command line and the app read them from.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/model/hardware.hpp"

namespace banklab {

inline constexpr int kAllWarps = -1;

struct KernelParams {
  std::array<int, 3> block = {32, 1, 1};  // blockDim.x, y, z
  int warp = 0;                           // kAllWarps: every warp, the worst one reported
  std::vector<std::pair<std::string, std::int64_t>> lets;  // loop variables and the like
  std::optional<Op> op;  // for a bare access: ld (default), st, or a matrix op (then the
                         // expression is the row address)
  std::int64_t extern_bytes = kMaxSharedPerBlockBytes;  // the launch's size of an extern __shared__
  // How an undefined name's message says to give it a value; NAME is replaced by the name.
  std::string let_hint = "add --let NAME=VALUE";
};

// "j=0,k=-1": the --let list. Names are identifiers (blockIdx.x too), values whole numbers.
Expected<std::vector<std::pair<std::string, std::int64_t>>> parse_lets(std::string_view text);
// "32x8", "32x8x2", "256" (a comma may stand for the x: "32,8"): the block of --block in
// every command, within CUDA's limits (check_block); the error names --block.
Expected<std::array<int, 3>> parse_block(std::string_view text);
// The same grammar for --grid, within a grid's limits (check_grid).
Expected<std::array<int, 3>> parse_grid(std::string_view text);

// A name --let may give: a C++ identifier, dotted parts allowed (blockIdx.x).
bool valid_let_name(std::string_view name);

// CUDA's launch limits (compute capability 9.0, the CUDA Programming Guide's table of technical
// specifications): a block of at most 1024 threads, x and y at most 1024, z at most 64; a grid
// of x at most 2^31 - 1, y and z at most 65535. Every side at least 1.
inline constexpr std::array<std::int64_t, 3> kMaxBlockSides = {1024, 1024, 64};
inline constexpr std::int64_t kMaxBlockThreads = 1024;
inline constexpr std::array<std::int64_t, 3> kMaxGridSides = {2147483647, 65535, 65535};
// Fine, or why `what` ("the block", "the launch's grid") is not a launch CUDA makes.
Expected<void> check_block(const std::array<std::int64_t, 3>& block, const std::string& what);
Expected<void> check_grid(const std::array<std::int64_t, 3>& grid, const std::string& what);

}  // namespace banklab
