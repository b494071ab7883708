// banklab_transpose_tuning: the measurements behind the fast transposes' choices, so that every
// figure docs/gpu-results.md gives for them can be made again with one command:
//
//   banklab_transpose_tuning [roofs] [pitch] [walks] [caps] [tma] [cublas] [fp8]   (none: all)
//
// Every line is a paired measurement on one pair of 2 GiB buffers: the candidate and the
// suite's copy roof (copy16) timed back to back on the same bytes (median of 21 launches after
// 3 warm-ups each), five such rounds, the median ratio reported with the rounds' min and max.
// Every candidate's output is checked on the GPU against its input, bit for bit, after timing.
//
// The candidates are the product's own kernels (transpose_kernels.cuh) under other tile walks,
// block caps and shapes; the TMA transpose below is the one kernel written only to be measured
// here (it lost, see the doc).
//
// [SECTION] Buffers, copies and the paired measurement
// [SECTION] roofs
// [SECTION] The fast rows: pitch, walks, caps, fp8
// [SECTION] tma
// [SECTION] cublas
// [SECTION] The command
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/runtime/cuda_support.hpp"
#include "kernels/runtime/tma_support.cuh"
#include "kernels/transpose/cublas_geam.hpp"
#include "kernels/transpose/transpose_kernels.cuh"

namespace banklab::gpu::detail {
namespace {

// [SECTION] Buffers, copies and the paired measurement

// Two buffers for the largest shape measured, 16384 x 16416 doubles; the copies move 2 GiB.
constexpr std::size_t kBufferBytes = std::size_t{16384} * 16416 * 8;
constexpr std::size_t kCopyBytes = std::size_t{2} << 30;

struct Buffers {
  void* in = nullptr;
  void* out = nullptr;
  unsigned long long* wrong = nullptr;
  int sms = 0;
  BlockCap cap;
};
Buffers g;

// Every byte random but for bit 6, which is the top exponent bit of every element type here
// (fp8's bit 6, bf16's 14, fp32's 30, fp64's 62): no NaN or Inf, so cuBLAS's 1 * x + 0 * y
// must reproduce each element's bits like the kernels do.
__global__ void fill(unsigned char* p, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    p[i] = static_cast<unsigned char>((i * 2654435761u) >> 13) & 0xBF;
  }
}

template <class T>
__global__ void count_wrong(const T* in, const T* out, int rows, int cols,
                            unsigned long long* wrong) {
  const std::size_t n = std::size_t(rows) * cols;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t o = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; o < n; o += stride) {
    const std::size_t out_row = o / rows;  // = input column
    const std::size_t out_col = o % rows;  // = input row
    if (out[o] != in[out_col * cols + out_row]) atomicAdd(wrong, 1ull);
  }
}

__global__ void count_wrong_copy(const uint4* in, const uint4* out, std::size_t chunks,
                                 unsigned long long* wrong) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < chunks;
       i += stride) {
    const uint4 a = in[i];
    const uint4 b = out[i];
    if (a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) atomicAdd(wrong, 1ull);
  }
}

// The copies compared for the roof: the suite's (one 16-byte chunk per thread, 128 threads),
// the same with 256 threads, and the previous roof (four chunks per thread, 256 threads).
__global__ void __launch_bounds__(256)
    copy_one_chunk_256(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(256) + threadIdx.x;
  if (i < n) out[i] = in[i];
}
__global__ void __launch_bounds__(256)
    copy_four_chunks(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t n) {
  const std::size_t base = blockIdx.x * std::size_t(1024) + threadIdx.x;
  uint4 v[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    if (base + k * 256 < n) v[k] = in[base + k * 256];
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    if (base + k * 256 < n) out[base + k * 256] = v[k];
  }
}

void roof_copy(std::size_t bytes) {
  const std::size_t threads = bytes / 16 + (bytes % 16 != 0 ? 1 : 0);
  copy16<<<unsigned((threads + kCopyThreads - 1) / kCopyThreads), kCopyThreads>>>(
      static_cast<const unsigned char*>(g.in), static_cast<unsigned char*>(g.out), bytes);
}

