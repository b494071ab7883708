#include "bench.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace banklab::gui {

TimingSummary summarize(std::vector<double> ms) {
  TimingSummary t;
  t.count = static_cast<int>(ms.size());
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  t.mean = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
  t.median = ms[ms.size() / 2];
  // Nearest-rank 95th percentile.
  std::size_t rank = (ms.size() * 95 + 99) / 100;
  t.p95 = ms[std::max<std::size_t>(rank, 1) - 1];
  t.max = ms.back();
  return t;
}

std::string to_string(const TimingSummary& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "mean %.2f ms, median %.2f, p95 %.2f, max %.2f (n = %d)",
                t.mean, t.median, t.p95, t.max, t.count);
  return buf;
}

}  // namespace banklab::gui
