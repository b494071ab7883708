#pragma once
// Swizzles: permutations of byte offsets that spread a tile's columns over the banks.
//
// CuTe's Swizzle<B, M, S> XORs B bits taken from position M + S into position M:
//
//                 bit:  ... M+S+B-1 ... M+S   ...   M+B-1 ... M   ... 0
//     x            =        [  yyy (B bits) ]       [ zzz (B bits) ]
//     apply(x)     =        [      yyy      ]       [  zzz ^ yyy   ]
//
//   yyy_mask = ((1 << B) - 1) << (M + max(0, S));   apply(x) = x ^ ((x & yyy_mask) >> S)
//
// A negative S shifts left instead (CuTe's shiftr by a negative amount): the B bits at M are
// XORed into the B bits at M + |S| (CUTLASS's Swizzle<2,0,-2>). With |S| >= B the bits read
// are never the bits written, so apply is its own inverse (a bijection on all offsets).
//
// What the offsets count is the caller's choice, and it changes the answer:
//   cute:B,M,S       byte offsets (Hopper's GMMA/TMA layouts, docs/hardware-rules.md);
//   cute-elem:B,M,S  element indices of the tile's dtype (most published CuTe code composes
//                    Swizzle<B,M,S> with an element layout): in bytes it is
//                    Swizzle<B, M + log2(element size), S>. FlashAttention-2's bf16
//                    Swizzle<3,3,3> is cute-elem:3,3,3 = cute:3,4,3.
// The TMA swizzle modes are Swizzle<1,4,3>, <2,4,3>, <3,4,3> on byte offsets: 16-byte chunks
// (M = 4) permuted within a span of 32, 64 or 128 bytes, the pattern repeating every 256, 512
// or 1024 bytes. For 128-byte rows and the 128B mode that is "chunk q of row r lands at chunk
// q ^ (r mod 8)". A box row narrower than the span is placed at span pitch (TileLayout).
//
// Triton's swizzled shared encoding (#ttg.swizzled_shared<{vec, perPhase, maxPhase,
// order=[1,0]}>) XORs column indices, in elements, by a value that depends on the row:
// TritonSwizzle below.
#include <bit>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"

namespace banklab {

struct Swizzle {
  int bits = 0;   // B: how many bits are XORed
  int base = 0;   // M: the lowest bit that changes
  int shift = 0;  // S: how far above the changed bits the source bits sit

  int span() const { return shift < 0 ? -shift : shift; }  // |S|
  std::int64_t yyy_mask() const {
    return ((std::int64_t{1} << bits) - 1) << (base + (shift > 0 ? shift : 0));
  }
  std::int64_t operator()(std::int64_t x) const {
    const std::int64_t yyy = x & yyy_mask();
    return x ^ (shift >= 0 ? yyy >> shift : yyy << -shift);
  }

  // Offsets in [0, 2^period_log2()) map onto themselves: every bit the swizzle reads or writes
  // lies below it, so a tile whose size is a multiple of the period is permuted in place.
  int period_log2() const { return base + span() + bits; }

  // Done when the parameters make a bijection (B >= 0, M >= 0, |S| >= B, all within 30
  // bits); otherwise the rule they break.
  Expected<void> check() const;

  friend bool operator==(const Swizzle&, const Swizzle&) = default;
};

std::ostream& operator<<(std::ostream& os, const Swizzle& s);  // "Swizzle<3,4,3>"

// log2 of x when x is a power of two; -1 otherwise.
inline int log2_exact(std::int64_t x) {
  return x > 0 && std::has_single_bit(static_cast<std::uint64_t>(x))
             ? std::countr_zero(static_cast<std::uint64_t>(x))
             : -1;
}

// Triton's SwizzledSharedEncoding, row-major (order = [1, 0]); vec, perPhase and maxPhase as
// Triton spells them, in elements and rows. Element (r, c) of a tile with C columns is stored
// at column c ^ column_xor(r, C), the row unchanged. Triton builds the layout as a linear map
// over GF(2) (LinearLayoutConversions.cpp, swizzledSharedToLinearLayout): row bit k
// contributes
//
//     basis(2^k) = (vec * ((2^k / perPhase) % maxPhase)) % C
//
// and row r XORs the bases of its set bits. For power-of-two parameters that is
// vec * ((r / perPhase) % maxPhase) mod C, the phase formula of the TritonGPU dialect, which
// for vec * maxPhase <= C equals Swizzle<log2 maxPhase, log2(vec * e), log2(C * e * perPhase)
// - log2(vec * e)> on byte offsets; for other parameter sets and for rows shorter than
// vec * maxPhase (the "% C") it is Triton's own layout, which no Swizzle<B,M,S> spells.
// Triton's order = [0, 1] (column-major) is this layout of the transposed tile: give BankLab
// the tile as C x R and swap row and column accesses.
struct TritonSwizzle {
  int vec = 1;
  int per_phase = 1;
  int max_phase = 1;