double time_ms(const std::function<void()>& launch) {
  return median(time_launches(launch, 3, 21, "a timed launch"));
}

// Candidate vs the roof on `bytes` bytes, five rounds; `elem_bytes` > 0 checks the output as
// a rows x cols transpose of that element size, 0 as a copy of the input.
void paired(const std::string& label, int rows, int cols, int elem_bytes, std::size_t bytes,
            const std::function<void()>& launch) {
  if (bytes > kBufferBytes) throw CudaFailure(label + ": larger than the buffers");
  check(cudaMemset(g.out, 0xA5, bytes), "cudaMemset(poison)");
  std::vector<double> ratio;
  double best_gbps = 0;
  for (int round = 0; round < 5; ++round) {
    const double roof = time_ms([&] { roof_copy(bytes); });
    const double ms = time_ms(launch);
    ratio.push_back(roof / ms);
    best_gbps = std::max(best_gbps, 2.0 * double(bytes) / ms / 1e6);
  }
  std::sort(ratio.begin(), ratio.end());
  unsigned long long wrong = 0;
  if (elem_bytes > 0) {
    check(cudaMemset(g.wrong, 0, sizeof wrong), "cudaMemset(count)");
    const auto* in = g.in;
    const auto* out = g.out;
    switch (elem_bytes) {
      case 1:
        count_wrong<<<g.sms * 8, 256>>>((const std::uint8_t*)in, (const std::uint8_t*)out, rows,
                                        cols, g.wrong);
        break;
      case 2:
        count_wrong<<<g.sms * 8, 256>>>((const std::uint16_t*)in, (const std::uint16_t*)out, rows,
                                        cols, g.wrong);
        break;
      case 4:
        count_wrong<<<g.sms * 8, 256>>>((const std::uint32_t*)in, (const std::uint32_t*)out, rows,
                                        cols, g.wrong);
        break;
      default:
        count_wrong<<<g.sms * 8, 256>>>((const std::uint64_t*)in, (const std::uint64_t*)out, rows,
                                        cols, g.wrong);
    }
    check(cudaMemcpy(&wrong, g.wrong, sizeof wrong, cudaMemcpyDeviceToHost), "the check");
  } else {
    check(cudaMemset(g.wrong, 0, sizeof wrong), "cudaMemset(count)");
    count_wrong_copy<<<g.sms * 8, 256>>>(static_cast<const uint4*>(g.in),
                                         static_cast<const uint4*>(g.out), bytes / 16, g.wrong);
    check(cudaMemcpy(&wrong, g.wrong, sizeof wrong, cudaMemcpyDeviceToHost), "the check");
  }
  const std::string shape = elem_bytes > 0 ? std::to_string(rows) + " x " + std::to_string(cols)
                                           : std::to_string(bytes >> 20) + " MiB";
  std::printf("  %-48s %-15s %5.0f GB/s  %6.2f %% of copy16 (%.2f-%.2f)  %s\n", label.c_str(),
              shape.c_str(), best_gbps, 100 * ratio[2], 100 * ratio[0], 100 * ratio[4],
              wrong == 0 ? "ok" : "WRONG");
  std::fflush(stdout);
}

// [SECTION] roofs
// roofs: which copy is the fastest, on 2 GiB.

