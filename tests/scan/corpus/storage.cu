// Shared memory as public kernels declare it: one struct holding every tile (the
// SharedStorage of CUTLASS and FlashAttention), two phases' tiles in a union, half tiles with
// padding reached through references, rows through pointers to arrays, tile sizes from a
// struct of constants, and a warp-shuffle reduction's scratch. Each member is indexed with its
// own rows: sm.load[r][c] is 33 words a row, wherever the struct puts it.
#include <cuda_fp16.h>

#include "corpus_check.cuh"

constexpr int kHeadDim = 64;
constexpr int kPad = 8;

struct Storage {
  union {
    float load[32][33];    // the first phase: a padded tile
    float reduce[16][64];  // the second: the same bytes as rows of 64
  };
  float scratch[2][32];
};

struct Tiles {
  half q[32][kHeadDim + kPad];  // rows of 144 bytes
  half k[32][kHeadDim];         // rows of 128 bytes
};

struct Attention {
  static constexpr int kRows = 32;
  static constexpr int kDim = 64;
  static constexpr int kPad = 8;
};

__global__ void shared_storage(const float* in, float* out) {
  __shared__ Storage sm;
  const int t = threadIdx.x;
  sm.load[t % 32][t / 32] = in[t];
  __syncthreads();
  const float x = sm.load[t / 32][t % 32];
  __syncthreads();
  sm.reduce[t % 16][t / 16] = x;
  __syncthreads();
  sm.scratch[t / 32][t % 32] = sm.reduce[t / 4][(t % 4) * 16];
  __syncthreads();
  out[t] = sm.scratch[1][t % 32];
}

__global__ void attention_tiles(const half* q, float* out) {
  __shared__ Tiles sm;
  auto& qs = sm.q;
  const int t = threadIdx.x;
  const int r = t / 8, c = (t % 8) * 8;
  *reinterpret_cast<float4*>(&qs[r][c]) = *reinterpret_cast<const float4*>(&q[r * kHeadDim + c]);
  const float4 key = *reinterpret_cast<const float4*>(&q[(r + 8) * kHeadDim + c]);
  *reinterpret_cast<float4*>(&sm.k[r][c]) = key;
  __syncthreads();
  const unsigned pair = *reinterpret_cast<const unsigned*>(&qs[t % 32][2 * (t / 32)]);
  const half b = sm.k[t % 32][t / 32];
  out[t] = __half2float(b) + pair;
}

__device__ void store_rows(float (*rows)[33], float v) {
  rows[threadIdx.x % 32][threadIdx.x / 32] = v;
}

__global__ void row_pointers(const float* in, float* out) {
  extern __shared__ float smem[];
  __shared__ float tile[32][33];
  store_rows(tile, in[threadIdx.x]);
  float(*plain)[32] = reinterpret_cast<float(*)[32]>(smem);
  plain[threadIdx.x % 32][threadIdx.x / 32] = in[threadIdx.x + 64];
  __syncthreads();
  out[threadIdx.x] =
      tile[threadIdx.x / 32][threadIdx.x % 32] + plain[threadIdx.x / 32][threadIdx.x % 32];
}

template <typename Cfg>
__global__ void traits_tile(const half* q, float* out) {
  __shared__ half qs[Cfg::kRows][Cfg::kDim + Cfg::kPad];
  const int t = threadIdx.x;
  const int r = t / (Cfg::kDim / 8), c = (t % (Cfg::kDim / 8)) * 8;
  *reinterpret_cast<float4*>(&qs[r][c]) = *reinterpret_cast<const float4*>(&q[r * Cfg::kDim + c]);
  __syncthreads();
  out[t] = __half2float(qs[t % Cfg::kRows][0]);
}

__global__ void warp_softmax(const float* in, float* out) {
  __shared__ float partial[8];
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  out[threadIdx.x] = partial[threadIdx.x % 8];
}

int main() {
  float *in = nullptr, *out = nullptr;
  half* q = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, 256 * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, 256 * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&q, 32 * kHeadDim * sizeof(half)));
  CORPUS_CHECK(cudaMemset(in, 0, 256 * sizeof(float)));
  CORPUS_CHECK(cudaMemset(q, 0, 32 * kHeadDim * sizeof(half)));
  shared_storage<<<1, 64>>>(in, out);
  attention_tiles<<<1, 64>>>(q, out);
  row_pointers<<<1, 64, 32 * 32 * sizeof(float)>>>(in, out);
  traits_tile<Attention><<<1, 64>>>(q, out);
  warp_softmax<<<1, 256>>>(in, out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("storage: ok\n");
  return 0;
}
