// Matrix descriptors (descriptor.hpp): the modes, the word's bits, the rules, the CuTe notation
// and the element -> byte map.
//
// [SECTION] The swizzle modes and the spellings
// [SECTION] Encoding and decoding the word
// [SECTION] The rules
// [SECTION] The layout: CuTe notation and the element -> byte map
#include "core/model/descriptor.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <iterator>

#include "core/base/format.hpp"

namespace banklab {

// [SECTION] The swizzle modes and the spellings

namespace {

// The fields' codes: sm90 from CUTLASS's GMMA::LayoutType and the PTX ISA's wgmma table, sm100
// from UMMA::LayoutType and the tcgen05 table; the 32-byte-atom mode has no sm90 code.
constexpr DescSwizzleInfo kDescSwizzles[] = {
    {DescSwizzle::none, "none", "no swizzle", {0, 4, 3}, 16, 8, 0, 0, 0},
    {DescSwizzle::b32, "32b", "32-Byte swizzle", {1, 4, 3}, 32, 8, 256, 3, 6},
    {DescSwizzle::b64, "64b", "64-Byte swizzle", {2, 4, 3}, 64, 8, 512, 2, 4},
    {DescSwizzle::b128, "128b", "128-Byte swizzle", {3, 4, 3}, 128, 8, 1024, 1, 2},
    // Swizzle<2,5,2>: 32-byte chunks of a 128-byte row, the pattern every 4 rows (512 bytes);
    // the ISA's boundary table lists only "128-Byte swizzle" (1024 bytes), which this follows.
    {DescSwizzle::b128_atom32,
     "128b-atom32",
     "128-Byte with 32B atomic swizzling",
     {2, 5, 2},
     128,
     4,
     1024,
     -1,
     1},
};

constexpr std::uint64_t field_mask(int first_bit, int bits) {
  return ((std::uint64_t{1} << bits) - 1) << first_bit;
}

std::uint64_t encode_bytes(std::int64_t x) {
  return static_cast<std::uint64_t>(x & 0x3FFFF) >> 4;
}

}  // namespace

std::span<const DescSwizzleInfo> desc_swizzles() {
  return kDescSwizzles;
}

const DescSwizzleInfo& desc_swizzle(DescSwizzle mode) {
  return kDescSwizzles[static_cast<std::size_t>(mode)];
}

Expected<DescSwizzle> parse_desc_swizzle(std::string_view text) {
  std::string names;
  for (const DescSwizzleInfo& s : kDescSwizzles) {
    if (text == s.name) return s.mode;
    names += names.empty() ? "" : ", ";
    names += s.name;
  }
  return Error{"unknown descriptor swizzle " + quote(text) + ": expected " + names};
}

Expected<MmaArch> parse_mma_arch(std::string_view text) {
  if (text == "sm90" || text == "sm_90a" || text == "hopper") return MmaArch::sm90;
  if (text == "sm100" || text == "sm_100a" || text == "blackwell") return MmaArch::sm100;
  return Error{"unknown arch " + quote(text) + ": expected sm90 (wgmma) or sm100 (tcgen05)"};
}

Expected<OperandMajor> parse_operand_major(std::string_view text) {
  if (text == "K" || text == "k") return OperandMajor::k;
  if (text == "MN" || text == "mn" || text == "M" || text == "N") return OperandMajor::mn;
  return Error{"unknown major-ness " + quote(text) + ": expected K or MN"};
}

std::string_view to_string(MmaArch arch) {
  return arch == MmaArch::sm90 ? "sm90" : "sm100";
}

std::string_view to_string(OperandMajor major) {
  return major == OperandMajor::k ? "K" : "MN";
}

std::string_view to_string(FindingLevel level) {
  switch (level) {
    case FindingLevel::error:
      return "error";
    case FindingLevel::warning:
      return "warning";
    case FindingLevel::note:
      return "note";
  }
  return "error";
}

// [SECTION] Encoding and decoding the word

std::uint64_t encode(const MatrixDescriptor& d) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  std::uint64_t word = encode_bytes(d.start) | encode_bytes(d.lbo) << 16 |
                       encode_bytes(d.sbo) << 32 |
                       (static_cast<std::uint64_t>(d.base_offset) & 7) << 49;
  if (d.arch == MmaArch::sm90) {
    word |= static_cast<std::uint64_t>(s.sm90_code < 0 ? 0 : s.sm90_code) << 62;
  } else {
    word |= std::uint64_t{1} << 46;  // the fixed 0b001 of bits 46-48
    word |= static_cast<std::uint64_t>(d.lbo_absolute ? 1 : 0) << 52;
    word |= static_cast<std::uint64_t>(s.sm100_code) << 61;
  }
  return word;
}

