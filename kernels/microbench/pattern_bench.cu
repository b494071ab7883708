// The shared-memory microbenchmark: every warp of a full GPU replays one WarpAccess in a loop
// that only the shared-memory pipe can limit.
//
//   - the lane's address is computed once, before the loop, and held in a register;
//   - the instruction is inline PTX (ld/st.shared of 1-16 bytes, ldmatrix, stmatrix), so the
//     compiler neither merges nor drops it, and its width is exactly the one asked for;
//   - kUnroll copies per loop trip, into separate registers for loads, so one trip is
//     kUnroll shared instructions plus a few adds and a branch: issue never binds first;
//   - every SM holds as many warps as fit, all replaying the same access.
//
// Time comes from clock64() on each SM, read by every warp: once the barrier after the fill has
// released it, and again once its last access has completed (a load's value is in a register;
// a store is followed by a load of the same bytes that returns). An SM's span runs from the
// first warp's start to the last warp's stop, so every access it is credited with lies inside
// it, and the result is SM clocks per warp instruction: one wavefront costs one clock when the
// pipe is the limit. Events time the same launches, and cycles / event time is the SM clock.
//
// Loads sum what they read and the host checks each lane's sum; stores write bytes that
// depend on their address into a tile filled with the complement, and the host checks the
// tile of block 0 afterwards. A wrong sum or byte makes the result unverified.
//
// [SECTION] Instructions
// [SECTION] The kernel and its clock
// [SECTION] The table of instructions
// [SECTION] Planning an access
// [SECTION] Measuring one access
// [SECTION] The public function
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/base/format.hpp"
#include "core/model/analysis.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/runtime/cuda_support.hpp"
#include "kernels/runtime/run_guarded.hpp"

namespace banklab::gpu {

namespace detail {
namespace {

constexpr int kUnroll = 16;
constexpr int kMaxWarpsPerBlock = 16;

// The value of shared word w of a region: loads find it there; stores write its bytes.
__host__ __device__ inline std::uint32_t smem_word(std::uint32_t w) {
  std::uint32_t z = w * 0x9E3779B1u + 0x7F4A7C15u;
  z ^= z >> 15;
  z *= 0x85EBCA6Bu;
  return z ^ (z >> 13);
}

struct PatternLaunch {
  std::uint32_t offset[kWarpSize];      // byte offset of each lane in its warp's region
  std::uint32_t payload[kWarpSize][4];  // stores: the registers each lane writes
  std::uint32_t active;                 // bit L: lane L executes the instruction
  std::uint32_t region_bytes;           // one region: the pattern's span, rounded up
  std::uint32_t region_stride;          // 0: every warp shares region 0 (loads); else per warp
  int loops;                            // loop trips per warp, kUnroll instructions each
  // Always 0, but unknown to the compiler: unrolled copy u uses address + u * zero, so no two
  // copies have a provably equal address and ptxas cannot merge repeated loads (ldmatrix has
  // no volatile form) or drop repeated stores.
  std::uint32_t zero;
};

// [SECTION] Instructions
// One struct per instruction: its registers per lane and the PTX.

struct Ld1 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(r[0]) : "r"(a));
  }
};
struct Ld2 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(r[0]) : "r"(a));
  }
};
struct Ld4 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(r[0]) : "r"(a));
  }
};
struct Ld8 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 2;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ld.volatile.shared.v2.b32 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
  }
};
struct Ld16 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 4;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ld.volatile.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
  }
};
struct St1 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = false;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(a), "r"(r[0]) : "memory");
  }
};
struct St2 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = false;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(a), "r"(r[0]) : "memory");
  }
};
struct St4 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = false;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("st.volatile.shared.b32 [%0], %1;" ::"r"(a), "r"(r[0]) : "memory");
  }
};
struct St8 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 2;
  static constexpr bool kLoad = false;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("st.volatile.shared.v2.b32 [%0], {%1, %2};" ::"r"(a), "r"(r[0]), "r"(r[1])
                 : "memory");
  }
};
struct St16 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 4;
  static constexpr bool kLoad = false;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("st.volatile.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r[0]), "r"(r[1]),
                 "r"(r[2]), "r"(r[3])
                 : "memory");
  }
};
struct Ldsm1 {
  static constexpr bool kVolatile = false;  // ldmatrix has no .volatile form
  static constexpr int kRegs = 1;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
  }
};
struct Ldsm2 {
  static constexpr bool kVolatile = false;  // ldmatrix has no .volatile form
  static constexpr int kRegs = 2;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a));
  }
};
struct Ldsm4 {
  static constexpr bool kVolatile = false;  // ldmatrix has no .volatile form
  static constexpr int kRegs = 4;
  static constexpr bool kLoad = true;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
  }
};
struct Stsm4 {
  static constexpr bool kVolatile = true;
  static constexpr int kRegs = 4;
  static constexpr bool kLoad = false;
  __device__ static void issue(std::uint32_t a, std::uint32_t (&r)[kRegs]) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  }
};

