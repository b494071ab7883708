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
// "32x8", "32x8x2", "256": the block shape, at most 1024 threads.
Expected<std::array<int, 3>> parse_block(std::string_view text);

// A name --let may give: a C++ identifier, dotted parts allowed (blockIdx.x).
bool valid_let_name(std::string_view name);

}  // namespace banklab
