#pragma once
// The transposes, as the lesson draws them and as production code writes them.
//
//   in:  rows x cols, row-major       out: cols x rows, row-major, out[c][r] = in[r][c]
//
// Elements are moved as raw bits (uint8/16/32/64 for fp8, bf16, fp32, fp64): only the size
// matters to the banks, and a bit-exact copy is what the verification checks.
//
// Section index
//   1. Teaching kernels: the seed lesson's tiled transpose, differing only in the tile layout
//   2. The fast kernel: 16-byte accesses on both sides of a chunk-swizzled tile, tiles in
//      column-major order
//   3. The copy roof
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace banklab::gpu::detail {

// ---------------------------------------------------------------------------------------------
// 1. Teaching kernels
//
// Block (32, 8) over a 32 x 32 tile, each thread 4 elements, exactly the lesson's kernel.
// The fill writes row j of the tile (lane = column: a row write), the drain reads column j
// (lane = row: the column read every preset draws). Only the layout functor differs. The
// loops have a constant trip count (4) so that every layout compiles to 4 loads in flight:
// written as the lesson's `for (j = threadIdx.y; j < 32; j += 8)`, the XOR layout compiled
// to one load at a time, far slower than the padded kernel for a reason that had nothing to do
// with banks (docs/gpu-results.md, "Suite buffers and loops").

inline constexpr int kTeachTile = 32;
inline constexpr int kTeachBlockRows = 8;

// tile[32][32 + pad]: element (r, c) at r * pitch + c. pad 0 is the 32-way lesson, pad 1
// (fp32) the coprime stride, pad = 16 bytes the aligned pad that vector stores need.
struct PaddedTile {
  int pitch;  // elements per row, 32 + pad
  __device__ int operator()(int r, int c) const { return r * pitch + c; }
};

// tile[32][32] with (r, c) stored at column c ^ r: every row stays a permutation of its own
// 32 slots (row writes conflict-free), and a column lands on 32 different slots per row.
struct XorTile {
  __device__ int operator()(int r, int c) const { return r * kTeachTile + (c ^ r); }
};

// Scalar fill: lane = column x of row j, one element per thread per row.
template <class T, class Layout>
__device__ void fill_tile_scalar(const T* __restrict__ in, int rows, int cols, T* tile,
                                 Layout layout) {
  const int x = blockIdx.x * kTeachTile + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kTeachTile / kTeachBlockRows; ++k) {
    const int j = threadIdx.y + k * kTeachBlockRows;
    const int y = blockIdx.y * kTeachTile + j;
    if (x < cols && y < rows) tile[layout(j, threadIdx.x)] = in[std::size_t(y) * cols + x];
  }
}

// 16-byte fill: each thread moves one 16-byte chunk of a row (STS.128), which is only legal
// when every row of the tile starts on a 16-byte boundary: pitch * sizeof(T) % 16 == 0.
template <class T>
__device__ void fill_tile_vec16(const T* __restrict__ in, int rows, int cols, T* tile,
                                PaddedTile layout) {
  constexpr int kVec = 16 / sizeof(T);
  constexpr int kChunks = kTeachTile / kVec;  // chunks per tile row
  const int t = threadIdx.y * kTeachTile + threadIdx.x;
  for (int i = t; i < kTeachTile * kChunks; i += kTeachTile * kTeachBlockRows) {
    const int r = i / kChunks;
    const int c = (i % kChunks) * kVec;
    const int y = blockIdx.y * kTeachTile + r;
    const int x = blockIdx.x * kTeachTile + c;
    const T* src = in + std::size_t(y) * cols + x;
    T* dst = tile + layout(r, c);
    // A chunk read as one 16-byte load needs the whole chunk inside the row and a 16-byte
    // aligned source (cols a multiple of kVec); at the matrix edge, element by element.
    if (y < rows && x + kVec <= cols && cols % kVec == 0) {
      *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
    } else if (y < rows) {
      for (int k = 0; k < kVec && x + k < cols; ++k) dst[k] = src[k];
    }
  }
}

// Drain: lane = row of the tile, so tile(threadIdx.x, j) is the column read; the global write
// out[y][x] is coalesced along x.
template <class T, class Layout>
__device__ void drain_tile(T* __restrict__ out, int rows, int cols, const T* tile, Layout layout) {
  const int x = blockIdx.y * kTeachTile + threadIdx.x;  // output column = input row
#pragma unroll
  for (int k = 0; k < kTeachTile / kTeachBlockRows; ++k) {
    const int j = threadIdx.y + k * kTeachBlockRows;
    const int y = blockIdx.x * kTeachTile + j;  // output row = input column
    if (x < rows && y < cols) out[std::size_t(y) * rows + x] = tile[layout(threadIdx.x, j)];
  }
}

extern __shared__ __align__(16) unsigned char teach_smem[];

