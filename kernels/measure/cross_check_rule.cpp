// Whether a cross-check agrees, from its counts alone: plain C++, built with or without CUDA, so a
// recording replayed anywhere is judged by the rules a live run applies (gpu_measure.hpp).
#include <cmath>
#include <string>

#include "core/base/format.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_measure.hpp"

namespace banklab::gpu {

std::string cross_check_problem(const PatternCrossCheck& c) {
  const double off = std::abs(double(c.hardware_instructions - c.counted_instructions));
  if (c.hardware_instructions <= 0 ||
      !(off <= kCrossCheckInstructionTolerance * double(c.counted_instructions))) {
    return "the benchmark counts " + std::to_string(c.counted_instructions) +
           " instructions of the measured class, the hardware " +
           std::to_string(c.hardware_instructions);
  }
  if (!(std::abs(c.counted_cycles_per_access / c.hardware_cycles_per_access - 1) <=
        kCrossCheckCycleTolerance)) {
    return format("the benchmark measures %.3f clocks per instruction per SM, the hardware %.3f",
                  c.counted_cycles_per_access, c.hardware_cycles_per_access);
  }
  if (!(c.hardware_wavefronts_per_clock <= kMaxWavefrontsPerClock)) {
    return format("the hardware counts %.3f wavefronts per clock per SM, above the pipe's %.2f",
                  c.hardware_wavefronts_per_clock, kMaxWavefrontsPerClock);
  }
  return {};
}

}  // namespace banklab::gpu
