// What width nvcc gives the accesses of an unrolled loop. Two adjacent 4-byte trips become one
// LDS.64; through a volatile pointer each trip stays its own LDS; trips 16 bytes apart (a bf16
// transpose's j loop) or a row apart (the CUDA samples' i += BLOCK_ROWS) are not adjacent and
// stay 2- and 4-byte accesses. The last kernel writes statements over two lines, to see on
// which line Nsight Compute counts each access.
#include <cuda_bf16.h>

#include "corpus_check.cuh"

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

__global__ void merge_two_trips(const float* in, float* out) {
  __shared__ float a[64];
  a[threadIdx.x] = in[threadIdx.x];
  a[threadIdx.x + 32] = in[threadIdx.x + 32];
  __syncthreads();
  float s = 0.0f;
  for (int i = 0; i < 2; i++) s += a[threadIdx.x * 2 + i];
  out[threadIdx.x] = s;
}

__global__ void volatile_four(const float* in, float* out) {
  __shared__ float a[128];
  for (int i = 0; i < 4; i++) a[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  volatile float* v = a;
  float s = 0.0f;
  for (int i = 0; i < 4; i++) s += v[threadIdx.x * 4 + i];
  float t = 0.0f;
  for (int i = 0; i < 4; i++) t += a[threadIdx.x * 4 + i];
  out[threadIdx.x] = s + t;
}

__global__ void transpose_bf16(const __nv_bfloat16* in, __nv_bfloat16* out) {
  __shared__ __nv_bfloat16 tile[TILE_DIM][TILE_DIM + 1];
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(threadIdx.y + j) * TILE_DIM + threadIdx.x];
  __syncthreads();
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(threadIdx.y + j) * TILE_DIM + threadIdx.x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_rows(float* odata, const float* idata) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    tile[threadIdx.y + i][threadIdx.x] = idata[(threadIdx.y + i) * TILE_DIM + threadIdx.x];
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    odata[(threadIdx.y + i) * TILE_DIM + threadIdx.x] = tile[threadIdx.x][threadIdx.y + i];
}
// clang-format off
__global__ void multi_line(const float* in, float* out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] =
      in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  const float column = tile[threadIdx.x]
                           [threadIdx.y];
  const float pair = tile[threadIdx.y][threadIdx.x * 2 % 32] +
                     tile[threadIdx.y][threadIdx.x * 4 % 32];
  out[threadIdx.y * 32 + threadIdx.x] = column + pair;
}
// clang-format on
int main() {
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, 1024 * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
  CORPUS_CHECK(cudaMemset(in, 0, 1024 * sizeof(float)));
  merge_two_trips<<<1, 32>>>(in, out);
  volatile_four<<<1, 32>>>(in, out);
  transpose_bf16<<<1, dim3(TILE_DIM, BLOCK_ROWS)>>>(reinterpret_cast<const __nv_bfloat16*>(in),
                                                    reinterpret_cast<__nv_bfloat16*>(out));
  transpose_rows<<<1, dim3(TILE_DIM, BLOCK_ROWS)>>>(out, in);
  multi_line<<<1, dim3(32, 32)>>>(in, out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("widths: ok\n");
  return 0;
}