MmaArch infer_arch(std::uint64_t word) {
  return (word & field_mask(46, 3)) >> 46 == 1 ? MmaArch::sm100 : MmaArch::sm90;
}

namespace {

void reserved_bits(std::uint64_t word, int first, int count, std::string_view owner,
                   std::vector<std::string>& problems) {
  const std::uint64_t set = word & field_mask(first, count);
  if (set == 0) return;
  problems.push_back(format("bits %d-%d are %s but hold 0x%llx: CUTLASS writes 0 there", first,
                            first + count - 1, std::string(owner).c_str(),
                            static_cast<unsigned long long>(set >> first)));
}

std::optional<DescSwizzle> swizzle_of_code(MmaArch arch, int code) {
  for (const DescSwizzleInfo& s : kDescSwizzles) {
    if ((arch == MmaArch::sm90 ? s.sm90_code : s.sm100_code) == code) return s.mode;
  }
  return std::nullopt;
}

}  // namespace

DecodedDescriptor decode(std::uint64_t word, MmaArch arch) {
  DecodedDescriptor out;
  MatrixDescriptor& d = out.fields;
  d.arch = arch;
  d.start = static_cast<std::int64_t>((word & field_mask(0, 14)) << 4);
  d.lbo = static_cast<std::int64_t>(((word & field_mask(16, 14)) >> 16) << 4);
  d.sbo = static_cast<std::int64_t>(((word & field_mask(32, 14)) >> 32) << 4);
  d.base_offset = static_cast<int>((word & field_mask(49, 3)) >> 49);
  reserved_bits(word, 14, 2, "reserved", out.bit_problems);
  reserved_bits(word, 30, 2, "reserved", out.bit_problems);
  int code = 0;
  if (arch == MmaArch::sm90) {
    reserved_bits(word, 46, 3, "unused on sm90", out.bit_problems);
    reserved_bits(word, 52, 10, "unused on sm90", out.bit_problems);
    code = static_cast<int>(word >> 62);
  } else {
    const auto fixed = (word & field_mask(46, 3)) >> 46;
    if (fixed != 1) {
      out.bit_problems.push_back(
          format("bits 46-48 must hold the fixed value 0b001 on sm100, and hold 0b%d%d%d",
                 static_cast<int>(fixed >> 2 & 1), static_cast<int>(fixed >> 1 & 1),
                 static_cast<int>(fixed & 1)));
    }
    d.lbo_absolute = (word >> 52 & 1) != 0;
    reserved_bits(word, 53, 8, "fixed 0 on sm100", out.bit_problems);
    code = static_cast<int>(word >> 61);
  }
  if (const std::optional<DescSwizzle> s = swizzle_of_code(arch, code)) {
    d.swizzle = *s;
  } else {
    out.bit_problems.push_back(format(
        "swizzle code %d is invalid on sm100 (0 none, 1 128B with 32-byte atoms, 2 128B, 4 64B, "
        "6 32B); read here as none",
        code));
  }
  return out;
}

std::string hex_word(std::uint64_t word) {
  return format("0x%016llx", static_cast<unsigned long long>(word));
}

Expected<std::uint64_t> parse_hex_word(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  std::uint64_t value = 0;
  const char* last = digits.data() + digits.size();
  const auto [end, ec] = std::from_chars(digits.data(), last, value, 16);
  if (digits.empty() || ec != std::errc() || end != last) {
    return Error{"a descriptor is a 64-bit hexadecimal word such as 0x4000004000010040, got " +
                 quote(text)};
  }
  return value;
}

// [SECTION] The rules

