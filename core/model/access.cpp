#include "core/model/access.hpp"

#include <charconv>
#include <ostream>
#include <sstream>

#include "core/base/format.hpp"

namespace banklab {

std::string_view op_name(Op op) {
  switch (op) {
    case Op::ld:
      return "ld";
    case Op::st:
      return "st";
    case Op::ldmatrix_x1:
      return "ldmatrix.x1";
    case Op::ldmatrix_x2:
      return "ldmatrix.x2";
    case Op::ldmatrix_x4:
      return "ldmatrix.x4";
    case Op::stmatrix_x4:
      return "stmatrix.x4";
  }
  return "ld";
}

std::optional<Op> parse_op(std::string_view text) {
  for (Op op : kAllOps)
    if (op_name(op) == text) return op;
  return std::nullopt;
}

bool is_matrix_op(Op op) {
  return matrix_count(op) > 0;
}

int matrix_count(Op op) {
  switch (op) {
    case Op::ldmatrix_x1:
      return 1;
    case Op::ldmatrix_x2:
      return 2;
    case Op::ldmatrix_x4:
    case Op::stmatrix_x4:
      return 4;
    case Op::ld:
    case Op::st:
      return 0;
  }
  return 0;
}

bool is_load(Op op) {
  return op != Op::st && op != Op::stmatrix_x4;
}

std::ostream& operator<<(std::ostream& os, Op op) {
  return os << op_name(op);
}

int WarpAccess::addressed_lanes() const {
  return is_matrix_op(op) ? 8 * matrix_count(op) : kWarpSize;
}

std::vector<Diagnostic> check_access(const WarpAccess& a) {
  std::vector<Diagnostic> out;
  auto error = [&](std::string rule, std::string message, int lane = -1) {
    out.push_back({Severity::error, std::move(rule), std::move(message), lane});
  };
  if (a.width != 1 && a.width != 2 && a.width != 4 && a.width != 8 && a.width != 16) {
    error("width", "a lane accesses 1, 2, 4, 8 or 16 bytes; " + std::to_string(a.width) +
                       " is not an access width the hardware has");
    return out;
  }
  if (is_matrix_op(a.op) && a.width != 16) {
    error("width", std::string(op_name(a.op)) + " moves one 16-byte row per address; width " +
                       std::to_string(a.width) + " is not possible");
    return out;
  }
  const int used = a.addressed_lanes();
  for (int lane = 0; lane < used; ++lane) {
    const std::int64_t off = a.offsets[lane];
    if (off == kInactiveLane) {
      if (is_matrix_op(a.op)) {
        error("matrix-lanes",
              std::string(op_name(a.op)) +
                  " is .sync.aligned: every lane executes it and lanes 0-" +
                  std::to_string(used - 1) + " each give a row address; lane " +
                  std::to_string(lane) + " gives none",
              lane);
      }
      continue;
    }
    if (off < 0) {
      error("bounds",
            "lane " + std::to_string(lane) + " has byte offset " + std::to_string(off) +
                "; offsets are >= 0, or -1 for an inactive lane",
            lane);
    } else if (off % a.width != 0) {
      error("alignment",
            "lane " + std::to_string(lane) + ": a " + std::to_string(a.width) +
                "-byte access must be " + std::to_string(a.width) +
                "-byte aligned, but byte offset " + std::to_string(off) + " is " +
                std::to_string(off % a.width) + " past a multiple of " + std::to_string(a.width),
            lane);
    } else if (off > kSharedMemoryBytes - a.width) {
      // Compared as off > limit - width: off + width overflows for offsets near INT64_MAX.
      // The last byte is off + (width - 1), which fits: off is a multiple of width here.
      error("bounds",
            "lane " + std::to_string(lane) + " accesses bytes " + std::to_string(off) + ".." +
                std::to_string(off + (a.width - 1)) + ", past the " +
                std::to_string(kSharedMemoryBytes) + " B (228 KB) of shared memory",
            lane);
    }
  }
  if (used < kWarpSize) {
    for (int lane = used; lane < kWarpSize; ++lane) {
      if (a.offsets[lane] != kInactiveLane) {
        out.push_back({Severity::note, "matrix-lanes",
                       std::string(op_name(a.op)) + " reads row addresses from lanes 0-" +
                           std::to_string(used - 1) + " only; the addresses of lanes " +
                           std::to_string(used) + "-31 are ignored",
                       -1});
        break;
      }
    }
  }
  return out;
}

std::string to_string(const WarpAccess& a) {
  std::string out(op_name(a.op));
  out += ' ';
  out += std::to_string(a.width);
  out += ' ';
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (lane) out += ',';
    out += std::to_string(a.offsets[lane]);
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const WarpAccess& a) {
  return os << to_string(a);
}

Expected<int> parse_width(std::string_view text) {
  int width = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), width);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() ||
      (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)) {
    return Error{"bad width " + quote(text) + ": expected 1, 2, 4, 8 or 16 bytes"};
  }
  return width;
}

Expected<std::array<std::int64_t, kWarpSize>> parse_offsets(std::string_view text) {
  std::array<std::int64_t, kWarpSize> offsets{};
  int count = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (count == kWarpSize) {
      return Error{"too many offsets: a warp has 32 lanes, so give exactly 32 byte offsets"};
    }
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size()) {
      return Error{"bad offset " + quote(item) + " for lane " + std::to_string(count) +
                   ": expected a byte offset (an integer), or -1 for an inactive lane"};
    }
    offsets[count++] = value;
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (count != kWarpSize) {
    return Error{"got " + std::to_string(count) +
                 " offsets: a warp has 32 lanes, so give exactly 32 byte offsets (-1 = inactive)"};
  }
  return offsets;
}

Expected<WarpAccess> parse_pattern_line(std::string_view line) {
  std::string_view fields[3];
  int n = 0;
  std::string_view rest = trim(line);
  while (!rest.empty()) {
    const std::size_t space = rest.find_first_of(" \t");
    if (n == 3) return Error{"too many fields: expected 'OP WIDTH o0,...,o31'"};
    fields[n++] = rest.substr(0, space);
    if (space == std::string_view::npos) break;
    rest = trim(rest.substr(space));
  }
  if (n != 3) return Error{"expected 'OP WIDTH o0,...,o31' (3 fields), got " + std::to_string(n)};
  WarpAccess access;
  const std::optional<Op> op = parse_op(fields[0]);
  if (!op) {
    return Error{"unknown op " + quote(fields[0]) +
                 ": expected ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4"};
  }
  access.op = *op;
  Expected<int> width = parse_width(fields[1]);
  if (!width) return Error{width.error()};
  access.width = *width;
  auto offsets = parse_offsets(fields[2]);
  if (!offsets) return Error{offsets.error()};
  access.offsets = *offsets;
  return access;
}

}  // namespace banklab
