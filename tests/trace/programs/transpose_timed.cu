// The trace's overhead, measured within one run (kernels/trace/make_traces.sh, docs/trace.md):
// an n x n transpose through a padded 32x33 tile (conflict-free: one store and one load a
// warp per row of the tile), launched 7 times, each launch timed on the GPU with CUDA events.
// It prints each time and the second launch's (the one `banklab trace --launch 1` records) over
// the median of those after it, which run as compiled. At n = 4096 a launch executes 2^20
// shared-memory warp-instructions.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "program_check.cuh"

constexpr int kTile = 32, kRows = 8;  // a block of 32x8 threads moves one 32x32 tile

__global__ void transpose_timed(const float* in, float* out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile;
  for (int j = threadIdx.y; j < kTile; j += kRows) tile[j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int to_x = blockIdx.y * kTile + threadIdx.x, to_y = blockIdx.x * kTile;
  for (int j = threadIdx.y; j < kTile; j += kRows)
    out[(to_y + j) * n + to_x] = tile[threadIdx.x][j];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (n < kTile || n > 16384 || n % kTile != 0) {
    std::fprintf(stderr, "transpose_timed: the size must be a multiple of 32 from 32 to 16384\n");
    return 2;
  }
  const std::size_t elements = static_cast<std::size_t>(n) * n;
  std::vector<float> host(elements);
  for (std::size_t i = 0; i < elements; ++i) host[i] = static_cast<float>(i % 65521);
  float *in = nullptr, *out = nullptr;
  CORPUS_CHECK(cudaMalloc(&in, elements * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&out, elements * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(in, host.data(), elements * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t begin, end;
  CORPUS_CHECK(cudaEventCreate(&begin));
  CORPUS_CHECK(cudaEventCreate(&end));
  constexpr int kTimedLaunches = 7;
  float ms[kTimedLaunches] = {};
  for (float& launch_ms : ms) {
    CORPUS_CHECK(cudaEventRecord(begin));
    transpose_timed<<<dim3(n / kTile, n / kTile), dim3(kTile, kRows)>>>(in, out, n);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaEventRecord(end));
    CORPUS_CHECK(cudaDeviceSynchronize());
    CORPUS_CHECK(cudaEventElapsedTime(&launch_ms, begin, end));
  }
  std::vector<float> back(elements);
  CORPUS_CHECK(cudaMemcpy(back.data(), out, elements * sizeof(float), cudaMemcpyDeviceToHost));
  for (std::size_t r = 0; r < static_cast<std::size_t>(n); ++r) {
    for (std::size_t c = 0; c < static_cast<std::size_t>(n); ++c) {
      if (back[c * n + r] != host[r * n + c]) {
        std::fprintf(stderr, "transpose_timed: element (%zu, %zu) was not transposed\n", r, c);
        return 1;
      }
    }
  }
  for (int i = 0; i < kTimedLaunches; ++i) std::printf("launch %d: %.4f ms\n", i, ms[i]);
  std::vector<float> after(ms + 2, ms + kTimedLaunches);
  std::sort(after.begin(), after.end());
  const float untraced = after[after.size() / 2];
  std::printf("launch 1 / median of launches 2-%d: %.4f / %.4f ms = %.1f\n", kTimedLaunches - 1,
              ms[1], untraced, ms[1] / untraced);
  return 0;
}
