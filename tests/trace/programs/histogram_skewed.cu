// A 256-bin byte histogram of skewed data, four bytes a thread per load: most bytes fall in a
// few bins whose counters share banks, so the shared-memory atomics conflict by an amount only
// the data decides. The static scan cannot evaluate them (each bin is loaded from memory); a
// trace counts them.
#include <vector>

#include "program_check.cuh"

__global__ void histogram_skewed(const uchar4* data, int words, unsigned* hist) {
  __shared__ unsigned bins[256];
  bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += blockDim.x * gridDim.x) {
    const uchar4 four = data[i];
    atomicAdd(&bins[four.x], 1u);
    atomicAdd(&bins[four.y], 1u);
    atomicAdd(&bins[four.z], 1u);
    atomicAdd(&bins[four.w], 1u);
  }
  __syncthreads();
  if (bins[threadIdx.x] != 0) atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

int main() {
  const int n = 1 << 14, blocks = 8, threads = 256;
  // Bytes 0, 32, 64, ..., 224 (all in bank 0) three times in four, else any byte.
  std::vector<unsigned char> bytes(n);
  FixedSeedRandom random{2026};
  for (unsigned char& b : bytes) {
    const std::uint32_t r = random.next();
    b = static_cast<unsigned char>((r & 3) != 0 ? 32 * ((r >> 2) & 7) : (r >> 8) & 255);
  }
  unsigned char* data = nullptr;
  unsigned* hist = nullptr;
  CORPUS_CHECK(cudaMalloc(&data, n));
  CORPUS_CHECK(cudaMalloc(&hist, 256 * sizeof(unsigned)));
  CORPUS_CHECK(cudaMemcpy(data, bytes.data(), n, cudaMemcpyHostToDevice));
  std::vector<unsigned> expected(256, 0), got(256);
  for (unsigned char b : bytes) ++expected[b];
  for (int launch = 0; launch < kLaunches; ++launch) {
    CORPUS_CHECK(cudaMemset(hist, 0, 256 * sizeof(unsigned)));
    histogram_skewed<<<blocks, threads>>>(reinterpret_cast<const uchar4*>(data), n / 4, hist);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaDeviceSynchronize());
  }
  CORPUS_CHECK(cudaMemcpy(got.data(), hist, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  if (got != expected) {
    std::fprintf(stderr, "histogram_skewed: wrong counts\n");
    return 1;
  }
  std::printf("histogram_skewed: ok\n");
  return 0;
}
