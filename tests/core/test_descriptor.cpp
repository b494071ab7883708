// The matrix descriptors (core/model/descriptor*.hpp): the word's bits round-trip; every
// canonical layout of CUTLASS's sm90 and sm100 tables, built here the way CuTe builds it (the
// atoms of mma_traits_sm90_gmma.hpp / mma_traits_sm100.hpp tiled by tile_to_shape, evaluated
// as a generic shape:stride function, the swizzle on the byte address), is read by the
// descriptor CUTLASS's make_gmma_desc / make_umma_desc derives from it, at every k-step
// (CUTLASS's start increment); and hand-worked agreements and mismatches with TMA and
// epilogue fills.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/descriptor_agreement.hpp"

namespace banklab {
namespace {

// [SECTION] The word

TEST_CASE("encode -> decode -> encode over every value of every field") {
  for (const MmaArch arch : {MmaArch::sm90, MmaArch::sm100}) {
    for (const DescSwizzleInfo& s : desc_swizzles()) {
      if (arch == MmaArch::sm90 && s.sm90_code < 0) continue;
      for (std::int64_t v = 0; v < (std::int64_t{1} << 14); ++v) {
        // Each byte field walks its whole range while the others hold values derived from it.
        const std::int64_t bytes = v * 16;
        const std::int64_t other = (v * 7919 % 16384) * 16;
        const int base = static_cast<int>(v % 8);
        const bool absolute = arch == MmaArch::sm100 && v % 3 == 0;
        for (int field = 0; field < 3; ++field) {
          MatrixDescriptor d{arch,
                             s.mode,
                             field == 0 ? bytes : other,
                             field == 1 ? bytes : other,
                             field == 2 ? bytes : other,
                             base,
                             absolute};
          const std::uint64_t word = encode(d);
          const DecodedDescriptor back = decode(word, arch);
          REQUIRE(back.bit_problems.empty());
          REQUIRE(back.fields == d);
          REQUIRE(encode(back.fields) == word);
          REQUIRE(infer_arch(word) == arch);
        }
      }
    }
  }
}

TEST_CASE("decode of arbitrary words: a word without bit problems encodes back to itself") {
  std::uint64_t x = 0x9E3779B97F4A7C15u;  // a fixed seed
  int clean = 0;
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    for (const MmaArch arch : {MmaArch::sm90, MmaArch::sm100}) {
      // Clear the reserved bits in half the words so that the clean path is walked too.
      const std::uint64_t reserved =
          arch == MmaArch::sm90 ? 0x3FF1C000C000C000u : 0x1FE00000C000C000u;
      std::uint64_t word = i % 2 == 0 ? x & ~reserved : x;
      if (arch == MmaArch::sm100 && i % 2 == 0) word = (word & ~(7ull << 46)) | 1ull << 46;
      const DecodedDescriptor d = decode(word, arch);
      if (!d.bit_problems.empty()) continue;
      ++clean;
      REQUIRE(encode(d.fields) == word);
    }
  }
  CHECK(clean > 10000);
}

TEST_CASE("hand-decoded words") {
  // sm90, K-major 128B: start 0x400, LBO 16 (encoded 1), SBO 1024 (encoded 64), mode 1.
  const DecodedDescriptor h = decode(0x4000004000010040u, MmaArch::sm90);
  CHECK(h.bit_problems.empty());
  CHECK(h.fields == MatrixDescriptor{MmaArch::sm90, DescSwizzle::b128, 0x400, 16, 1024, 0, false});
  CHECK(infer_arch(0x4000004000010040u) == MmaArch::sm90);
  // The same on sm100: bit 46 set (the fixed 0b001), mode 2 in bits 61-63.
  const std::uint64_t b = 0x4000404000010040u;
  CHECK(infer_arch(b) == MmaArch::sm100);
  CHECK(decode(b, MmaArch::sm100).fields ==
        MatrixDescriptor{MmaArch::sm100, DescSwizzle::b128, 0x400, 16, 1024, 0, false});
  CHECK(encode(MatrixDescriptor{MmaArch::sm100, DescSwizzle::b128_atom32, 0, 0, 0, 0, false}) ==
        0x2000400000000000u);
  // Invalid codes and fixed bits are named.
  const DecodedDescriptor bad =
      decode(0x6000000000000000u, MmaArch::sm100);  // code 3, bits 46-48 0
  REQUIRE(bad.bit_problems.size() == 2);
  CHECK(bad.bit_problems[0].find("0b001") != std::string::npos);
  CHECK(bad.bit_problems[1].find("code 3") != std::string::npos);
  CHECK(parse_hex_word("0x4000004000010040").value() == 0x4000004000010040u);
  CHECK(!parse_hex_word("0xZZ"));
  CHECK(!parse_hex_word("0x10000000000000000"));
}

// [SECTION] The rules

bool has(const std::vector<DescFinding>& list, FindingLevel level, std::string_view words) {
  for (const DescFinding& f : list) {
    if (f.level == level && f.rule.find(words) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("rules broken, each with its level") {
  const OperandShape k_bf16{OperandMajor::k, DType::bf16};
  const MatrixDescriptor good{MmaArch::sm90, DescSwizzle::b128, 0, 16, 1024, 0, false};
  CHECK(check_descriptor(good, k_bf16).empty());

  MatrixDescriptor d = good;
  d.start = 40;
  CHECK(has(check_descriptor(d, k_bf16), FindingLevel::error, "not 16-byte aligned"));
  d = good;
  d.sbo = 1 << 18;
  CHECK(has(check_descriptor(d, k_bf16), FindingLevel::error, "does not fit"));
  d = good;
  d.lbo = 128;
  CHECK(has(check_descriptor(d, k_bf16), FindingLevel::warning, "ignores it"));
  d = good;
  d.swizzle = DescSwizzle::b128_atom32;
  auto f = check_descriptor(d, k_bf16);
  CHECK(has(f, FindingLevel::error, "only in tcgen05"));
  CHECK(has(f, FindingLevel::error, "MN-major operands only"));
  CHECK(!read_is_defined(f));
  d = good;
  CHECK(has(check_descriptor(d, {OperandMajor::mn, DType::fp8}), FindingLevel::error,
            "only for 16-bit types"));
  d.arch = MmaArch::sm100;
  d.lbo = 1024;
  d.sbo = 2048;
  CHECK(check_descriptor(d, {OperandMajor::mn, DType::fp8}).empty());
  d = good;
  d.start = 512;
  CHECK(has(check_descriptor(d, k_bf16), FindingLevel::note, "512 bytes past a 1024-byte"));
  d.base_offset = 4;  // modelled: the row less 4 (measured on the H200)
  CHECK(read_is_defined(check_descriptor(d, k_bf16)));
  CHECK(has(check_descriptor(d, k_bf16), FindingLevel::note, "bits 7-9 minus 4"));
  d = good;
  d.base_offset = 2;
  CHECK(read_is_defined(check_descriptor(d, k_bf16)));
  CHECK(has(check_descriptor(d, k_bf16), FindingLevel::warning, "lies on a 1024-byte boundary"));
  // The 32-byte-atom mode's base offset is not measured (sm100): reported, not modelled.
  d = {MmaArch::sm100, DescSwizzle::b128_atom32, 512, 1024, 512, 4, false};
  CHECK(!read_is_defined(check_descriptor(d, {OperandMajor::mn, DType::bf16})));
  d = {MmaArch::sm90, DescSwizzle::none, 0, 0, 128, 3, false};
  f = check_descriptor(d, k_bf16);
  CHECK(has(f, FindingLevel::error, "LBO 0 without swizzle"));
  CHECK(has(f, FindingLevel::warning, "valid only for swizzled modes"));
  CHECK(f.front().level == FindingLevel::error);  // errors first
}

TEST_CASE("the layout in CuTe notation") {
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 16, 1024, 0, false};
  const CuteNotation k = cute_notation(d, {OperandMajor::k, DType::bf16});
  CHECK(k.symbolic.starts_with("Swizzle<3,4,3> o ((8,m),(T,2)):((8T,SBO),(1,T))"));
  CHECK(k.numeric == "Swizzle<3,4,3> o ((8,m),(8,2)):((64,512),(1,8)) (bf16)");
  const CuteNotation mn = cute_notation({MmaArch::sm90, DescSwizzle::b128, 0, 1024, 2048, 0, false},
                                        {OperandMajor::mn, DType::bf16});
  CHECK(mn.numeric == "Swizzle<3,4,3> o ((8,8,m),(8,k)):((1,8,512),(64,1024)) (bf16)");
  const CuteNotation atom32 =
      cute_notation({MmaArch::sm100, DescSwizzle::b128_atom32, 0, 512, 1024, 0, false},
                    {OperandMajor::mn, DType::fp32});
  CHECK(atom32.numeric == "Swizzle<2,5,2> o ((4,8,m),(4,k)):((1,4,128),(32,256)) (fp32)");
}

// [SECTION] CuTe's canonical layouts, built independently

// A CuTe layout mode: (shape, stride) pairs, a coordinate split colexicographically.
using Mode = std::vector<std::pair<std::int64_t, std::int64_t>>;

std::int64_t eval(const Mode& mode, std::int64_t c) {
  std::int64_t offset = 0;
  for (const auto& [shape, stride] : mode) {
    offset += c % shape * stride;
    c /= shape;
  }
  return offset;
}

// tile_to_shape(atom, (MN, K)): the atom repeated along MN first, then along K (column-major),
// in elements; the swizzle applied to the byte address base + offset * e.
struct CuteTile {
  Mode mn;
  Mode k;
  Swizzle swizzle;
  std::int64_t base = 0;
  int e = 2;
  std::int64_t unswizzled(int mn_index, int k_index) const {
    return (eval(mn, mn_index) + eval(k, k_index)) * e;
  }
  std::int64_t byte(int mn_index, int k_index) const {
    return swizzle(base + unswizzled(mn_index, k_index));
  }
};

// CUTLASS's atoms in bits, written out here rather than read from the model's table:
// Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom_Bits (8 rows x 128/256/512/1024 bits) and sm100's
// Layout_MN_SW128_32B_Atom_Bits (1024 bits x 4 rows), each with its Swizzle on the byte address.
struct CutlassAtom {
  DescSwizzle mode;
  Swizzle swizzle;
  int contiguous_bits;  // along K (K-major) or MN (MN-major)
  int rows;             // along MN (K-major) or K (MN-major)
};
constexpr CutlassAtom kAtoms[] = {
    {DescSwizzle::none, {0, 4, 3}, 128, 8},         {DescSwizzle::b32, {1, 4, 3}, 256, 8},
    {DescSwizzle::b64, {2, 4, 3}, 512, 8},          {DescSwizzle::b128, {3, 4, 3}, 1024, 8},
    {DescSwizzle::b128_atom32, {2, 5, 2}, 1024, 4},
};

struct Canonical {
  CuteTile tile;
  MatrixDescriptor desc;
};

Canonical canonical(MmaArch arch, OperandMajor major, const CutlassAtom& atom_bits, int e, int mn,
                    int k, std::int64_t base) {
  const std::int64_t contig = atom_bits.contiguous_bits / 8 / e;  // elements (upcast)
  const std::int64_t rows = atom_bits.rows;
  const std::int64_t atom = rows * contig;  // elements per atom
  Canonical c;
  c.tile.swizzle = atom_bits.swizzle;
  c.tile.base = base;
  c.tile.e = e;
  if (major == OperandMajor::k) {
    const std::int64_t n_mn = mn / rows;
    c.tile.mn = {{rows, contig}, {n_mn, atom}};
    c.tile.k = {{contig, 1}, {k / contig, atom * n_mn}};
  } else {
    const std::int64_t n_mn = mn / contig;
    c.tile.mn = {{contig, 1}, {n_mn, atom}};
    c.tile.k = {{rows, contig}, {k / rows, atom * n_mn}};
  }
  // make_gmma_desc / make_umma_desc: which stride of the tiled layout is LBO and which SBO.
  const std::int64_t mn_outer = c.tile.mn[1].second * e;
  const std::int64_t k_outer = c.tile.k[1].second * e;
  const DescSwizzle mode = atom_bits.mode;
  c.desc = {arch, mode, base, 0, 0, 0, false};
  if (major == OperandMajor::k && mode == DescSwizzle::none) {
    c.desc.sbo = mn_outer;
    c.desc.lbo = k_outer;
  } else if (major == OperandMajor::k) {
    c.desc.sbo = mn_outer;
    c.desc.lbo = 16;  // stride_10 = 1 uint128_t: unused, assumed 1
  } else if (mode == DescSwizzle::none) {
    c.desc.sbo = mn_outer;
    c.desc.lbo = k_outer;
  } else {
    c.desc.lbo = mn_outer;
    c.desc.sbo = k_outer;
  }
  return c;
}

TEST_CASE("every canonical layout of CUTLASS's sm90 and sm100 tables, at every k-step") {
  int layouts = 0;
  for (const MmaArch arch : {MmaArch::sm90, MmaArch::sm100}) {
    for (const CutlassAtom& atom : kAtoms) {
      for (const OperandMajor major : {OperandMajor::k, OperandMajor::mn}) {
        for (const DType dtype : {DType::fp8, DType::bf16, DType::fp32}) {
          const OperandShape op{major, dtype};
          const MatrixDescriptor probe{arch, atom.mode, 0, 0, 0, 0, false};
          // Only the combinations the instruction defines.
          if (!read_is_defined(check_descriptor(probe, op))) continue;
          const int e = dtype_bytes(dtype);
          const int atom_contig = atom.contiguous_bits / 8 / e;  // along the contiguous side
          const int step = op.k_step_elements();
          for (const std::int64_t base : {std::int64_t{0}, std::int64_t{0x2000}}) {
            const int mn = major == OperandMajor::k ? 64 : std::max(64, 2 * atom_contig);
            const int k = major == OperandMajor::k ? 2 * std::max(atom_contig, step)
                                                   : 2 * std::max(atom.rows, step);
            const Canonical c = canonical(arch, major, atom, e, mn, k, base);
            CAPTURE(to_string(arch));
            CAPTURE(desc_swizzle(atom.mode).name);
            CAPTURE(to_string(major));
            CAPTURE(dtype_name(dtype));
            for (int ks = 0; ks < k / step; ++ks) {
              MatrixDescriptor d = c.desc;
              d.start = base + c.tile.unswizzled(0, ks * step);  // DescriptorIterator's + offset
              for (int i = 0; i < mn; ++i) {
                for (int j = 0; j < step; ++j) {
                  REQUIRE(descriptor_byte(d, op, i, j) == c.tile.byte(i, ks * step + j));
                }
              }
            }
            ++layouts;
          }
        }
      }
    }
  }
  // sm90: 4 modes x K-major x 3 types + 4 modes x MN-major bf16 = 16; sm100: 4 x 3 x 2 + the
  // 32-byte atoms MN-major x 3 = 27; each at two bases.
  CHECK(layouts == (16 + 27) * 2);
}

// [SECTION] DescriptorAgreement with the producer, hand-worked

OperandFill tma(DType dtype, int rows, int cols, SwizzleKind kind, int boxes = 1,
                std::int64_t dest = 0) {
  return {TileLayout{dtype, rows, cols, 0, SwizzleSpec{kind}}, boxes, dest};
}

TEST_CASE("TMA 128B, K-major bf16 64x64, read by the 128B descriptor: agrees, +32 B a k-step") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 16, 1024, 0, false};
  const DescriptorAgreement a =
      check_agreement(d, op, tma(DType::bf16, 64, 64, SwizzleKind::tma128));
  REQUIRE(a.compared);
  CHECK(a.agrees());
  CHECK(a.elements == 64 * 64);
  REQUIRE(a.steps.size() == 4);
  CHECK(a.steps[1].advance == 32);
  CHECK(a.steps[3].advance == 96);
  // Two boxes along K: the fifth step starts in the second box, 64 rows x 128 B later.
  const DescriptorAgreement two =
      check_agreement(d, op, tma(DType::bf16, 64, 64, SwizzleKind::tma128, 2));
  CHECK(two.agrees());
  REQUIRE(two.steps.size() == 8);
  CHECK(two.steps[4].advance == 8192);
}

TEST_CASE("the wrong swizzle: a 64B descriptor over a TMA 128B tile") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b64, 0, 16, 512, 0, false};
  const OperandFill fill = tma(DType::bf16, 64, 64, SwizzleKind::tma128);
  const DescriptorAgreement a = check_agreement(d, op, fill);
  REQUIRE(a.compared);
  CHECK(!a.agrees());
  REQUIRE(a.first);
  // Row 0 is unswizzled in both; row 1: TMA put chunk 0 at 128 ^ 16 = 144, the 64B descriptor
  // reads row 1 at 64, where TMA put row 0's chunk 4 (k 32).
  CHECK(a.first->k_step == 0);
  CHECK(a.first->mn == 1);
  CHECK(a.first->k == 0);
  CHECK(a.first->written == 144);
  CHECK(a.first->read == 64);
  CHECK(a.first->found_mn == 0);
  CHECK(a.first->found_k == 32);
  CHECK(a.first->core.mn_first == 0);
  CHECK(a.first->core.k_first == 0);
  CHECK(a.first->core.k_count == 8);
  const auto fix = suggest_descriptor(MmaArch::sm90, op, fill);
  REQUIRE(fix);
  CHECK(fix->swizzle == DescSwizzle::b128);
  CHECK(fix->sbo == 1024);
}

