#include "tests/core/random_access.hpp"

#include <vector>

namespace banklab::brute {

std::uint64_t Rng::next() {
  state_ += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

WarpAccess random_access(Rng& rng) {
  WarpAccess a;
  a.op = kAllOps[rng.below(std::size(kAllOps))];
  constexpr int kWidths[] = {1, 2, 4, 8, 16};
  a.width = a.op == Op::ld || a.op == Op::st ? kWidths[rng.below(5)] : 16;

  // A pool of hot addresses, aligned to the width, in a region from a few wavefronts wide (many
  // words per bank, many broadcasts) up to all 228 KB.
  constexpr std::int64_t kRegions[] = {256, 1024, 4096, kSharedMemoryBytes};
  const std::int64_t region = kRegions[rng.below(4)];
  std::vector<std::int64_t> pool(static_cast<std::size_t>(1 + rng.below(48)));
  for (std::int64_t& address : pool) address = rng.below(region / a.width) * a.width;
  for (std::int64_t& offset : a.offsets)
    offset = pool[static_cast<std::size_t>(rng.below(std::ssize(pool)))];

  // Partners on one address: l^1 and l^2 decide load packing, l^3 must not.
  if (rng.one_in(3)) {
    const int partner = 1 + static_cast<int>(rng.below(3));
    for (int lane = 0; lane < kWarpSize; ++lane)
      if (lane < (lane ^ partner)) a.offsets[lane ^ partner] = a.offsets[lane];
  }
  // Idle lanes: every lane with bit 0, 1 or 2 set (partners idle, so loads may pack), a random
  // share of them, or every lane.
  if (rng.one_in(6)) {
    const int bit = 1 << rng.below(3);
    for (int lane = 0; lane < kWarpSize; ++lane)
      if (lane & bit) a.offsets[lane] = kInactiveLane;
  } else if (rng.one_in(3)) {
    const int idle_in_eight = 1 + static_cast<int>(rng.below(7));
    for (std::int64_t& offset : a.offsets)
      if (rng.below(8) < idle_in_eight) offset = kInactiveLane;
  } else if (rng.one_in(40)) {
    a.offsets.fill(kInactiveLane);
  }
  // ldmatrix/stmatrix are .sync.aligned: every lane that gives a row address takes part.
  for (int lane = 0; lane < a.addressed_lanes(); ++lane)
    if (a.offsets[lane] == kInactiveLane) a.offsets[lane] = pool.front();
  return a;
}

}  // namespace banklab::brute
