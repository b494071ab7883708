// The tile loop of a shared-memory SGEMM: a block computes a 32x32 tile of C = A B with 32x8
// threads, four rows each, stepping through K a 32x32 tile of A and of B at a time. Reading
// As[row][k] for k = 0..31 is a broadcast that nvcc merges into LDS.128; Bs[k][tx] is one
// conflict-free row a warp. Nothing conflicts: the trace shows what a clean tile loop costs.
#include <cmath>
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

int main() {
  const int n = 64;
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
  for (int launch = 0; launch < kLaunches; ++launch) {
    sgemm_tile<<<dim3(n / kTile, n / kTile), dim3(kTile, 8)>>>(da, db, dc, n);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaDeviceSynchronize());
  }
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