  // cols must be a power of two (TileLayout::check); the result is below cols.
  int column_xor(int row, int cols) const;
  // Done when vec, perPhase and maxPhase are each between 1 and 1024; otherwise the rule.
  Expected<void> check() const;

  friend bool operator==(const TritonSwizzle&, const TritonSwizzle&) = default;
};

// How a tile's elements are permuted, as the user picks it.
enum class SwizzleKind : std::uint8_t {
  none,
  xor_columns,  // element (r, c) stored at column c ^ (r mod C); C must be a power of two
  cute,         // CuTe Swizzle<B,M,S> on byte offsets within the tile
  tma32,        // CU_TENSOR_MAP_SWIZZLE_32B  = Swizzle<1,4,3>
  tma64,        // CU_TENSOR_MAP_SWIZZLE_64B  = Swizzle<2,4,3>
  tma128,       // CU_TENSOR_MAP_SWIZZLE_128B = Swizzle<3,4,3>
  cute_elem,    // CuTe Swizzle<B,M,S> on element indices: Swizzle<B, M + log2 e, S> on bytes
  triton,       // Triton's swizzled shared encoding, row-major: TritonSwizzle
  // Blackwell's TMA modes with wider atoms (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B / _64B): 32- or
  // 64-byte chunks permuted within a 128-byte span, chunk q of row r at q ^ (r mod 4 / mod 2).
  // Predicted from the CUDA driver's and CUTLASS's descriptions, not measured on Blackwell.
  tma128_atom32,  // Swizzle<2,5,2>
  tma128_atom64,  // Swizzle<1,6,1>
};

struct SwizzleSpec {
  SwizzleKind kind = SwizzleKind::none;
  Swizzle cute;          // the parameters when kind == cute or cute_elem
  TritonSwizzle triton;  // the parameters when kind == triton

  constexpr SwizzleSpec() = default;
  constexpr SwizzleSpec(SwizzleKind k, Swizzle c = {}, TritonSwizzle t = {})
      : kind(k), cute(c), triton(t) {}

  // The byte-offset swizzle for cute, cute_elem (whose M counts elements of elem_bytes) and
  // the TMA modes; identity for none, xor_columns and triton, which permute columns instead.
  Swizzle byte_swizzle(int elem_bytes) const;
  // The column XOR of row `row` in a tile of `cols` columns for xor_columns and triton; 0 for
  // the others.
  int column_xor(int row, int cols) const;
  bool is_tma() const { return tma_span_bytes() != 0; }
  // TMA modes only: the span of one swizzled row (32, 64, 128 B) and the repeat, the swizzle's
  // period (256, 512, 1024 B; 512 and 256 for Blackwell's 32- and 64-byte atoms); 0 otherwise.
  int tma_span_bytes() const;
  int tma_repeat_bytes() const;
  // The alignment a TMA copy needs of its shared destination with this swizzle: the repeat for
  // the TMA modes (the swizzle XORs absolute address bits, 7-9 for 128B, into bits 4-6), the
  // plain 128 B for none (SWIZZLE_NONE); 0 for the layouts TMA cannot write (xor, CuTe, Triton).
  int tma_alignment_bytes() const;