void roofs() {
  std::puts(
      "== roofs: copies of 2 GiB against the suite's copy16 (one 16-byte chunk per thread, "
      "128 threads)");
  const std::size_t chunks = kCopyBytes / 16;
  const auto* in = static_cast<const uint4*>(g.in);
  auto* out = static_cast<uint4*>(g.out);
  paired("copy16 itself (the spread of the method)", 0, 0, 0, kCopyBytes,
         [&] { roof_copy(kCopyBytes); });
  paired("one chunk per thread, 256 threads", 0, 0, 0, kCopyBytes,
         [&] { copy_one_chunk_256<<<unsigned(chunks / 256), 256>>>(in, out, chunks); });
  paired("four chunks per thread, 256 threads (old roof)", 0, 0, 0, kCopyBytes,
         [&] { copy_four_chunks<<<unsigned(chunks / 1024), 256>>>(in, out, chunks); });
  paired("cudaMemcpyAsync device to device", 0, 0, 0, kCopyBytes,
         [&] { cudaMemcpyAsync(out, in, kCopyBytes, cudaMemcpyDeviceToDevice); });
}

// [SECTION] The fast rows: pitch, walks, caps, fp8
// The suite's fast rows (kVariants in transpose_suite.cu), launched with a chosen walk and cap.

enum class Walk { column_major, product };

template <class T, int kRows, int kCols, int kReadBytes, int kMinBlocks, int kL2Prefetch>
struct Fast {
  static void run(const std::string& label, int rows, int cols, TileWalk walk, int max_blocks) {
    BlockCap cap = g.cap;
    cap.max_blocks = max_blocks;
    const std::size_t bytes = std::size_t(rows) * cols * sizeof(T);
    paired(label, rows, cols, int(sizeof(T)), bytes, [&] {
      check(launch_transpose_fast<T, kRows, kCols, kReadBytes, kMinBlocks, kL2Prefetch>(
                static_cast<const T*>(g.in), static_cast<T*>(g.out), rows, cols, walk, cap),
            "launch_transpose_fast");
    });
  }
  static void run(const std::string& label, int rows, int cols, Walk walk, int max_blocks) {
    TileWalk w = make_tile_walk(rows, cols, kRows, kCols, int(sizeof(T)));
    if (walk == Walk::column_major) w.pair_spacing = 0;
    run(label + (walk == Walk::column_major ? ", column-major" : ", product walk"), rows, cols, w,
        max_blocks);
  }
};
using Fp8Fast = Fast<std::uint8_t, 128, 128, 4, 1, 256>;
using Bf16Fast = Fast<std::uint16_t, 128, 128, 16, 1, 0>;
using Fp32Fast = Fast<std::uint32_t, 64, 64, 16, 1, 0>;
using Fp64Fast = Fast<std::uint64_t, 32, 32, 16, 6, 0>;
constexpr int kFp32Cap = 4;  // the suite's caps
constexpr int kFp8Cap = 4;
constexpr int kOtherCap = 0;

// pitch: the same kernel on shapes whose row pitch is or is not a multiple of 128 KiB.
void pitch() {
  std::puts("== pitch: each fast kernel on row pitches of 128 KiB (or a multiple) and others");
  for (const Walk w : {Walk::column_major, Walk::product}) {
    Fp64Fast::run("fp64-fast, 128 KiB pitch", 16384, 16384, w, kOtherCap);
    Fp64Fast::run("fp64-fast, 128 KiB pitch", 8192, 16384, w, kOtherCap);
    Fp32Fast::run("fp32-fast, 128 KiB pitch", 16384, 32768, w, kFp32Cap);
    Bf16Fast::run("bf16-fast, 128 KiB pitch", 16384, 65536, w, kOtherCap);
    Fp8Fast::run("fp8-fast, 128 KiB pitch", 16384, 131072, w, kFp8Cap);
  }
  Fp64Fast::run("fp64-fast, 64 KiB pitch", 16384, 8192, Walk::product, kOtherCap);
  Fp64Fast::run("fp64-fast, 128 KiB + 256 B pitch", 16384, 16416, Walk::product, kOtherCap);
  Fp64Fast::run("fp64-fast, 90.5 KiB pitch", 11584, 11584, Walk::product, kOtherCap);
  Fp32Fast::run("fp32-fast, 64 KiB pitch", 16384, 16384, Walk::product, kFp32Cap);
  Fp32Fast::run("fp32-fast, 90.5 KiB pitch", 23168, 23168, Walk::product, kFp32Cap);
  Bf16Fast::run("bf16-fast, 32 KiB pitch", 16384, 16384, Walk::product, kOtherCap);
  Fp8Fast::run("fp8-fast, 16 KiB pitch", 16384, 16384, Walk::product, kFp8Cap);
}

