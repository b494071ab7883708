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

// Real kernels at their real sizes (issue 32): a tiled SGEMM over K = 4096 (256 tiles of 16)
// and a flash-attention tile loop over N = 4096 keys (64 tiles of 64), written here in the
// shapes those kernels take. Their tile loops issue the same shared accesses on every trip:
// the scan counts one trip times 256 or 64 (Machine::counted_once).
constexpr const char* kSgemm =
    R"(// SGEMM, 64x64 tiles of C, K in steps of 16, a 4x4 micro-tile a thread.
constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;

__global__ void sgemm_k4096(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[BK][BM + 4];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  float acc[TM][TN] = {};
  for (int t = 0; t < K / BK; ++t) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int idx = tid + i * 256;
      As[idx % BK][idx / BK] = A[(blockIdx.y * BM + idx / BK) * K + t * BK + idx % BK];
      Bs[idx / BN][idx % BN] = B[(t * BK + idx / BN) * N + blockIdx.x * BN + idx % BN];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
#pragma unroll
      for (int m = 0; m < TM; ++m) a[m] = As[k][ty * TM + m];
#pragma unroll
      for (int n = 0; n < TN; ++n) b[n] = Bs[k][tx * TN + n];
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) acc[m][n] += a[m] * b[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(blockIdx.y * BM + ty * TM + m) * N + blockIdx.x * BN + tx * TN + n] = acc[m][n];
}

int main() {
  sgemm_k4096<<<dim3(64, 64), 256>>>(nullptr, nullptr, nullptr, 4096, 4096, 4096);
}
)";

constexpr const char* kFlashAttention =
    R"(// Attention, one tile of 64 query rows against all N keys in tiles of 64; two threads a row.
constexpr int Br = 64, Bc = 64, D = 64;

__global__ void flash_tile(const float* Q, const float* K, const float* V, float* O, int N) {
  __shared__ float Qs[Br][D];
  __shared__ float Ks[Bc][D + 1];
  __shared__ float Vs[Bc][D];
  __shared__ float S[Br][Bc + 1];
  const int tid = threadIdx.x;
  const int row = tid / 2, half = tid % 2;
  for (int d = 0; d < D / 2; ++d) Qs[row][half * 32 + d] = Q[(blockIdx.x * Br + row) * D + half * 32 + d];
  float m_i = -1e30f, l_i = 0.0f;
  float o[32] = {};
  __syncthreads();
  for (int kv = 0; kv < N; kv += Bc) {
    for (int i = 0; i < 32; ++i) {
      const int idx = tid + i * 128;
      Ks[idx / D][idx % D] = K[(kv + idx / D) * D + idx % D];
      Vs[idx / D][idx % D] = V[(kv + idx / D) * D + idx % D];
    }
    __syncthreads();
    float m_new = m_i;
    for (int j = half * 32; j < half * 32 + 32; ++j) {
      float s = 0.0f;
      for (int d = 0; d < D; ++d) s += Qs[row][d] * Ks[j][d];
      S[row][j] = s;
      m_new = fmaxf(m_new, s);
    }
    __syncthreads();
    float sum = 0.0f;
    for (int j = 0; j < Bc; ++j) sum += expf(S[row][j] - m_new);
    const float scale = expf(m_i - m_new);
    for (int d = 0; d < 32; ++d) {
      float pv = 0.0f;
      for (int j = 0; j < Bc; ++j) pv += expf(S[row][j] - m_new) * Vs[j][half * 32 + d];
      o[d] = o[d] * scale + pv;
    }
    l_i = l_i * scale + sum;
    m_i = m_new;
    __syncthreads();
  }
  for (int d = 0; d < 32; ++d) O[(blockIdx.x * Br + row) * D + half * 32 + d] = o[d] / l_i;
}

int main() {
  flash_tile<<<64, 128>>>(nullptr, nullptr, nullptr, nullptr, 4096);
}
)";

// One scan of `source` an iteration; its counts reported as counters.
void scan_real_kernel(benchmark::State& state, const char* name, const char* source) {
  const CodeSource file{name, source};
  const ScanResult warm = scan_source(file, {});
  if (warm.error || warm.kernels.size() != 1 || warm.kernels[0].error) {
    state.SkipWithError(warm.error ? warm.error->message.c_str()
                                   : "the kernel does not scan: no result");
    return;
  }
  for (auto _ : state) {
    const ScanResult result = scan_source(file, {});
    benchmark::DoNotOptimize(result.kernels.data());
  }
  const KernelScan& k = warm.kernels[0];
  std::int64_t instructions = 0, wavefronts = 0;
  for (const ScanLine& l : k.lines) {
    instructions += l.instructions;
    wavefronts += l.wavefronts;
  }
  state.counters["accesses"] = static_cast<double>(k.lines.size());
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["wavefronts"] = static_cast<double>(wavefronts);
  state.counters["unevaluated"] = static_cast<double>(k.unevaluated.size());
  state.SetLabel("target < 1000 ms");
}

void scan_sgemm_k4096(benchmark::State& state) {
  scan_real_kernel(state, "sgemm_k4096.cu", kSgemm);
}
void scan_flash_attention_n4096(benchmark::State& state) {
  scan_real_kernel(state, "flash_tile.cu", kFlashAttention);
}
BENCHMARK(scan_sgemm_k4096)->Unit(benchmark::kMillisecond)->Apply(with_spread);
BENCHMARK(scan_flash_attention_n4096)->Unit(benchmark::kMillisecond)->Apply(with_spread);

}  // namespace
}  // namespace banklab::bench

int main(int argc, char** argv) {
  // Not a benchmark: the kernels, written for `banklab scan FILE` (--write-sgemm and
  // --write-flash: the real kernels).
  if (argc == 3 && std::string_view(argv[1]).starts_with("--write")) {
    const std::string_view which = argv[1];
    std::ofstream out(argv[2]);
    out << (which == "--write-sgemm"   ? std::string(banklab::bench::kSgemm)
            : which == "--write-flash" ? std::string(banklab::bench::kFlashAttention)
                                       : banklab::bench::kernel_source());
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
