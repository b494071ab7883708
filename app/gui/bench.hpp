#pragma once
// Summaries of per-frame timings for --bench-frames.
#include <string>
#include <vector>

namespace banklab::gui {

struct TimingSummary {
  int count = 0;
  double mean = 0, median = 0, p95 = 0, max = 0;  // milliseconds
};

TimingSummary summarize(std::vector<double> ms);
// "mean 4.12 ms, median 4.01, p95 5.30, max 7.90 (n = 300)"
std::string to_string(const TimingSummary& t);

}  // namespace banklab::gui
