// The transpose suite: one table of variants, and the runner that times and verifies them.
//
// Every variant moves the same bytes: the rows x cols matrix read once and written once. The
// roof is the copy kernel moving those bytes in the same run; each variant reports GB/s and
// its fraction of the copy's GB/s.
//
// Each run, per variant: poison the output (0xA5 bytes), warm up, time every repetition
// between two events, take the median, copy the output back and compare it with the CPU's
// reference bit for bit. A wrong result is reported as wrong with the first bad element.
//
// [SECTION] Test data
// [SECTION] Launchers
// [SECTION] Tiles
// [SECTION] Verification
// [SECTION] The table
// [SECTION] The runner
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/model/layout.hpp"
#include "core/model/presets.hpp"
#include "kernels/gpu_bench.hpp"
#include "kernels/runtime/cuda_support.hpp"
#include "kernels/runtime/run_guarded.hpp"
#include "kernels/transpose/cublas_geam.hpp"
#include "kernels/transpose/transpose_kernels.cuh"

namespace banklab::gpu {

namespace detail {
namespace {

// [SECTION] Test data
// Test data: element i of the input (row-major index) holds the low bytes of element_bits(i),
// a 64-bit mix of i (neighbours differ, and an element left at the poison almost never passes),
// with the element's second-highest bit cleared. In fp32, fp64, bf16 and both fp8 formats that
// bit is the top bit of the exponent, so no element is a NaN or an infinity, and cuBLAS's geam,
// which computes 1 * x + 0 * y rather than moving bits, must reproduce every bit too.
__host__ __device__ inline std::uint64_t element_bits(std::uint64_t i) {
  std::uint64_t z = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__host__ __device__ inline std::uint64_t element_mask(int elem_bytes) {
  return elem_bytes == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * elem_bytes)) - 1;
}
__host__ __device__ inline std::uint64_t element_value(std::uint64_t i, int elem_bytes) {
  return element_bits(i) & element_mask(elem_bytes) & ~(std::uint64_t{1} << (8 * elem_bytes - 2));
}

__global__ void fill_input(unsigned char* in, std::size_t bytes, int elem_bytes) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t b = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; b < bytes; b += stride) {
    const std::uint64_t value = element_value(b / elem_bytes, elem_bytes);
    in[b] = static_cast<unsigned char>(value >> (8 * (b % elem_bytes)));
  }
}

constexpr unsigned char kPoison = 0xA5;

// [SECTION] Launchers
// Launchers: one per row of the table.

struct Launch {
  const void* in;
  void* out;
  int rows;
  int cols;
  int pad;  // the user's pad, for the padded variant
  std::size_t bytes;
  int smem_per_sm;              // shared memory of one SM, bytes
  int smem_reserved_per_block;  // what the system takes of it for each resident block
};

dim3 teach_grid(const Launch& l) {
  return dim3(static_cast<unsigned>((l.cols + kTeachTile - 1) / kTeachTile),
              static_cast<unsigned>((l.rows + kTeachTile - 1) / kTeachTile));
}
const dim3 kTeachBlock(kTeachTile, kTeachBlockRows);