// [SECTION] The kernel and its clock

extern __shared__ __align__(16) unsigned char pattern_smem[];

// One warp's span on its SM. Each warp reads its own clocks, and a clock read waits for a value:
// __syncthreads() compiles to BAR.SYNC.DEFER_BLOCKING, which stalls a warp's next memory
// access but not its next clock read, so "__syncthreads(); clock64()" reads the clock when this
// warp reaches the barrier, not when the block leaves it. Thread 0's clocks, taken so, were
// warp 0's own span: with one loop trip per warp, warp 0 often finished its 16 instructions
// thousands of clocks before the block did (issue 22, docs/gpu-results.md).
struct WarpClock {
  long long start;  // clock64() once the barrier after the fill has released the warp
  long long stop;   // clock64() once its last access has completed
  unsigned sm;
};

__device__ inline unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// clock64(), read only once `value` is in its register (a load's result, a barrier's count):
// the read is predicated on a test of `value` (against `zero`, always 0 and unknown to ptxas,
// so the test always passes), and a warp issues in order, so the clock is not read before the
// test can be, i.e. before `value` has arrived. (ptxas makes it ISETP on the value, CS2R, SEL.)
__device__ inline long long clock_when_ready(std::uint32_t value, std::uint32_t zero) {
  long long t;
  asm volatile(
      "{\n\t.reg .pred ready;\n\t"
      "setp.ge.u32 ready, %1, %2;\n\t"
      "@ready mov.u64 %0, %%clock64;\n\t"
      "@!ready mov.u64 %0, 0;\n\t}"
      : "=l"(t)
      : "r"(value), "r"(zero));
  return t;
}

// One byte of shared memory, read after the warp's stores to it: it returns only once they
// are done (the same thread's bytes, so the read must see them).
__device__ inline std::uint32_t shared_byte(std::uint32_t address) {
  std::uint32_t b;
  asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(b) : "r"(address) : "memory");
  return b;
}

template <class A>
__global__ void __launch_bounds__(kMaxWarpsPerBlock* kWarpSize)
    replay(const PatternLaunch p, WarpClock* clocks, std::uint32_t* sums, std::uint32_t* dump) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int regions = p.region_stride == 0 ? 1 : blockDim.x / kWarpSize;
  const std::uint32_t region_words = p.region_bytes / 4;
  std::uint32_t* words = reinterpret_cast<std::uint32_t*>(pattern_smem);
  for (std::uint32_t w = threadIdx.x; w < regions * region_words; w += blockDim.x) {
    const std::uint32_t value = smem_word(w % region_words);
    words[w] = A::kLoad ? value : ~value;  // stores must visibly change what they hit
  }
  const std::uint32_t address = static_cast<std::uint32_t>(__cvta_generic_to_shared(pattern_smem)) +
                                warp * p.region_stride + p.offset[lane];
  std::uint32_t addresses[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) addresses[u] = address + u * p.zero;
  std::uint32_t regs[A::kRegs];
