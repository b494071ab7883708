// banklab::gpu in a build without a CUDA compiler. "Not built" is a state the app shows (the
// GPU window says how to get it), exactly like "no device": every entry point answers it.
#include "kernels/gpu_bench.hpp"
#include "kernels/gpu_device.hpp"

namespace banklab::gpu {

namespace {
constexpr std::string_view kNotBuilt =
    "this build of BankLab has no CUDA support (it was configured without a CUDA compiler or "
    "with -DBANKLAB_BUILD_CUDA=OFF; install the CUDA toolkit and reconfigure)";
}

record::DeviceInfo query_device() {
  record::DeviceInfo info;
  info.availability = record::Availability::not_built;
  info.detail = std::string(kNotBuilt);
  return info;
}

// The variant table holds the kernels themselves, so a build without them has none to list.
std::vector<VariantInfo> transpose_variants(DType /*dtype*/) {
  return {};
}

record::SuiteReport run_transpose_suite(const record::TransposeOptions& options,
                                        const ProgressFn& /*progress*/,
                                        const std::atomic<bool>* /*cancel*/) {
  record::SuiteReport report;
  report.status = record::RunStatus::unavailable;
  report.device = query_device();
  report.error = report.device.detail;
  report.options = options;
  return report;
}

record::PatternReport run_pattern_benchmark(std::span<const WarpAccess> /*accesses*/,
                                            const PatternOptions& /*options*/,
                                            const ProgressFn& /*progress*/,
                                            const std::atomic<bool>* /*cancel*/) {
  record::PatternReport report;
  report.status = record::RunStatus::unavailable;
  report.device = query_device();
  report.error = report.device.detail;
  return report;
}

}  // namespace banklab::gpu
