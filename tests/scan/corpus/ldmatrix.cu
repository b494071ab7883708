// A bf16 tile of 64 rows of 64 elements (128-byte rows) filled with 16-byte stores, then read
// as mma A fragments with ldmatrix.x4: each warp reads a 16x16 block per step, four steps
// across the columns. Plain, the eight rows of each 8x8 matrix sit 128 bytes apart, all on
// banks 0-3 of one 16-byte chunk: 8 rows, 8 wavefronts a matrix. Swizzled, chunk c of row r is
// stored at chunk c ^ (r % 8), and the eight rows of a matrix cover all 32 banks.
#include <cuda_bf16.h>

#include <cstdint>

#include "corpus_check.cuh"

constexpr int ROWS = 64;
constexpr int COLS = 64;
constexpr int CHUNKS = COLS / 8;  // 16-byte chunks a row

// ldmatrix.x4 at the shared address `addr` (each lane gives one row of the four matrices).
__device__ unsigned ldmatrix_x4(unsigned addr) {
  unsigned a0, a1, a2, a3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(addr));
  return a0 ^ a1 ^ a2 ^ a3;
}

__global__ void ldmatrix_plain(const uint4* in, unsigned* out) {
  __shared__ __align__(128) __nv_bfloat16 sA[ROWS][COLS];
  const int tid = threadIdx.x;
  for (int i = tid; i < ROWS * CHUNKS; i += blockDim.x) {
    const int r = i / CHUNKS, c = i % CHUNKS;
    *reinterpret_cast<uint4*>(&sA[r][c * 8]) = in[i];
  }
  __syncthreads();
  const int warp = tid / 32, lane = tid % 32;
  unsigned acc = 0;
  for (int step = 0; step < COLS / 16; ++step) {
    const int row = warp * 16 + lane % 16;
    const int col = step * 16 + lane / 16 * 8;
    acc ^= ldmatrix_x4(static_cast<unsigned>(__cvta_generic_to_shared(&sA[row][col])));
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

__global__ void ldmatrix_swizzled(const uint4* in, unsigned* out) {
  __shared__ __align__(128) __nv_bfloat16 sA[ROWS][COLS];
  const int tid = threadIdx.x;
  for (int i = tid; i < ROWS * CHUNKS; i += blockDim.x) {
    const int r = i / CHUNKS, c = i % CHUNKS;
    *reinterpret_cast<uint4*>(&sA[r][(c ^ (r % 8)) * 8]) = in[i];
  }
  __syncthreads();
  const int warp = tid / 32, lane = tid % 32;
  unsigned acc = 0;
  for (int step = 0; step < COLS / 16; ++step) {
    const int row = warp * 16 + lane % 16;
    const int chunk = step * 2 + lane / 16;
    const int col = (chunk ^ (row % 8)) * 8;
    acc ^= ldmatrix_x4(static_cast<unsigned>(__cvta_generic_to_shared(&sA[row][col])));
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

int main() {
  const int blocks = 8, threads = 128;
  uint4* in = nullptr;
  unsigned* out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, ROWS * CHUNKS * sizeof(uint4)));
  CORPUS_CHECK(cudaMalloc(&out, blocks * threads * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemset(in, 0, ROWS * CHUNKS * sizeof(uint4)));
  ldmatrix_plain<<<blocks, threads>>>(in, out);
  ldmatrix_swizzled<<<blocks, threads>>>(in, out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("ldmatrix: ok\n");
  return 0;
}