template <class T>
void launch_padded_by(const Launch& l, int pad) {
  const PaddedTile layout{kTeachTile + pad};
  const std::size_t smem = sizeof(T) * kTeachTile * static_cast<std::size_t>(layout.pitch);
  transpose_teach<T, PaddedTile, false><<<teach_grid(l), kTeachBlock, smem>>>(
      static_cast<const T*>(l.in), static_cast<T*>(l.out), l.rows, l.cols, layout);
}
template <class T>
void launch_naive(const Launch& l) {
  launch_padded_by<T>(l, 0);
}
template <class T>
void launch_padded(const Launch& l) {
  launch_padded_by<T>(l, l.pad);
}
template <class T>
void launch_aligned_pad(const Launch& l) {
  launch_padded_by<T>(l, 16 / int(sizeof(T)));
}
template <class T>
void launch_xor(const Launch& l) {
  const std::size_t smem = sizeof(T) * kTeachTile * kTeachTile;
  transpose_teach<T, XorTile, false><<<teach_grid(l), kTeachBlock, smem>>>(
      static_cast<const T*>(l.in), static_cast<T*>(l.out), l.rows, l.cols, XorTile{});
}
template <class T>
void launch_vec16(const Launch& l) {
  const PaddedTile layout{kTeachTile + 16 / int(sizeof(T))};
  const std::size_t smem = sizeof(T) * kTeachTile * static_cast<std::size_t>(layout.pitch);
  transpose_teach<T, PaddedTile, true><<<teach_grid(l), kTeachBlock, smem>>>(
      static_cast<const T*>(l.in), static_cast<T*>(l.out), l.rows, l.cols, layout);
}
// The fast row of a dtype: its tile, drain width, register bound, L2 prefetch and block cap
// (launch_transpose_fast), with the tile walk the shape calls for (make_tile_walk).
template <class T, int kRows, int kCols, int kReadBytes, int kMinBlocks, int kL2Prefetch,
          int kMaxBlocks>
void launch_fast(const Launch& l) {
  const TileWalk walk = make_tile_walk(l.rows, l.cols, kRows, kCols, int(sizeof(T)));
  const BlockCap cap{l.smem_per_sm, l.smem_reserved_per_block, kMaxBlocks};
  check(launch_transpose_fast<T, kRows, kCols, kReadBytes, kMinBlocks, kL2Prefetch>(
            static_cast<const T*>(l.in), static_cast<T*>(l.out), l.rows, l.cols, walk, cap),
        "cudaFuncSetAttribute(transpose_fast, max dynamic shared memory)");
}
void launch_copy(const Launch& l) {
  // One thread per whole 16-byte chunk, and one more for the bytes after the last.
  const std::size_t threads = l.bytes / 16 + (l.bytes % 16 != 0 ? 1 : 0);
  const auto blocks =
      static_cast<unsigned>(std::max<std::size_t>(1, (threads + kCopyThreads - 1) / kCopyThreads));
  copy16<<<blocks, kCopyThreads>>>(static_cast<const unsigned char*>(l.in),
                                   static_cast<unsigned char*>(l.out), l.bytes);
}
template <int kElemBytes>
void launch_cublas(const Launch& l) {
  cublas_transpose(l.in, l.out, l.rows, l.cols, kElemBytes);
}

// [SECTION] Tiles
// The shared tile each variant declares, for the report ("float tile[32][33]").

std::string tile_none(DType, int) {
  return "none";
}
std::string tile_library(DType, int) {
  return "cuBLAS's own";
}
std::string tile_with_pad(DType d, int pad) {
  TileLayout t;
  t.dtype = d;
  t.pad = pad;
  return to_string(t);
}
std::string tile_plain(DType d, int) {
  return tile_with_pad(d, 0);
}
std::string tile_padded(DType d, int pad) {
  return tile_with_pad(d, pad);
}
std::string tile_aligned(DType d, int) {
  return tile_with_pad(d, 16 / dtype_bytes(d));
}
std::string tile_xor(DType d, int) {
  TileLayout t;
  t.dtype = d;
  t.swizzle.kind = SwizzleKind::xor_columns;
  return to_string(t);
}
template <int kRows, int kCols>
std::string tile_fast(DType d, int) {
  std::ostringstream os;
  os << dtype_c_name(d) << " tile[" << kRows << "][" << kCols
     << "], 16-byte chunk q of row r at q ^ (r / " << 16 / dtype_bytes(d) << " mod 8)";
  return os.str();
}

// [SECTION] Verification
// Verification against the CPU: expected(o) for every output element o, compared bit for bit.