// walks: on a 256 KiB pitch, pairs of tile columns 32, 64 and 128 KiB apart.
void walks() {
  std::puts("== walks: fp64-fast on a 256 KiB pitch, pairs of tile columns N KiB apart");
  const int rows = 8192;
  const int cols = 32768;
  for (const int kib : {0, 32, 64, 128}) {
    TileWalk w{rows / 32, kib * 1024 / 256};  // 256-byte tile rows
    Fp64Fast::run(kib == 0 ? std::string("fp64-fast, column-major")
                           : "fp64-fast, pairs " + std::to_string(kib) + " KiB apart",
                  rows, cols, w, kOtherCap);
  }
}

// caps: blocks per SM, with the walk each shape gets.
void caps() {
  std::puts("== caps: resident blocks per SM (0: what registers and threads allow)");
  for (const int cap : {4, 5, 6, 7, 0}) {
    Fp64Fast::run("fp64-fast, cap " + std::to_string(cap), 16384, 16384, Walk::product, cap);
  }
  for (const int cap : {3, 4, 0}) {
    Fp32Fast::run("fp32-fast, cap " + std::to_string(cap), 16384, 16384, Walk::product, cap);
  }
  for (const int cap : {2, 0}) {
    Bf16Fast::run("bf16-fast, cap " + std::to_string(cap), 16384, 16384, Walk::product, cap);
  }
  for (const int cap : {3, 4, 5, 0}) {
    Fp8Fast::run("fp8-fast, cap " + std::to_string(cap), 16384, 16384, Walk::product, cap);
  }
}

// fp8: the fp8 fast kernel's launch choices (tile shape, bytes in flight per thread, block cap,
// L2 prefetch) on 16384 x 16384, three passes over the candidates so that the spread between
// passes shows next to the differences between candidates.
void fp8() {
  std::puts("== fp8: fp8-fast candidates on 16384 x 16384, three passes");
  using Fp8NoPrefetch = Fast<std::uint8_t, 128, 128, 4, 1, 0>;
  using Fp8Wide = Fast<std::uint8_t, 128, 256, 4, 1, 256>;  // 8 loads per thread, 32 KB tile
  using Fp8Tall = Fast<std::uint8_t, 256, 128, 4, 1, 256>;  // 8 loads per thread, 32 KB tile
  const int n = 16384;
  for (int pass = 0; pass < 3; ++pass) {
    Fp8Fast::run("fp8-fast 128x128, cap 4 (the suite's)", n, n, Walk::product, kFp8Cap);
    Fp8Fast::run("fp8-fast 128x128, cap 5", n, n, Walk::product, 5);
    Fp8Fast::run("fp8-fast 128x128, no cap (8)", n, n, Walk::product, 0);
    Fp8NoPrefetch::run("fp8-fast 128x128, cap 4, no L2 prefetch", n, n, Walk::product, kFp8Cap);
    Fp8Wide::run("fp8-fast 128x256, cap 2", n, n, Walk::product, 2);
    Fp8Wide::run("fp8-fast 128x256, cap 3", n, n, Walk::product, 3);
    Fp8Tall::run("fp8-fast 256x128, cap 2", n, n, Walk::product, 2);
  }
}

// [SECTION] tma
// tma: fp64 32 x 32 tiles moved by the tensor-memory accelerator both ways. One thread loads
// the tile as two 16-column boxes (128-byte swizzle) behind an mbarrier; the block transposes
// 2 x 2 blocks into a second tile in the output's layout (128-byte swizzle); one thread stores
// it as two boxes. No global load or store instruction is left to the threads. Two kernels:
// one tile per block, and persistent blocks that keep kStages tiles loading while they
// transpose and store the oldest (a pipeline, so no block waits for its own load).

