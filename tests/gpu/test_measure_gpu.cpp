// The measurement backend on a real GPU (label gpu: run on the H200 by
// kernels/measure/run_on_h200.sh). Each row of docs/hardware-rules.md's measured examples is
// measured again through CUPTI in-process; the counts are the ones Nsight Compute printed.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "core/model/analysis.hpp"
#include "kernels/gpu_measure.hpp"
#include "tests/gpu/replayed_patterns.hpp"

namespace banklab {
namespace {

struct KnownCount {
  const char* pattern;
  Op op;
  int width;
  std::function<std::int64_t(int)> offset;  // kInactiveLane for an idle lane
  int wavefronts;
  int conflicts;
};

WarpAccess make(const KnownCount& k) {
  WarpAccess a;
  a.op = k.op;
  a.width = k.width;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    a.offsets[lane] =
        is_matrix_op(k.op) && lane >= 8 * matrix_count(k.op) ? kInactiveLane : k.offset(lane);
  }
  return a;
}

// docs/hardware-rules.md, "Measured examples" (ld/st rows appear once per op).
std::vector<KnownCount> known_counts() {
  const auto one = [](std::int64_t at) { return [at](int) { return at; }; };
  std::vector<KnownCount> rows;
  for (Op op : {Op::ld, Op::st}) {
    rows.push_back({"float tile[32][32] column", op, 4, [](int l) { return 128 * l; }, 32, 31});
    rows.push_back({"float tile[32][33] column", op, 4, [](int l) { return 132 * l; }, 1, 0});
    rows.push_back({"float tile[32][36] column", op, 4, [](int l) { return 144 * l; }, 4, 3});
    rows.push_back(
        {"XOR swizzle c^r, column 5", op, 4, [](int l) { return 4 * (32 * l + (5 ^ l)); }, 1, 0});
    rows.push_back({"all lanes one word", op, 4, one(256), 1, 0});
    rows.push_back({"bf16 tile[32][32] column 3", op, 2, [](int l) { return 64 * l + 6; }, 16, 15});
    rows.push_back({"bf16 tile[32][33] column 3", op, 2, [](int l) { return 66 * l + 6; }, 2, 1});
    rows.push_back({"bf16 tile[32][34] column 3", op, 2, [](int l) { return 68 * l + 6; }, 1, 0});
    rows.push_back({"fp8 32-byte rows, column", op, 1, [](int l) { return 32 * l + 3; }, 8, 7});
    rows.push_back({"double tile[32][32] column", op, 8, [](int l) { return 256 * l; }, 32, 30});
    rows.push_back({"double tile[32][33] column", op, 8, [](int l) { return 264 * l; }, 2, 0});
    rows.push_back({"double row", op, 8, [](int l) { return 8 * l; }, 2, 0});
    rows.push_back({"16-byte row", op, 16, [](int l) { return 16 * l; }, 4, 0});
    rows.push_back(
        {"16-byte column of 128-byte rows", op, 16, [](int l) { return 128 * l; }, 32, 28});
  }
  rows.push_back({"lanes 0-15 active, 128 L", Op::ld, 4,
                  [](int l) { return l < 16 ? 128 * l : kInactiveLane; }, 16, 15});
  rows.push_back({"all lanes one 8-byte address", Op::ld, 8, one(512), 1, 0});
  rows.push_back({"all lanes one 8-byte address", Op::st, 8, one(512), 2, 0});
  rows.push_back({"8 (L mod 16)", Op::ld, 8, [](int l) { return 8 * (l % 16); }, 2, 0});
  rows.push_back({"all lanes one 16-byte address", Op::ld, 16, one(1024), 2, 0});
  rows.push_back({"all lanes one 16-byte address", Op::st, 16, one(1024), 4, 0});
  rows.push_back({"alternating 0 and 128", Op::ld, 16, [](int l) { return 128 * (l % 2); }, 4, 2});
  rows.push_back({"alternating 0 and 128", Op::st, 16, [](int l) { return 128 * (l % 2); }, 8, 4});
  rows.push_back({"16 (L mod 8)", Op::ld, 16, [](int l) { return 16 * (l % 8); }, 4, 0});
  rows.push_back({"ldmatrix.x4, 128-byte rows", Op::ldmatrix_x4, 16,
                  [](int l) { return 128 * (l % 8) + 16 * (l / 8); }, 32, 28});
  rows.push_back({"ldmatrix.x4, 128-byte rows, chunk swizzled", Op::ldmatrix_x4, 16,
                  [](int l) { return 128 * (l % 8) + 16 * ((l / 8) ^ (l % 8)); }, 4, 0});
  rows.push_back({"ldmatrix.x4, 64-byte rows", Op::ldmatrix_x4, 16,
                  [](int l) { return 64 * (l % 8) + 16 * (l / 8); }, 16, 12});
  rows.push_back({"ldmatrix.x4, 80-byte rows", Op::ldmatrix_x4, 16,
                  [](int l) { return 80 * (l % 8) + 16 * (l / 8); }, 4, 0});
  rows.push_back({"stmatrix.x4, 128-byte rows", Op::stmatrix_x4, 16,
                  [](int l) { return 128 * (l % 8) + 16 * (l / 8); }, 32, 28});
  return rows;
}

}  // namespace