struct Mismatch {
  std::uint64_t count = 0;
  std::uint64_t first = UINT64_MAX;  // output element index
  std::uint64_t got = 0;
  std::uint64_t expected = 0;
};

// out element o of the copy is input element o; of the transpose (cols x rows) at (r', c') it
// is input element (c', r'), i.e. index c' * cols + r'.
struct Shape {
  int rows;
  int cols;
  int elem_bytes;
  bool transposed;
  std::uint64_t source(std::uint64_t o) const {
    if (!transposed) return o;
    const std::uint64_t out_row = o / std::uint64_t(rows);
    const std::uint64_t out_col = o % std::uint64_t(rows);
    return out_col * std::uint64_t(cols) + out_row;
  }
};

Mismatch compare_range(const unsigned char* out, const Shape& s, std::uint64_t begin,
                       std::uint64_t end) {
  Mismatch m;
  for (std::uint64_t o = begin; o < end; ++o) {
    std::uint64_t got = 0;
    std::memcpy(&got, out + o * std::uint64_t(s.elem_bytes), std::size_t(s.elem_bytes));
    const std::uint64_t want = element_value(s.source(o), s.elem_bytes);
    if (got != want && m.count++ == 0) {
      m.first = o;
      m.got = got;
      m.expected = want;
    }
  }
  return m;
}

// Splits the comparison over the host's cores: done when every element is right, otherwise how
// many are wrong and the first of them.
Expected<void> verify(const unsigned char* out, const Shape& s) {
  const std::uint64_t n = std::uint64_t(s.rows) * std::uint64_t(s.cols);
  const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  std::vector<Mismatch> parts(workers);
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back(
        [&, w] { parts[w] = compare_range(out, s, n * w / workers, n * (w + 1) / workers); });
  }
  for (std::thread& t : threads) t.join();
  Mismatch all;
  for (const Mismatch& p : parts) {
    if (p.count > 0 && all.count == 0)
      all = p;
    else
      all.count += p.count;
  }
  if (all.count == 0) return {};
  const int out_cols = s.transposed ? s.rows : s.cols;
  std::ostringstream os;
  os << all.count << " of " << n << " elements wrong; first out[" << all.first / out_cols << "]["
     << all.first % out_cols << "] = 0x" << std::hex << all.got << ", expected 0x" << all.expected
     << (all.got == (0xA5A5A5A5A5A5A5A5ull & element_mask(s.elem_bytes))
             ? " (never written: still the poison)"
             : "");
  return Error{os.str()};
}

// [SECTION] The table
// The table. Teaching rows differ only in the tile layout and name the preset whose column
// read (or row store) they perform; the fast row is the production kernel for the dtype.

struct Variant {
  VariantInfo info;
  void (*launch)(const Launch&);
  std::string (*tile)(DType, int pad);
  bool transposes;  // false for the copy roof: verified as a copy
};

constexpr record::VariantRole kRoof = record::VariantRole::roof;
constexpr record::VariantRole kTeach = record::VariantRole::teaching;
constexpr record::VariantRole kFast = record::VariantRole::fast;
constexpr record::VariantRole kLibrary = record::VariantRole::library;
using U8 = std::uint8_t;
using U16 = std::uint16_t;
using U32 = std::uint32_t;
using U64 = std::uint64_t;

