// The launch parameters of kernel code in text (kernel_params.hpp): --let lists and block shapes.
#include "core/code/kernel_params.hpp"

#include <algorithm>
#include <cctype>

#include "core/code/kernel_code.hpp"

namespace banklab {

bool valid_let_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::ranges::all_of(name, [](char c) {
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

Expected<std::array<int, 3>> parse_block(std::string_view text) {
  std::array<int, 3> block = {1, 1, 1};
  std::size_t axis = 0;
  std::int64_t threads = 1;
  while (true) {
    const std::size_t x = text.find_first_of("xX");
    const std::string_view part = text.substr(0, x);
    std::int64_t n = 0;
    const bool digits = !part.empty() && part.size() <= 5 &&
                        std::ranges::all_of(part, [](char c) { return c >= '0' && c <= '9'; });
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
