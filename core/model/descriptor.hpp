#pragma once
// Matrix descriptors: the 64-bit words through which Hopper's wgmma.mma_async and Blackwell's
// tcgen05.mma read an operand from shared memory, and the element -> byte map each one means.
//
// Both words store three byte quantities as matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4
// (PTX ISA, "Matrix Descriptor Format" and "Shared Memory Descriptor"):
//
//   bits   sm90 (wgmma)                      sm100 (tcgen05)
//   0-13   start address                     start address
//   16-29  leading dimension byte offset     leading dimension byte offset (or address, bit 52)
//   32-45  stride dimension byte offset      stride dimension byte offset
//   46-48  unused                            fixed 0b001 (CUTLASS: a 2-bit "version" = 1)
//   49-51  base offset                       base offset
//   52     unused                            LBO mode: 0 relative offset, 1 absolute address
//   61-63  62-63: 0 none, 1 128B, 2 64B,     0 none, 1 128B with 32-byte atoms, 2 128B, 4 64B,
//          3 32B                             6 32B (3, 5, 7 invalid)
//
// What the descriptor means is a "canonical layout" (CuTe notation, T = 16 bytes / element
// size, W = the swizzle's width in 16-byte chunks: 1 none, 2, 4, 8), strides in elements, the
// swizzle on the absolute byte address (CuTe's smem_ptr_flag):
//
//   K-major,  none:      Swizzle<0,4,3> o ((8,m),(T,2)):((T,SBO),(1,LBO))
//   K-major,  swizzled:  Swizzle<b,4,3> o ((8,m),(T,2)):((W*T,SBO),(1,T))       LBO unused
//   MN-major, none:      Swizzle<0,4,3> o ((T,1,m),(8,k)):((1,T,SBO),(T,LBO))
//   MN-major, swizzled:  Swizzle<b,4,3> o ((T,W,m),(8,k)):((1,T,LBO),(W*T,SBO))
//   MN-major, 128B with 32-byte atoms (sm100 only): Swizzle<2,5,2> o
//   ((T,8,m),(4,k)):((1,T,LBO),(8*T,SBO))
//
// One instruction reads 32 bytes along K (K = 16 bf16, 8 tf32, 32 fp8): two core matrices of
// 8 rows x 16 bytes. docs/descriptor-lab.md says where the sources disagree and which one this
// file follows.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/dtype.hpp"
#include "core/model/swizzle.hpp"

namespace banklab {

enum class MmaArch : std::uint8_t { sm90, sm100 };
enum class OperandMajor : std::uint8_t { k, mn };
enum class DescSwizzle : std::uint8_t { none, b32, b64, b128, b128_atom32 };

// Bytes of K one wgmma / tcgen05.mma instruction reads (dense): two 16-byte core matrices.
inline constexpr int kMmaStepBytes = 32;
// The descriptor keeps bits 4-17 of each byte quantity: values up to 2^18 - 16.
inline constexpr std::int64_t kDescriptorByteLimit = std::int64_t{1} << 18;

struct DescSwizzleInfo {
  DescSwizzle mode;
  std::string_view name;      // the CLI spelling: none, 32b, 64b, 128b, 128b-atom32
  std::string_view ptx_name;  // as the PTX ISA names the mode
  Swizzle byte_swizzle;       // on the absolute shared-memory byte address
  int width_bytes;            // one swizzled row: 16 (none), 32, 64, 128, 128
  int atom_rows;              // rows of one swizzle atom: 8, or 4 for the 32-byte atoms
  int boundary_bytes;         // the pattern start that base offset 0 assumes (0: none)
  int sm90_code;              // the field's value on sm90; -1 when wgmma has no such mode
  int sm100_code;
};

std::span<const DescSwizzleInfo> desc_swizzles();
const DescSwizzleInfo& desc_swizzle(DescSwizzle mode);
Expected<DescSwizzle> parse_desc_swizzle(std::string_view text);
Expected<MmaArch> parse_mma_arch(std::string_view text);
Expected<OperandMajor> parse_operand_major(std::string_view text);
std::string_view to_string(MmaArch arch);
std::string_view to_string(OperandMajor major);

// The fields as bytes (start, LBO, SBO), before the encoding drops their low four bits.
struct MatrixDescriptor {
  MmaArch arch = MmaArch::sm90;
  DescSwizzle swizzle = DescSwizzle::none;
  std::int64_t start = 0;
  std::int64_t lbo = 0;
  std::int64_t sbo = 0;
  int base_offset = 0;        // 0..7
  bool lbo_absolute = false;  // sm100 bit 52

