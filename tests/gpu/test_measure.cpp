// The measurement backend where no GPU is needed (label nogpu: CI runs it): the no-GPU state and
// its message, CUPTI and cuBLAS loaded at run time (and the reason when they cannot be), and the
// host half of the measured kernel — where each lane points, and the CPU
// replay that decides whether a kernel moved the right bytes.
#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "kernels/gpu_measure.hpp"
#include "kernels/measure/probe_plan.hpp"
#include "kernels/measure/range_profiler.hpp"
#include "kernels/runtime/shared_library.hpp"

namespace banklab {
namespace {

using gpu::detail::fill_byte;
using gpu::detail::kProbeOutBytes;
using gpu::detail::plan_probe;
using gpu::detail::ProbePlan;
using gpu::detail::store_byte;
using gpu::detail::verify_probe;

WarpAccess strided(Op op, int width, std::int64_t stride, std::int64_t base = 0) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  for (int lane = 0; lane < kWarpSize; ++lane) a.offsets[lane] = base + stride * lane;
  return a;
}

ProbePlan plan_of(const WarpAccess& a) {
  const Expected<ProbePlan> plan = plan_probe(a);
  INFO((plan ? std::string() : plan.error()));
  REQUIRE(plan.has_value());
  return *plan;
}

// The first wrong byte verify_probe() names (there must be one).
std::string mismatch(const WarpAccess& a, const ProbePlan& p, std::span<const std::uint8_t> out) {
  const Expected<void> right = verify_probe(a, p, out);
  REQUIRE_FALSE(right);
  return right.error();
}

}  // namespace

TEST_CASE("without a usable GPU, measuring says why instead of measuring") {
  const record::DeviceInfo device = gpu::query_device();
  const gpu::MeasureSupport support = gpu::measure_support();
  CHECK(support.device.availability == device.availability);
  if (!device.ok()) {
    CHECK_FALSE(support.ok);
    // The device query's own sentence: "no CUDA driver ...", "no CUDA device ...", "this build
    // of BankLab has no CUDA support ...", with the failed call.
    CHECK_FALSE(support.reason.empty());
    CHECK(support.reason == device.detail);
    const std::vector<WarpAccess> one = {strided(Op::ld, 4, 4)};
    const auto measured = gpu::measure(one);
    REQUIRE_FALSE(measured.has_value());
    CHECK(measured.error() == support.reason);
  } else {
    CHECK(support.ok == (device.cc_major >= 9));
    CHECK(support.reason.empty() == support.ok);
  }
}

TEST_CASE("a library loaded at run time names itself and what is missing in one line") {
  gpu::detail::SharedLibrary missing("The test library", "libbanklab-test-missing.so.7");
  CHECK(missing.unavailable() ==
        "The test library could not be loaded (libbanklab-test-missing.so.7 not found)");
  void (*fn)() = nullptr;
  missing.find("anything", &fn);
  CHECK((fn == nullptr));
  CHECK(missing.unavailable() ==
        "The test library could not be loaded (libbanklab-test-missing.so.7 not found)");

  gpu::detail::SharedLibrary c("The C library", "libc.so.6");
  CHECK(c.unavailable().empty());
  decltype(&std::strlen) strlen_fn = nullptr;
  c.find("strlen", &strlen_fn);
  REQUIRE((strlen_fn != nullptr));
  CHECK(strlen_fn("wavefront") == 9);
  CHECK(c.unavailable().empty());
  c.find("banklab_no_such_function", &fn);
  c.find("banklab_nor_this_one", &fn);
  CHECK(c.unavailable() == "The C library has no banklab_no_such_function");
}

#if BANKLAB_WITH_CUDA
// A build with CUDA was compiled against a toolkit, whose CUPTI must then load with every entry
// point the range profiler calls (a misspelt or removed name fails here, not on the GPU machine).
TEST_CASE("CUPTI loads at run time with every entry point the profiler calls") {
  CHECK(gpu::detail::cupti_unavailable_reason() == "");
}
#endif

