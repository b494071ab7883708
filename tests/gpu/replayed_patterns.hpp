#pragma once
// The patterns the GPU suites replay through the microbenchmark: test_gpu_kernels checks what
// each one moved (one loop trip), test_measure_gpu holds the benchmark's accounting of each
// against the hardware counters (full-length launches), so both cover the same list.
#include <cstdint>
#include <vector>

#include "core/model/analysis.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"
#include "kernels/gpu_bench.hpp"

namespace banklab::test {

// The lesson's sweep; every preset; every op and width the microbenchmark has an instruction
// for, conflict-free with every lane, and for ld and st again with idle lanes and shared words.
inline std::vector<WarpAccess> replayed_patterns() {
  std::vector<WarpAccess> accesses = gpu::conflict_sweep();
  for (const Preset& p : presets()) {
    const Evaluation e = evaluate(p.scenario);
    if (!e.ok()) continue;  // a preset that shows a rule being broken (a misaligned store)
    accesses.push_back(e.analysis->access);
  }
  for (const Op op : {Op::ld, Op::st}) {
    for (const int width : {1, 2, 4, 8, 16}) {
      WarpAccess every_lane;
      every_lane.op = op;
      every_lane.width = width;
      WarpAccess idle_and_shared = every_lane;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        every_lane.offsets[lane] = std::int64_t{lane} * width;
        idle_and_shared.offsets[lane] =
            lane % 5 == 3 ? kInactiveLane : std::int64_t{(lane * 7) % 24} * width;
      }
      accesses.push_back(every_lane);
      accesses.push_back(idle_and_shared);
    }
  }
  for (const Op op : {Op::ldmatrix_x1, Op::ldmatrix_x2, Op::ldmatrix_x4, Op::stmatrix_x4}) {
    WarpAccess a;
    a.op = op;
    a.width = 16;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      a.offsets[lane] = lane < 8 * matrix_count(op) ? std::int64_t{lane} * 16 : kInactiveLane;
    }
    accesses.push_back(a);
  }
  return accesses;
}

}  // namespace banklab::test
