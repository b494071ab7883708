// A 256-bin byte histogram in shared memory: which bin a thread's atomicAdd hits depends on
// the data, so no tool can predict its conflicts from the code (banklab scan lists the line
// with that reason); clearing the bins and adding them to the global histogram can be.
#include "corpus_check.cuh"

__global__ void histogram256(const unsigned char* data, int n, unsigned* hist) {
  __shared__ unsigned bins[256];
  bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
  __syncthreads();
  atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

int main() {
  const int n = 1 << 16, blocks = 16;
  unsigned char* data = nullptr;
  unsigned* hist = nullptr;
  CORPUS_CHECK(cudaMalloc(&data, n));
  CORPUS_CHECK(cudaMalloc(&hist, 256 * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemset(data, 7, n));
  CORPUS_CHECK(cudaMemset(hist, 0, 256 * sizeof(unsigned)));
  histogram256<<<blocks, 256>>>(data, n, hist);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("histogram: ok\n");
  return 0;
}