// TMA swizzles the absolute address: the H200 read a 128B box at byte 512 exactly through a
// descriptor at 512 with base offset 0, and misread it with PTX's base offset (512 >> 7) & 7 = 4
// (tests/gpu/test_descriptor_gpu.cpp, docs/descriptor-lab.md): the lab predicts those misreads.
TEST_CASE("a 128B TMA tile at byte 512: base offset 0 agrees, base offset 4 misreads") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  const OperandFill fill = tma(DType::bf16, 64, 64, SwizzleKind::tma128, 1, 512);
  MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 512, 16, 1024, 0, false};
  const DescriptorAgreement a = check_agreement(d, op, fill);
  CHECK(a.agrees());
  CHECK(a.elements == 4096);
  CHECK(has(a.producer_rules, FindingLevel::note, "keeps that line's phase"));
  CHECK(has(a.descriptor_rules, FindingLevel::note, "512 bytes past"));
  // Row 1's chunk 0 holds the phase of line 5 of the 1024-byte repeat: 16-byte chunk 0 ^ 5.
  CHECK(producer_byte(fill, OperandMajor::k, 1, 0) == 512 + 128 + 5 * 16);
  d.base_offset = 4;
  const DescriptorAgreement shifted = check_agreement(d, op, fill);
  REQUIRE(shifted.compared);
  CHECK_FALSE(shifted.agrees());
  // Worked by hand: row 0 is line 4 of the repeat. TMA put its chunk 0 at 512 ^ (4 << 4) = 576;
  // the descriptor takes its row as 4 - 4 = 0 and reads 512. Row 1 (line 5): read at
  // 640 ^ ((5 - 4) << 4) = 656, written at 720.
  REQUIRE(shifted.first);
  CHECK(shifted.first->mn == 0);
  CHECK(shifted.first->k == 0);
  CHECK(shifted.first->written == 576);
  CHECK(shifted.first->read == 512);
  CHECK(descriptor_byte(d, op, 1, 0) == 656);
  // The rows whose line has bits 7-9 equal after the shift are read right: none here, since
  // r ^ (r + 4) != 0 for every r; every chunk but those XORed to themselves misreads.
  CHECK(shifted.mismatched == 4096);
}