// The lesson's transpose: fill the tile by rows, read it by columns, per `layout`:
// tile[32][32], tile[32][32+P] or the XOR swizzle. With kVectorFill the fill moves 16-byte
// chunks into the aligned pad tile[32][32 + 16/sizeof(T)]: the vector stores are
// conflict-free, and the column read keeps the aligned pad's 4-way conflict.
template <class T, class Layout, bool kVectorFill>
__global__ void __launch_bounds__(kTeachTile* kTeachBlockRows)
    transpose_teach(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                    Layout layout) {
  T* tile = reinterpret_cast<T*>(teach_smem);
  if constexpr (kVectorFill) {
    fill_tile_vec16(in, rows, cols, tile, layout);
  } else {
    fill_tile_scalar(in, rows, cols, tile, layout);
  }
  __syncthreads();
  drain_tile(out, rows, cols, tile, layout);
}

// ---------------------------------------------------------------------------------------------
// 2. The fast kernel
//
// Every global and shared access is 16 bytes wide where the data allows it, so a warp moves
// 512 B per instruction, and the whole tile is in flight at once. One tile per block; the
// blocks walk the tiles column by column (tile_of_block).
//
//   fill   thread -> 16-byte chunks q of tile rows r, copied global -> shared directly
//          (cp.async, LDGSTS.128: no registers held while the loads are in flight)
//   drain  thread -> a kVec x kReadElems block: rows r0..r0+kVec-1 (kVec = 16 / sizeof(T)),
//          kReadElems columns; it reads one kReadBytes piece of each row (LDS.128 or LDS.32),
//          transposes the block in registers, and writes kReadElems output chunks of
//          16 bytes (STG.128): output row c gets input rows r0..r0+kVec-1 of column c.
//
// Lanes: lane % 8 walks the row blocks, lane / 8 the column blocks, so each output chunk
// store has 8 lanes on 128 contiguous bytes of one output row.
//
// Swizzle: chunk q of row r lives at chunk q ^ ((r / kVec) mod 8) (rows of 128 B or more).
//   fill:  8 lanes of a phase write 8 chunks of one row: a permutation of one 128-B span.
//   drain: the 8 lanes of a phase read rows of 8 different row blocks: the XOR gives 8
//          distinct chunks, all 32 banks (LDS.128: 4 wavefronts for 512 B; LDS.32: the
//          4 lanes of a block row sit in one chunk, 32 lanes on 32 banks, 1 wavefront).
template <class T, int kRows, int kCols, int kReadBytes>
struct FastTile {
  static constexpr int kThreads = 256;
  static constexpr int kVec = 16 / int(sizeof(T));
  static constexpr int kReadElems = kReadBytes / int(sizeof(T));
  static constexpr int kRowBytes = kCols * int(sizeof(T));
  static constexpr int kChunks = kRowBytes / 16;
  static constexpr int kLoads = kRows * kChunks / kThreads;  // 16-byte loads per thread
  static constexpr int kWarpRows = kRows / kVec / 8;         // warp blocks down the tile
  static constexpr int kWarpCols = kCols / kReadElems / 4;   // warp blocks across it
  static constexpr int kWarpBlocks = kWarpRows * kWarpCols;
  static constexpr int kBytes = kRows * kRowBytes;
  static_assert(kRowBytes % 128 == 0, "the 8-chunk swizzle needs rows of whole 128 B spans");
  static_assert(kRows * kChunks % kThreads == 0, "every thread loads the same number of chunks");
  static_assert(kWarpRows * kVec * 8 == kRows && kWarpCols * kReadElems * 4 == kCols,
                "warp blocks must tile the tile");
  static_assert(kWarpBlocks % (kThreads / 32) == 0, "every warp drains the same number");
  static_assert(kReadBytes == 4 || kReadBytes == 16, "drain reads are LDS.32 or LDS.128");

  __device__ static int offset(int r, int byte_in_row) {
    const int chunk = (byte_in_row >> 4) ^ ((r / kVec) & 7);
    return r * kRowBytes + (chunk << 4) + (byte_in_row & 15);
  }
};

// 16-byte asynchronous copy global -> shared (LDGSTS): loads in flight hold no registers, so
// a block has its whole tile in flight at once and the SM keeps more blocks. kL2Prefetch = 256
// asks L2 to fetch the surrounding 256 bytes from DRAM at once (measured: it helps fp8 only,
// see docs/gpu-results.md).
template <int kL2Prefetch>
__device__ inline void copy_async_16(void* shared_dst, const void* global_src) {
  const auto dst = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared_dst));
  if constexpr (kL2Prefetch == 256) {
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(dst), "l"(global_src)
                 : "memory");
  } else {
    static_assert(kL2Prefetch == 0, "L2 prefetch of 0 or 256 bytes");
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(global_src)
                 : "memory");
  }
}
__device__ inline void copy_async_wait_all() {
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
}

