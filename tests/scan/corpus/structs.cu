// Arrays of structs in shared memory: each field is read and written at its own offset in the
// element, the element's size and alignment as C++ lays them out. A float field of an 8-byte
// struct is a stride of two words (2-way); a field of a 16-byte struct (aligned by __align__,
// or by a float2 member after a char) is a stride of four words (4-way). A whole element
// copied in or out is its fields' accesses, as wide as nvcc makes them.
#include "corpus_check.cuh"

struct Pair {
  float a;
  float b;
};

struct __align__(16) Keyed {
  float value;
  int key;
};

struct Tagged {
  char tag;
  float2 xy;  // aligned to 8: at byte 8, the struct 16 bytes
};

__global__ void struct_fields(const float* in, float* out) {
  __shared__ Pair pairs[64];
  const int t = threadIdx.x;
  pairs[t].b = in[t];
  __syncthreads();
  out[t] = pairs[t ^ 1].b;
}

__global__ void struct_aligned(const float* in, float* out) {
  __shared__ Keyed cells[64];
  __shared__ Tagged tags[64];
  const int t = threadIdx.x;
  cells[t].key = t;
  tags[t].xy.y = in[t];
  __syncthreads();
  const float* words = reinterpret_cast<const float*>(cells);
  const int per_cell = sizeof(Keyed) / sizeof(float);
  out[t] = words[t * per_cell] + tags[t].xy.y + sizeof(Tagged);
}

__global__ void struct_copy(float* out) {
  __shared__ Pair pairs[64];
  const int t = threadIdx.x;
  pairs[t] = Pair{1.0f * t, 2.0f * t};
  __syncthreads();
  const Pair w = pairs[t ^ 1];
  out[t] = w.a + w.b;
}

int main() {
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, 64 * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, 64 * sizeof(float)));
  CORPUS_CHECK(cudaMemset(in, 0, 64 * sizeof(float)));
  struct_fields<<<1, 64>>>(in, out);
  struct_aligned<<<1, 64>>>(in, out);
  struct_copy<<<1, 64>>>(out);
  CORPUS_CHECK(cudaGetLastError());
  CORPUS_CHECK(cudaDeviceSynchronize());
  std::printf("structs: ok\n");
  return 0;
}