const Variant kVariants[] = {
    // fp32
    {{"fp32-copy", DType::fp32, kRoof,
      "The HBM roof: the same bytes read and written once, 16 B per access.", "", false},
     launch_copy,
     tile_none,
     false},
    {{"fp32-naive", DType::fp32, kTeach,
      "tile[32][32]: the column read is a 32-way conflict, slower end to end.", "fp32-naive",
      false},
     launch_naive<U32>,
     tile_plain,
     true},
    {{"fp32-padded", DType::fp32, kTeach,
      "tile[32][32+P]: pad 1 makes the stride odd, one wavefront per column read.", "fp32-pad1",
      true},
     launch_padded<U32>,
     tile_padded,
     true},
    {{"fp32-aligned-pad", DType::fp32, kTeach,
      "tile[32][36]: the 16-byte-aligned pad leaves a 4-way conflict that HBM hides.", "fp32-pad4",
      false},
     launch_aligned_pad<U32>,
     tile_aligned,
     true},
    {{"fp32-xor", DType::fp32, kTeach,
      "tile[32][32] with column c ^ r: conflict-free without wasting a byte.", "fp32-xor", false},
     launch_xor<U32>,
     tile_xor,
     true},
    {{"fp32-vec16", DType::fp32, kTeach,
      "float4 stores need 16-byte rows: tile[32][36], whose scalar column read stays 4-way.",
      "fp32-pad4-vec16-store", false},
     launch_vec16<U32>,
     tile_aligned,
     true},
    // At most four blocks per SM (64 KB of tiles in flight): measured ahead of the five that
    // registers allow and of three (`banklab_transpose_tuning caps`; the figures are in
    // docs/gpu-results.md, "Resident blocks per SM").
    {{"fp32-fast", DType::fp32, kFast,
      "16-byte loads, stores and shared accesses on a chunk-swizzled 64x64 tile.", "", false},
     launch_fast<U32, 64, 64, 16, 1, 0, 4>,
     tile_fast<64, 64>,
     true},
    {{"fp32-cublas", DType::fp32, kLibrary,
      "cublasSgeam(A^T): the library call a user would make instead, same bytes, same run.", "",
      false},
     launch_cublas<4>,
     tile_library,
     true},
    // bf16
    {{"bf16-copy", DType::bf16, kRoof,
      "The HBM roof: the same bytes read and written once, 16 B per access.", "", false},
     launch_copy,
     tile_none,
     false},
    {{"bf16-naive", DType::bf16, kTeach,
      "bf16 tile[32][32]: two elements a word, a 16-way conflict on the column read.", "bf16-naive",
      false},
     launch_naive<U16>,
     tile_plain,
     true},
    {{"bf16-padded", DType::bf16, kTeach,
      "bf16 tile[32][32+P]: pad 2 keeps rows 4-byte aligned and reads conflict-free.", "bf16-pad2",
      true},
     launch_padded<U16>,
     tile_padded,
     true},
    {{"bf16-aligned-pad", DType::bf16, kTeach,
      "bf16 tile[32][40]: the 16-byte-aligned pad, a 4-way column read.", "", false},
     launch_aligned_pad<U16>,
     tile_aligned,
     true},
    {{"bf16-xor", DType::bf16, kTeach,
      "bf16 tile[32][32] with column c ^ r: 32 banks per column read.", "", false},
     launch_xor<U16>,
     tile_xor,
     true},
    {{"bf16-vec16", DType::bf16, kTeach,
      "16-byte stores into bf16 tile[32][40]: aligned, and the column read stays 4-way.", "",
      false},
     launch_vec16<U16>,
     tile_aligned,
     true},
    {{"bf16-fast", DType::bf16, kFast,
      "8x8 bf16 blocks transposed in registers between 16-byte accesses.", "", false},
     launch_fast<U16, 128, 128, 16, 1, 0, 0>,
     tile_fast<128, 128>,
     true},
    // fp64
    {{"fp64-copy", DType::fp64, kRoof,
      "The HBM roof: the same bytes read and written once, 16 B per access.", "", false},
     launch_copy,
     tile_none,
     false},
    {{"fp64-naive", DType::fp64, kTeach,
      "double tile[32][32]: 16 lanes per half-warp on one bank pair, 32 wavefronts.", "fp64-naive",
      false},
     launch_naive<U64>,
     tile_plain,
     true},
    {{"fp64-padded", DType::fp64, kTeach,
      "double tile[32][32+P]: pad 1 gives 2 wavefronts, the floor for 256 B.", "fp64-pad1", true},
     launch_padded<U64>,
     tile_padded,
     true},
    {{"fp64-aligned-pad", DType::fp64, kTeach,
      "double tile[32][34]: the 16-byte-aligned pad, 4 wavefronts per column read.", "", false},
     launch_aligned_pad<U64>,
     tile_aligned,
     true},
    {{"fp64-xor", DType::fp64, kTeach,
      "double tile[32][32] with column c ^ r: the 2-wavefront floor, no pad.", "", false},
     launch_xor<U64>,
     tile_xor,
     true},
    {{"fp64-vec16", DType::fp64, kTeach,
      "16-byte stores into double tile[32][34]: the aligned pad's column read.", "", false},
     launch_vec16<U64>,
     tile_aligned,
     true},
    // Six blocks per SM (38 registers), 48 KB of tiles in flight, is the measured optimum at
    // 16384 x 16384, whose 128 KiB pitch takes the paired tile walk (make_tile_walk): fewer
    // lose, seven gains nothing (`banklab_transpose_tuning caps`; docs/gpu-results.md,
    // "Resident blocks per SM").
    {{"fp64-fast", DType::fp64, kFast,
      "2x2 double blocks between 16-byte accesses on a chunk-swizzled 32x32 tile.", "", false},
     launch_fast<U64, 32, 32, 16, 6, 0, 0>,
     tile_fast<32, 32>,
     true},
    {{"fp64-cublas", DType::fp64, kLibrary,
      "cublasDgeam(A^T): the library call a user would make instead, same bytes, same run.", "",
      false},
     launch_cublas<8>,
     tile_library,
     true},
    // fp8
    {{"fp8-copy", DType::fp8, kRoof,
      "The HBM roof: the same bytes read and written once, 16 B per access.", "", false},
     launch_copy,
     tile_none,
     false},
    {{"fp8-naive", DType::fp8, kTeach,
      "fp8 tile[32][32]: 32-byte rows, 8 rows per bank, 8 wavefronts per column read.", "fp8-naive",
      false},
     launch_naive<U8>,
     tile_plain,
     true},
    {{"fp8-padded", DType::fp8, kTeach,
      "fp8 tile[32][32+P]: pad 4 gives 9-word rows, one wavefront.", "", true},
     launch_padded<U8>,
     tile_padded,
     true},
    {{"fp8-aligned-pad", DType::fp8, kTeach,
      "fp8 tile[32][48]: the 16-byte-aligned pad, a 4-way column read.", "", false},
     launch_aligned_pad<U8>,
     tile_aligned,
     true},
    {{"fp8-xor", DType::fp8, kTeach,
      "fp8 tile[32][32] with column c ^ r: 32 banks per column read.", "", false},
     launch_xor<U8>,
     tile_xor,
     true},
    {{"fp8-vec16", DType::fp8, kTeach,
      "16-byte stores into fp8 tile[32][48]: aligned, the column read 4-way.", "", false},
     launch_vec16<U8>,
     tile_aligned,
     true},
    // At most four blocks per SM (64 KB of tiles in flight, like fp32): paired against the
    // copy, ahead of the eight that threads allow in every measurement so far, while three
    // fall far behind (docs/gpu-results.md, "Resident blocks per SM").
    {{"fp8-fast", DType::fp8, kFast,
      "16x4 byte blocks transposed with byte permutes between wide accesses.", "", false},
     launch_fast<U8, 128, 128, 4, 1, 256, 4>,
     tile_fast<128, 128>,
     true},
};