// Which tile block b transposes. The tiles go column by column (b goes down the input first):
// the few hundred blocks resident at one time then write their output rows (the input's
// columns) as long contiguous runs, and read short runs of many input rows. Measured on an
// H200 the write side is the one that matters: row-major order (contiguous reads, scattered
// writes) was several points slower than column-major (docs/gpu-results.md).
//
// One exception, also measured: when the input's row pitch is a multiple of 128 KiB, all the
// reads of one tile column share their address bits 0-16, and every fast kernel loses a few
// points against other pitches. We read it as the H200's memory channels being chosen from
// those bits, unevenly (not measured directly). Then the blocks alternate between two tile
// columns 64 KiB apart, which flips bit 16 from one tile to the next; 32 or 128 KiB apart
// helps less (`banklab_transpose_tuning pitch walks`; docs/gpu-results.md, "The row pitch").
struct TileWalk {
  int tiles_y = 0;       // tile rows of the input
  int pair_spacing = 0;  // tile columns between the two walked side by side; 0: one at a time
};

inline TileWalk make_tile_walk(int rows, int cols, int tile_rows, int tile_cols, int elem_bytes) {
  constexpr long long kPairOffset = 64 * 1024;
  const long long pitch = static_cast<long long>(cols) * elem_bytes;
  const long long tile_bytes = static_cast<long long>(tile_cols) * elem_bytes;
  TileWalk w;
  w.tiles_y = (rows + tile_rows - 1) / tile_rows;
  // A pitch that is a multiple of 128 KiB holds a whole number of 64 KiB pairs of spans, so
  // every tile column has its partner and the tile columns split evenly into pairs.
  if (pitch % (2 * kPairOffset) == 0 && kPairOffset % tile_bytes == 0) {
    w.pair_spacing = static_cast<int>(kPairOffset / tile_bytes);
  }
  return w;
}

__device__ inline void tile_of_block(int b, const TileWalk& w, int* tile_row, int* tile_col) {
  if (w.pair_spacing == 0) {
    *tile_row = b % w.tiles_y;
    *tile_col = b / w.tiles_y;
    return;
  }
  // Pair q (in order) holds tile columns c and c + spacing; even blocks take the first.
  const int s = w.pair_spacing;
  const int rest = b / 2;
  const int q = rest / w.tiles_y;
  *tile_row = rest % w.tiles_y;
  *tile_col = (q / s) * 2 * s + (b % 2) * s + q % s;
}

template <class T, int kRows, int kCols, int kReadBytes, int kMinBlocks, int kL2Prefetch>
__global__ void __launch_bounds__(256, kMinBlocks)
    transpose_fast(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                   TileWalk walk) {
  using F = FastTile<T, kRows, kCols, kReadBytes>;
  __shared__ __align__(128) unsigned char tile[F::kBytes];
  int tile_row = 0;
  int tile_col = 0;
  tile_of_block(blockIdx.x, walk, &tile_row, &tile_col);
  const int row0 = tile_row * kRows;
  const int col0 = tile_col * kCols;
  // 16-byte global accesses need every row of `in` and `out` to start 16-byte aligned.
  const bool vectors = cols % F::kVec == 0 && rows % F::kVec == 0;
  const bool full = vectors && row0 + kRows <= rows && col0 + kCols <= cols;
  const int t = threadIdx.x;

  if (full) {
    const T* base = in + std::size_t(row0) * cols + col0;
#pragma unroll
    for (int i = 0; i < F::kLoads; ++i) {
      const int c = t + i * F::kThreads;
      const int r = c / F::kChunks;
      const int q = c % F::kChunks;
      copy_async_16<kL2Prefetch>(tile + F::offset(r, q * 16),
                                 base + std::size_t(r) * cols + q * F::kVec);
    }
    copy_async_wait_all();
  } else {  // a tile on the matrix edge, or rows that are not 16-byte aligned
    for (int e = t; e < kRows * kCols; e += F::kThreads) {
      const int r = e / kCols;
      const int c = e % kCols;
      if (row0 + r < rows && col0 + c < cols) {
        *reinterpret_cast<T*>(tile + F::offset(r, c * int(sizeof(T)))) =
            in[std::size_t(row0 + r) * cols + col0 + c];
      }
    }
  }
  __syncthreads();

  const int lane = t % 32;
  const int warp = t / 32;
#pragma unroll
  for (int wb = warp; wb < F::kWarpBlocks; wb += F::kThreads / 32) {
    const int br = (wb / F::kWarpCols) * 8 + lane % 8;  // row block: rows br*kVec ...
    const int bc = (wb % F::kWarpCols) * 4 + lane / 8;  // column block: cols bc*kReadElems ...
    T block[F::kVec][F::kReadElems];
#pragma unroll
    for (int i = 0; i < F::kVec; ++i) {
      const unsigned char* src = tile + F::offset(br * F::kVec + i, bc * kReadBytes);
      if constexpr (kReadBytes == 16) {
        const uint4 piece = *reinterpret_cast<const uint4*>(src);
        std::memcpy(block[i], &piece, 16);
      } else {
        const std::uint32_t piece = *reinterpret_cast<const std::uint32_t*>(src);
        std::memcpy(block[i], &piece, 4);
      }
    }
    const int out_col = row0 + br * F::kVec;
#pragma unroll
    for (int j = 0; j < F::kReadElems; ++j) {
      T column[F::kVec];
#pragma unroll
      for (int i = 0; i < F::kVec; ++i) column[i] = block[i][j];
      const int out_row = col0 + bc * F::kReadElems + j;
      T* dst = out + std::size_t(out_row) * rows + out_col;
      if (full) {
        uint4 piece;
        std::memcpy(&piece, column, 16);
        *reinterpret_cast<uint4*>(dst) = piece;
      } else if (out_row < cols) {
        for (int i = 0; i < F::kVec && out_col + i < rows; ++i) dst[i] = column[i];
      }
    }
  }
}

