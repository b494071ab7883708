// A double buffer filled with cp.async: while the block computes on one stage of 256 floats,
// the next stage is copied from global memory into the other half of the buffer, 16 bytes a
// thread, without passing through registers. The first stage goes through the pipeline
// primitives of <cuda_pipeline.h>, the others through the PTX instruction itself.
#include <cuda_pipeline.h>

#include "corpus_check.cuh"

constexpr int STAGE = 256;  // floats a stage: 64 threads copy 16 bytes each

__global__ void cp_async_double_buffer(const float* in, float* out, int stages) {
  __shared__ __align__(16) float buf[2][STAGE];
  const int tid = threadIdx.x;
  __pipeline_memcpy_async(&buf[0][tid * 4], &in[tid * 4], 16);
  __pipeline_commit();
  float acc = 0.0f;
  for (int s = 0; s < stages; ++s) {
    if (s + 1 < stages) {
      const unsigned dst =
          static_cast<unsigned>(__cvta_generic_to_shared(&buf[(s + 1) % 2][tid * 4]));
      const float* src = &in[(s + 1) * STAGE + tid * 4];
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
      asm volatile("cp.async.commit_group;\n" ::);
      asm volatile("cp.async.wait_group 1;\n" ::);
    } else {
      asm volatile("cp.async.wait_group 0;\n" ::);
    }
    __syncthreads();
    acc += buf[s % 2][tid * 4 % STAGE];
    acc += buf[s % 2][(tid * 4 + 2) % STAGE];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

int main() {
  const int stages = 8, blocks = 4, threads = STAGE / 4;
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, stages * STAGE * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, blocks * threads * sizeof(float)));
  CORPUS_CHECK(cudaMemset(in, 0, stages * STAGE * sizeof(float)));
  cp_async_double_buffer<<<blocks, threads>>>(in, out, stages);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("cp_async: ok\n");
  return 0;
}
