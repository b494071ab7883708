// banklab::gpu on a real GPU (label gpu; kernels/run_on_h200.sh runs it, also under
// compute-sanitizer memcheck and racecheck). Correctness only: every kernel against the CPU
// reference at sizes that are and are not multiples of the tiles and of 16 bytes. The timings
// are the benchmark's business (banklab gpu-bench), not a test's.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/model/analysis.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"
#include "tests/gpu/replayed_patterns.hpp"

using namespace banklab;
using namespace banklab::gpu;
using namespace banklab::record;  // what a run returns (core/record/)

namespace {

void check_suite(DType dtype, int rows, int cols, int pad) {
  TransposeOptions o;
  o.dtype = dtype;
  o.rows = rows;
  o.cols = cols;
  o.pad = pad;
  o.repetitions = 1;
  o.warmup = 0;
  const SuiteReport r = run_transpose_suite(o);
  CAPTURE(r.error);
  REQUIRE(r.status == RunStatus::ok);
  // Every variant ran, but a library row where its library cannot be loaded: a note says so.
  CHECK(r.results.size() + r.notes.size() == transpose_variants(dtype).size());
  for (const std::string& note : r.notes) MESSAGE(note);
  for (const VariantResult& v : r.results) {
    CAPTURE(v.name);
    CAPTURE(v.detail);
    CHECK(v.verified);
    CHECK(v.ms > 0);
    CHECK(v.bytes_moved == 2LL * rows * cols * dtype_bytes(dtype));
  }
}

}  // namespace

TEST_CASE("the device is an available CUDA GPU") {
  const DeviceInfo d = query_device();
  CAPTURE(d.detail);
  REQUIRE(d.ok());
  CHECK(d.sm_count > 0);
  CHECK_FALSE(d.name.empty());
}

TEST_CASE("every transpose variant matches the CPU reference at every size") {
  struct Size {
    int rows, cols;
  };
  // Whole tiles of every kernel; an odd size with unaligned rows; a size a multiple of 16 B
  // but not of the fast kernels' tiles; one row; one column.
  const Size sizes[] = {{256, 512}, {200, 333}, {144, 272}, {1, 777}, {515, 1}};
  for (const DType d : kAllDTypes) {
    for (const Size& s : sizes) {
      CAPTURE(dtype_name(d));
      CAPTURE(s.rows);
      CAPTURE(s.cols);
      check_suite(d, s.rows, s.cols, -1);
    }
  }
}

TEST_CASE("the fast kernels' paired tile walk covers every tile of a 128 KiB row pitch") {
  // Rows of 128 KiB or a multiple take the walk of two tile columns 64 KiB apart
  // (make_tile_walk); a row count that is no multiple of any tile leaves a partial tile row.
  // (An fp8 row of 128 KiB would need 131072 columns, over the suite's limit of 65536.)
  struct Case {
    DType dtype;
    int rows, cols;
  };
  const Case cases[] = {{DType::fp64, 70, 16384},
                        {DType::fp64, 33, 32768},
                        {DType::fp32, 70, 32768},
                        {DType::bf16, 130, 65536}};
  for (const Case& k : cases) {
    CAPTURE(dtype_name(k.dtype));
    CAPTURE(k.rows);
    CAPTURE(k.cols);
    TransposeOptions o;
    o.dtype = k.dtype;
    o.rows = k.rows;
    o.cols = k.cols;
    o.repetitions = 1;
    o.warmup = 0;
    o.variants = {std::string(dtype_name(k.dtype)) + "-fast"};
    const SuiteReport r = run_transpose_suite(o);
    CAPTURE(r.error);
    REQUIRE(r.status == RunStatus::ok);
    REQUIRE(r.results.size() == 2);
    for (const VariantResult& v : r.results) {
      CAPTURE(v.detail);
      CHECK(v.verified);
    }
  }
}

TEST_CASE("the padded variant is right for any pad") {
  for (const DType d : kAllDTypes) {
    for (const int pad : {0, 1, 3, 17}) {
      CAPTURE(dtype_name(d));
      CAPTURE(pad);
      TransposeOptions o;
      o.dtype = d;
      o.rows = 200;
      o.cols = 300;
      o.pad = pad;
      o.repetitions = 1;
      o.warmup = 0;
      o.variants = {std::string(dtype_name(d)) + "-padded"};
      const SuiteReport r = run_transpose_suite(o);
      CAPTURE(r.error);
      REQUIRE(r.status == RunStatus::ok);
      REQUIRE(r.results.size() == 2);  // the roof and the padded variant
      for (const VariantResult& v : r.results) {
        CAPTURE(v.detail);
        CHECK(v.verified);
      }
    }
  }
}

TEST_CASE("an unknown variant is refused with the list of the dtype's variants") {
  TransposeOptions o;
  o.variants = {"fp32-nope"};
  const SuiteReport r = run_transpose_suite(o);
  CHECK(r.status == RunStatus::bad_input);
  CHECK(r.error.find("'fp32-nope' is not a fp32 variant; the variants are fp32-copy") == 0);
}

namespace {

// One loop trip per warp on a few blocks: enough to check the data, cheap under the
// sanitizers.
PatternOptions one_trip_options() {
  PatternOptions options;
  options.repetitions = 1;
  options.target_ms = 1e-4;
  options.max_blocks = 4;
  return options;
}

}  // namespace

TEST_CASE("the microbenchmark replays every op and width and verifies what moved") {
  const std::vector<WarpAccess> accesses = test::replayed_patterns();
  const PatternReport r = run_pattern_benchmark(accesses, one_trip_options());
  CAPTURE(r.error);
  REQUIRE(r.status == RunStatus::ok);
  REQUIRE(r.results.size() == accesses.size());
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    CAPTURE(to_string(accesses[i]));
    CAPTURE(r.results[i].detail);
    CHECK(r.results[i].verified);
    CHECK(r.results[i].access == accesses[i]);
    CHECK(r.results[i].predicted_wavefronts == analyze(accesses[i]).wavefront_count());
    CHECK(r.results[i].cycles_per_access > 0);
    CHECK(r.results[i].warps_per_sm > 0);
  }
}

TEST_CASE("a one-trip launch never credits an SM with more wavefronts than the pipe serves") {
  // Issue 22: each block was timed by thread 0's clocks after a barrier, which read warp 0's
  // own span (a clock read does not wait at __syncthreads()); with one trip per warp, warp 0
  // often finished well before its block, and about one run in three of the case above showed
  // 1.04-1.32 wavefronts per clock. Timed from the barrier's release to the completion of each
  // warp's last access, every access lies inside its SM's span: no launch exceeds one per clock.
  const std::vector<WarpAccess> accesses = test::replayed_patterns();
  for (int run = 0; run < 20; ++run) {
    const PatternReport r = run_pattern_benchmark(accesses, one_trip_options());
    CAPTURE(r.error);
    REQUIRE(r.status == RunStatus::ok);
    for (const PatternResult& result : r.results) {
      CAPTURE(run);
      CAPTURE(to_string(result.access));
      CAPTURE(result.detail);
      CHECK(result.verified);
      CHECK(result.wavefronts_per_clock <= 1.0);
    }
  }
}

TEST_CASE("the microbenchmark refuses an access that breaks the core's rules") {
  WarpAccess a;
  a.width = 4;
  a.offsets.fill(2);  // not 4-byte aligned
  const std::vector<WarpAccess> accesses = {a};
  const PatternReport r = run_pattern_benchmark(accesses);
  CHECK(r.status == RunStatus::bad_input);
  CHECK(r.error.starts_with("pattern 1: "));
}