#pragma unroll
  for (int k = 0; k < A::kRegs; ++k) regs[k] = p.payload[lane][k];
  std::uint32_t sum = 0;
  // A barrier that returns a value: the warp has it only once every warp has arrived.
  const auto arrived = static_cast<std::uint32_t>(__syncthreads_count(1));

  const long long start = clock_when_ready(arrived, p.zero);
  if ((p.active >> lane) & 1u) {
    // One loop trip is kUnroll instructions, and the host counts it so. ptxas unrolled this
    // loop 4 times and, ldmatrix being a plain load of an unchanged address, kept one LDSM of
    // each four: the host counted 4x the instructions that ran (docs/gpu-results.md). So the
    // loop is not unrolled, and a non-volatile load's address also moves with the trip by
    // trip * zero, which ptxas cannot prove equal from one trip to the next.
#pragma unroll 1
    for (int trip = 0; trip < p.loops; ++trip) {
      const std::uint32_t moved = A::kVolatile ? 0u : static_cast<std::uint32_t>(trip) * p.zero;
      if constexpr (A::kLoad) {
        std::uint32_t got[kUnroll][A::kRegs];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) A::issue(addresses[u] + moved, got[u]);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
          for (int k = 0; k < A::kRegs; ++k) sum += got[u][k];
        }
      } else {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) A::issue(addresses[u], regs);
      }
    }
  }
  // The stop waits for this warp's accesses to complete: the loads' sum, or a load of the first
  // byte each lane stores (an idle lane loads the region's first byte). That load is inside the
  // span, with at most the wavefronts of one store: its words are among theirs.
  std::uint32_t completed = sum;
  if constexpr (!A::kLoad) {
    __syncwarp();  // stmatrix writes other lanes' rows: order them before the read
    completed = shared_byte(address);
  }
  const long long stop = clock_when_ready(completed, p.zero);
  if (lane == 0)
    clocks[blockIdx.x * (blockDim.x / kWarpSize) + warp] = WarpClock{start, stop, sm_id()};
  __syncthreads();  // block 0's dump reads every warp's region

  sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  if (blockIdx.x == 0) {
    for (std::uint32_t w = threadIdx.x; w < regions * region_words; w += blockDim.x) {
      dump[w] = words[w];
    }
  }
}

// [SECTION] The table of instructions
// The table of instructions: which kernel replays which (op, width).

struct Replayer {
  Op op;
  int width;
  bool load;
  // Allows `smem` bytes of dynamic shared memory and returns the blocks per SM that fit.
  int (*prepare)(int threads, std::size_t smem);
  void (*launch)(int blocks, int threads, std::size_t smem, const PatternLaunch& p,
                 WarpClock* clocks, std::uint32_t* sums, std::uint32_t* dump);
};

template <class A>
int prepare(int threads, std::size_t smem) {
  check(cudaFuncSetAttribute(replay<A>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(smem)),
        "cudaFuncSetAttribute(replay, MaxDynamicSharedMemorySize)");
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, replay<A>, threads, smem),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor(replay)");
  return blocks;
}

template <class A>
void launch(int blocks, int threads, std::size_t smem, const PatternLaunch& p, WarpClock* clocks,
            std::uint32_t* sums, std::uint32_t* dump) {
  replay<A><<<blocks, threads, smem>>>(p, clocks, sums, dump);
}

template <class A>
constexpr Replayer row(Op op, int width) {
  return Replayer{op, width, A::kLoad, prepare<A>, launch<A>};
}

const Replayer kReplayers[] = {
    row<Ld1>(Op::ld, 1),
    row<Ld2>(Op::ld, 2),
    row<Ld4>(Op::ld, 4),
    row<Ld8>(Op::ld, 8),
    row<Ld16>(Op::ld, 16),
    row<St1>(Op::st, 1),
    row<St2>(Op::st, 2),
    row<St4>(Op::st, 4),
    row<St8>(Op::st, 8),
    row<St16>(Op::st, 16),
    row<Ldsm1>(Op::ldmatrix_x1, 16),
    row<Ldsm2>(Op::ldmatrix_x2, 16),
    row<Ldsm4>(Op::ldmatrix_x4, 16),
    row<Stsm4>(Op::stmatrix_x4, 16),
};

// [SECTION] Planning an access
// What each lane moves, for the launch and for the checks.

// The bytes [byte, byte + width) as the register(s) of a 1-16 byte access hold them.
void lane_words(std::int64_t byte, int width, std::uint32_t (&out)[4]) {
  const auto word = static_cast<std::uint32_t>(byte / 4);
  if (width >= 4) {
    for (int i = 0; i < width / 4; ++i) out[i] = smem_word(word + static_cast<std::uint32_t>(i));
    return;
  }
  const std::uint32_t shifted = smem_word(word) >> (8 * (byte % 4));
  out[0] = width == 1 ? (shifted & 0xFFu) : (shifted & 0xFFFFu);
}

// For ldmatrix/stmatrix lane t holds, in register m, the word at column 4 * (t % 4) bytes of
// row t / 4 of matrix m; lanes 8m..8m+7 give those rows' addresses.
std::int64_t matrix_word_byte(const WarpAccess& a, int lane, int m) {
  return a.offsets[8 * m + lane / 4] + 4 * (lane % 4);
}