constexpr int kTmaTileBytes = 32 * 32 * 8;

// One thread: the tile at (row0, col0) into `tile`, completing `bar`'s current phase.
__device__ inline void load_tile(const CUtensorMap& map, unsigned char* tile, std::uint64_t* bar,
                                 int row0, int col0) {
  barrier_expect_bytes(bar, kTmaTileBytes);
  for (int half = 0; half < 2; ++half)
    load_box(map, tile + half * 4096, bar, col0 + 16 * half, row0);
}
// All 256 threads: out_tile = the transpose of in_tile. Thread -> 2 x 2 block (br, bc); the 8
// lanes of a phase take (br % 8, bc % 8) = ((k + s) % 8, k): 8 distinct 16-byte chunks for
// the reads of in_tile and the writes of out_tile alike, under both swizzles (chunk ^ row % 8).
__device__ inline void transpose_tile(const unsigned char* in_tile, unsigned char* out_tile) {
  const int t = threadIdx.x;
  const int k = t % 8;
  const int phase = t / 8;
  const int bc = k + 8 * ((phase / 16) % 2);
  const int br = (k + phase % 8) % 8 + 8 * ((phase / 8) % 2);
  std::uint64_t block[2][2];
  for (int i = 0; i < 2; ++i) {
    const int r = 2 * br + i;
    const uint4 v = *reinterpret_cast<const uint4*>(in_tile + (bc / 8) * 4096 + r * 128 +
                                                    (((bc % 8) ^ (r % 8)) << 4));
    std::memcpy(block[i], &v, 16);
  }
  for (int j = 0; j < 2; ++j) {
    const int c = 2 * bc + j;
    const std::uint64_t column[2] = {block[0][j], block[1][j]};
    uint4 v;
    std::memcpy(&v, column, 16);
    *reinterpret_cast<uint4*>(out_tile + (br / 8) * 4096 + c * 128 + (((br % 8) ^ (c % 8)) << 4)) =
        v;
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic writes -> TMA reads
}
// One thread: out_tile to the output tile whose rows start at input column col0.
__device__ inline void store_tile(const CUtensorMap& map, const unsigned char* out_tile, int row0,
                                  int col0) {
  for (int half = 0; half < 2; ++half) {
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
            reinterpret_cast<std::uint64_t>(&map)),
        "r"(row0 + 16 * half), "r"(col0), "r"(shared_address(out_tile + half * 4096))
        : "memory");
  }
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

__global__ void __launch_bounds__(256)
    transpose_tma64(const __grid_constant__ CUtensorMap in_map,
                    const __grid_constant__ CUtensorMap out_map, TileWalk walk) {
  extern __shared__ unsigned char dynamic_smem[];
  __shared__ __align__(8) std::uint64_t loaded;
  unsigned char* in_tile = align_1024(dynamic_smem);
  unsigned char* out_tile = in_tile + kTmaTileBytes;
  int tile_row = 0;
  int tile_col = 0;
  tile_of_block(blockIdx.x, walk, &tile_row, &tile_col);
  if (threadIdx.x == 0) barrier_init(&loaded);
  __syncthreads();
  if (threadIdx.x == 0) load_tile(in_map, in_tile, &loaded, tile_row * 32, tile_col * 32);
  barrier_wait(&loaded, 0);
  transpose_tile(in_tile, out_tile);
  __syncthreads();
  if (threadIdx.x == 0) {
    store_tile(out_map, out_tile, tile_row * 32, tile_col * 32);
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // the tile stays until read
  }
}