namespace {

struct Findings {
  std::vector<DescFinding> list;
  void add(FindingLevel level, std::string rule, std::string fix, bool undefined = false) {
    list.push_back({level, std::move(rule), std::move(fix), undefined});
  }
};

// Start, LBO and SBO: 16-byte aligned and below 2^18, else the word holds another value.
void check_byte_field(std::string_view name, std::int64_t x, Findings& f) {
  if (x < 0 || x >= kDescriptorByteLimit) {
    const std::int64_t kept = (x & 0x3FFFF) & ~std::int64_t{15};
    f.add(
        FindingLevel::error,
        format("%s %lld does not fit: the word keeps bits 4-17 (0 to 262128), so the hardware "
               "reads %lld",
               std::string(name).c_str(), static_cast<long long>(x), static_cast<long long>(kept)),
        format("keep %s inside the CTA's shared memory, below 256 KiB", std::string(name).c_str()));
  } else if (x % 16 != 0) {
    f.add(FindingLevel::error,
          format("%s %lld is not 16-byte aligned: the word drops its low 4 bits, so the hardware "
                 "reads %lld",
                 std::string(name).c_str(), static_cast<long long>(x),
                 static_cast<long long>(x & ~std::int64_t{15})),
          format("align %s to 16 bytes (%lld or %lld)", std::string(name).c_str(),
                 static_cast<long long>(x & ~std::int64_t{15}),
                 static_cast<long long>((x | 15) + 1)));
  }
}

// The mode, the element size and the major-ness the instruction accepts.
void check_mode(const MatrixDescriptor& d, const OperandShape& op, Findings& f) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const int e = op.elem_bytes();
  if (d.arch == MmaArch::sm90 && s.sm90_code < 0) {
    f.add(FindingLevel::error,
          std::string(s.ptx_name) + " exists only in tcgen05's descriptor (sm100); wgmma has none",
          "use 128b on sm90, or --arch sm100", true);
  }
  if (d.swizzle == DescSwizzle::b128_atom32 && op.major == OperandMajor::k) {
    f.add(FindingLevel::error,
          "the 128B mode with 32-byte atoms describes MN-major operands only (CUTLASS refuses it "
          "for K-major)",
          "use 128b for a K-major operand, or lay the operand out MN-major", true);
  }
  if (e == 8) {
    f.add(FindingLevel::error,
          "neither wgmma nor tcgen05.mma reads 8-byte elements through a descriptor",
          "use fp32 (tf32), bf16/fp16 or fp8 operands", true);
  } else if (op.major == OperandMajor::mn && d.arch == MmaArch::sm90 && e != 2) {
    f.add(FindingLevel::error,
          format("wgmma reads MN-major (transposed) operands only for 16-bit types; %s must be "
                 "K-major",
                 std::string(dtype_name(op.dtype)).c_str()),
          "store the operand K-major (TMA can transpose nothing: load the K-major global "
          "layout), or use bf16/fp16",
          true);
  }
  if (d.arch == MmaArch::sm100 && d.lbo_absolute) {
    f.add(FindingLevel::error,
          "bit 52 makes LBO an absolute address (48-byte K tiles, sm_103a); BankLab does not "
          "model that mode",
          "clear bit 52 (relative LBO, CUTLASS's default)", true);
  }
}

// LBO and SBO: which the canonical layout uses, and which it ignores.
void check_offsets(const MatrixDescriptor& d, const OperandShape& op, Findings& f) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const bool swizzled = d.swizzle != DescSwizzle::none;
  const int k_rows = op.k_step_elements();  // K of one instruction, in elements
  if (op.major == OperandMajor::k) {
    if (swizzled && d.lbo != 0 && d.lbo != 16) {
      f.add(FindingLevel::warning,
            format("LBO is %lld, but a K-major swizzled layout ignores it (assumed 1, i.e. 16 "
                   "bytes): the second core matrix along K is read 16 bytes after the first, "
                   "inside the %d-byte swizzled row",
                   static_cast<long long>(d.lbo), s.width_bytes),
            "write LBO 16 (encoded 1, as CUTLASS does); if the data really sits LBO bytes away, "
            "the layout needs no swizzle (none) to use LBO");
    }
    if (!swizzled && d.lbo == 0) {
      f.add(FindingLevel::error,
            "LBO 0 without swizzle: both core matrices along K are read from the same 128 bytes",
            "set LBO to the distance between the two 8x16-byte core matrices along K (e.g. 128 "
            "for core matrices stored back to back along K, or 8 rows x 16 B x (MN / 8) when "
            "they are stacked along MN first)");
    }
    if (d.sbo == 0) {
      f.add(FindingLevel::warning,
            "SBO 0: every group of 8 rows along MN reads the same bytes (fine only for an "
            "operand 8 rows deep)",
            format("set SBO to the distance between groups of 8 rows: %d bytes when the atoms "
                   "are stacked along MN",
                   8 * s.width_bytes));
    }
    return;
  }
  // MN-major: the offsets stride the 16-byte columns along MN and the rows along K.
  const int rows = s.atom_rows;
  if (!swizzled) {
    if (d.sbo == 0) {
      f.add(FindingLevel::warning,
            "SBO 0 without swizzle: every 16 bytes along MN read the same core matrix (fine "
            "only for an operand 16 bytes wide along MN)",
            "set SBO to the distance between core matrices along MN (128 when they are stored "
            "back to back)");
    }
    if (d.lbo == 0 && k_rows > 8) {
      f.add(FindingLevel::error,
            format("LBO 0 without swizzle: the instruction reads %d rows of K, two groups of 8, "
                   "and both are read from the same bytes",
                   k_rows),
            "set LBO to the distance between groups of 8 rows along K");
    }
    return;
  }
  if (d.lbo == 0) {
    f.add(FindingLevel::warning,
          format("LBO 0: an MN-major swizzled layout steps by LBO from one %d-byte swizzle atom "
                 "to the next along MN; with 0 all of them read the first (fine only for an "
                 "operand %d bytes wide along MN)",
                 s.width_bytes, s.width_bytes),
          format("set LBO to the distance between atoms along MN (%d bytes when they are stored "
                 "back to back)",
                 rows * s.width_bytes));
  }
  if (d.sbo == 0 && k_rows > rows) {
    f.add(FindingLevel::error,
          format("SBO 0: the instruction reads %d rows of K, %d groups of %d, and all are read "
                 "from the same bytes",
                 k_rows, k_rows / rows, rows),
          "set SBO to the distance between groups of rows along K");
  }
}