  friend bool operator==(const MatrixDescriptor&, const MatrixDescriptor&) = default;
};

// The 64-bit word, each byte quantity stored as (x & 0x3FFFF) >> 4 and the base offset as its
// low three bits, as the hardware would read them; sm100's fixed bits 46-48 set to 0b001.
// Precondition: the swizzle mode exists on the arch (check_descriptor reports it otherwise).
std::uint64_t encode(const MatrixDescriptor& d);

// A word read back: the fields, and what in its bits no valid descriptor holds (reserved bits
// set, sm100's fixed bits wrong, an invalid swizzle code). An invalid swizzle code decodes as
// none with that said in `bit_problems`.
struct DecodedDescriptor {
  MatrixDescriptor fields;
  std::vector<std::string> bit_problems;
};
DecodedDescriptor decode(std::uint64_t word, MmaArch arch);
// sm100 when bits 46-48 hold the fixed 0b001, sm90 otherwise: a guess the CLI states.
MmaArch infer_arch(std::uint64_t word);
// "0x4000004000010040": the word as `desc decode` takes it.
std::string hex_word(std::uint64_t word);
Expected<std::uint64_t> parse_hex_word(std::string_view text);

// One rule a descriptor breaks, or a value it ignores: what and the fix. `undefined` marks the
// ones after which the ISA does not say what the instruction reads (no element map is given).
enum class FindingLevel : std::uint8_t { error, warning, note };
struct DescFinding {
  FindingLevel level = FindingLevel::error;
  std::string rule;
  std::string fix;
  bool undefined = false;
};
std::string_view to_string(FindingLevel level);

// What the operand is: how it is laid out and its element size in bytes (1, 2 or 4).
struct OperandShape {
  OperandMajor major = OperandMajor::k;
  DType dtype = DType::bf16;
  int elem_bytes() const { return dtype_bytes(dtype); }
  // Elements of K one instruction reads: 32 bytes' worth.
  int k_step_elements() const { return kMmaStepBytes / elem_bytes(); }
};

// Every rule the descriptor breaks for this operand, errors first, each with its fix.
std::vector<DescFinding> check_descriptor(const MatrixDescriptor& d, const OperandShape& op);
// Whether any finding leaves the read undefined.
bool read_is_defined(std::span<const DescFinding> findings);

// The layout in CuTe notation: the symbolic form ("Swizzle<3,4,3> o
// ((8,m),(T,2)):((8T,SBO),(1,T))") and the same with this descriptor's numbers, strides in
// elements.
struct CuteNotation {
  std::string symbolic;
  std::string numeric;
};
CuteNotation cute_notation(const MatrixDescriptor& d, const OperandShape& op);

// The shared-memory byte address holding element (mn, k) of the K slice one instruction reads
// (0 <= k < k_step_elements()): the start plus the canonical layout's offset, then the swizzle
// on that absolute address, its row less the base offset. Meaningful when read_is_defined().
std::int64_t descriptor_byte(const MatrixDescriptor& d, const OperandShape& op, int mn, int k);

// The 16-byte core matrix holding element (mn, k): its first MN index and first K index (8 rows
// x 16 bytes; for K-major the rows run along MN, for MN-major along K).
struct CoreMatrix {
  int mn_first = 0;
  int mn_count = 0;
  int k_first = 0;
  int k_count = 0;
};
CoreMatrix core_matrix_of(const OperandShape& op, int mn, int k);

}  // namespace banklab