struct Plan {
  const Replayer* replayer = nullptr;
  PatternLaunch launch{};
  int threads = 0;
  std::size_t smem = 0;
  int blocks_per_sm = 0;
  int regions = 1;
  std::uint32_t expected_sum[kWarpSize]{};     // per access (one instruction), for loads
  std::vector<unsigned char> expected_region;  // for stores: the region after the loop
};

std::int64_t round_up(std::int64_t x, std::int64_t to) {
  return (x + to - 1) / to * to;
}

// The plan for `a`, or why it cannot be replayed.
Expected<Plan> plan_access(const WarpAccess& a, int max_block_smem) {
  const auto found =
      std::find_if(std::begin(kReplayers), std::end(kReplayers),
                   [&](const Replayer& r) { return r.op == a.op && r.width == a.width; });
  if (found == std::end(kReplayers)) {
    return Error{"no instruction moves " + std::to_string(a.width) + " bytes per lane for " +
                 std::string(op_name(a.op))};
  }
  Plan p;
  p.replayer = &*found;
  const bool matrix = is_matrix_op(a.op);
  const int addressed = matrix ? 8 * matrix_count(a.op) : kWarpSize;
  std::int64_t span = 0;
  for (int lane = 0; lane < addressed; ++lane) {
    if (!a.active(lane)) {
      if (matrix) {
        return Error{"lane " + std::to_string(lane) + " gives no address, but " +
                     std::string(op_name(a.op)) + " reads a row address from every lane 0-" +
                     std::to_string(addressed - 1)};
      }
      continue;
    }
    span = std::max(span, a.offsets[lane] + a.width);
  }
  // Stores get one region per warp (no two warps write one byte, so the check is exact and
  // racecheck stays quiet); a 128-byte multiple keeps every region on the same banks.
  const bool load = found->load;
  p.launch.region_bytes =
      static_cast<std::uint32_t>(round_up(std::max<std::int64_t>(span, 16), load ? 16 : 128));
  int warps = kMaxWarpsPerBlock;
  if (!load) {
    warps = static_cast<int>(
        std::clamp<std::int64_t>(max_block_smem / p.launch.region_bytes, 1, kMaxWarpsPerBlock));
  }
  p.regions = load ? 1 : warps;
  p.launch.region_stride = load ? 0 : p.launch.region_bytes;
  p.smem = std::size_t(p.regions) * p.launch.region_bytes;
  if (p.smem > std::size_t(max_block_smem)) {
    return Error{"the pattern spans " + std::to_string(p.launch.region_bytes) +
                 " bytes of shared memory; one block can have at most " +
                 std::to_string(max_block_smem)};
  }
  p.threads = warps * kWarpSize;
  p.launch.active = matrix ? 0xFFFFFFFFu : 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const bool gives_address = lane < addressed && a.active(lane);
    p.launch.offset[lane] = gives_address ? static_cast<std::uint32_t>(a.offsets[lane]) : 0;
    if (!matrix && a.active(lane)) p.launch.active |= 1u << lane;
  }

  // Registers: what a load must find (summed over its registers), what a store writes.
  for (int lane = 0; lane < kWarpSize; ++lane) {
    std::uint32_t words[4] = {};
    if (matrix) {
      for (int m = 0; m < matrix_count(a.op); ++m) {
        words[m] = smem_word(static_cast<std::uint32_t>(matrix_word_byte(a, lane, m) / 4));
      }
    } else if (a.active(lane)) {
      lane_words(a.offsets[lane], a.width, words);
    }
    for (int k = 0; k < 4; ++k) {
      p.launch.payload[lane][k] = words[k];
      p.expected_sum[lane] += words[k];
    }
  }
  if (!load) {
    // The region starts as the complement of smem_word; each stored byte becomes smem_word's.
    p.expected_region.resize(p.launch.region_bytes);
    for (std::uint32_t b = 0; b < p.launch.region_bytes; ++b) {
      p.expected_region[b] = static_cast<unsigned char>(~(smem_word(b / 4) >> (8 * (b % 4))));
    }
    const auto mark = [&](std::int64_t begin, int count) {
      for (std::int64_t b = begin; b < begin + count; ++b) {
        p.expected_region[std::size_t(b)] = static_cast<unsigned char>(
            smem_word(static_cast<std::uint32_t>(b / 4)) >> (8 * (b % 4)));
      }
    };
    for (int lane = 0; lane < addressed; ++lane) {
      if (a.active(lane)) mark(a.offsets[lane], matrix ? 16 : a.width);
    }
  }
  return p;
}

