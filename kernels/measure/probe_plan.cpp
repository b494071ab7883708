// Host side of the measured kernel: where each lane points, and a CPU replay of the bytes the
// kernel must have moved. Plain C++: built and tested without CUDA.
#include "kernels/measure/probe_plan.hpp"

#include <algorithm>
#include <cassert>
#include <map>
#include <vector>

namespace banklab::gpu::detail {
namespace {

ProbeKind kind_of(Op op, int width) {
  const int w = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : width == 8 ? 3 : 4;
  switch (op) {
    case Op::ld:
      return static_cast<ProbeKind>(static_cast<int>(ProbeKind::ld1) + w);
    case Op::st:
      return static_cast<ProbeKind>(static_cast<int>(ProbeKind::st1) + w);
    case Op::ldmatrix_x1:
      return ProbeKind::ldsm_x1;
    case Op::ldmatrix_x2:
      return ProbeKind::ldsm_x2;
    case Op::ldmatrix_x4:
      return ProbeKind::ldsm_x4;
    case Op::stmatrix_x4:
      return ProbeKind::stsm_x4;
  }
  assert(false && "every Op has a probe kernel");
  return ProbeKind::ld4;
}

Error byte_mismatch(int lane, int k, std::int64_t offset, int got, std::string_view expected) {
  return Error{"lane " + std::to_string(lane) + " byte " + std::to_string(k) + " (shared offset " +
               std::to_string(offset) + ") is " + std::to_string(got) + ", expected " +
               std::string(expected)};
}

}  // namespace

Expected<ProbePlan> plan_probe(const WarpAccess& access) {
  ProbePlan plan;
  plan.kind = kind_of(access.op, access.width);
  // Every given address reaches the kernel, also the ignored ones of lanes past the matrices in
  // use, so the hardware sees exactly the access the user wrote.
  std::int64_t lo = kSharedMemoryBytes, hi = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!access.active(lane)) continue;
    lo = std::min(lo, access.offsets[lane]);
    hi = std::max(hi, access.offsets[lane] + access.width);
  }
  plan.shift = 0;
  if (hi > kMaxBlockSharedBytes && lo < hi) plan.shift = lo / 1024 * 1024;
  if (hi - plan.shift > kMaxBlockSharedBytes) {
    return Error{"the access spans bytes " + std::to_string(lo) + ".." + std::to_string(hi - 1) +
                 ", more than the " + std::to_string(kMaxBlockSharedBytes) +
                 " B of shared memory one block can have, so one kernel cannot run it"};
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    plan.offsets[lane] =
        access.active(lane) ? static_cast<std::int32_t>(access.offsets[lane] - plan.shift) : -1;
  }
  // Whole kilobytes, and never zero: an all-idle warp still launches.
  plan.shared_bytes =
      static_cast<int>(std::max<std::int64_t>(hi - plan.shift, 1) + 1023) / 1024 * 1024;
  return plan;
}

Expected<void> verify_probe(const WarpAccess& access, const ProbePlan& plan,
                            std::span<const std::uint8_t> out) {
  assert(out.size() == static_cast<std::size_t>(kProbeOutBytes));
  const auto at = [&](int lane, int k) { return static_cast<int>(out[16 * lane + k]); };
  const int matrices = matrix_count(access.op);
  if (is_load(access.op)) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      for (int m = 0; m < (matrices ? matrices : 1); ++m) {
        for (int k = 0; k < (matrices ? 4 : access.width); ++k) {
          // ldmatrix: register m of thread t holds row t/4 of matrix m from byte 4*(t mod 4).
          const int source_lane = matrices ? 8 * m + lane / 4 : lane;
          if (plan.offsets[source_lane] < 0) continue;
          const std::int64_t offset =
              plan.offsets[source_lane] + (matrices ? 4 * (lane % 4) : 0) + k;
          const int expected = fill_byte(static_cast<std::uint32_t>(offset));
          const int byte = matrices ? 4 * m + k : k;
          if (at(lane, byte) != expected)
            return byte_mismatch(lane, byte, offset, at(lane, byte), std::to_string(expected));
        }
      }
    }
    return {};
  }
  // Stores: every value some lane wrote to each byte; the read-back must be one of them.
  std::map<std::int64_t, std::vector<int>> written;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (matrices) {
      for (int m = 0; m < matrices; ++m)
        for (int j = 0; j < 4; ++j)
          written[plan.offsets[8 * m + lane / 4] + 4 * (lane % 4) + j].push_back(
              store_byte(lane, 4 * m + j));
    } else if (plan.offsets[lane] >= 0) {
      for (int k = 0; k < access.width; ++k)
        written[plan.offsets[lane] + k].push_back(store_byte(lane, k));
    }
  }
  const int read_bytes = matrices ? 16 : access.width;
  for (int lane = 0; lane < (matrices ? 8 * matrices : kWarpSize); ++lane) {
    if (plan.offsets[lane] < 0) continue;
    for (int k = 0; k < read_bytes; ++k) {
      const std::int64_t offset = plan.offsets[lane] + k;
      const std::vector<int>& values = written[offset];
      if (std::find(values.begin(), values.end(), at(lane, k)) == values.end()) {
        std::string expected = "one of";
        for (int v : values) expected += " " + std::to_string(v);
        return byte_mismatch(lane, k, offset, at(lane, k), expected);
      }
    }
  }
  return {};
}

}  // namespace banklab::gpu::detail
