// The block reductions of the CUDA samples' reduction example, 256 ints a block: interleaved
// addressing with a divergent branch (reduce0), interleaved addressing with a strided index
// (reduce1: conflicts grow with the stride), sequential addressing (reduce2: conflict-free),
// and the last warp unrolled through a volatile pointer (reduce4's warp_reduce), whose block
// comes from __launch_bounds__ because its launch takes the block from the command line.
#include "corpus_check.cuh"

constexpr unsigned kBlock = 256;

__global__ void reduce_divergent(const int* in, int* out) {
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_interleaved(const int* in, int* out) {
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_sequential(const int* in, int* out) {
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ void warp_reduce(volatile int* sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void __launch_bounds__(256) reduce_unrolled(const int* in, int* out) {
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main(int argc, char** argv) {
  const int blocks = 64;
  const int n = blocks * kBlock;
  int *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, n * sizeof(int)));
  CORPUS_CHECK(cudaMalloc(&out, blocks * sizeof(int)));
  CORPUS_CHECK(cudaMemset(in, 0, n * sizeof(int)));
  reduce_divergent<<<blocks, kBlock>>>(in, out);
  reduce_interleaved<<<blocks, kBlock>>>(in, out);
  reduce_sequential<<<blocks, kBlock>>>(in, out);
  // The block from the command line (256 unless told): not a constant, so a scan of this
  // file takes reduce_unrolled's block from its __launch_bounds__.
  const unsigned threads = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : kBlock;
  reduce_unrolled<<<blocks, threads>>>(in, out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("reduce: ok\n");
  return 0;
}