// The PTX ISA's case: a pattern that begins off its boundary. An epilogue's STS writes CuTe's
// Swizzle<3,4,3> over the tile's own offsets from byte 512, so its pattern starts at 512:
// base offset (512 >> 7) & 7 = 4 reads it, 0 does not.
TEST_CASE("an STS Swizzle<3,4,3> tile at byte 512: base offset 4 reads it, 0 misreads") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  const OperandFill sts{TileLayout{DType::bf16, 64, 64, 0, {SwizzleKind::cute, {3, 4, 3}}}, 1, 512};
  // Row 1, chunk 0: offset 128 in the tile, swizzled to 128 + (1 << 4): byte 656.
  CHECK(producer_byte(sts, OperandMajor::k, 1, 0) == 656);
  MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 512, 16, 1024, 4, false};
  // The descriptor: 512 + 128 = 640, line 5, row 5 - 4 = 1: 640 ^ 16 = 656.
  CHECK(descriptor_byte(d, op, 1, 0) == 656);
  const DescriptorAgreement a = check_agreement(d, op, sts);
  CHECK(a.agrees());
  CHECK(has(a.producer_rules, FindingLevel::note, "base offset (512 >> 7) & 7 = 4"));
  const std::optional<MatrixDescriptor> fix = suggest_descriptor(MmaArch::sm90, op, sts);
  REQUIRE(fix);
  CHECK(fix->base_offset == 4);
  CHECK(fix->swizzle == DescSwizzle::b128);
  d.base_offset = 0;
  const DescriptorAgreement zero = check_agreement(d, op, sts);
  REQUIRE(zero.first);
  CHECK(zero.first->written == 512);
  CHECK(zero.first->read == 512 + (4 << 4));
  // Mid-line, no base offset describes the pattern: refused.
  const OperandFill mid{sts.box, 1, 512 + 64};
  CHECK_FALSE(check_agreement(d, op, mid).compared);
}