// [SECTION] Measuring one access

struct PatternMeasurement {
  ReplayAccounting accounting;
  double cycles_per_access = 0;
  double clock_mhz = 0;
  int warps_per_sm = 0;
  bool verified = false;
  std::string detail;
};

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

// Warp instructions of the fill (stores) or read-back (loads) loop of one block: each warp
// steps through the region's words blockDim at a time, one instruction per step.
std::int64_t region_loop_instructions(const Plan& p) {
  const std::int64_t words = std::int64_t(p.regions) * (p.launch.region_bytes / 4);
  std::int64_t steps = 0;
  for (int warp = 0; warp < p.threads / kWarpSize; ++warp) {
    const std::int64_t first = std::int64_t(warp) * kWarpSize;
    if (first < words) steps += (words - first + p.threads - 1) / p.threads;
  }
  return steps;
}

ReplayAccounting account(const Plan& p, const WarpAccess& a, int blocks) {
  ReplayAccounting r;
  r.access = a;
  r.blocks = blocks;
  r.warps_per_sm = p.blocks_per_sm * (p.threads / kWarpSize);
  r.instructions = std::int64_t(blocks) * (p.threads / kWarpSize) * p.launch.loops * kUnroll;
  if (!is_matrix_op(a.op)) {
    // Loads: block 0 reads its regions back with loads; stores: every block fills with stores.
    r.same_class_extra = region_loop_instructions(p) * (p.replayer->load ? 1 : blocks);
  }
  return r;
}

