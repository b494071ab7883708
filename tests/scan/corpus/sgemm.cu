// The tiled SGEMM of the CUDA C++ Programming Guide's shared-memory example: 16x16 tiles of A
// and B staged in shared memory, each thread one element of C. As[ty][k] is a broadcast (the
// half-warps of a 16-wide block read one word each); nvcc -O3 reads it 16 bytes at a time
// across the unrolled k loop. Bs[k][tx] is a row: conflict-free.
#include "corpus_check.cuh"

constexpr int BS = 16;

__global__ void sgemm_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty;
  const int col = blockIdx.x * BS + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / BS; ++t) {
    As[ty][tx] = A[row * n + t * BS + tx];
    Bs[ty][tx] = B[(t * BS + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

int main() {
  const int n = 128;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  CORPUS_CHECK(cudaMalloc(&a, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&b, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&c, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
  CORPUS_CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
  dim3 block(BS, BS);
  dim3 grid(n / BS, n / BS);
  sgemm_tiled<<<grid, block>>>(a, b, c, n);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("sgemm: ok\n");
  return 0;
}
