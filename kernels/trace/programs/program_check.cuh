// What the programs `banklab trace` ships traces of share on the host: a check of each CUDA call
// that stops the program with the call and its error, and a fixed-seed generator so that every
// run (and so every shipped trace) sees the same data.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define PROGRAM_CHECK(call)                                              \
  do {                                                                   \
    const cudaError_t program_status = (call);                           \
    if (program_status != cudaSuccess) {                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(program_status));                  \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

// A 64-bit linear congruential generator (Knuth's MMIX constants): the high bits are used.
struct FixedSeedRandom {
  std::uint64_t state;
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  }
};

// Each program launches its kernel this many times, so that `banklab trace --launch N` has
// launches to choose from and the untraced ones time the kernel without the patches.
inline constexpr int kLaunches = 3;