// Runs one access: warm-up, timed repetitions (median), then the checks on the last launch.
PatternMeasurement measure_access(Plan& p, const WarpAccess& a, const record::DeviceInfo& device,
                                  int predicted_wavefronts, const PatternOptions& options) {
  PatternMeasurement m;
  p.blocks_per_sm = p.replayer->prepare(p.threads, p.smem);
  if (p.blocks_per_sm < 1) {
    throw CudaFailure("cudaOccupancyMaxActiveBlocksPerMultiprocessor: no block of " +
                      std::to_string(p.threads) + " threads and " + std::to_string(p.smem) +
                      " bytes of shared memory fits on an SM");
  }
  const int warps_per_block = p.threads / kWarpSize;
  m.warps_per_sm = p.blocks_per_sm * warps_per_block;
  // Size the loop so that the launch runs about target_ms: at one wavefront per clock an SM
  // finishes `predicted_wavefronts` clocks per warp instruction.
  const double target_cycles = options.target_ms * 1e-3 * device.sm_clock_khz * 1e3;
  const double per_warp = target_cycles / std::max(1, predicted_wavefronts) / m.warps_per_sm;
  p.launch.loops = std::max(1, static_cast<int>(per_warp / kUnroll));

  const int full = device.sm_count * p.blocks_per_sm;
  const int blocks = options.max_blocks > 0 ? std::min(options.max_blocks, full) : full;
  const std::size_t warps = std::size_t(blocks) * std::size_t(warps_per_block);
  DeviceBuffer clocks(sizeof(WarpClock) * warps, "warp clocks");
  DeviceBuffer sums(sizeof(std::uint32_t) * std::size_t(blocks) * std::size_t(p.threads),
                    "lane sums");
  DeviceBuffer dump(p.smem, "shared-memory dump");
  auto* clock_ptr = static_cast<WarpClock*>(clocks.get());
  auto* sum_ptr = static_cast<std::uint32_t*>(sums.get());
  auto* dump_ptr = static_cast<std::uint32_t*>(dump.get());

  constexpr int kWarmup = 2;
  for (int i = 0; i < kWarmup; ++i) {
    p.replayer->launch(blocks, p.threads, p.smem, p.launch, clock_ptr, sum_ptr, dump_ptr);
    check_launch("replay (warm-up)");
  }
  EventTimer timer;
  std::vector<double> cycles_per_access, clock_mhz;
  std::vector<WarpClock> host_clocks(warps);
  const double accesses_per_warp = double(p.launch.loops) * kUnroll;
  for (int rep = 0; rep < options.repetitions; ++rep) {
    timer.start();
    p.replayer->launch(blocks, p.threads, p.smem, p.launch, clock_ptr, sum_ptr, dump_ptr);
    check_launch("replay");
    timer.stop();
    const double ms = timer.elapsed_ms();
    check(cudaMemcpy(host_clocks.data(), clocks.get(), clocks.bytes(), cudaMemcpyDeviceToHost),
          "cudaMemcpy(warp clocks)");
    // Per SM: from its first warp's start to its last warp's stop, over all its accesses.
    struct Span {
      long long first = 0, last = 0;
      int warps = 0;
    };
    std::map<unsigned, Span> spans;
    for (const WarpClock& c : host_clocks) {
      Span& s = spans[c.sm];
      s.first = s.warps == 0 ? c.start : std::min(s.first, c.start);
      s.last = s.warps == 0 ? c.stop : std::max(s.last, c.stop);
      ++s.warps;
    }
    double per_access = 0;
    long long longest = 0;
    for (const auto& [sm, s] : spans) {
      per_access += double(s.last - s.first) / (s.warps * accesses_per_warp);
      longest = std::max(longest, s.last - s.first);
    }
    cycles_per_access.push_back(per_access / double(spans.size()));
    clock_mhz.push_back(double(longest) / (ms * 1e3));
  }
  m.cycles_per_access = median(cycles_per_access);
  m.clock_mhz = median(clock_mhz);
  m.accounting = account(p, a, blocks);
  m.accounting.cycles_per_access = m.cycles_per_access;
  if (options.observe) {
    const Expected<void> observed = options.observe(m.accounting, [&]() -> Expected<void> {
      p.replayer->launch(blocks, p.threads, p.smem, p.launch, clock_ptr, sum_ptr, dump_ptr);
      const cudaError_t e = cudaGetLastError();
      if (e == cudaSuccess) return {};
      return Error{"launching replay: " + std::string(cudaGetErrorString(e))};
    });
    if (!observed) throw CudaFailure(observed.error());
  }

  // Checks on the last launch: every lane's sum (loads), block 0's regions (stores).
  std::vector<std::uint32_t> host_sums(std::size_t(blocks) * std::size_t(p.threads));
  check(cudaMemcpy(host_sums.data(), sums.get(), sums.bytes(), cudaMemcpyDeviceToHost),
        "cudaMemcpy(lane sums)");
  const std::uint32_t per_lane_repeats = static_cast<std::uint32_t>(p.launch.loops) * kUnroll;
  std::int64_t wrong = 0;
  std::string first;
  if (p.replayer->load) {
    for (std::size_t t = 0; t < host_sums.size(); ++t) {
      const int lane = static_cast<int>(t % kWarpSize);
      const bool runs = (p.launch.active >> lane) & 1u;
      const std::uint32_t want = runs ? p.expected_sum[lane] * per_lane_repeats : 0;
      if (host_sums[t] != want && wrong++ == 0) {
        first = "thread " + std::to_string(t) + " (lane " + std::to_string(lane) + ") summed " +
                std::to_string(host_sums[t]) + ", expected " + std::to_string(want);
      }
    }
  } else {
    std::vector<unsigned char> host_dump(p.smem);
    check(cudaMemcpy(host_dump.data(), dump.get(), p.smem, cudaMemcpyDeviceToHost),
          "cudaMemcpy(shared-memory dump)");
    for (std::size_t b = 0; b < host_dump.size(); ++b) {
      const unsigned char want = p.expected_region[b % p.expected_region.size()];
      if (host_dump[b] != want && wrong++ == 0) {
        first = "byte " + std::to_string(b % p.expected_region.size()) + " of warp " +
                std::to_string(b / p.expected_region.size()) + "'s region is " +
                std::to_string(host_dump[b]) + ", expected " + std::to_string(want);
      }
    }
  }
  m.verified = wrong == 0;
  if (!m.verified) m.detail = std::to_string(wrong) + " wrong; first: " + first;
  return m;
}

}  // namespace
}  // namespace detail

// [SECTION] The public function

