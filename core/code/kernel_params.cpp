// The launch parameters of kernel code in text (kernel_params.hpp): --let lists and block shapes.
#include "core/code/kernel_params.hpp"

#include <algorithm>
#include <cctype>

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

Expected<std::array<int, 3>> parse_block(std::string_view text) {
  std::array<int, 3> block = {1, 1, 1};
  std::size_t axis = 0;
  std::int64_t threads = 1;
  while (true) {
    const std::size_t x = text.find_first_of("xX");
    const std::string_view part = text.substr(0, x);
    std::int64_t n = 0;
    const bool digits =
        !part.empty() && part.size() <= 5 &&
        std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits)
      for (char c : part) n = n * 10 + (c - '0');
    if (axis == 3 || !digits || n < 1) {
      return Error{
          "--block expects X, XxY or XxYxZ threads (such as 32x8), each at least 1, got '" +
          std::string(text.substr(0, 60)) + "'"};
    }
    block[axis++] = static_cast<int>(n);
    threads *= n;
    if (threads > 1024) return Error{"--block: a block has at most 1024 threads"};
    if (x == std::string_view::npos) break;
    text = text.substr(x + 1);
  }
  return block;
}

}  // namespace banklab
