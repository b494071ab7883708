// The Descriptor Lab's hardware check (wgmma_probe.hpp): TMA (or, for A, the threads' stores)
// fills shared memory, wgmma reads it through the caller's descriptors. Written from the PTX ISA:
// "Tensor Copy" (cp.async.bulk.tensor completing on an mbarrier), "Asynchronous Warpgroup Level
// Matrix Multiply-Accumulate" (wgmma.fence / mma_async / commit_group / wait_group, the descriptor,
// the m64nNk16 accumulator fragment) and the driver's cuTensorMapEncodeTiled.
#include <string>

#include "kernels/descriptor/wgmma_probe.hpp"
#include "kernels/runtime/cuda_support.hpp"
#include "kernels/runtime/tma_support.cuh"

namespace banklab::gpu {
namespace detail {
namespace {

constexpr int kProbeThreads = 128;  // one warpgroup
constexpr int kAccumulators = 32;   // m64n64 fp32: 64 * 64 / 128 per thread

struct ProbeParams {
  std::uint64_t desc_a[kProbeSteps];
  std::uint64_t desc_b[kProbeSteps];
  ProbeFill fill_a;
  ProbeFill fill_b;
  std::uint32_t smem_bytes;
  const std::uint32_t* a_addresses;  // null: TMA loads A
  const std::uint16_t* a_global;     // A's elements, for the stores
};

__device__ inline void issue_fill(const CUtensorMap& map, const ProbeFill& f, unsigned char* base,
                                  std::uint64_t* bar) {
  for (int j = 0; j < f.boxes; ++j) {
    load_box(map, base + f.dest + std::uint32_t(j) * f.box_bytes, bar, j * f.box_cols, 0);
  }
}

__host__ __device__ inline std::uint32_t fill_bytes(const ProbeFill& f) {
  return std::uint32_t(f.boxes * f.box_rows * f.box_cols * 2);
}

// D += A * B for one k-step: wgmma.mma_async.m64n64k16, fp32 accumulators, bf16 operands both
// read from shared memory through their descriptors, neither transposed (K-major), scale-d 1.
__device__ inline void wgmma_step(float (&d)[kAccumulators], std::uint64_t desc_a,
                                  std::uint64_t desc_b) {
  asm volatile(
      "{ .reg .pred accumulate; setp.ne.b32 accumulate, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, accumulate, 1, 1, 0, 0; }"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(1)
      : "memory");
}

__global__ void __launch_bounds__(kProbeThreads, 1)
    wgmma_probe(const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b, ProbeParams p, float* out) {
  extern __shared__ unsigned char dynamic_smem[];
  __shared__ std::uint64_t loaded;
  unsigned char* base = align_1024(dynamic_smem);
  const int t = threadIdx.x;

  // Every byte a descriptor may read holds 0 unless TMA or the stores write it, so a misread is
  // predictable.
  for (std::uint32_t i = 16 * t; i < p.smem_bytes; i += 16 * kProbeThreads) {
    *reinterpret_cast<uint4*>(base + i) = make_uint4(0, 0, 0, 0);
  }
  const bool a_stored = p.a_addresses != nullptr;
  if (a_stored) {
    __syncthreads();  // zeroed before any thread stores into the same bytes
    for (int i = t; i < kProbeRows * kProbeK; i += kProbeThreads) {
      *reinterpret_cast<std::uint16_t*>(base + p.a_addresses[i]) = p.a_global[i];
    }
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // generic writes -> async reads
  if (t == 0) barrier_init(&loaded);
  __syncthreads();
  if (t == 0) {
    barrier_expect_bytes(&loaded, (a_stored ? 0 : fill_bytes(p.fill_a)) + fill_bytes(p.fill_b));
    if (!a_stored) issue_fill(map_a, p.fill_a, base, &loaded);
    issue_fill(map_b, p.fill_b, base, &loaded);
  }
  barrier_wait(&loaded, 0);

  // The descriptors' start addresses are relative to base: add its encoded address (bits 4-17
  // of the byte address into bits 0-13; base + start stays below 256 KiB, so nothing carries).
  const std::uint64_t base_field = shared_address(base) >> 4;
  float d[kAccumulators] = {};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (int s = 0; s < kProbeSteps; ++s)
    wgmma_step(d, p.desc_a[s] + base_field, p.desc_b[s] + base_field);
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  // The accumulators are ready only after the wait: keep their reads below it.
#pragma unroll
  for (int i = 0; i < kAccumulators; ++i) asm volatile("" : "+f"(d[i])::"memory");

  // The m64nNk16 fp32 fragment: warp w holds rows 16w..16w+15; register i of lane l is row
  // 16w + l/4 + 8 * (i/2 % 2), column 8 * (i/4) + 2 * (l % 4) + i % 2.
  const int warp = t / 32;
  const int lane = t % 32;
#pragma unroll
  for (int i = 0; i < kAccumulators; ++i) {
    const int row = 16 * warp + lane / 4 + 8 * (i / 2 % 2);
    const int col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
    out[row * kProbeRows + col] = d[i];
  }
}

CUtensorMapSwizzle tma_swizzle(int bytes) {
  switch (bytes) {
    case 32:
      return CU_TENSOR_MAP_SWIZZLE_32B;
    case 64:
      return CU_TENSOR_MAP_SWIZZLE_64B;
    case 128:
      return CU_TENSOR_MAP_SWIZZLE_128B;
    default:
      return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

// The operand in global memory, 64 rows of 64 bf16, read a box of the fill at a time.
CUtensorMap operand_map(void* global, const ProbeFill& f) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {kProbeK, kProbeRows};
  const cuuint64_t strides[1] = {kProbeK * 2};
  const cuuint32_t box[2] = {cuuint32_t(f.box_cols), cuuint32_t(f.box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, global, dims, strides, box, element_strides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, tma_swizzle(f.swizzle_bytes), CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw CudaFailure("cuTensorMapEncodeTiled (box " + std::to_string(f.box_rows) + "x" +
                      std::to_string(f.box_cols) + ", swizzle " + std::to_string(f.swizzle_bytes) +
                      " B): error " + std::to_string(int(r)));
  }
  return map;
}

// What the kernel needs of a case; the sentence when it is not met.
std::string case_problem(const ProbeCase& c) {
  const std::size_t elements = std::size_t{kProbeRows} * kProbeK;
  if (c.a.size() != elements || c.b.size() != elements) return "A and B must be 64 x 64 bf16";
  if (c.smem_bytes % 16 != 0 || c.smem_bytes > 200 * 1024) {
    return "smem_bytes must be a multiple of 16 up to 200 KiB";
  }
  if (!c.a_addresses.empty()) {
    if (c.a_addresses.size() != elements) return "a_addresses must hold one address per element";
    for (const std::uint32_t at : c.a_addresses) {
      if (at % 2 != 0 || at + 2 > c.smem_bytes) return "an A address lies outside smem_bytes";
    }
  }
  for (const ProbeFill* f : {&c.fill_a, &c.fill_b}) {
    if (f->box_rows != kProbeRows || f->boxes < 1 || f->box_cols * f->boxes != kProbeK) {
      return "each fill must cover 64 rows x 64 columns";
    }
    const std::uint64_t end = f->dest + std::uint64_t(f->boxes) * f->box_bytes;
    if (f->dest % 16 != 0 || end > c.smem_bytes) return "a fill lies outside smem_bytes";
  }
  return {};
}

std::vector<float> run_case(const ProbeCase& c) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  if (prop.major != 9 || prop.minor != 0) {
    throw CudaFailure(std::string("wgmma (sm_90a) needs a Hopper GPU; this is ") + prop.name);
  }
  const std::size_t operand_bytes = c.a.size() * 2;
  const std::size_t out_bytes = std::size_t{kProbeRows} * kProbeRows * sizeof(float);
  DeviceBuffer a(operand_bytes, "A"), b(operand_bytes, "B"), out(out_bytes, "D");
  const std::size_t address_bytes = c.a_addresses.size() * sizeof(std::uint32_t);
  DeviceBuffer addresses(address_bytes, "A's addresses");
  if (address_bytes > 0) {
    check(cudaMemcpy(addresses.get(), c.a_addresses.data(), address_bytes, cudaMemcpyHostToDevice),
          "cudaMemcpy(A's addresses)");
  }
  check(cudaMemcpy(a.get(), c.a.data(), operand_bytes, cudaMemcpyHostToDevice), "cudaMemcpy(A)");
  check(cudaMemcpy(b.get(), c.b.data(), operand_bytes, cudaMemcpyHostToDevice), "cudaMemcpy(B)");
  check(cudaMemset(out.get(), 0xFF, out_bytes), "cudaMemset(D)");  // NaN where nothing lands

  ProbeParams p{};
  for (int s = 0; s < kProbeSteps; ++s) {
    p.desc_a[s] = c.desc_a[s];
    p.desc_b[s] = c.desc_b[s];
  }
  p.fill_a = c.fill_a;
  p.fill_b = c.fill_b;
  p.smem_bytes = c.smem_bytes;
  p.a_addresses =
      c.a_addresses.empty() ? nullptr : static_cast<const std::uint32_t*>(addresses.get());
  p.a_global = static_cast<const std::uint16_t*>(a.get());
  const int dynamic_bytes = int(c.smem_bytes) + 1024;  // room to align the base to 1024
  check(
      cudaFuncSetAttribute(wgmma_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic_bytes),
      "cudaFuncSetAttribute(wgmma_probe)");
  wgmma_probe<<<1, kProbeThreads, dynamic_bytes>>>(operand_map(a.get(), c.fill_a),
                                                   operand_map(b.get(), c.fill_b), p,
                                                   static_cast<float*>(out.get()));
  check_launch("wgmma_probe");
  check(cudaDeviceSynchronize(), "wgmma_probe");
  std::vector<float> d(std::size_t{kProbeRows} * kProbeRows);
  check(cudaMemcpy(d.data(), out.get(), out_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(D)");
  return d;
}

}  // namespace
}  // namespace detail

Expected<std::vector<float>> run_wgmma_probe(const ProbeCase& c) {
  if (const std::string problem = detail::case_problem(c); !problem.empty()) {
    return Error{"wgmma probe: " + problem};
  }
  try {
    return detail::run_case(c);
  } catch (const detail::CudaFailure& failure) {
    return Error{failure.what()};
  }
}

}  // namespace banklab::gpu
