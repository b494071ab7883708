// An attention-style loop: 32 queries a block (one a lane), keys and values in tiles of 32,
// head size 32. Each warp scores its keys against every query and stores the scores as
// ps[query][key]: lane q writes row q, 32 floats apart, every lane in bank `key`: a 32-way
// store, and the weighted sum reads them back the same way (32-way loads). The key and value
// tiles are loaded a row a warp, conflict-free.
#include <cmath>
#include <vector>

#include "program_check.cuh"

constexpr int kHead = 32, kKeyTile = 32, kWarps = 4;

__global__ void attention_scores(const float* q, const float* k, const float* v, float* out,
                                 int keys) {
  __shared__ float ks[kKeyTile][kHead];
  __shared__ float vs[kKeyTile][kHead];
  __shared__ float ps[32][kKeyTile];  // [query][key]
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int query = blockIdx.x * 32 + lane;
  float qr[kHead];
  for (int d = 0; d < kHead; ++d) qr[d] = q[query * kHead + d];
  float acc[kHead / kWarps] = {};
  for (int t = 0; t < keys; t += kKeyTile) {
    for (int r = warp; r < kKeyTile; r += kWarps) {
      ks[r][lane] = k[(t + r) * kHead + lane];
      vs[r][lane] = v[(t + r) * kHead + lane];
    }
    __syncthreads();
    for (int j = warp; j < kKeyTile; j += kWarps) {
      float s = 0.0f;
      for (int d = 0; d < kHead; ++d) s += qr[d] * ks[j][d];
      ps[lane][j] = s;
    }
    __syncthreads();
    for (int i = 0; i < kHead / kWarps; ++i) {
      const int d = warp + kWarps * i;
      for (int j = 0; j < kKeyTile; ++j) acc[i] += ps[lane][j] * vs[j][d];
    }
    __syncthreads();
  }
  for (int i = 0; i < kHead / kWarps; ++i) out[query * kHead + warp + kWarps * i] = acc[i];
}

int main() {
  const int queries = 32, keys = 64;
  std::vector<float> q(queries * kHead), k(keys * kHead), v(keys * kHead), out(queries * kHead);
  FixedSeedRandom random{35};
  for (float& x : q) x = static_cast<float>(random.next() % 5) - 2.0f;
  for (float& x : k) x = static_cast<float>(random.next() % 5) - 2.0f;
  for (float& x : v) x = static_cast<float>(random.next() % 5) - 2.0f;
  float *dq = nullptr, *dk = nullptr, *dv = nullptr, *dout = nullptr;
  CORPUS_CHECK(cudaMalloc(&dq, q.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dk, k.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dv, v.size() * sizeof(float)));
  CORPUS_CHECK(cudaMalloc(&dout, out.size() * sizeof(float)));
  CORPUS_CHECK(cudaMemcpy(dq, q.data(), q.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dk, k.data(), k.size() * sizeof(float), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(dv, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
  for (int launch = 0; launch < kLaunches; ++launch) {
    attention_scores<<<queries / 32, dim3(32, kWarps)>>>(dq, dk, dv, dout, keys);
    CORPUS_CHECK(cudaGetLastError());
    CORPUS_CHECK(cudaDeviceSynchronize());
  }
  CORPUS_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < queries; ++i) {
    for (int d = 0; d < kHead; ++d) {
      float expected = 0.0f;  // small whole numbers: exact in fp32
      for (int j = 0; j < keys; ++j) {
        float s = 0.0f;
        for (int e = 0; e < kHead; ++e) s += q[i * kHead + e] * k[j * kHead + e];
        expected += s * v[j * kHead + d];
      }
      if (out[i * kHead + d] != expected) {
        std::fprintf(stderr, "attention_scores: out[%d][%d] is %g, expected %g\n", i, d,
                     out[i * kHead + d], expected);
        return 1;
      }
    }
  }
  std::printf("attention_scores: ok\n");
  return 0;
}