// Base offset: 0 when the pattern starts on its boundary, else (pattern start >> 7) & 7 (PTX
// ISA). What it does is descriptor_byte()'s: the swizzle takes its row from address bits 7-9
// minus the base offset, as if the pattern had begun that many 128-byte lines past a boundary.
// Measured on the H200 (docs/descriptor-lab.md) for 128B, 64B and 32B; the 32-byte-atom mode
// (sm100 only) is not measured, and a base offset there is reported, not modelled.
void check_base_offset(const MatrixDescriptor& d, Findings& f) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  if (d.swizzle == DescSwizzle::none) {
    if (d.base_offset != 0) {
      f.add(FindingLevel::warning,
            format("base offset %d with no swizzle: the field is valid only for swizzled modes",
                   d.base_offset),
            "write 0");
    }
    return;
  }
  const std::int64_t past = d.start % s.boundary_bytes;
  const long long isa = d.start >> 7 & 7;
  if (d.base_offset != 0 && d.swizzle == DescSwizzle::b128_atom32) {
    f.add(FindingLevel::error,
          format("base offset %d with %s: what it reads is not measured (sm100 only), and "
                 "BankLab does not model it",
                 d.base_offset, std::string(s.ptx_name).c_str()),
          "write base offset 0 and start the tile on a 1024-byte boundary", true);
  } else if (past == 0 && d.base_offset != 0) {
    f.add(FindingLevel::warning,
          format("base offset %d, but the start lies on a %d-byte boundary: the reads follow a "
                 "%s pattern that began %d lines (of 128 bytes) before it",
                 d.base_offset, s.boundary_bytes, std::string(s.ptx_name).c_str(), d.base_offset),
          "write base offset 0 for a pattern that begins on the boundary");
  } else if (past != 0 && d.base_offset == 0) {
    f.add(FindingLevel::note,
          format("the start is %lld bytes past a %d-byte boundary: right with base offset 0 when "
                 "the swizzle pattern follows the absolute address, as TMA writes it (measured on "
                 "the H200: a 128B tile at byte 512) and as inside an aligned tile advanced along "
                 "K or MN (CUTLASS's increments)",
                 static_cast<long long>(past), s.boundary_bytes),
          format("keep base offset 0 for a TMA-filled tile; PTX's (start >> 7) & 7 = %lld is for "
                 "a pattern that begins at the start address (an epilogue's stores into a tile "
                 "there)",
                 isa));
  } else if (past != 0) {
    f.add(FindingLevel::note,
          format("base offset %d: the swizzle takes its row from address bits 7-9 minus %d, as "
                 "for a pattern that began where (address >> 7) & 7 = %d (measured on the H200); "
                 "it reads a tile whose pattern begins there, not one TMA filled",
                 d.base_offset, d.base_offset, d.base_offset),
          format("for a pattern that begins at the start, PTX's (start >> 7) & 7 = %lld; for a "
                 "tile TMA filled, 0",
                 isa));
  }
}

}  // namespace

std::vector<DescFinding> check_descriptor(const MatrixDescriptor& d, const OperandShape& op) {
  Findings f;
  check_byte_field("start", d.start, f);
  check_byte_field("LBO", d.lbo, f);
  check_byte_field("SBO", d.sbo, f);
  if (d.base_offset < 0 || d.base_offset > 7) {
    f.add(FindingLevel::error, format("base offset %d does not fit its 3 bits", d.base_offset),
          "use 0 to 7", true);
  }
  check_mode(d, op, f);
  check_offsets(d, op, f);
  check_base_offset(d, f);
  std::stable_partition(f.list.begin(), f.list.end(),
                        [](const DescFinding& x) { return x.level == FindingLevel::error; });
  return f.list;
}

