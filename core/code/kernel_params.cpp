// The launch parameters of kernel code in text (kernel_params.hpp): --let lists and block shapes.
#include "core/code/kernel_params.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "core/base/format.hpp"
#include "core/code/kernel_code.hpp"

namespace banklab {

bool valid_let_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

Expected<std::vector<std::pair<std::string, std::int64_t>>> parse_lets(std::string_view text) {
  std::vector<std::pair<std::string, std::int64_t>> lets;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    const std::string name(item.substr(0, eq));
    if (eq == std::string_view::npos || !valid_let_name(name)) {
      return Error{"--let expects NAME=VALUE[,NAME=VALUE...], such as j=0, got '" +
                   std::string(item.substr(0, 60)) + "'"};
    }
    const IntResult v = evaluate_integer(item.substr(eq + 1), {});
    if (!v.value) return Error{"--let " + name + ": " + v.error->message};
    lets.emplace_back(name, *v.value);
  }
  if (lets.empty()) return Error{"--let expects NAME=VALUE, such as j=0"};
  return lets;
}

namespace {

std::string sides(const std::array<std::int64_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

Expected<void> check_sides(const std::array<std::int64_t, 3>& d,
                           const std::array<std::int64_t, 3>& most, const std::string& what,
                           const char* kind) {
  static constexpr const char* kAxes[] = {"x", "y", "z"};
  for (std::size_t i = 0; i < 3; ++i) {
    if (d[i] < 1 || d[i] > most[i]) {
      return Error{what + " " + sides(d) + " is not one CUDA launches: a " + kind + "'s " +
                   kAxes[i] + " is 1 to " + std::to_string(most[i])};
    }
  }
  return {};
}

}  // namespace

Expected<void> check_block(const std::array<std::int64_t, 3>& block, const std::string& what) {
  if (Expected<void> fine = check_sides(block, kMaxBlockSides, what, "block"); !fine) return fine;
  if (block[0] * block[1] * block[2] > kMaxBlockThreads) {
    return Error{what + " " + sides(block) + " is not one CUDA launches: a block has at most " +
                 std::to_string(kMaxBlockThreads) + " threads, this one " +
                 std::to_string(block[0] * block[1] * block[2])};
  }
  return {};
}

Expected<void> check_grid(const std::array<std::int64_t, 3>& grid, const std::string& what) {
  return check_sides(grid, kMaxGridSides, what, "grid");
}

namespace {

// The one grammar of --block and --grid, for every command: one to three sides joined by an x
// ("32x8x2") or a comma ("32,8,2"), each a whole number from 1; then CUDA's limits for a block or a
// grid.
Expected<std::array<int, 3>> parse_sides(std::string_view text, const std::string& flag,
                                         bool block) {
  std::array<std::int64_t, 3> d = {1, 1, 1};
  std::size_t axis = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t sep = rest.find_first_of(",xX");
    const Expected<std::int64_t> n = parse_integer(rest.substr(0, sep), flag, 1, INT32_MAX);
    if (!n || axis == 3) {
      return Error{flag + " expects X, XxY or XxYxZ (such as 32x8; 32,8 too), each at least 1, " +
                   "got " + quote(text.substr(0, 60))};
    }
    d[axis++] = *n;
    if (sep == std::string_view::npos) break;
    rest = rest.substr(sep + 1);
  }
  const Expected<void> fine = block ? check_block(d, flag) : check_grid(d, flag);
  if (!fine) return Error{fine.error()};
  return std::array<int, 3>{static_cast<int>(d[0]), static_cast<int>(d[1]), static_cast<int>(d[2])};
}

}  // namespace

Expected<std::array<int, 3>> parse_block(std::string_view text) {
  return parse_sides(text, "--block", true);
}

Expected<std::array<int, 3>> parse_grid(std::string_view text) {
  return parse_sides(text, "--grid", false);
}

}  // namespace banklab