// 64B and 32B: the same rule on their 512- and 256-byte patterns (bits 7-8, bit 7), worked by
// hand for one row each.
// 64B, row 2 of box 0: offset 128, line bits 7-8 = 1, chunk 0 ^ 1: written at 256 + 144 = 400.
//   The descriptor (SBO 512) at 256 reads row 2 at 256 + 2 * 64 = 384, line 3, row 3 - 2 = 1:
//   400; with base offset 0, row 3: 384 ^ 48 = 432.
// 32B, row 4: offset 128, bit 7 set, chunk 0 ^ 1: written at 128 + 144 = 272. The descriptor
//   (SBO 256) at 128 reads row 4 at 128 + 4 * 32 = 256, line 2, row (2 - 1) & 1 = 1: 272; with
//   base offset 0, row 0: 256.
TEST_CASE("64B at byte 256 with base offset 2, 32B at byte 128 with 1: the epilogue's tiles") {
  struct Case {
    int bits, cols;
    std::int64_t dest;
    DescSwizzle mode;
    std::int64_t sbo;
    int base_offset, row;
    std::int64_t written, read_with_zero;
  };
  const OperandShape op{OperandMajor::k, DType::bf16};
  for (const Case& c : {Case{2, 32, 256, DescSwizzle::b64, 512, 2, 2, 400, 432},
                        Case{1, 16, 128, DescSwizzle::b32, 256, 1, 4, 272, 256}}) {
    CAPTURE(c.bits);
    const OperandFill sts{
        TileLayout{DType::bf16, 64, c.cols, 0, {SwizzleKind::cute, {c.bits, 4, 3}}}, 64 / c.cols,
        c.dest};
    MatrixDescriptor d{MmaArch::sm90, c.mode, c.dest, 16, c.sbo, c.base_offset, false};
    CHECK(producer_byte(sts, OperandMajor::k, c.row, 0) == c.written);
    CHECK(descriptor_byte(d, op, c.row, 0) == c.written);
    CHECK(check_agreement(d, op, sts).agrees());
    d.base_offset = 0;
    CHECK(descriptor_byte(d, op, c.row, 0) == c.read_with_zero);
    CHECK_FALSE(check_agreement(d, op, sts).agrees());
  }
}