bool read_is_defined(std::span<const DescFinding> findings) {
  for (const DescFinding& x : findings) {
    if (x.undefined) return false;
  }
  return true;
}

// [SECTION] The layout: CuTe notation and the element -> byte map

CuteNotation cute_notation(const MatrixDescriptor& d, const OperandShape& op) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const int e = op.elem_bytes();
  const int t = 16 / e;
  const int w = s.width_bytes / 16;
  const long long lbo = d.lbo / e;
  const long long sbo = d.sbo / e;
  const Swizzle& z = s.byte_swizzle;
  const std::string sw = format("Swizzle<%d,%d,%d> o ", z.bits, z.base, z.shift);
  CuteNotation n;
  if (op.major == OperandMajor::k) {
    if (d.swizzle == DescSwizzle::none) {
      n.symbolic = sw + "((8,m),(T,2)):((T,SBO),(1,LBO))";
      n.numeric = sw + format("((8,m),(%d,2)):((%d,%lld),(1,%lld))", t, t, sbo, lbo);
    } else {
      n.symbolic = sw + format("((8,m),(T,2)):((%dT,SBO),(1,T))", w);
      n.numeric = sw + format("((8,m),(%d,2)):((%d,%lld),(1,%d))", t, w * t, sbo, t);
    }
  } else if (d.swizzle == DescSwizzle::none) {
    n.symbolic = sw + "((T,1,m),(8,k)):((1,T,SBO),(T,LBO))";
    n.numeric = sw + format("((%d,1,m),(8,k)):((1,%d,%lld),(%d,%lld))", t, t, sbo, t, lbo);
  } else {
    const int rows = s.atom_rows;
    n.symbolic = sw + format("((T,%d,m),(%d,k)):((1,T,LBO),(%dT,SBO))", w, rows, w);
    n.numeric =
        sw + format("((%d,%d,m),(%d,k)):((1,%d,%lld),(%d,%lld))", t, w, rows, t, lbo, w * t, sbo);
  }
  n.symbolic += ", T = 16 B / element; strides in elements, the swizzle on byte addresses";
  n.numeric += format(" (%s)", std::string(dtype_name(op.dtype)).c_str());
  return n;
}

std::int64_t descriptor_byte(const MatrixDescriptor& d, const OperandShape& op, int mn, int k) {
  const DescSwizzleInfo& s = desc_swizzle(d.swizzle);
  const std::int64_t e = op.elem_bytes();
  // The byte quantities as the hardware reads them: bits 4-17.
  const std::int64_t start = d.start & 0x3FFF0;
  const std::int64_t lbo = d.lbo & 0x3FFF0;
  const std::int64_t sbo = d.sbo & 0x3FFF0;
  const bool swizzled = d.swizzle != DescSwizzle::none;
  std::int64_t offset = 0;
  if (op.major == OperandMajor::k) {
    const std::int64_t k_byte = k * e;
    const std::int64_t chunk = k_byte / 16;  // which of the two core matrices along K
    offset = mn / 8 * sbo + k_byte % 16 +
             (swizzled ? mn % 8 * s.width_bytes + chunk * 16 : mn % 8 * 16 + chunk * lbo);
  } else {
    const std::int64_t mn_byte = mn * e;
    const std::int64_t column = mn_byte / 16;  // the 16-byte column along MN
    if (swizzled) {
      const std::int64_t per_atom = s.width_bytes / 16;
      offset = column / per_atom * lbo + column % per_atom * 16 + k % s.atom_rows * s.width_bytes +
               k / s.atom_rows * sbo + mn_byte % 16;
    } else {
      offset = column * sbo + k % 8 * 16 + k / 8 * lbo + mn_byte % 16;
    }
  }
  // A base offset b moves the row the swizzle XORs in back by b lines of 128 bytes: the pattern
  // as if it began b lines past its boundary (check_base_offset() says where this was measured).
  // The 1024 added keeps the address positive and changes no bit the swizzle reads.
  const std::int64_t back = swizzled ? 1024 - 128 * std::int64_t{d.base_offset & 7} : 0;
  return s.byte_swizzle(start + offset + back) - back;
}

CoreMatrix core_matrix_of(const OperandShape& op, int mn, int k) {
  const int per_chunk = 16 / op.elem_bytes();
  if (op.major == OperandMajor::k) return {mn / 8 * 8, 8, k / per_chunk * per_chunk, per_chunk};
  return {mn / per_chunk * per_chunk, per_chunk, k / 8 * 8, 8};
}

}  // namespace banklab
