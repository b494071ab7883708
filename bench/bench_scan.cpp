// banklab_bench_scan: how long `banklab scan` takes for a 300-line kernel with a block of 256
// threads and loops of up to 64 trips (issue 26's target: under 1 s on the development
// machine), on Google Benchmark.
//
//   banklab_bench_scan [--benchmark_repetitions=7 --benchmark_report_aggregates_only=true]
//   banklab_bench_scan --write FILE     (the kernel, to scan it with the command itself)
//
// The kernel is written here: eleven stages, each a loop (64, 32 or 16 trips) over two tiles
// of fp32 and one of bf16 with the index patterns real kernels use (rows, columns, strides,
// XOR swizzles, float4 and ldmatrix, guards on the lane, a reduction over halves of the warp),
// a barrier between stages. One iteration scans it whole (parse, every warp, every iteration,
// the wavefronts of every instruction). Google Benchmark reads the wall clock ("Time") and this
// thread's CPU clock ("CPU", what other processes on a shared machine do not stretch); the
// lines, accesses and instructions counted are reported as counters, so a faster figure that
// counted less is visible.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "bench/bench_spread.hpp"
#include "core/code/scan.hpp"

namespace banklab::bench {
namespace {

// The stages' loops: trips and the patterns their accesses take.
std::string stage(int s) {
  static constexpr int kTrips[] = {64, 32, 16, 64};
  const int trips = kTrips[s % 4];
  const std::string n = std::to_string(s);
  std::string out;
  out += "  for (int i = 0; i < " + std::to_string(trips) + "; ++i) {\n";
  out += "    const int row = (i + warp * " + std::to_string(s % 5 + 1) + ") % TILE;\n";
  out += "    const int col = (lane * " + std::to_string(2 * (s % 3) + 1) + " + i) % TILE;\n";
  out += "    a[row][col] = in[(i * 256 + tid) % 4096];\n";
  out += "    acc += a[col][row];\n";
  out += "    b[row][col ^ (row % 8)] = acc;\n";
  out += "    acc += b[lane % 8 * 8 + warp][(col * " + std::to_string(s % 4 + 1) + ") % TILE];\n";
  out += "    if (lane < 16) {\n";
  out += "      acc += a[lane * 2][(i + " + n + ") % TILE];\n";
  out += "    } else {\n";
  out += "      b[(lane - 16) * 4][i % TILE] = acc;\n";
  out += "    }\n";
  out += "    const float4 v = *reinterpret_cast<const float4*>(&b[row][(lane % 16) * 4]);\n";
  out += "    acc += v.x + v.w;\n";
  out += "    const int hr = (warp * 8 + lane % 8 + i) % TILE;\n";
  out += "    const int hc = ((lane / 8 + i) % 8 ^ (hr % 8)) * 8;\n";
  out += "    unsigned r0, r1, r2, r3;\n";
  out += "    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&h[hr][hc]));\n";
  out += "    asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n";
  out += "                 : \"=r\"(r0), \"=r\"(r1), \"=r\"(r2), \"=r\"(r3) : \"r\"(addr));\n";
  out += "    acc += static_cast<float>(r0 ^ r3);\n";
  out += "  }\n";
  out += "  for (int half = 16; half > 0; half /= 2)\n";
  out += "    if (lane < half) red[warp][lane] += red[warp][lane + half];\n";
  out += "  __syncthreads();\n";
  return out;
}

constexpr int kStages = 11;  // 25 lines each: about 300 lines in all

std::string kernel_source() {
  std::string out =
      "// A 300-line kernel for banklab_bench_scan: eleven stages over three shared tiles.\n"
      "#include <cuda_bf16.h>\n\n"
      "constexpr int TILE = 64;\n\n"
      "__global__ void stages(const float* in, float* out) {\n"
      "  __shared__ float a[TILE][TILE + 1];\n"
      "  __shared__ __align__(16) float b[TILE][TILE];\n"
      "  __shared__ __align__(128) __nv_bfloat16 h[TILE][TILE];\n"
      "  __shared__ float red[8][64];\n"
      "  const int tid = threadIdx.x;\n"
      "  const int lane = tid % 32;\n"
      "  const int warp = tid / 32;\n"
      "  float acc = 0.0f;\n"
      "  red[warp][lane] = 0.0f;\n"
      "  red[warp][lane + 32] = 0.0f;\n";
  for (int s = 0; s < kStages; ++s) out += stage(s);
  out += "  out[blockIdx.x * blockDim.x + tid] = acc + red[warp][0];\n}\n\n";
  out += "int main() {\n  stages<<<128, 256>>>(nullptr, nullptr);\n}\n";
  return out;
}

void scan_300_line_kernel(benchmark::State& state) {
  const std::string source = kernel_source();
  const CodeSource file{"stages.cu", source};
  const ScanResult warm = scan_source(file, {});
  if (warm.error || warm.kernels.size() != 1 || warm.kernels[0].error) {
    state.SkipWithError(warm.error ? warm.error->message.c_str()
                                   : "the kernel does not scan: no result");
    return;
  }
  const KernelScan& k = warm.kernels[0];
  for (auto _ : state) {
    const ScanResult result = scan_source(file, {});
    if (result.kernels.empty() || result.kernels[0].lines.size() != k.lines.size()) {
      state.SkipWithError("a scan differs from the first one");
      break;
    }
    benchmark::DoNotOptimize(result.kernels[0].lines.data());
  }
  std::int64_t instructions = 0;
  for (const ScanLine& l : k.lines) instructions += l.instructions;
  state.counters["lines"] = static_cast<double>(std::count(source.begin(), source.end(), '\n'));
  state.counters["accesses"] = static_cast<double>(k.lines.size());
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["unevaluated"] = static_cast<double>(k.unevaluated.size());
  state.SetLabel("block " + std::to_string(k.block[0]) + "x" + std::to_string(k.block[1]) + "x" +
                 std::to_string(k.block[2]) + "; target < 1000 ms");
}

BENCHMARK(scan_300_line_kernel)->Unit(benchmark::kMillisecond)->Apply(with_spread);

}  // namespace
}  // namespace banklab::bench

int main(int argc, char** argv) {
  // Not a benchmark: the kernel, written for `banklab scan FILE`.
  if (argc == 3 && std::string_view(argv[1]) == "--write") {
    std::ofstream out(argv[2]);
    out << banklab::bench::kernel_source();
    if (!out.flush()) {
      std::fprintf(stderr, "banklab_bench_scan: cannot write %s\n", argv[2]);
      return 1;
    }
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
