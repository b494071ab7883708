// What the programs of the shipped traces share on the host: the scan corpus's check of each
// CUDA call (corpus_check.cuh), a fixed-seed generator so that every run (and so every shipped
// trace) sees the same data, and how many times each launches its kernel.
#pragma once
#include <cstdint>

#include "../../scan/corpus/corpus_check.cuh"

// A 64-bit linear congruential generator (Knuth's MMIX constants): the high bits are used.
struct FixedSeedRandom {
  std::uint64_t state;
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  }
};

// Each program launches its kernel this many times, so that `banklab trace --launch N` has
// launches to choose from and the launches after the traced one time the kernel unpatched.
inline constexpr int kLaunches = 3;
