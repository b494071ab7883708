#pragma once
// A small trace built in code, as `banklab trace` would record it, for the tests that need one
// without a GPU: kernel demo, a grid of 2 blocks of 32x2 threads; each warp stores a column of
// float tile[32][32] (line 4: 32 lanes in bank 0, 32 wavefronts) and loads a row (line 6:
// conflict-free). The first array starts 1 KB into the shared window, as on sm_90. Its counts
// are the model's (count_access), never written by hand.
#include <string>

#include "core/record/trace.hpp"

namespace banklab::test {

inline constexpr const char* kFixtureSource =
    "// demo.cu\n"
    "__global__ void demo(float* out) {\n"
    "  __shared__ float tile[32][32];\n"
    "  tile[threadIdx.x][0] = 1.0f;\n"
    "  __syncthreads();\n"
    "  out[threadIdx.x] = tile[0][threadIdx.x];\n"
    "}\n";

inline record::Trace fixture_trace() {
  record::Trace t;
  t.created_utc = "2026-12-03T14:00:00Z";
  t.commit = "test";
  t.driver = "test";
  t.device = "a test fixture, not a GPU";
  t.cc_major = 9;
  t.program = "./demo";
  t.kernel = "demo(float*)";
  t.function = "_Z4demoPf";
  t.grid = {2, 1, 1};
  t.block = {32, 2, 1};
  t.cap = 100;
  t.line_info = true;
  t.sources.push_back({"/work/demo.cu", kFixtureSource});
  t.instructions.push_back(
      {0x50, "STS [R2+UR4], R5", {{"/work/demo.cu", 4}}, {{"/work/demo.cu", 4}}});
  t.instructions.push_back(
      {0x90, "LDS R4, [R3+UR4]", {{"/work/demo.cu", 6}}, {{"/work/demo.cu", 6}}});
  for (std::int64_t block = 0; block < 2; ++block) {
    for (int warp = 0; warp < 2; ++warp) {
      for (int instruction = 0; instruction < 2; ++instruction) {
        record::TraceAccess a;
        a.instruction = instruction;
        a.block = block;
        a.warp = warp;
        a.access.op = instruction == 0 ? Op::st : Op::ld;
        for (int lane = 0; lane < kWarpSize; ++lane)
          a.access.offsets[lane] = 1024 + (instruction == 0 ? 128 * lane : 4 * lane);
        record::count_access(a);
        t.accesses.push_back(a);
      }
    }
  }
  t.executed = static_cast<std::int64_t>(t.accesses.size());
  return t;
}

}  // namespace banklab::test
