// The parts of banklab::gpu that need no CUDA: the default pad, the option rules and the lesson's
// sweep. Built with and without CUDA, so both builds say the same things (the names of states and
// roles, and the baseline a pattern is compared with, are the recording's: core/record/).
#include <algorithm>
#include <string>

#include "core/model/hardware.hpp"
#include "kernels/gpu_bench.hpp"

namespace banklab::gpu {

int default_pad(DType dtype) {
  return dtype_info(dtype).conflict_free_pad;
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

Expected<void> check_options(const record::TransposeOptions& o) {
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