TEST_CASE("the hardware counts docs/hardware-rules.md's examples through CUPTI in-process") {
  const gpu::MeasureSupport support = gpu::measure_support();
  INFO(support.reason);
  REQUIRE(support.ok);

  const std::vector<KnownCount> rows = known_counts();
  std::vector<WarpAccess> accesses;
  for (const KnownCount& k : rows) accesses.push_back(make(k));
  const auto measured = gpu::measure(accesses);
  INFO((measured ? std::string() : measured.error()));
  REQUIRE(measured.has_value());
  REQUIRE(measured->size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const gpu::Measurement& m = (*measured)[i];
    CAPTURE(rows[i].pattern);
    CAPTURE(accesses[i]);
    CAPTURE(m.error);
    CHECK(m.ok);
    CHECK(m.verified);
    CHECK(m.instructions == 1);
    CHECK(m.wavefronts == rows[i].wavefronts);
    CHECK(m.bank_conflicts == rows[i].conflicts);
  }
}

TEST_CASE("ldmatrix ignores the addresses of lanes past the matrices in use") {
  REQUIRE(gpu::measure_support().ok);
  // Conflict-free rows for the matrices in use; the other lanes, when given addresses, point at
  // one bank (a 24-way conflict if the hardware read them).
  std::vector<WarpAccess> accesses;
  for (Op op : {Op::ldmatrix_x1, Op::ldmatrix_x2}) {
    for (bool give_extra : {false, true}) {
      WarpAccess a;
      a.op = op;
      a.width = 16;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (lane < 8 * matrix_count(op))
          a.offsets[lane] = 16 * lane;
        else
          a.offsets[lane] = give_extra ? 128 * lane : kInactiveLane;
      }
      accesses.push_back(a);
    }
  }
  const auto measured = gpu::measure(accesses);
  REQUIRE(measured.has_value());
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    CAPTURE(accesses[i]);
    const gpu::Measurement& m = (*measured)[i];
    CHECK(m.ok);
    CHECK(m.wavefronts == matrix_count(accesses[i].op));
    CHECK(m.bank_conflicts == 0);
    CHECK(m.wavefronts == analyze(accesses[i]).wavefront_count());
  }
}

TEST_CASE("an access that cannot run comes back as a failed measurement beside the others") {
  REQUIRE(gpu::measure_support().ok);
  WarpAccess misaligned;
  misaligned.op = Op::ld;
  misaligned.width = 8;
  for (int lane = 0; lane < kWarpSize; ++lane) misaligned.offsets[lane] = 8 * lane + 4;
  WarpAccess fine = misaligned;
  for (int lane = 0; lane < kWarpSize; ++lane) fine.offsets[lane] = 8 * lane;
  // Lanes at both ends of the 228 KB: no single block can hold the span.
  WarpAccess too_wide = fine;
  too_wide.offsets[31] = kSharedMemoryBytes - 8;
  const std::vector<WarpAccess> accesses = {misaligned, fine, too_wide};
  const auto measured = gpu::measure(accesses);
  REQUIRE(measured.has_value());
  CHECK_FALSE((*measured)[0].ok);
  CHECK((*measured)[0].error.find("8-byte aligned") != std::string::npos);
  CHECK((*measured)[1].ok);
  CHECK((*measured)[1].wavefronts == 2);
  CHECK_FALSE((*measured)[2].ok);
  CHECK((*measured)[2].error.find("one block") != std::string::npos);
}

TEST_CASE("measure() stops between batches when cancelled") {
  REQUIRE(gpu::measure_support().ok);
  std::vector<WarpAccess> accesses(600);
  for (WarpAccess& a : accesses)
    for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = 4 * lane;
  std::atomic<bool> cancel{false};
  std::size_t reports = 0;
  const auto measured = gpu::measure(
      accesses,
      [&](std::size_t done, std::size_t total) {
        ++reports;
        CHECK(done <= total);
        cancel = true;  // after the first batch
      },
      &cancel);
  REQUIRE_FALSE(measured.has_value());
  CHECK(measured.error().find("cancelled") != std::string::npos);
  CHECK(reports == 1);
}

}  // namespace banklab

namespace banklab {
namespace {

TEST_CASE(
    "the microbenchmark's instruction and clock accounting agrees with the hardware "
    "counters for every op it measures") {
  // gpu-bench's own launch length (2 ms), at which the fill and the read-back that the span
  // leaves out are at most 0.13 % of an SM's active clocks (kCrossCheckCycleTolerance).
  gpu::PatternOptions options;
  options.repetitions = 3;
  const std::vector<WarpAccess> accesses = test::replayed_patterns();
  const auto checked = gpu::cross_check_patterns(accesses, options);
  if (!checked) FAIL(checked.error());
  REQUIRE(checked->benchmark.results.size() == accesses.size());
  REQUIRE(checked->runs.size() >= 14);
  for (const record::PatternCrossCheck& c : checked->runs) {
    CAPTURE(to_string(c.access));
    CAPTURE(c.detail);
    CHECK(c.agrees);
    CHECK(c.hardware_instructions ==
          doctest::Approx(static_cast<double>(c.counted_instructions)).epsilon(0.005));
    // Issue 22: the clock span within 0.5 % of the hardware's active clocks, every pattern.
    CHECK(c.counted_cycles_per_access ==
          doctest::Approx(c.hardware_cycles_per_access).epsilon(0.005));
    CHECK(c.hardware_wavefronts_per_clock <= record::kMaxWavefrontsPerClock);
  }
  for (const record::PatternResult& r : checked->benchmark.results) {
    CAPTURE(to_string(r.access));
    CAPTURE(r.detail);
    CHECK(r.verified);
    CHECK(r.wavefronts_per_clock <= record::kMaxWavefrontsPerClock);
  }
  CHECK(checked->all_agree());
}

}  // namespace
}  // namespace banklab
