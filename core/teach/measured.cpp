#include "core/teach/measured.hpp"

#include <algorithm>

namespace banklab {

namespace {

// docs/gpu-results.md, "Transpose suite, 16384 x 16384" (fraction of the same run's copy, run 1
// / run 2) and "Shared-memory microbenchmark".
constexpr Measured kMeasured[] = {
    {"fp32-naive", "41.5 / 41.3 %", "fp32 transpose through tile[32][32], % of the copy roof"},
    {"fp32-padded", "82.3 / 82.3 %", "fp32 transpose through tile[32][33], % of the copy roof"},
    {"fp32-aligned-pad", "82.2 / 81.8 %",
     "fp32 transpose through tile[32][36] (4-way), % of the copy roof"},
    {"fp32-xor", "80.5 / 80.6 %", "fp32 transpose through the XOR-swizzled tile, % of the copy"},
    {"bf16-naive", "35.2 / 35.2 %", "bf16 transpose through tile[32][32], % of the copy roof"},
    {"bf16-padded", "62.6 / 63.2 %", "bf16 transpose through tile[32][34], % of the copy roof"},
    {"fp32-fast", "96.9 / 96.3 %", "the fast fp32 transpose, % of the copy roof"},
    {"copy-fp32", "4205", "the copy roof of the fp32 run, GB/s"},
    {"sweep-1way", "1.001", "clocks per column read of float tile[32][33] (1-way)"},
    {"sweep-4way", "4.002", "clocks per column read of float tile[32][36] (4-way)"},
    {"sweep-32way", "32.017", "clocks per column read of float tile[32][32] (32-way)"},
    {"sm-clock", "1969 MHz", "the SM clock read during the microbenchmark"},
};

}  // namespace

std::span<const Measured> measured() {
  return kMeasured;
}

const Measured* find_measured(std::string_view key) {
  const auto it = std::find_if(std::begin(kMeasured), std::end(kMeasured),
                               [key](const Measured& m) { return m.key == key; });
  return it == std::end(kMeasured) ? nullptr : &*it;
}

}  // namespace banklab
