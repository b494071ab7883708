#include <cuda_bf16.h>
__global__ void h_partial4(const float* in, float* out) {
  __shared__ float a[32 * 64];
  for (int i = 0; i < 64; i++) a[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  float s = 0.0f;
#pragma unroll 4
  for (int k = 0; k < 64; k++) s += a[threadIdx.x * 64 + k];
  out[threadIdx.x] = s;
}
__global__ void h_sixtyfour(const float* in, float* out) {
  __shared__ float a[32 * 64];
  for (int i = 0; i < 64; i++) a[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 64; k++) s += a[threadIdx.x * 64 + k];
  out[threadIdx.x] = s;
}
__global__ void h_bf16_four(const __nv_bfloat16* in, float* out) {
  __shared__ __nv_bfloat16 h[128];
  for (int i = 0; i < 4; i++) h[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  float s = 0.0f;
  for (int i = 0; i < 4; i++) s += __bfloat162float(h[threadIdx.x * 4 + i]);
  out[threadIdx.x] = s;
}
__global__ void h_char_four(const char* in, int* out) {
  __shared__ char c[128];
  for (int i = 0; i < 4; i++) c[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  int s = 0;
  for (int i = 0; i < 4; i++) s += c[threadIdx.x * 4 + i];
  out[threadIdx.x] = s;
}
__global__ void h_two_sites(const float* in, float* out) {
  __shared__ float a[64];
  a[2 * threadIdx.x] = in[threadIdx.x];
  a[2 * threadIdx.x + 1] = in[threadIdx.x + 32];
  __syncthreads();
  const float x = a[2 * (threadIdx.x ^ 1)];
  const float y = a[2 * (threadIdx.x ^ 1) + 1];
  out[threadIdx.x] = x - y;
}
__global__ void h_sixteen(const float* in, float* out) {
  __shared__ float a[32 * 16];
  for (int i = 0; i < 16; i++) a[threadIdx.x + 32 * i] = in[threadIdx.x + 32 * i];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 16; k++) s += a[threadIdx.x * 16 + k];
  out[threadIdx.x] = s;
}
__global__ void h_outer_two(const float2* in, float* out) {
  __shared__ float2 f[64];
  f[threadIdx.x] = in[threadIdx.x];
  f[threadIdx.x + 32] = in[threadIdx.x + 32];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 2; i++) s += f[threadIdx.x * 2 + k].x * (i + 1);
  out[threadIdx.x] = s;
}
