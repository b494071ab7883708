// banklab::gpu without a GPU (label nogpu): the variant table, the patterns the microbenchmark
// compares, the option rules, and the clear "no GPU" state that every entry point returns on a
// machine without a CUDA device or driver (CI's, and this project's developers').
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/model/analysis.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"

using namespace banklab;
using namespace banklab::gpu;
using namespace banklab::record;  // what a run returns (core/record/)

TEST_CASE("without a GPU every entry point reports the missing device or driver as a state") {
  const DeviceInfo d = query_device();
  CAPTURE(d.detail);
  REQUIRE_FALSE(d.ok());
  CHECK((d.availability == Availability::no_device || d.availability == Availability::no_driver ||
         d.availability == Availability::not_built));
  CHECK_FALSE(d.detail.empty());
  CHECK(d.detail.find('\n') == std::string::npos);
  SUBCASE("the transpose suite") {
    const SuiteReport r = run_transpose_suite(TransposeOptions{});
    CHECK(r.status == RunStatus::unavailable);
    CHECK(r.error == d.detail);
    CHECK(r.results.empty());
  }
  SUBCASE("the microbenchmark") {
    const std::vector<WarpAccess> sweep = conflict_sweep();
    const PatternReport r = run_pattern_benchmark(sweep);
    CHECK(r.status == RunStatus::unavailable);
    CHECK(r.error == d.detail);
  }
  SUBCASE("a second query answers the same") {
    CHECK(query_device().availability == d.availability);
  }
}

TEST_CASE(
    "every dtype lists the copy roof first, then teaching variants and one fast kernel; "
    "fp32 and fp64 end with cuBLAS") {
  for (const DType d : kAllDTypes) {
    CAPTURE(dtype_name(d));
    const std::vector<VariantInfo> variants = transpose_variants(d);
#if BANKLAB_WITH_CUDA
    REQUIRE(variants.size() >= 3);
    CHECK(variants.front().role == VariantRole::roof);
    int fast = 0;
    int library = 0;
    std::set<std::string_view> names;
    for (const VariantInfo& v : variants) {
      CAPTURE(v.name);
      CHECK(v.dtype == d);
      CHECK(v.name.starts_with(dtype_name(d)));
      CHECK(names.insert(v.name).second);
      CHECK_FALSE(v.lesson.empty());
      fast += v.role == VariantRole::fast ? 1 : 0;
      library += v.role == VariantRole::library ? 1 : 0;
      // A named preset must exist and describe the same element type.
      if (!v.preset.empty()) {
        const Preset* p = find_preset(v.preset);
        REQUIRE(p != nullptr);
        CHECK(p->scenario.tile.dtype == d);
      }
    }
    CHECK(fast == 1);
    // cuBLAS has a geam for float and double only.
    const bool has_geam = d == DType::fp32 || d == DType::fp64;
    CHECK(library == (has_geam ? 1 : 0));
    if (has_geam) CHECK(variants.back().role == VariantRole::library);
#else
    CHECK(variants.empty());  // the table holds the kernels: none in a build without CUDA
#endif
  }
}

TEST_CASE("the padded variant's default pad gives the fewest wavefronts on every column") {
  for (const DType d : kAllDTypes) {
    CAPTURE(dtype_name(d));
    const int ideal = dtype_bytes(d) == 8 ? 2 : 1;  // 256 B of doubles need two wavefronts
    for (int column = 0; column < 32; ++column) {
      CAPTURE(column);
      Scenario s;
      s.tile.dtype = d;
      s.tile.pad = default_pad(d);
      s.pattern = AccessPattern::column;
      s.index = column;
      const Evaluation e = evaluate(s);
      REQUIRE(e.ok());
      CHECK(e.analysis->wavefront_count() == ideal);
    }
  }
}

TEST_CASE("the sweep's column reads are 1-, 2-, 4-, 8-, 16- and 32-way, as analyze counts them") {
  const std::vector<WarpAccess> sweep = conflict_sweep();
  const int expected[] = {1, 2, 4, 8, 16, 32};
  REQUIRE(sweep.size() == std::size(expected));
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    CAPTURE(to_string(sweep[i]));
    REQUIRE(check_access(sweep[i]).empty());
    CHECK(analyze(sweep[i]).wavefront_count() == expected[i]);
  }
}

TEST_CASE("the conflict-free baseline keeps op, width and lanes and costs the ideal") {
  SUBCASE("every preset") {
    for (const Preset& p : presets()) {
      CAPTURE(p.name);
      const Evaluation e = evaluate(p.scenario);
      if (!e.ok()) continue;  // a preset that shows a rule being broken (a misaligned store)
      const WarpAccess base = conflict_free_baseline(e.analysis->access);
      CHECK(base.op == e.analysis->access.op);
      CHECK(base.width == e.analysis->access.width);
      for (int lane = 0; lane < kWarpSize; ++lane) {
        CAPTURE(lane);
        CHECK(base.active(lane) == e.analysis->access.active(lane));
      }
      const Analysis a = analyze(base);
      CHECK(a.wavefront_count() == a.ideal_wavefronts);
    }
  }
}

TEST_CASE("transpose options outside their ranges are refused with the numbers") {
  TransposeOptions o;
  CHECK(check_options(o));
  // The sentence of the rule the options break (they must break one).
  const auto refusal = [&o] {
    const Expected<void> valid = check_options(o);
    REQUIRE_FALSE(valid);
    return valid.error();
  };
  SUBCASE("rows") {
    o.rows = 0;
    CHECK(refusal() == "the row count must be between 1 and 65536, not 0");
  }
  SUBCASE("columns") {
    o.cols = 70000;
    CHECK(refusal() == "the column count must be between 1 and 65536, not 70000");
  }
  SUBCASE("pad") {
    o.pad = -2;
    CHECK(refusal() == "the pad (-1 for the default) must be between 0 and 64, not -2");
  }
  SUBCASE("repetitions") {
    o.repetitions = 0;
    CHECK(refusal() == "the repetition count must be between 1 and 1000, not 0");
  }
  SUBCASE("warm-up") {
    o.warmup = 101;
    CHECK(refusal() == "the warm-up count must be between 0 and 100, not 101");
  }
}