TEST_CASE("a TMA destination off 128 bytes is not compared: the copy's alignment rule") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 64, 16, 1024, 0, false};
  const DescriptorAgreement a =
      check_agreement(d, op, tma(DType::bf16, 64, 64, SwizzleKind::tma128, 1, 64));
  CHECK(!a.compared);
  CHECK(has(a.producer_rules, FindingLevel::error, "not 128-byte aligned"));
}

TEST_CASE("LBO on a K-major swizzled descriptor is ignored, and a no-swizzle tile needs it") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  // Ignored: LBO 4096 changes nothing a 128B descriptor reads.
  const MatrixDescriptor ignored{MmaArch::sm90, DescSwizzle::b128, 0, 4096, 1024, 0, false};
  const DescriptorAgreement a =
      check_agreement(ignored, op, tma(DType::bf16, 64, 64, SwizzleKind::tma128));
  CHECK(a.agrees());
  CHECK(has(a.descriptor_rules, FindingLevel::warning, "ignores it"));
  // The interleaved tile: 16-byte boxes (8 bf16) of 64 rows, 8 boxes along K, box j at j * 1024.
  // Its core matrices along K are 1024 B apart: LBO 1024 with no swizzle reads it...
  const OperandFill interleaved = tma(DType::bf16, 64, 8, SwizzleKind::none, 8);
  const MatrixDescriptor plain{MmaArch::sm90, DescSwizzle::none, 0, 1024, 128, 0, false};
  CHECK(check_agreement(plain, op, interleaved).agrees());
  // ...the same LBO on a 128B descriptor is ignored, and the read goes wrong.
  const MatrixDescriptor swizzled{MmaArch::sm90, DescSwizzle::b128, 0, 1024, 128, 0, false};
  const DescriptorAgreement wrong = check_agreement(swizzled, op, interleaved);
  CHECK(!wrong.agrees());
  CHECK(has(wrong.descriptor_rules, FindingLevel::warning, "ignores it"));
  REQUIRE(wrong.first);
  // Row 0's second core matrix along K: read 16 B after the first, not LBO after it.
  CHECK(wrong.first->mn == 0);
  CHECK(wrong.first->k == 8);
  CHECK(wrong.first->written == 1024);
  CHECK(wrong.first->read == 16);
}