  friend bool operator==(const SwizzleSpec&, const SwizzleSpec&) = default;
};

// The kinds without parameters as specs, defined once for the tables that name them (the
// presets, the drills): `using namespace swizzles;` in a source file.
namespace swizzles {
inline constexpr SwizzleSpec kNone{};
inline constexpr SwizzleSpec kXor{SwizzleKind::xor_columns};
inline constexpr SwizzleSpec kTma32{SwizzleKind::tma32};
inline constexpr SwizzleSpec kTma64{SwizzleKind::tma64};
inline constexpr SwizzleSpec kTma128{SwizzleKind::tma128};
}  // namespace swizzles

// One descriptor per kind.
//
// Everything BankLab knows about a kind sits in its SwizzleKindInfo (swizzle.cpp, kKinds): how
// it is spelled and parsed, what its parameters must satisfy, how it maps an element, what a
// tile must satisfy under it, how its own tool writes it, its place in the GUI's list and the
// solver's ranking, and the properties the explanation and the code form write its formula
// from (what it moves, how its column XOR is written, its TMA span, whether its parameters
// count elements), and the layouts the solver sweeps of it. Adding a kind is adding its
// enumerator and its descriptor: no code switches over SwizzleKind. Only a kind of a new shape,
// neither a byte Swizzle nor a column XOR of the two forms below, also adds its formula to
// core/report/explain.cpp and core/code/code_view.cpp; and layout.cpp's candidate_spellings() names
// the kinds it offers as another notation of a layout. (tests/core/brute_force.cpp keeps its own
// switch on purpose: it is the independent reference the model is tested against.)

struct TileLayout;

// What a kind permutes, which is how the layout function applies it.
enum class SwizzleMoves : std::uint8_t {
  nothing,  // none: byte(r, c) = r * pitch + c * e
  columns,  // element (r, c) at column c ^ column_xor(r): xor, triton
  bytes,    // the byte offset goes through byte_swizzle(): cute, cute-elem, the TMA modes
};

// How a column-moving kind's XOR is written: as r mod C (xor), or as one basis per set bit of
// the row, XORed together (triton: a linear map over the row's bits).
enum class ColumnXorForm : std::uint8_t { none, row_mod_columns, row_bit_basis };

// Which of SwizzleSpec's parameter fields a kind reads, and so how it is spelled: its name
// alone, "NAME:B,M,S" (cute) or "NAME:VEC,PERPHASE,MAXPHASE" (triton).
enum class SwizzleParameters : std::uint8_t { none, cute, triton };

struct SwizzleKindInfo {
  SwizzleKind kind;
  std::string_view name;  // the CLI spelling, or the part before ':' when it has parameters
  SwizzleParameters parameters;
  std::string_view usage;     // how the "unknown swizzle" error lists it: "cute:B,M,S (bytes)"
  std::string_view expected;  // a malformed "NAME:..." is told this; empty without parameters
  SwizzleSpec example;        // the GUI's starting parameters when a user picks the kind
  std::string_view label;     // the GUI's name for it
  std::string_view help;      // the GUI's explanation of its parameters (empty: none)
  SwizzleMoves moves;
  ColumnXorForm column_xor_form;
  bool counts_elements;       // cute's parameters over element indices (cute-elem), not bytes
  int tma_span_bytes;         // a TMA mode's swizzle span: 32, 64, 128; 0 for the others
  int tma_chunk_bytes;        // the unit a TMA mode permutes: 16, or 32/64 (Blackwell's atoms)
  std::string_view caveat;    // "predicted: not measured on Blackwell" where it applies
  std::string_view notation;  // Spelling::notation: "banklab", "cute (bytes)", "tma", ...
  int simplicity;  // the solver's rank among equally cheap layouts, lower first (none: 0)

  Swizzle (*byte_swizzle)(const SwizzleSpec& s, int elem_bytes);
  int (*column_xor)(const SwizzleSpec& s, int row, int cols);
  Expected<void> (*check_parameters)(const SwizzleSpec& s);  // done, or the rule they break
  // The rule the tile breaks under this kind (TileLayout::check, after the size rules).
  Expected<void> (*check_tile)(const TileLayout& t);
  // How the kind's own tool writes the tile (Spelling::native), before ", rows padded by P".
  std::string (*native)(const TileLayout& t);
  // The byte swizzle that places every element where this layout does, if one exists (the
  // byte kinds' own, xor's and Triton's power-of-two reductions): candidate spellings.
  std::optional<Swizzle> (*equivalent_byte_swizzle)(const TileLayout& t);
  // The layouts of this kind the solver tries for an unpadded tile of `elem_bytes` elements and
  // `tile_bytes` bytes, appended to `out` (core/solve/solve.cpp walks the kinds simplest first);
  // named_in_sweep: a user would name them, so a tile that refuses one is listed as rejected
  // (xor, the TMA modes), where the parameter sweeps (CuTe, Triton) are only counted.
  void (*sweep)(const SwizzleKindInfo& self, int elem_bytes, std::int64_t tile_bytes,
                std::vector<SwizzleSpec>& out);
  bool named_in_sweep;
};

const SwizzleKindInfo& swizzle_kind(SwizzleKind kind);
// Every kind, in the order the CLI lists them (none, xor, cute, cute-elem, tma32, tma64,
// tma128, tma128-atom32, tma128-atom64, triton); the enumerators' order (the GUI's list)
// differs.
std::span<const SwizzleKindInfo> swizzle_kinds();

// "none", "xor", "cute:B,M,S" (bytes), "cute-elem:B,M,S" (elements), "tma32", "tma64",
// "tma128", "triton:VEC,PERPHASE,MAXPHASE": the CLI spelling, also printed.
std::string to_string(const SwizzleSpec& s);
Expected<SwizzleSpec> parse_swizzle(std::string_view text);
std::ostream& operator<<(std::ostream& os, const SwizzleSpec& s);

}  // namespace banklab
