// Two arrays carved from one dynamic shared buffer: a is the first n floats, b the next n.
// The launch gives the buffer's size (2 * n floats). Storing b with a stride of two words is
// 2-way; reading a with a stride of four words is 4-way.
#include "corpus_check.cuh"

__global__ void extern_two_arrays(const float* in, float* out, int n) {
  extern __shared__ float smem[];
  float* a = smem;
  float* b = smem + n;
  const int tid = threadIdx.x;
  a[tid] = in[tid];
  b[tid * 2 % n] = in[n + tid];
  __syncthreads();
  out[tid] = a[tid * 4 % n] + b[tid];
}

int main() {
  const int n = 256;
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, 2 * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(in, 0, 2 * n * sizeof(float)));
  extern_two_arrays<<<1, n, 2 * n * sizeof(float)>>>(in, out, n);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("extern_shared: ok\n");
  return 0;
}
