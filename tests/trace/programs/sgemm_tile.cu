// The tile loop of a shared-memory SGEMM: a block computes a 32x32 tile of C = A B with 32x8
// threads, four rows each, stepping through K a 32x32 tile of A and of B at a time. Reading
// As[row][k] for k = 0..31 is a broadcast that nvcc merges into LDS.128; Bs[k][tx] is one
// conflict-free row a warp. Nothing conflicts: the trace shows what a clean tile loop costs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "program_check.cuh"

constexpr int kTile = 32, kRowsPerThread = 4;

__global__ void sgemm_tile(const float* a, const float* b, float* c, int n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * kTile, col = blockIdx.x * kTile + tx;
  float sum[kRowsPerThread] = {};
  for (int t = 0; t < n; t += kTile) {
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int r = ty + 8 * i;
      As[r][tx] = a[(row0 + r) * n + t + tx];
      Bs[r][tx] = b[(t + r) * n + col];
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) {
      const float bk = Bs[k][tx];
      for (int i = 0; i < kRowsPerThread; ++i) sum[i] += As[ty + 8 * i][k] * bk;
    }
    __syncthreads();
  }
  for (int i = 0; i < kRowsPerThread; ++i) c[(row0 + ty + 8 * i) * n + col] = sum[i];
}

// Each launch's time on the GPU (CUDA events around it), printed with the ratio of the traced
// launch (`banklab trace --launch 1`) to the median of the launches after it, which run as
// compiled: the trace's overhead, measured within one run (kernels/trace/make_traces.sh).
void print_launch_times(const std::vector<float>& ms) {
  for (std::size_t i = 0; i < ms.size(); ++i) std::printf("launch %zu: %.4f ms\n", i, ms[i]);
  std::vector<float> after(ms.begin() + 2, ms.end());
  std::sort(after.begin(), after.end());
  const float untraced = after[after.size() / 2];
  std::printf("launch 1 / median of launches 2-%zu: %.4f / %.4f ms = %.1f\n", ms.size() - 1, ms[1],
              untraced, ms[1] / untraced);
}

// With no argument the matrices are 64x64 (the shipped trace); `trace_sgemm_tile N` makes them
// NxN (a multiple of 32) and launches the kernel 7 times, timing each.
int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 64;
  if (n < kTile || n > 2048 || n % kTile != 0) {
    std::fprintf(stderr, "sgemm_tile: the size must be a multiple of 32 from 32 to 2048\n");
    return 2;
  }
  const bool timed = argc > 1;
  const int launches = timed ? 7 : kLaunches;
  std::vector<float> a(n * n), b(n * n), c(n * n), expected(n * n, 0.0f);
  FixedSeedRandom random{7};
  for (float& x : a) x = static_cast<float>(random.next() % 17) - 8.0f;
  for (float& x : b) x = static_cast<float>(random.next() % 13) - 6.0f;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j) expected[i * n + j] += a[i * n + k] * b[k * n + j];
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CORPUS_CHECK(cudaMalloc(&da, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&db, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dc, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t begin, end;
  CORPUS_CHECK(cudaEventCreate(&begin));
  CORPUS_CHECK(cudaEventCreate(&end));
  std::vector<float> ms(launches);
  for (int launch = 0; launch < launches; ++launch) {
    CORPUS_CHECK(cudaEventRecord(begin));
    sgemm_tile<<<dim3(n / kTile, n / kTile), dim3(kTile, 8)>>>(da, db, dc, n);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaEventRecord(end));
    CORPUS_CHECK(cudaDeviceSynchronize());
    CORPUS_CHECK(cudaEventElapsedTime(&ms[launch], begin, end));
  }
  if (timed) print_launch_times(ms);
  CORPUS_CHECK(cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n * n; ++i) {
    if (c[i] != expected[i]) {  // small whole numbers: exact in fp32
      std::fprintf(stderr, "sgemm_tile: c[%d] is %g, expected %g\n", i, c[i], expected[i]);
      return 1;
    }
  }
  std::printf("sgemm_tile: ok\n");
  return 0;
}