// Launching it. A cap (max_blocks > 0) limits the blocks resident on one SM: each block asks
// for dynamic shared memory it never touches, enough that no more than max_blocks fit.
// Measured on the H200, every fast kernel has an optimum of tile bytes in flight per SM
// (docs/gpu-results.md): below it the loads cannot cover the memory latency; above it the
// kernel slows too, which we read as the column-major walk's cost: the resident tiles write as
// many output rows at once as they span input columns, so more tiles in flight means more,
// shorter write streams. max_blocks 0 leaves the occupancy to registers and the tile.
struct BlockCap {
  int smem_per_sm = 0;         // shared memory of one SM, bytes
  int reserved_per_block = 0;  // what the system takes of it for each resident block
  int max_blocks = 0;
};

// Queues the kernel on stream 0; returns the error of the attribute call it may need (a launch
// error is left for cudaGetLastError, as for any launch).
template <class T, int kRows, int kCols, int kReadBytes, int kMinBlocks, int kL2Prefetch>
cudaError_t launch_transpose_fast(const T* in, T* out, int rows, int cols, const TileWalk& walk,
                                  const BlockCap& cap) {
  using F = FastTile<T, kRows, kCols, kReadBytes>;
  const auto kernel = transpose_fast<T, kRows, kCols, kReadBytes, kMinBlocks, kL2Prefetch>;
  int spare = 0;
  if (cap.max_blocks > 0) {
    // Shared memory is allocated per block in 128-byte units; a block of at least
    // 1/max_blocks of the SM's shared memory (rounded down to a unit) leaves no room for one
    // more.
    const int per_block = cap.smem_per_sm / cap.max_blocks / 128 * 128;
    spare = std::max(0, per_block - F::kBytes - cap.reserved_per_block);
    // A block may take 48 KB of shared memory (static + dynamic) unless the kernel's attribute
    // allows more; a host call of microseconds before a kernel of a millisecond.
    constexpr int kDefaultBlockLimit = 48 * 1024;
    if (F::kBytes + spare > kDefaultBlockLimit) {
      const cudaError_t e =
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, spare);
      if (e != cudaSuccess) return e;
    }
  }
  const int tiles_x = (cols + kCols - 1) / kCols;
  kernel<<<static_cast<unsigned>(tiles_x) * static_cast<unsigned>(walk.tiles_y), F::kThreads,
           static_cast<std::size_t>(spare)>>>(in, out, rows, cols, walk);
  return cudaSuccess;
}

// ---------------------------------------------------------------------------------------------
// 3. The copy roof: the same bytes read once and written once, one 16-byte chunk per thread,
// 128 threads per block. Of the copies timed on the H200 this one was the fastest, ahead of
// 256 threads, cudaMemcpy and four chunks per thread (`banklab_transpose_tuning roofs`;
// docs/gpu-results.md, "Which copy is the roof"). The thread past the last whole chunk copies
// the 0-15 bytes left.
inline constexpr int kCopyThreads = 128;

__global__ void __launch_bounds__(kCopyThreads)
    copy16(const unsigned char* __restrict__ in, unsigned char* __restrict__ out,
           std::size_t bytes) {
  const std::size_t chunks = bytes / 16;
  const std::size_t i = std::size_t(blockIdx.x) * kCopyThreads + threadIdx.x;
  if (i < chunks) {
    reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(in)[i];
  } else if (i == chunks) {
    for (std::size_t b = chunks * 16; b < bytes; ++b) out[b] = in[b];
  }
}

}  // namespace banklab::gpu::detail