// Persistent: block b takes tiles b, b + gridDim.x, ... in the walk's order, kStages of them
// loading at once into a ring of input tiles, two output tiles alternating for the stores.
template <int kStages>
__global__ void __launch_bounds__(256, 1)
    transpose_tma64_pipelined(const __grid_constant__ CUtensorMap in_map,
                              const __grid_constant__ CUtensorMap out_map, TileWalk walk,
                              int tiles) {
  extern __shared__ unsigned char dynamic_smem[];
  __shared__ __align__(8) std::uint64_t loaded[kStages];
  unsigned char* ring = align_1024(dynamic_smem);
  unsigned char* out_tiles = ring + kStages * kTmaTileBytes;
  const auto tile_at = [&](int i, int* row0, int* col0) {
    int r = 0;
    int c = 0;
    tile_of_block(static_cast<int>(blockIdx.x) + i * static_cast<int>(gridDim.x), walk, &r, &c);
    *row0 = r * 32;
    *col0 = c * 32;
  };
  const int mine = (tiles - static_cast<int>(blockIdx.x) + static_cast<int>(gridDim.x) - 1) /
                   static_cast<int>(gridDim.x);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) barrier_init(&loaded[s]);
    for (int i = 0; i < kStages && i < mine; ++i) {
      int row0 = 0;
      int col0 = 0;
      tile_at(i, &row0, &col0);
      load_tile(in_map, ring + i * kTmaTileBytes, &loaded[i], row0, col0);
    }
  }
  __syncthreads();
  for (int i = 0; i < mine; ++i) {
    const int stage = i % kStages;
    unsigned char* in_tile = ring + stage * kTmaTileBytes;
    unsigned char* out_tile = out_tiles + (i % 2) * kTmaTileBytes;
    barrier_wait(&loaded[stage], static_cast<std::uint32_t>((i / kStages) % 2));
    transpose_tile(in_tile, out_tile);
    __syncthreads();  // in_tile read and out_tile written by every thread
    if (threadIdx.x == 0) {
      int row0 = 0;
      int col0 = 0;
      tile_at(i, &row0, &col0);
      store_tile(out_map, out_tile, row0, col0);
      if (i + kStages < mine) {
        tile_at(i + kStages, &row0, &col0);
        load_tile(in_map, in_tile, &loaded[stage], row0, col0);
      }
      // The other output tile, written next, must have been read by its store.
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

CUtensorMap fp64_tensor_map(void* base, int rows, int cols) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = tensor_map_encoder();
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(cols) * 8};
  const cuuint32_t box[2] = {16, 32};  // 128 bytes wide: the widest box the 128-byte swizzle takes
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r =
      encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT64, 2, base, dims, strides, box, element_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaFailure("cuTensorMapEncodeTiled: error " + std::to_string(int(r)));
  return map;
}

template <int kStages>
void tma_pipelined(const CUtensorMap& in_map, const CUtensorMap& out_map, const TileWalk& walk,
                   int n, int blocks_per_sm) {
  const auto kernel = transpose_tma64_pipelined<kStages>;
  const int smem = (kStages + 2) * kTmaTileBytes + 1024;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
        "cudaFuncSetAttribute(transpose_tma64_pipelined)");
  const int tiles = (n / 32) * (n / 32);
  const unsigned blocks = unsigned(g.sms * blocks_per_sm);
  paired("fp64 TMA pipelined, " + std::to_string(blocks_per_sm) + " x " + std::to_string(kStages) +
             " tiles per SM",
         n, n, 8, std::size_t(n) * n * 8,
         [&] { kernel<<<blocks, 256, smem>>>(in_map, out_map, walk, tiles); });
}

