// The parts of banklab::gpu that need no CUDA: names, option rules and the patterns the
// microbenchmark compares. Built with and without CUDA, so both builds say the same things.
#include <algorithm>
#include <string>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"

namespace banklab::gpu {

std::string_view availability_name(Availability a) {
  switch (a) {
    case Availability::available:
      return "available";
    case Availability::no_device:
      return "no device";
    case Availability::no_driver:
      return "no driver";
    case Availability::not_built:
      return "not built";
    case Availability::error:
      return "error";
  }
  return "unknown";
}

std::string device_summary(const DeviceInfo& d) {
  if (!d.ok()) {
    std::string text(availability_name(d.availability));
    if (!d.detail.empty()) text += ": " + d.detail;
    return text;
  }
  return d.name + ", sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ", " +
         std::to_string(d.sm_count) + " SMs at up to " + std::to_string(d.sm_clock_khz / 1000) +
         " MHz, " + format("%.1f", static_cast<double>(d.memory_bytes) / (1u << 30)) +
         " GiB of memory (" + std::to_string(d.memory_bus_bits) + "-bit bus at " +
         std::to_string(d.memory_clock_khz / 1000) + " MHz), " +
         std::to_string(d.shared_memory_per_sm / 1024) + " KiB shared memory per SM, " +
         std::to_string(d.l2_bytes >> 20) + " MiB L2";
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

// The smallest pad that makes a column read of tile[32][32 + pad] take the floor number of
// wavefronts (see the presets fp32-pad1, bf16-pad2, fp64-pad1):
//   fp32: stride 33 words, odd, bank (r + c) mod 32.
//   bf16: stride 34 elements = 17 words, odd.
//   fp64: stride 33 doubles = 66 words: half-warps of 16 lanes land on 32 distinct banks.
//   fp8:  stride 36 bytes = 9 words, odd (a 1-byte pad would split rows across words unevenly).
int default_pad(DType dtype) {
  switch (dtype) {
    case DType::fp8:
      return 4;
    case DType::bf16:
      return 2;
    case DType::fp32:
      return 1;
    case DType::fp64:
      return 1;
  }
  return 1;
}

namespace {
constexpr int kMaxSide = 65536;
constexpr int kMaxPad = 64;
constexpr int kMaxRepetitions = 1000;
constexpr int kMaxWarmup = 100;

std::string range_error(std::string_view what, int value, int lo, int hi) {
  return std::string(what) + " must be between " + std::to_string(lo) + " and " +
         std::to_string(hi) + ", not " + std::to_string(value);
}
}  // namespace

Expected<void> check_options(const TransposeOptions& o) {
  if (o.rows < 1 || o.rows > kMaxSide)
    return Error{range_error("the row count", o.rows, 1, kMaxSide)};
  if (o.cols < 1 || o.cols > kMaxSide)
    return Error{range_error("the column count", o.cols, 1, kMaxSide)};
  if (o.pad != -1 && (o.pad < 0 || o.pad > kMaxPad)) {
    return Error{range_error("the pad (-1 for the default)", o.pad, 0, kMaxPad)};
  }
  if (o.repetitions < 1 || o.repetitions > kMaxRepetitions) {
    return Error{range_error("the repetition count", o.repetitions, 1, kMaxRepetitions)};
  }
  if (o.warmup < 0 || o.warmup > kMaxWarmup) {
    return Error{range_error("the warm-up count", o.warmup, 0, kMaxWarmup)};
  }
  return {};
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

// Column c = 0 of float tile[32][S]: lane L reads word S * L, bank (S * L) mod 32. With
// gcd(S, 32) = g the 32 lanes fall on 32 / g banks, g distinct words each: a g-way conflict.
std::vector<WarpAccess> conflict_sweep() {
  constexpr int kStrides[] = {33, 34, 36, 40, 48, 32};  // g = 1, 2, 4, 8, 16, 32
  std::vector<WarpAccess> sweep;
  for (const int stride : kStrides) {
    WarpAccess a;
    a.op = Op::ld;
    a.width = 4;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      a.offsets[lane] = std::int64_t{stride} * kBankWidthBytes * lane;
    }
    sweep.push_back(a);
  }
  return sweep;
}

}  // namespace banklab::gpu