TEST_CASE("an STS epilogue into a swizzled tile: CuTe's Swizzle<3,4,3> agrees, xor does not") {
  const OperandShape op{OperandMajor::k, DType::bf16};
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 16, 1024, 0, false};
  const OperandFill cute{TileLayout{DType::bf16, 64, 64, 0, {SwizzleKind::cute, {3, 4, 3}}}, 1, 0};
  CHECK(!cute.is_tma());
  CHECK(check_agreement(d, op, cute).agrees());
  const OperandFill elems{TileLayout{DType::bf16, 64, 64, 0, {SwizzleKind::cute_elem, {3, 3, 3}}},
                          1, 0};
  CHECK(check_agreement(d, op, elems).agrees());
  // c ^ (r mod 64) on elements moves single bf16 elements, not 16-byte chunks: row 1's k 0 lands
  // at column 1.
  const OperandFill xor_tile{TileLayout{DType::bf16, 64, 64, 0, {SwizzleKind::xor_columns}}, 1, 0};
  const DescriptorAgreement a = check_agreement(d, op, xor_tile);
  CHECK(!a.agrees());
  REQUIRE(a.first);
  CHECK(a.first->mn == 1);
  CHECK(a.first->k == 0);
  CHECK(a.first->written == 128 + 2);
}