void tma() {
  std::puts("== tma: fp64 32 x 32 through tensor maps, against fp64-fast");
  const int n = 16384;
  const CUtensorMap in_map = fp64_tensor_map(g.in, n, n);
  const CUtensorMap out_map = fp64_tensor_map(g.out, n, n);
  const TileWalk walk = make_tile_walk(n, n, 32, 32, 8);
  const int smem = 2 * kTmaTileBytes + 1024;  // two tiles and the alignment
  check(cudaFuncSetAttribute(transpose_tma64, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
        "cudaFuncSetAttribute(transpose_tma64)");
  const unsigned blocks = unsigned(n / 32) * unsigned(n / 32);
  paired("fp64 TMA load + store, product walk", n, n, 8, std::size_t(n) * n * 8,
         [&] { transpose_tma64<<<blocks, 256, smem>>>(in_map, out_map, walk); });
  tma_pipelined<6>(in_map, out_map, walk, n, 1);
  tma_pipelined<8>(in_map, out_map, walk, n, 1);
  tma_pipelined<12>(in_map, out_map, walk, n, 1);
  tma_pipelined<4>(in_map, out_map, walk, n, 2);
  tma_pipelined<6>(in_map, out_map, walk, n, 2);
  tma_pipelined<3>(in_map, out_map, walk, n, 3);
  Fp64Fast::run("fp64-fast", n, n, Walk::product, kOtherCap);
}

// [SECTION] cublas

// cublas: what a user would call instead.
void cublas() {
  std::puts("== cublas: geam as a transpose");
  if (!cublas_unavailable_reason().empty()) {
    std::printf("  left out: %s\n", cublas_unavailable_reason().c_str());
    return;
  }
  const int n = 16384;
  paired("cublasSgeam", n, n, 4, std::size_t(n) * n * 4,
         [&] { cublas_transpose(g.in, g.out, n, n, 4); });
  Fp32Fast::run("fp32-fast", n, n, Walk::product, kFp32Cap);
  paired("cublasDgeam", n, n, 8, std::size_t(n) * n * 8,
         [&] { cublas_transpose(g.in, g.out, n, n, 8); });
  Fp64Fast::run("fp64-fast", n, n, Walk::product, kOtherCap);
}

// [SECTION] The command

int run(const std::vector<std::string>& sections) {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "banklab_transpose_tuning: no CUDA device\n");
    return 1;
  }
  try {
    check(cudaSetDevice(0), "cudaSetDevice");
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    g.sms = p.multiProcessorCount;
    int reserved = 0;
    check(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0),
          "cudaDeviceGetAttribute(reserved shared memory)");
    g.cap = BlockCap{int(p.sharedMemPerMultiprocessor), reserved, 0};
    std::printf("%s, %d SMs\n", p.name, g.sms);
    DeviceBuffer in(kBufferBytes, "input");
    DeviceBuffer out(kBufferBytes, "output");
    DeviceBuffer wrong(sizeof(unsigned long long), "count");
    g.in = in.get();
    g.out = out.get();
    g.wrong = static_cast<unsigned long long*>(wrong.get());
    fill<<<g.sms * 8, 256>>>(static_cast<unsigned char*>(g.in), kBufferBytes);
    check_launch("fill");
    const auto wanted = [&](std::string_view s) {
      return sections.empty() || std::find(sections.begin(), sections.end(), s) != sections.end();
    };
    if (wanted("roofs")) roofs();
    if (wanted("pitch")) pitch();
    if (wanted("walks")) walks();
    if (wanted("caps")) caps();
    if (wanted("tma")) tma();
    if (wanted("cublas")) cublas();
    if (wanted("fp8")) fp8();
  } catch (const CudaFailure& failure) {
    std::fprintf(stderr, "banklab_transpose_tuning: %s\n", failure.what());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace banklab::gpu::detail

int main(int argc, char** argv) {
  const std::vector<std::string> known = {"roofs", "pitch",  "walks", "caps",
                                          "tma",   "cublas", "fp8"};
  std::vector<std::string> sections;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::puts(
          "usage: banklab_transpose_tuning [roofs] [pitch] [walks] [caps] [tma] [cublas] [fp8]\n"
          "The paired measurements behind the fast transposes (docs/gpu-results.md); no "
          "section: all of them.");
      return 0;
    }
    if (std::find(known.begin(), known.end(), a) == known.end()) {
      std::fprintf(stderr, "banklab_transpose_tuning: unknown section '%s' (see --help)\n",
                   a.c_str());
      return 2;
    }
    sections.push_back(a);
  }
  return banklab::gpu::detail::run(sections);
}
