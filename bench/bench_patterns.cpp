#include "bench/bench_patterns.hpp"

#include <cassert>

#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"

namespace banklab::bench {
namespace {

constexpr int kWidths[] = {1, 2, 4, 8, 16};

bool valid(const WarpAccess& a) {
  return !has_error(check_access(a));
}

}  // namespace

std::vector<WarpAccess> preset_accesses() {
  std::vector<WarpAccess> accesses;
  for (const Preset& p : presets()) {
    // Presets whose lesson is a diagnostic have no access to time.
    const Expected<WarpAccess> access = build_access(p.scenario, nullptr, nullptr);
    if (access && valid(*access)) accesses.push_back(*access);
  }
  return accesses;
}

// Lane L at byte stride * L for strides of 1..64 widths: stride 1 is a dense row, even strides
// pile lanes into fewer banks, odd ones spread them (the padding lesson, for every width).
std::vector<WarpAccess> strided_accesses() {
  std::vector<WarpAccess> accesses;
  for (const Op op : {Op::ld, Op::st}) {
    for (const int width : kWidths) {
      for (std::int64_t stride = 1; stride <= 64; ++stride) {
        WarpAccess a{.op = op, .width = width};
        for (int lane = 0; lane < kWarpSize; ++lane) {
          a.offsets[static_cast<std::size_t>(lane)] = stride * width * lane;
        }
        assert(valid(a) && "a strided walk stays aligned and inside shared memory");
        accesses.push_back(a);
      }
    }
  }
  return accesses;
}

// Offsets drawn from a small pool of aligned addresses within 4 KB (so words share banks and
// lanes share words), a quarter of lanes idle on average; one access in six is ldmatrix or
// stmatrix.
std::vector<WarpAccess> random_accesses(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto below = [&](std::int64_t n) {
    return std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng);
  };
  std::vector<WarpAccess> accesses;
  accesses.reserve(count);
  while (accesses.size() < count) {
    WarpAccess a;
    a.op = kAllOps[below(std::ssize(kAllOps))];
    a.width = is_matrix_op(a.op) ? 16 : kWidths[below(std::ssize(kWidths))];
    std::int64_t pool[24];
    const std::int64_t pool_size = 1 + below(std::ssize(pool));
    for (std::int64_t i = 0; i < pool_size; ++i) pool[i] = below(4096 / a.width) * a.width;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      // ldmatrix/stmatrix need every addressing lane; other ops may idle a lane.
      const bool idle = lane >= a.addressed_lanes() || (!is_matrix_op(a.op) && below(4) == 0);
      a.offsets[static_cast<std::size_t>(lane)] = idle ? kInactiveLane : pool[below(pool_size)];
    }
    assert(valid(a) && "random offsets are aligned and inside 4 KB");
    accesses.push_back(a);
  }
  return accesses;
}

}  // namespace banklab::bench
