// Merges across every loop nvcc unrolls, not only the innermost. An SGEMM step reads
// As[ty + 8 * i][k]: the trips of the inner i loop are rows apart, those of the outer k loop
// adjacent, and four k trips become one LDS.128. Two loops adjacent together (2k + i), two
// 2-byte trips, a typedef'd struct's fields one statement each, and a 64-trip loop with no
// pragma show what nvcc makes of adjacent accesses that one short loop alone does not cover.
#include <cuda_bf16.h>

#include "corpus_check.cuh"

constexpr int kTile = 32, kRows = 4;

__global__ void sgemm_outer_k(const float* a, const float* b, float* c, int n) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float sum[kRows] = {};
  for (int t = 0; t < n; t += kTile) {
    for (int i = 0; i < kRows; ++i) {
      As[ty + 8 * i][tx] = a[(ty + 8 * i) * n + t + tx];
      Bs[ty + 8 * i][tx] = b[(t + ty + 8 * i) * n + tx];
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) {
      const float bk = Bs[k][tx];
      for (int i = 0; i < kRows; ++i) sum[i] += As[ty + 8 * i][k] * bk;
    }
    __syncthreads();
  }
  for (int i = 0; i < kRows; ++i) c[(ty + 8 * i) * n + tx] = sum[i];
}

__global__ void two_level(const float* in, float* out) {
  __shared__ float a[32 * 8];
  for (int i = 0; i < 8; i++) a[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < 2; i++) s += a[threadIdx.x * 8 + 2 * k + i];
  out[threadIdx.x] = s;
}

__global__ void half_pairs(const __nv_bfloat16* in, float* out) {
  __shared__ __nv_bfloat16 h[64];
  h[threadIdx.x] = in[threadIdx.x];
  h[threadIdx.x + 32] = in[threadIdx.x + 32];
  __syncthreads();
  float s = 0.0f;
  for (int i = 0; i < 2; i++) s += __bfloat162float(h[threadIdx.x * 2 + i]);
  out[threadIdx.x] = s;
}

typedef struct {
  float a;
  float b;
} Point;

__global__ void typedef_fields(const float* in, float* out) {
  __shared__ Point points[64];
  const int t = threadIdx.x;
  points[t].a = in[t];
  points[t].b = in[t + 64];
  __syncthreads();
  const Point p = points[t ^ 1];
  const float x = points[(t + 2) % 64].a;
  out[t] = p.a - p.b + x;
}

__global__ void sixty_four_trips(const float* in, float* out) {
  __shared__ float a[32 * 64];
  for (int i = 0; i < 64; i++) a[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 64; k++) s += a[threadIdx.x * 64 + k];
  out[threadIdx.x] = s;
}

int main() {
  const int n = 64;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CORPUS_CHECK(cudaMalloc(&a, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&b, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&c, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
  sgemm_outer_k<<<1, dim3(kTile, 8)>>>(a, b, c, 64);
  two_level<<<1, 32>>>(a, c);
  half_pairs<<<1, 32>>>(reinterpret_cast<const __nv_bfloat16*>(a), c);
  typedef_fields<<<1, 64>>>(a, c);
  sixty_four_trips<<<1, 32>>>(a, c);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("unrolled: ok\n");
  return 0;
}
