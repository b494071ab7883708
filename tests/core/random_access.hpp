#pragma once
// Random warp accesses that the hardware would accept (aligned, inside shared memory), shaped
// like the patterns that stress the rules: a few hot addresses shared by many lanes, partners
// l^1 / l^2 / l^3 on one address (which decides load packing), idle lanes, whole idle phases.
#include <cstdint>

#include "core/model/access.hpp"

namespace banklab::brute {

// SplitMix64: tiny, and the same sequence on every compiler and standard library, so a failing
// case can be replayed from its seed.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n).
  std::int64_t below(std::int64_t n) {
    return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n));
  }
  bool one_in(int n) { return below(n) == 0; }

 private:
  std::uint64_t state_;
};

WarpAccess random_access(Rng& rng);

}  // namespace banklab::brute
