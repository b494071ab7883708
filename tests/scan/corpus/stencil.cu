// The 1D stencil of NVIDIA's CUDA C/C++ basics: each block stages its 128 inputs and a halo
// of RADIUS on each side in shared memory (the first RADIUS threads load the halo), then
// every thread sums 2 * RADIUS + 1 neighbours.
#include "corpus_check.cuh"

constexpr int RADIUS = 3;
constexpr int BLOCK = 128;

__global__ void stencil_1d(const float* in, float* out) {
  __shared__ float temp[BLOCK + 2 * RADIUS];
  const int gindex = threadIdx.x + blockIdx.x * blockDim.x + RADIUS;
  const int lindex = threadIdx.x + RADIUS;
  temp[lindex] = in[gindex];
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] = in[gindex - RADIUS];
    temp[lindex + BLOCK] = in[gindex + BLOCK];
  }
  __syncthreads();
  float result = 0;
  for (int offset = -RADIUS; offset <= RADIUS; offset++) result += temp[lindex + offset];
  out[gindex - RADIUS] = result;
}

int main() {
  const int blocks = 32, n = blocks * BLOCK + 2 * RADIUS;
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(in, 0, n * sizeof(float)));
  stencil_1d<<<blocks, BLOCK>>>(in, out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("stencil: ok\n");
  return 0;
}