TEST_CASE("MN-major bf16 through TMA 128B: LBO steps the 64-element atoms, SBO the 8-row groups") {
  const OperandShape op{OperandMajor::mn, DType::bf16};
  // Boxes of 16 K rows x 64 MN elements (128 B), two along MN: box 1 at 2048.
  const OperandFill fill = tma(DType::bf16, 16, 64, SwizzleKind::tma128, 2);
  const MatrixDescriptor d{MmaArch::sm90, DescSwizzle::b128, 0, 2048, 1024, 0, false};
  CHECK(check_agreement(d, op, fill).agrees());
  MatrixDescriptor swapped = d;
  std::swap(swapped.lbo, swapped.sbo);
  const DescriptorAgreement a = check_agreement(swapped, op, fill);
  CHECK(!a.agrees());
  REQUIRE(a.first);
  CHECK(a.first->k == 8);  // the second group of 8 K rows is read 2048 B away instead of 1024
}

TEST_CASE("Blackwell's TMA 32-byte atoms feed tcgen05's 128B-with-32B-atoms mode (predicted)") {
  // CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B and UMMA's SWIZZLE_128B_BASE32B are both
  // Swizzle<2,5,2>: MN-major bf16, boxes of 16 K rows x 64 MN elements, two along MN.
  const OperandShape op{OperandMajor::mn, DType::bf16};
  const OperandFill fill = tma(DType::bf16, 16, 64, SwizzleKind::tma128_atom32, 2);
  const MatrixDescriptor d{MmaArch::sm100, DescSwizzle::b128_atom32, 0, 2048, 512, 0, false};
  CHECK(check_agreement(d, op, fill).agrees());
  // The 16-byte-chunk 128B mode reads it wrong.
  MatrixDescriptor plain = d;
  plain.swizzle = DescSwizzle::b128;
  plain.sbo = 1024;
  CHECK(!check_agreement(plain, op, fill).agrees());
  const auto fix = suggest_descriptor(MmaArch::sm100, op, fill);
  REQUIRE(fix);
  CHECK(fix->swizzle == DescSwizzle::b128_atom32);
  // wgmma has no such mode: no sm90 descriptor reads this fill.
  CHECK(!suggest_descriptor(MmaArch::sm90, op, fill));
}

}  // namespace
}  // namespace banklab
