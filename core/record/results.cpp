// The names of a run's states and roles, the conflict-free baseline, and whether a cross-check
// agrees from its counts alone: plain C++, so a recording replayed anywhere is judged by the rules
// a live run applies (results.hpp).
#include "core/record/results.hpp"

#include <cmath>
#include <string>

#include "core/base/format.hpp"

namespace banklab::record {

std::string_view status_name(RunStatus status) {
  switch (status) {
    case RunStatus::ok:
      return "ok";
    case RunStatus::unavailable:
      return "unavailable";
    case RunStatus::bad_input:
      return "bad input";
    case RunStatus::cancelled:
      return "cancelled";
    case RunStatus::cuda_error:
      return "CUDA error";
  }
  return "unknown";
}

std::string_view role_name(VariantRole role) {
  switch (role) {
    case VariantRole::roof:
      return "roof";
    case VariantRole::teaching:
      return "teaching";
    case VariantRole::fast:
      return "fast";
    case VariantRole::library:
      return "library";
  }
  return "unknown";
}

// Lane L at byte L * width: consecutive lanes on consecutive words, so each phase covers its
// 32 banks once (ideal wavefronts). For ldmatrix/stmatrix lanes 8m..8m+7 give rows 8m..8m+7
// of 16 contiguous bytes, which is the same formula with width 16.
WarpAccess conflict_free_baseline(const WarpAccess& access) {
  WarpAccess base = access;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (access.active(lane)) base.offsets[lane] = std::int64_t{lane} * access.width;
  }
  return base;
}

Expected<void> check_agreement(const PatternCrossCheck& c) {
  const double off = std::abs(double(c.hardware_instructions - c.counted_instructions));
  if (c.hardware_instructions <= 0 ||
      !(off <= kCrossCheckInstructionTolerance * double(c.counted_instructions))) {
    return Error{"the benchmark counts " + std::to_string(c.counted_instructions) +
                 " instructions of the measured class, the hardware " +
                 std::to_string(c.hardware_instructions)};
  }
  if (!(std::abs(c.counted_cycles_per_access / c.hardware_cycles_per_access - 1) <=
        kCrossCheckCycleTolerance)) {
    return Error{
        format("the benchmark measures %.3f clocks per instruction per SM, the hardware %.3f",
               c.counted_cycles_per_access, c.hardware_cycles_per_access)};
  }
  if (!(c.hardware_wavefronts_per_clock <= kMaxWavefrontsPerClock)) {
    return Error{
        format("the hardware counts %.3f wavefronts per clock per SM, above the pipe's %.2f",
               c.hardware_wavefronts_per_clock, kMaxWavefrontsPerClock)};
  }
  return {};
}

}  // namespace banklab::record