// [SECTION] The runner

class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes) {
    check(cudaMallocHost(&ptr_, bytes == 0 ? 1 : bytes),
          "cudaMallocHost(verification buffer, " + std::to_string(bytes) + " bytes)");
  }
  ~PinnedBuffer() { cudaFreeHost(ptr_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  unsigned char* get() const { return static_cast<unsigned char*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

Expected<std::vector<const Variant*>> select(const record::TransposeOptions& o) {
  std::vector<const Variant*> chosen;
  std::string known;
  for (const Variant& v : kVariants) {
    if (v.info.dtype != o.dtype) continue;
    known += (known.empty() ? "" : ", ") + std::string(v.info.name);
    const bool wanted =
        v.info.role == record::VariantRole::roof || o.variants.empty() ||
        std::find(o.variants.begin(), o.variants.end(), v.info.name) != o.variants.end();
    if (wanted) chosen.push_back(&v);
  }
  for (const std::string& name : o.variants) {
    const bool found = std::any_of(chosen.begin(), chosen.end(),
                                   [&](const Variant* v) { return v->info.name == name; });
    if (!found) {
      return Error{"'" + name + "' is not a " + std::string(dtype_name(o.dtype)) +
                   " variant; the variants are " + known};
    }
  }
  return chosen;
}

// The library rows need their library; after cudaSetDevice, since loading it makes a handle on
// the current device. Rows the user named are refused (the error says why); rows that came
// with the default selection are dropped with a note.
Expected<void> drop_unloadable_library_rows(const record::TransposeOptions& o,
                                            std::vector<const Variant*>* chosen,
                                            std::vector<std::string>* notes) {
  const auto is_library = [](const Variant* v) {
    return v->info.role == record::VariantRole::library;
  };
  if (std::none_of(chosen->begin(), chosen->end(), is_library)) return {};
  const std::string& why = cublas_unavailable_reason();
  if (why.empty()) return {};
  for (const Variant* v : *chosen) {
    if (!is_library(v)) continue;
    if (std::find(o.variants.begin(), o.variants.end(), v->info.name) != o.variants.end()) {
      return Error{"'" + std::string(v->info.name) + "' cannot run here: " + why};
    }
    notes->push_back(std::string(v->info.name) + " left out: " + why);
  }
  std::erase_if(*chosen, is_library);
  return {};
}

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

record::VariantResult run_variant(const Variant& v, const Launch& launch,
                                  const record::TransposeOptions& o, unsigned char* host_out) {
  record::VariantResult r;
  r.name = v.info.name;
  r.lesson = v.info.lesson;
  r.preset = v.info.preset;
  r.uses_pad = v.info.uses_pad;
  r.role = v.info.role;
  r.tile = v.tile(o.dtype, o.pad);
  r.bytes_moved = 2 * static_cast<std::int64_t>(launch.bytes);
  const std::string kernel = std::string(v.info.name) + " kernel";

  check(cudaMemset(launch.out, kPoison, launch.bytes), "cudaMemset(poison the output)");
  // The GPU idles while the CPU checks the previous variant, and its clocks drop; a few
  // launches of a 0.1 ms kernel do not bring them back. So the warm-up lasts at least
  // kWarmupMs of kernel time, and at least o.warmup launches (none when o.warmup is 0).
  constexpr double kWarmupMs = 20;
  const std::vector<double> ms =
      time_launches([&] { v.launch(launch); }, o.warmup, o.repetitions, kernel, kWarmupMs);
  r.ms = median(ms);
  r.ms_min = *std::min_element(ms.begin(), ms.end());
  r.ms_max = *std::max_element(ms.begin(), ms.end());
  r.gbps = static_cast<double>(r.bytes_moved) / (r.ms * 1e6);

  check(cudaMemcpy(host_out, launch.out, launch.bytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy(the output of " + kernel + " to the host)");
  const Shape shape{o.rows, o.cols, dtype_bytes(o.dtype), v.transposes};
  const Expected<void> right = verify(host_out, shape);
  r.verified = right.has_value();
  if (!right) r.detail = right.error();
  return r;
}

}  // namespace
}  // namespace detail

std::vector<VariantInfo> transpose_variants(DType dtype) {
  std::vector<VariantInfo> out;
  for (const detail::Variant& v : detail::kVariants) {
    if (v.info.dtype == dtype) out.push_back(v.info);
  }
  return out;
}

record::SuiteReport run_transpose_suite(const record::TransposeOptions& options,
                                        const ProgressFn& progress,
                                        const std::atomic<bool>* cancel) {
  using namespace detail;
  record::SuiteReport report;
  report.options = options;
  if (report.options.pad == -1) report.options.pad = default_pad(options.dtype);
  const record::TransposeOptions& o = report.options;
  report.device = query_device();
  if (!report.device.ok()) {
    report.status = record::RunStatus::unavailable;
    report.error = report.device.detail;
    return report;
  }
  if (const Expected<void> valid = check_options(o); !valid) {
    report.status = record::RunStatus::bad_input;
    report.error = valid.error();
    return report;
  }
  Expected<std::vector<const Variant*>> selected = select(o);
  if (!selected) {
    report.status = record::RunStatus::bad_input;
    report.error = selected.error();
    return report;
  }
  std::vector<const Variant*> chosen = std::move(*selected);

  Progress step{0, 0, "preparing the input"};
  const auto tell = [&](std::string what) {
    step.what = std::move(what);
    if (progress) progress(step);
  };
  report.status = run_guarded(
      [&] {
        check(cudaSetDevice(report.device.ordinal), "cudaSetDevice");
        if (const Expected<void> runnable = drop_unloadable_library_rows(o, &chosen, &report.notes);
            !runnable) {
          report.error = runnable.error();
          return record::RunStatus::bad_input;
        }
        step.steps = static_cast<int>(chosen.size()) + 1;
        const std::size_t elements = std::size_t(o.rows) * std::size_t(o.cols);
        const std::size_t bytes = elements * static_cast<std::size_t>(dtype_bytes(o.dtype));
        // Both matrices are sized for the widest dtype (fp64) whatever this one is, when the two
        // take at most half the free memory: then `--dtype all` gives every dtype the memory the
        // first one got. fp64, which runs last, ran about 2 points slower when allocated after the
        // smaller fp8, bf16 and fp32 pairs had been freed; the copy did not notice either way
        // (docs/gpu-results.md, "Suite buffers").
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        const std::size_t widest = elements * static_cast<std::size_t>(dtype_bytes(DType::fp64));
        const std::size_t allocated = 4 * widest <= free_bytes ? widest : bytes;
        DeviceBuffer in(allocated, "input matrix");
        DeviceBuffer out(allocated, "output matrix");
        PinnedBuffer host_out(bytes);
        int reserved = 0;
        check(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock,
                                     report.device.ordinal),
              "cudaDeviceGetAttribute(reserved shared memory per block)");
        tell("preparing the input");
        fill_input<<<report.device.sm_count * 8, 256>>>(static_cast<unsigned char*>(in.get()),
                                                        bytes, dtype_bytes(o.dtype));
        check_launch("fill_input");
        const Launch launch{
            in.get(), out.get(), o.rows, o.cols, o.pad, bytes, report.device.shared_memory_per_sm,
            reserved};
        for (const Variant* v : chosen) {
          if (cancelled(cancel)) return record::RunStatus::cancelled;
          tell(std::string(v->info.name));
          report.results.push_back(run_variant(*v, launch, o, host_out.get()));
          ++step.step;
          // Read the clock right after the copy roof, while the GPU is busy and boosted.
          if (v->info.role == record::VariantRole::roof) {
            tell("reading the SM clock");
            report.sm_clock_mhz = measure_sm_clock_mhz(report.device.sm_count);
            ++step.step;
          }
        }
        return record::RunStatus::ok;
      },
      &report.error);
  if (report.status != record::RunStatus::ok) return report;
  const double copy_gbps = report.results.front().gbps;
  for (record::VariantResult& r : report.results) r.fraction_of_copy = r.gbps / copy_gbps;
  tell("done");
  return report;
}

}  // namespace banklab::gpu