TEST_CASE("a probe plan keeps every bank and word while fitting one block") {
  SUBCASE("an access low in shared memory is passed unchanged") {
    const WarpAccess a = strided(Op::ld, 4, 128);
    const ProbePlan p = plan_of(a);
    CHECK(p.shift == 0);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(p.offsets[lane] == a.offsets[lane]);
    }
    CHECK(p.shared_bytes == 4 * 1024);  // 31*128 + 4 bytes, whole kilobytes
  }
  SUBCASE("an access past 227 KB moves down by whole kilobytes") {
    const WarpAccess a = strided(Op::st, 8, 8, kSharedMemoryBytes - 1024);
    const ProbePlan p = plan_of(a);
    CHECK(p.shift % 1024 == 0);
    CHECK(p.shared_bytes <= gpu::detail::kMaxBlockSharedBytes);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      CAPTURE(lane);
      CHECK(bank_of_byte(p.offsets[lane]) == bank_of_byte(a.offsets[lane]));
    }
  }
  SUBCASE("idle lanes stay idle, and ldmatrix's ignored lanes keep their address") {
    WarpAccess a = strided(Op::ldmatrix_x1, 16, 16);
    for (int lane = 8; lane < 16; ++lane) a.offsets[lane] = kInactiveLane;
    const ProbePlan p = plan_of(a);
    CHECK(p.offsets[9] == -1);
    CHECK(p.offsets[20] == 16 * 20);
  }
  SUBCASE("an access wider than one block's shared memory cannot run") {
    WarpAccess a = strided(Op::ld, 4, 4);
    a.offsets[31] = kSharedMemoryBytes - 4;
    const Expected<ProbePlan> p = plan_probe(a);
    REQUIRE_FALSE(p.has_value());
    CHECK(p.error().find("one block") != std::string::npos);
  }
}

TEST_CASE("the CPU replay accepts exactly the bytes the access must move") {
  std::vector<std::uint8_t> out(kProbeOutBytes, 0xCD);
  SUBCASE("ld: each lane gets the filled bytes at its address") {
    WarpAccess a = strided(Op::ld, 2, 66, 6);
    a.offsets[5] = kInactiveLane;
    const ProbePlan p = plan_of(a);
    for (int lane = 0; lane < kWarpSize; ++lane)
      for (int k = 0; k < 2 && a.active(lane); ++k)
        out[16 * lane + k] = fill_byte(static_cast<std::uint32_t>(a.offsets[lane] + k));
    CHECK(verify_probe(a, p, out));
    out[16 * 3 + 1] ^= 1;
    CHECK(mismatch(a, p, out).find("lane 3 byte 1") == 0);
  }
  SUBCASE("ldmatrix.x2: thread t holds row t/4 of each matrix from byte 4 (t mod 4)") {
    const WarpAccess a = strided(Op::ldmatrix_x2, 16, 80);
    const ProbePlan p = plan_of(a);
    for (int t = 0; t < kWarpSize; ++t)
      for (int m = 0; m < 2; ++m)
        for (int j = 0; j < 4; ++j)
          out[16 * t + 4 * m + j] =
              fill_byte(static_cast<std::uint32_t>(a.offsets[8 * m + t / 4] + 4 * (t % 4) + j));
    CHECK(verify_probe(a, p, out));
    out[16 * 31 + 7] ^= 0x80;
    CHECK_FALSE(verify_probe(a, p, out));
  }
  SUBCASE("st: a byte written by several lanes may hold any one of their values") {
    const WarpAccess a = strided(Op::st, 4, 0, 512);  // every lane on one word
    const ProbePlan p = plan_of(a);
    for (int lane = 0; lane < kWarpSize; ++lane)
      for (int k = 0; k < 4; ++k) out[16 * lane + k] = store_byte(7, k);
    CHECK(verify_probe(a, p, out));
    out[16 * 2] = store_byte(30, 0);  // another writer of the same byte: also possible
    CHECK(verify_probe(a, p, out));
    std::set<int> written;
    for (int lane = 0; lane < kWarpSize; ++lane) written.insert(store_byte(lane, 0));
    int unwritten = 0;  // a value no lane stores to byte 0
    while (written.count(unwritten) != 0) ++unwritten;
    out[16 * 2] = static_cast<std::uint8_t>(unwritten);
    CHECK(mismatch(a, p, out).find("lane 2 byte 0") == 0);
  }
  SUBCASE("stmatrix.x4: the read-back of each row holds the fragment the threads gave") {
    const WarpAccess a = strided(Op::stmatrix_x4, 16, 144);
    const ProbePlan p = plan_of(a);
    // Row r of matrix m, bytes 4q..4q+3, come from thread 4(r mod 8) + q, register m.
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const int m = lane / 8, row = lane % 8;
      for (int k = 0; k < 16; ++k) out[16 * lane + k] = store_byte(4 * row + k / 4, 4 * m + k % 4);
    }
    CHECK(verify_probe(a, p, out));
    out[16 * 9 + 15] = static_cast<std::uint8_t>(out[16 * 9 + 15] ^ 0xFF);
    CHECK_FALSE(verify_probe(a, p, out));
  }
}

}  // namespace banklab
