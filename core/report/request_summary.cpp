#include "core/report/request_summary.hpp"

namespace banklab {

std::string request_summary(const Analysis& a) {
  const auto counted = [](std::int64_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  std::string out =
      counted(a.active_lanes, "active lane") + (a.active_lanes == 1 ? " requests " : " request ") +
      std::to_string(a.requested_bytes) + " B: " + counted(a.distinct_words, "distinct word") +
      " in " + counted(a.distinct_banks, "bank") + ", " +
      counted(static_cast<std::int64_t>(a.phases.size()), "phase");
  if (a.packed) {
    out += " (loads packed with partner lane l^" + std::to_string(a.packing_partner) + ")";
  }
  return out;
}

}  // namespace banklab