record::PatternReport run_pattern_benchmark(std::span<const WarpAccess> accesses,
                                            const PatternOptions& options,
                                            const ProgressFn& progress,
                                            const std::atomic<bool>* cancel) {
  using namespace detail;
  record::PatternReport report;
  report.device = query_device();
  if (!report.device.ok()) {
    report.status = record::RunStatus::unavailable;
    report.error = report.device.detail;
    return report;
  }
  if (options.repetitions < 1 || options.repetitions > 1000 || !(options.target_ms > 0) ||
      options.target_ms > 1000 || options.max_blocks < 0) {
    report.status = record::RunStatus::bad_input;
    report.error =
        "the repetitions must be 1-1000, the target time 0-1000 ms and the block "
        "limit 0 or more, not " +
        std::to_string(options.repetitions) + ", " + std::to_string(options.target_ms) +
        " ms and " + std::to_string(options.max_blocks);
    return report;
  }
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    if (const std::string e = first_error(check_access(accesses[i])); !e.empty()) {
      report.status = record::RunStatus::bad_input;
      report.error = "pattern " + std::to_string(i + 1) + ": " + e;
      return report;
    }
  }

  // Each pattern and its baseline; a baseline shared by several patterns runs once.
  std::vector<WarpAccess> runs;
  const auto index_of = [&](const WarpAccess& a) {
    const auto it = std::find(runs.begin(), runs.end(), a);
    if (it != runs.end()) return static_cast<std::size_t>(it - runs.begin());
    runs.push_back(a);
    return runs.size() - 1;
  };
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (pattern, baseline) in `runs`
  for (const WarpAccess& a : accesses) {
    const std::size_t base = index_of(record::conflict_free_baseline(a));
    pairs.emplace_back(index_of(a), base);
  }

  Progress step{0, static_cast<int>(runs.size()), ""};
  std::vector<PatternMeasurement> measured;
  report.status = run_guarded(
      [&] {
        check(cudaSetDevice(report.device.ordinal), "cudaSetDevice");
        int max_block_smem = 0;
        check(cudaDeviceGetAttribute(&max_block_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                     report.device.ordinal),
              "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
        for (const WarpAccess& a : runs) {
          if (cancelled(cancel)) return record::RunStatus::cancelled;
          step.what = to_string(a);
          if (progress) progress(step);
          Expected<Plan> plan = plan_access(a, max_block_smem);
          if (!plan) {
            report.error = plan.error();
            return record::RunStatus::bad_input;
          }
          measured.push_back(
              measure_access(*plan, a, report.device, analyze(a).wavefront_count(), options));
          ++step.step;
        }
        return record::RunStatus::ok;
      },
      &report.error);
  if (report.status != record::RunStatus::ok) return report;

  std::vector<double> clocks;
  for (const PatternMeasurement& m : measured) clocks.push_back(m.clock_mhz);
  report.sm_clock_mhz = median(clocks);
  for (const auto& [pattern, base] : pairs) {
    const PatternMeasurement& m = measured[pattern];
    const PatternMeasurement& b = measured[base];
    record::PatternResult r;
    r.access = runs[pattern];
    r.predicted_wavefronts = analyze(runs[pattern]).wavefront_count();
    r.baseline_wavefronts = analyze(runs[base]).wavefront_count();
    r.warps_per_sm = m.warps_per_sm;
    r.cycles_per_access = m.cycles_per_access;
    r.baseline_cycles_per_access = b.cycles_per_access;
    r.ns_per_access = m.cycles_per_access / (m.clock_mhz * 1e-3);
    r.wavefronts_per_clock = r.predicted_wavefronts / m.cycles_per_access;
    r.measured_ratio = m.cycles_per_access / b.cycles_per_access;
    r.predicted_ratio = double(r.predicted_wavefronts) / r.baseline_wavefronts;
    r.verified = m.verified && b.verified;
    r.detail = !m.verified ? m.detail : (!b.verified ? "the baseline: " + b.detail : "");
    // The hard guard: more than the pipe can serve is a counting error, never a result.
    const double baseline_rate = r.baseline_wavefronts / b.cycles_per_access;
    for (const auto& [what, rate] :
         {std::pair{"", r.wavefronts_per_clock}, std::pair{"the baseline: ", baseline_rate}}) {
      if (r.verified && !(rate <= record::kMaxWavefrontsPerClock)) {
        r.verified = false;
        r.detail = std::string(what) + format("%.3f", rate) +
                   " wavefronts per clock per SM is above what the shared-memory pipe serves (" +
                   format("%.2f", record::kMaxWavefrontsPerClock) +
                   "): the benchmark's instruction or clock accounting is wrong, not shown";
      }
    }
    report.results.push_back(r);
  }
  return report;
}

}  // namespace banklab::gpu
