// Values written through another name: a reference parameter, a pointer to a local, a pointer
// chosen by ?:, and the dynamic shared buffer declared once at file scope. Each decides which
// word a lane reads, so a scan that missed the write would count the wrong access.
#include "corpus_check.cuh"

extern __shared__ float dynamic_smem[];
// clang-format off
__device__ void pick_row(int& row) { row = threadIdx.x; }
// clang-format on
__global__ void reference_row(float* out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][threadIdx.x] = threadIdx.x;
  __syncthreads();
  int row = 0;
  pick_row(row);
  out[threadIdx.x] = tile[row][0];
}

__global__ void pointer_to_local(float* out) {
  __shared__ float tile[32][32];
  tile[0][threadIdx.x] = threadIdx.x;
  __syncthreads();
  int row = 0;
  int* p = &row;
  *p = threadIdx.x;
  out[threadIdx.x] = tile[row][1];
}

__global__ void pointer_select(float* out) {
  __shared__ float a[64];
  a[threadIdx.x] = threadIdx.x;
  a[threadIdx.x + 32] = 0.0f;
  __syncthreads();
  const bool odd = threadIdx.x & 1;
  const float* p = odd ? a + 1 : a;
  out[threadIdx.x] = p[threadIdx.x];
}

__global__ void file_scope_extern(const float* in, float* out) {
  dynamic_smem[threadIdx.x * 2] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = dynamic_smem[threadIdx.x];
}

int main() {
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, 64 * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, 64 * sizeof(float)));
  CORPUS_CHECK(cudaMemset(in, 0, 64 * sizeof(float)));
  reference_row<<<1, 32>>>(out);
  pointer_to_local<<<1, 32>>>(out);
  pointer_select<<<1, 32>>>(out);
  file_scope_extern<<<1, 64, 128 * sizeof(float)>>>(in, out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("aliases: ok\n");
  return 0;
}
