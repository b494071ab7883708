// Kernels of the shapes public code is made of, written for this corpus: a register-tiled SGEMM
// step reading float4s from shared memory, a 5x5 convolution over a tile with its halo, a
// work-efficient (Blelloch) prefix scan, and the score and output loops of a flash-attention
// tile. Each is what a developer opens `banklab scan` on; the H200 says what each line costs.
#include "corpus_check.cuh"

constexpr int kBM = 64, kBK = 8;

__global__ void float4_tile(const float* A, const float* B, float* C, int n) {
  __shared__ __align__(16) float As[kBK][kBM];  // A's tile, stored transposed
  __shared__ __align__(16) float Bs[kBK][kBM];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  float acc[4][4] = {};
  for (int t = 0; t < n; t += kBK) {
    for (int i = 0; i < 2; ++i) {
      const int e = tid + 256 * i;
      As[e % kBK][e / kBK] = A[(e / kBK) * n + t + e % kBK];
      Bs[e / kBM][e % kBM] = B[(t + e / kBM) * n + e % kBM];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      const float4 a = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
      const float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
      const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[(ty * 4 + i) * n + tx * 4 + j] = acc[i][j];
}

constexpr int kSide = 16, kRadius = 2, kHalo = kSide + 2 * kRadius;

__global__ void conv_halo(const float* in, float* out, int width) {
  __shared__ float tile[kHalo][kHalo];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int y = ty; y < kHalo; y += kSide)
    for (int x = tx; x < kHalo; x += kSide) tile[y][x] = in[y * width + x];
  __syncthreads();
  float acc = 0.0f;
  for (int dy = 0; dy <= 2 * kRadius; ++dy)
    for (int dx = 0; dx <= 2 * kRadius; ++dx)
      acc += tile[ty + dy][tx + dx] * static_cast<float>(dy * 5 + dx + 1);
  out[ty * width + tx] = acc;
}

constexpr int kScanN = 256;

__global__ void blelloch_scan(const float* in, float* out) {
  __shared__ float temp[kScanN];
  const int t = threadIdx.x;
  temp[2 * t] = in[2 * t];
  temp[2 * t + 1] = in[2 * t + 1];
  int offset = 1;
  for (int d = kScanN >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) temp[kScanN - 1] = 0.0f;
  for (int d = 1; d < kScanN; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      const float held = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += held;
    }
  }
  __syncthreads();
  out[2 * t] = temp[2 * t];
  out[2 * t + 1] = temp[2 * t + 1];
}

constexpr int kKeys = 64, kDim = 32;

__global__ void flash_tile(const float* q, const float* k, const float* v, float* o) {
  __shared__ float Qs[kKeys][kDim];
  __shared__ float Ks[kKeys][kDim];
  __shared__ float Vs[kKeys][kDim];
  const int row = threadIdx.x;
  for (int d = 0; d < kDim; ++d) {
    Qs[row][d] = q[row * kDim + d];
    Ks[row][d] = k[row * kDim + d];
    Vs[row][d] = v[row * kDim + d];
  }
  __syncthreads();
  float out[kDim] = {};
  float best = -1e30f, total = 0.0f;
  for (int j = 0; j < kKeys; ++j) {
    float score = 0.0f;
#pragma unroll
    for (int d = 0; d < kDim; ++d) score += Qs[row][d] * Ks[j][d];
    const float next = fmaxf(best, score);
    const float scale = __expf(best - next), p = __expf(score - next);
    total = total * scale + p;
#pragma unroll
    for (int d = 0; d < kDim; ++d) out[d] = out[d] * scale + p * Vs[j][d];
    best = next;
  }
  for (int d = 0; d < kDim; ++d) o[row * kDim + d] = out[d] / total;
}

int main() {
  const int n = 64;
  float *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  CORPUS_CHECK(cudaMalloc(&a, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&b, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&c, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&d, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
  float4_tile<<<1, dim3(16, 16)>>>(a, b, c, 64);
  conv_halo<<<1, dim3(kSide, kSide)>>>(a, c, 64);
  blelloch_scan<<<1, kScanN / 2>>>(a, c);
  flash_tile<<<1, kKeys>>>(a, b, c, d);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("shapes: ok\n");
  return 0;
}
