// banklab-probe "OP WIDTH o0,...,o31": run one access's measured kernel once, with no profiler
// attached, verify the bytes it moved, and print what the model predicts. Nsight Compute
// measures it from outside, the cross-check of the in-process CUPTI numbers:
//
//   ncu --clock-control none --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,...
//       banklab-probe "ld 4 0,128,256,..."
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/model/analysis.hpp"
#include "kernels/measure/probe_plan.hpp"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "banklab-probe: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace banklab;
  if (argc != 2) return fail("usage: banklab-probe \"OP WIDTH o0,...,o31\"");
  Expected<WarpAccess> access = parse_pattern_line(argv[1]);
  if (!access) return fail(access.error());
  if (const auto d = check_access(*access); has_error(d)) return fail(first_error(d));
  Expected<gpu::detail::ProbePlan> plan = gpu::detail::plan_probe(*access);
  if (!plan) return fail(plan.error());
  if (std::string err = gpu::detail::prepare_probes(0); !err.empty()) return fail(err);

  void* out = nullptr;
  if (cudaError_t err = cudaMalloc(&out, gpu::detail::kProbeOutBytes); err != cudaSuccess)
    return fail(std::string("cudaMalloc failed: ") + cudaGetErrorString(err));
  if (std::string err = gpu::detail::launch_probe(*plan, out); !err.empty()) return fail(err);
  std::vector<std::uint8_t> host(gpu::detail::kProbeOutBytes);
  if (cudaError_t err = cudaMemcpy(host.data(), out, host.size(), cudaMemcpyDeviceToHost);
      err != cudaSuccess) {
    return fail(std::string("kernel or cudaMemcpy failed: ") + cudaGetErrorString(err));
  }
  cudaFree(out);
  if (const Expected<void> right = gpu::detail::verify_probe(*access, *plan, host); !right)
    return fail("the kernel moved the wrong bytes: " + right.error());

  const Analysis a = analyze(*access);
  std::printf("verified: %s\npredicted: %d wavefronts, %d bank conflicts (%s)\n",
              to_string(*access).c_str(), a.wavefront_count(), a.bank_conflicts(),
              is_load(access->op) ? "op_ld" : "op_st");
  return 0;
}
