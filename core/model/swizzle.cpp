// The swizzles (swizzle.hpp): the parameter types, then one descriptor per SwizzleKind and the
// functions its fields point to, then spelling and parsing through the descriptors.
//
// [SECTION] Swizzle, TritonSwizzle and SwizzleSpec
// [SECTION] The maps: bytes through a Swizzle, or columns XORed by a value of the row
// [SECTION] The rules: the parameters alone, then the tile under the kind
// [SECTION] How each kind's own tool writes a tile, and the byte swizzle it equals
// [SECTION] The descriptors
// [SECTION] Spelling and parsing
#include "core/model/swizzle.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <iterator>
#include <ostream>
#include <sstream>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"
#include "core/model/layout.hpp"

namespace banklab {

// [SECTION] Swizzle, TritonSwizzle and SwizzleSpec

Expected<void> Swizzle::check() const {
  // Summed in 64 bits, |S| taken in 64 bits: absurd parameters must not overflow.
  const std::int64_t abs_shift = shift < 0 ? -std::int64_t{shift} : std::int64_t{shift};
  if (bits >= 0 && base >= 0 && abs_shift >= bits && std::int64_t{bits} + base + abs_shift <= 30)
    return {};
  std::ostringstream msg;
  msg << "Swizzle<" << bits << "," << base << "," << shift << ">";
  if (bits < 0 || base < 0) {
    msg << " has a negative B or M; B and M must be >= 0 (only S may be negative)";
  } else if (abs_shift < bits) {
    // With |S| < B the source bits overlap the bits they change, and the map is no longer its
    // own inverse; with S = 0 two offsets land on one. CuTe refuses |S| < B for this reason.
    msg << " is not its own inverse: |S| (" << abs_shift << ") must be >= B (" << bits
        << ") so the bits read are not the bits written";
  } else {
    msg << " reaches bit " << std::int64_t{bits} + base + abs_shift
        << "; B + M + |S| must be at most 30";
  }
  return Error{msg.str()};
}

std::ostream& operator<<(std::ostream& os, const Swizzle& s) {
  return os << "Swizzle<" << s.bits << "," << s.base << "," << s.shift << ">";
}

int TritonSwizzle::column_xor(int row, int cols) const {
  // Row r XORs the bases of its set bits: Triton's linear layout, bit by bit.
  int x = 0;
  for (int k = 0; (row >> k) != 0; ++k) {
    if ((row >> k & 1) == 0) continue;
    const std::int64_t phase = (std::int64_t{1} << k) / per_phase % max_phase;
    x ^= static_cast<int>(vec * phase % cols);
  }
  return x;
}

Expected<void> TritonSwizzle::check() const {
  constexpr int kMax = 1024;
  if (vec >= 1 && vec <= kMax && per_phase >= 1 && per_phase <= kMax && max_phase >= 1 &&
      max_phase <= kMax) {
    return {};
  }
  return Error{"triton:" + std::to_string(vec) + "," + std::to_string(per_phase) + "," +
               std::to_string(max_phase) +
               ": vec, perPhase and maxPhase must each be between 1 and " + std::to_string(kMax)};
}

Swizzle SwizzleSpec::byte_swizzle(int elem_bytes) const {
  return swizzle_kind(kind).byte_swizzle(*this, elem_bytes);
}

int SwizzleSpec::column_xor(int row, int cols) const {
  return swizzle_kind(kind).column_xor(*this, row, cols);
}

int SwizzleSpec::tma_span_bytes() const {
  return swizzle_kind(kind).tma_span_bytes;
}

int SwizzleSpec::tma_repeat_bytes() const {
  if (!is_tma()) return 0;
  return 1 << byte_swizzle(1).period_log2();
}

int SwizzleSpec::tma_alignment_bytes() const {
  if (kind == SwizzleKind::none) return kTmaAlignmentBytes;
  return tma_repeat_bytes();
}

namespace {

std::string triple(std::string_view prefix, int a, int b, int c) {
  std::string text(prefix);
  text += std::to_string(a);
  text += ',';
  text += std::to_string(b);
  text += ',';
  text += std::to_string(c);
  return text;
}

// "B,M,S" or "VEC,PERPHASE,MAXPHASE": three integers separated by commas, nothing else.
bool parse_triple(std::string_view rest, int values[3]) {
  for (int i = 0; i < 3; ++i) {
    const char* first = rest.data();
    const char* last = rest.data() + rest.size();
    auto [end, ec] = std::from_chars(first, last, values[i]);
    const bool separator_ok = (i < 2) ? (end != last && *end == ',') : (end == last);
    if (ec != std::errc() || !separator_ok) return false;
    rest = rest.substr(static_cast<std::size_t>(end - first) + (i < 2 ? 1 : 0));
  }
  return true;
}

// [SECTION] The maps: bytes through a Swizzle, or columns XORed by a value of the row

Swizzle no_byte_swizzle(const SwizzleSpec&, int) {
  return {0, 0, 0};  // none, xor, triton: columns move, not bytes
}

Swizzle cute_bytes(const SwizzleSpec& s, int) {
  return s.cute;
}

Swizzle cute_elements(const SwizzleSpec& s, int elem_bytes) {
  // Element index i is byte i * e: bit M of the index is bit M + log2(e) of the byte.
  return {s.cute.bits, s.cute.base + std::countr_zero(static_cast<unsigned>(elem_bytes)),
          s.cute.shift};
}

// The TMA modes are Swizzle<log2(span / chunk), log2(chunk), 7 - log2(chunk)>: chunks of 16
// bytes (Blackwell's atoms: 32 or 64) permuted within the span by address bits 7 and up, the
// 128-byte line: Swizzle<1,4,3>, <2,4,3>, <3,4,3>; <2,5,2> and <1,6,1>.
Swizzle tma_bytes(const SwizzleSpec& s, int) {
  const SwizzleKindInfo& k = swizzle_kind(s.kind);
  const int chunk_bits = std::countr_zero(static_cast<unsigned>(k.tma_chunk_bytes));
  return {std::countr_zero(static_cast<unsigned>(k.tma_span_bytes / k.tma_chunk_bytes)), chunk_bits,
          7 - chunk_bits};
}

int no_column_xor(const SwizzleSpec&, int, int) {
  return 0;
}

int row_mod_columns(const SwizzleSpec&, int row, int cols) {
  // cols is a power of two (check_xor_tile), so c ^ (r mod C) stays inside the row.
  return row & (cols - 1);
}

int triton_column_xor(const SwizzleSpec& s, int row, int cols) {
  return s.triton.column_xor(row, cols);
}

// [SECTION] The rules: the parameters alone, then the tile under the kind

Expected<void> no_parameters(const SwizzleSpec&) {
  return {};
}

Expected<void> cute_parameters(const SwizzleSpec& s) {
  return s.cute.check();
}

Expected<void> triton_parameters(const SwizzleSpec& s) {
  return s.triton.check();
}

Expected<void> any_tile(const TileLayout&) {
  return {};
}

Expected<void> check_xor_tile(const TileLayout& t) {
  if (std::has_single_bit(static_cast<unsigned>(t.cols))) return {};
  std::ostringstream msg;
  msg << "the xor swizzle stores (r, c) at column c ^ (r mod C), which stays inside the row "
         "only when C is a power of two; C is "
      << t.cols;
  return Error{msg.str()};
}

// Does the byte swizzle map the tile's bytes [0, size) onto themselves? The swizzle only
// changes bits below 2^period_log2, so whole periods are permuted in place; only a last,
// partial period can send an offset past the end of the tile. Bits below M never change, so
// the 2^M bytes from an aligned x move together (x + d goes to s(x) + d): it is enough to try
// one offset per 2^M bytes of that partial period, with the part of its block inside the tile.
bool swizzle_stays_inside(const Swizzle& s, std::int64_t size, std::int64_t* escaping) {
  const std::int64_t period = std::int64_t{1} << s.period_log2();
  const std::int64_t start = size / period * period;
  const std::int64_t step = std::int64_t{1} << s.base;
  for (std::int64_t x = start; x < size; x += step) {
    if (s(x) + std::min(step, size - x) > size) {
      *escaping = x + std::max(std::int64_t{0}, size - s(x));  // the first byte sent past the end
      return false;
    }
  }
  return true;
}

// The rules of a CuTe swizzle on a tile: its parameters, whole elements, and a bijection on
// the tile's bytes. cute-elem is checked in its byte form, and its messages say both.
Expected<void> check_cute_tile(const TileLayout& t) {
  const int e = t.elem_bytes();
  if (Expected<void> valid = t.swizzle.cute.check(); !valid) return valid;
  const Swizzle s = t.byte_swizzle();  // cute-elem's M, raised by log2 e, may pass bit 30
  if (Expected<void> valid = s.check(); !valid) return valid;
  std::ostringstream name;
  name << s;
  if (swizzle_kind(t.swizzle.kind).counts_elements) {
    name << " (" << to_string(t.swizzle) << " on " << dtype_name(t.dtype) << " elements, in bytes)";
  }
  if (s.bits > 0 && (std::int64_t{1} << s.base) < e) {
    std::ostringstream msg;
    msg << name.str() << " touches byte-offset bit " << s.base << ", inside a " << e
        << "-byte element, which would split elements; M must be at least "
        << std::countr_zero(static_cast<unsigned>(e)) << " for " << dtype_name(t.dtype)
        << " byte offsets (or use cute-elem:B,M,S, which counts elements)";
    return Error{msg.str()};
  }
  std::int64_t escaping = 0;
  if (swizzle_stays_inside(s, t.size_bytes(), &escaping)) return {};
  std::ostringstream msg;
  msg << name.str() << " is not a bijection on the " << t.size_bytes() << " B tile: byte "
      << escaping << " would move to " << s(escaping) << ", past the end; the tile must be a "
      << "whole number of the swizzle's " << (std::int64_t{1} << s.period_log2())
      << "-byte periods";
  return Error{msg.str()};
}

// Triton's swizzled shared layouts are linear maps over the bits of power-of-two shapes, and
// have no padding (Triton's padded_shared is another encoding).
Expected<void> check_triton_tile(const TileLayout& t) {
  if (Expected<void> valid = t.swizzle.triton.check(); !valid) return valid;
  std::ostringstream msg;
  msg << to_string(t.swizzle) << ": ";
  if (!std::has_single_bit(static_cast<unsigned>(t.rows)) ||
      !std::has_single_bit(static_cast<unsigned>(t.cols))) {
    msg << "Triton's swizzled shared layout is a linear map over the bits of a power-of-two "
           "shape; the tile is "
        << t.rows << "x" << t.cols;
  } else if (t.pad != 0) {
    msg << "Triton's swizzled shared layout has no padding (pad " << t.pad << " given)";
  } else {
    return {};
  }
  return Error{msg.str()};
}

// TMA writes its box densely: no pad; a box row is a multiple of 16 B and at most the span;
// a narrower row is placed at span pitch; the tile is a whole number of repeats.
Expected<void> check_tma_tile(const TileLayout& t) {
  const int e = t.elem_bytes();
  const int span = t.swizzle.tma_span_bytes();
  const int repeat = t.swizzle.tma_repeat_bytes();
  const std::int64_t row = t.row_bytes();
  if (t.pad == 0 && row <= span && row % kTmaBoxRowMultipleBytes == 0 &&
      t.size_bytes() % repeat == 0)
    return {};
  std::ostringstream msg;
  msg << "TMA " << span << "B swizzle";
  if (t.pad != 0) {
    msg << ": TMA writes its box densely, so a TMA-swizzled tile has no padding (pad " << t.pad
        << " given)";
  } else if (row > span) {
    msg << " spans " << span << " B but a row of " << to_string(t) << " is " << row
        << " B: TMA allows a box row of at most the swizzle span; use at most " << span / e
        << " columns of " << dtype_name(t.dtype);
    // 128B is the widest mode: a wider tile is loaded as several boxes, one per 128-byte slab.
    if (span < 128) {
      msg << ", or a wider mode (" << (span == 32 ? "tma64 or tma128" : "tma128") << ")";
    } else {
      msg << " per box (no TMA mode is wider than 128B: load a wider tile as boxes of 128-byte "
             "rows, each its own swizzled region)";
    }
  } else if (row % kTmaBoxRowMultipleBytes != 0) {
    msg << ": a TMA box row must be a multiple of " << kTmaBoxRowMultipleBytes
        << " B, and a row of " << to_string(t) << " is " << row << " B";
  } else {
    msg << " repeats every " << repeat << " B (" << repeat / t.pitch_bytes() << " rows of "
        << t.pitch_bytes() << " B); the tile's " << t.rows << " rows (" << t.size_bytes()
        << " B) are not a whole number of repeats";
  }
  return Error{msg.str()};
}

// [SECTION] How each kind's own tool writes a tile, and the byte swizzle it equals

std::string native_banklab(const TileLayout& t) {
  return to_string(t);
}

std::string native_xor(const TileLayout& t) {
  return to_string(t) + ": element (r, c) at column c ^ (r mod " + std::to_string(t.cols) + ")";
}

std::string native_cute_bytes(const TileLayout& t) {
  std::ostringstream native;
  native << t.swizzle.cute << " on byte offsets";
  return native.str();
}

std::string native_cute_elements(const TileLayout& t) {
  std::ostringstream native;
  native << t.swizzle.cute << " on " << dtype_name(t.dtype) << " element indices";
  return native.str();
}

std::string native_tma(const TileLayout& t) {
  const SwizzleKindInfo& k = swizzle_kind(t.swizzle.kind);
  std::ostringstream native;
  native << "CU_TENSOR_MAP_SWIZZLE_" << t.swizzle.tma_span_bytes() << "B";
  if (k.tma_chunk_bytes != 16) native << "_ATOM_" << k.tma_chunk_bytes << "B";
  if (t.row_bytes() < t.pitch_bytes()) {
    native << " (" << t.row_bytes() << "-byte box rows at " << t.pitch_bytes() << "-byte pitch)";
  }
  if (!k.caveat.empty()) native << " (" << k.caveat << ")";
  return native.str();
}

std::string native_triton(const TileLayout& t) {
  const TritonSwizzle& tr = t.swizzle.triton;
  std::ostringstream native;
  native << "#ttg.swizzled_shared<{vec=" << tr.vec << ", perPhase=" << tr.per_phase
         << ", maxPhase=" << tr.max_phase << ", order=[1,0]}> (" << t.elem_bytes() * 8
         << "-bit elements)";
  return native.str();
}

std::optional<Swizzle> no_byte_form(const TileLayout&) {
  return std::nullopt;
}

std::optional<Swizzle> own_byte_form(const TileLayout& t) {
  return t.byte_swizzle();
}

// c ^ (r mod C) with C = 2^k is Swizzle<k, log2 e, k> on the bytes of C-element rows.
std::optional<Swizzle> xor_byte_form(const TileLayout& t) {
  const int k = log2_exact(t.cols);
  return Swizzle{k, log2_exact(t.elem_bytes()), k};
}

// Triton's reduction for power-of-two parameters (TritonSwizzle).
std::optional<Swizzle> triton_byte_form(const TileLayout& t) {
  const TritonSwizzle& tr = t.swizzle.triton;
  const int b = log2_exact(tr.max_phase);
  const int m = log2_exact(std::int64_t{tr.vec} * t.elem_bytes());
  const int row_phase = log2_exact(t.row_bytes() * tr.per_phase);
  if (b < 0 || m < 0 || row_phase < 0) return std::nullopt;
  return Swizzle{b, m, row_phase - m};
}

// [SECTION] The descriptors

constexpr std::string_view kCuteHelp =
    "x ^ ((x & yyy_mask) >> S) on the byte offset: B bits taken from bit M+S are XORed into bit "
    "M (S < 0: from bit M into bit M+|S|). |S| >= B keeps it a bijection.";
constexpr std::string_view kCuteElementsHelp =
    "The same Swizzle on element indices, as CuTe code composes it with an element layout: in "
    "bytes, M is raised by log2 of the element size.";
constexpr std::string_view kTritonHelp =
    "#ttg.swizzled_shared, row-major: element (r, c) at column c ^ x(r), x(r) the XOR of (vec * "
    "((2^k / perPhase) mod maxPhase)) mod C over r's bits 2^k. vec counts elements, perPhase "
    "rows.";

// The solver's sweeps (SwizzleKindInfo::sweep).

void no_sweep(const SwizzleKindInfo&, int, std::int64_t, std::vector<SwizzleSpec>&) {}

// A kind without parameters: its one layout.
void sweep_example(const SwizzleKindInfo& self, int, std::int64_t, std::vector<SwizzleSpec>& out) {
  out.push_back(self.example);
}

// CuTe over bytes (CuTe over elements is the same set with M lowered by log2 e, so it sweeps
// nothing of its own): the B bits changed lie within the bank bits (below bit 7: a 128-byte
// line), above the element; the bits read lie inside the tile. S positive (rows into columns)
// and negative.
void sweep_cute(const SwizzleKindInfo&, int elem_bytes, std::int64_t tile_bytes,
                std::vector<SwizzleSpec>& out) {
  const int log_e = std::countr_zero(static_cast<unsigned>(elem_bytes));
  const int tile_bits =
      static_cast<int>(std::bit_width(static_cast<std::uint64_t>(tile_bytes))) - 1;
  for (int bits = 1; bits <= 5; ++bits) {
    for (int base = log_e; base + bits <= 7; ++base) {
      for (int shift = bits; base + shift + bits <= tile_bits; ++shift) {
        out.push_back(SwizzleSpec{SwizzleKind::cute, {bits, base, shift}});
      }
      for (int shift = -bits; base - shift + bits <= 7; --shift) {
        out.push_back(SwizzleSpec{SwizzleKind::cute, {bits, base, shift}});
      }
    }
  }
}

// Triton: vectors up to 16 bytes, every power-of-two phase length and count.
void sweep_triton(const SwizzleKindInfo&, int elem_bytes, std::int64_t,
                  std::vector<SwizzleSpec>& out) {
  for (int vec = 1; vec * elem_bytes <= 16; vec *= 2) {
    for (int per_phase = 1; per_phase <= 8; per_phase *= 2) {
      for (int max_phase = 2; max_phase <= 32; max_phase *= 2) {
        out.push_back(SwizzleSpec{SwizzleKind::triton, {}, {vec, per_phase, max_phase}});
      }
    }
  }
}

constexpr std::string_view kNotMeasuredOnBlackwell = "predicted: not measured on Blackwell";

// A TMA mode: tma_bytes' Swizzle, and nothing else of its own but the span and the chunk.
constexpr SwizzleKindInfo tma_mode(SwizzleKind kind, std::string_view name, std::string_view label,
                                   int span, int chunk = 16, std::string_view caveat = {}) {
  return {.kind = kind,
          .name = name,
          .parameters = SwizzleParameters::none,
          .usage = name,
          .expected = {},
          .example = SwizzleSpec{kind},
          .label = label,
          .help = {},
          .moves = SwizzleMoves::bytes,
          .column_xor_form = ColumnXorForm::none,
          .counts_elements = false,
          .tma_span_bytes = span,
          .tma_chunk_bytes = chunk,
          .caveat = caveat,
          .notation = "tma",
          .simplicity = 3,
          .byte_swizzle = tma_bytes,
          .column_xor = no_column_xor,
          .check_parameters = no_parameters,
          .check_tile = check_tma_tile,
          .native = native_tma,
          .equivalent_byte_swizzle = own_byte_form,
          .sweep = sweep_example,
          .named_in_sweep = true};
}

// In the order the CLI lists them.
constexpr SwizzleKindInfo kKinds[] = {
    {.kind = SwizzleKind::none,
     .name = "none",
     .parameters = SwizzleParameters::none,
     .usage = "none",
     .expected = {},
     .example = SwizzleSpec{},
     .label = "none",
     .help = {},
     .moves = SwizzleMoves::nothing,
     .column_xor_form = ColumnXorForm::none,
     .counts_elements = false,
     .tma_span_bytes = 0,
     .tma_chunk_bytes = 0,
     .caveat = {},
     .notation = "banklab",
     .simplicity = 0,
     .byte_swizzle = no_byte_swizzle,
     .column_xor = no_column_xor,
     .check_parameters = no_parameters,
     .check_tile = any_tile,
     .native = native_banklab,
     .equivalent_byte_swizzle = no_byte_form,
     .sweep = no_sweep,
     .named_in_sweep = false},
    {.kind = SwizzleKind::xor_columns,
     .name = "xor",
     .parameters = SwizzleParameters::none,
     .usage = "xor",
     .expected = {},
     .example = SwizzleSpec{SwizzleKind::xor_columns},
     .label = "XOR c ^ r",
     .help = {},
     .moves = SwizzleMoves::columns,
     .column_xor_form = ColumnXorForm::row_mod_columns,
     .counts_elements = false,
     .tma_span_bytes = 0,
     .tma_chunk_bytes = 0,
     .caveat = {},
     .notation = "banklab",
     .simplicity = 2,
     .byte_swizzle = no_byte_swizzle,
     .column_xor = row_mod_columns,
     .check_parameters = no_parameters,
     .check_tile = check_xor_tile,
     .native = native_xor,
     .equivalent_byte_swizzle = xor_byte_form,
     .sweep = sweep_example,
     .named_in_sweep = true},
    {.kind = SwizzleKind::cute,
     .name = "cute",
     .parameters = SwizzleParameters::cute,
     .usage = "cute:B,M,S (bytes)",
     .expected = "cute:B,M,S with three integers (byte offsets), e.g. cute:3,4,3",
     .example = SwizzleSpec{SwizzleKind::cute, {3, 4, 3}},  // the 128-byte pattern
     .label = "CuTe Swizzle<B,M,S>, bytes",
     .help = kCuteHelp,
     .moves = SwizzleMoves::bytes,
     .column_xor_form = ColumnXorForm::none,
     .counts_elements = false,
     .tma_span_bytes = 0,
     .tma_chunk_bytes = 0,
     .caveat = {},
     .notation = "cute (bytes)",
     .simplicity = 4,
     .byte_swizzle = cute_bytes,
     .column_xor = no_column_xor,
     .check_parameters = cute_parameters,
     .check_tile = check_cute_tile,
     .native = native_cute_bytes,
     .equivalent_byte_swizzle = own_byte_form,
     .sweep = sweep_cute,
     .named_in_sweep = false},
    {.kind = SwizzleKind::cute_elem,
     .name = "cute-elem",
     .parameters = SwizzleParameters::cute,
     .usage = "cute-elem:B,M,S (elements)",
     .expected = "cute-elem:B,M,S with three integers (element indices), e.g. cute-elem:3,3,3",
     .example = SwizzleSpec{SwizzleKind::cute_elem, {3, 3, 3}},  // FlashAttention-2's bf16 pattern
     .label = "CuTe Swizzle<B,M,S>, elements",
     .help = kCuteElementsHelp,
     .moves = SwizzleMoves::bytes,
     .column_xor_form = ColumnXorForm::none,
     .counts_elements = true,
     .tma_span_bytes = 0,
     .tma_chunk_bytes = 0,
     .caveat = {},
     .notation = "cute (elements)",
     .simplicity = 5,
     .byte_swizzle = cute_elements,
     .column_xor = no_column_xor,
     .check_parameters = cute_parameters,
     .check_tile = check_cute_tile,
     .native = native_cute_elements,
     .equivalent_byte_swizzle = own_byte_form,
     .sweep = no_sweep,
     .named_in_sweep = false},
    tma_mode(SwizzleKind::tma32, "tma32", "TMA 32B", 32),
    tma_mode(SwizzleKind::tma64, "tma64", "TMA 64B", 64),
    tma_mode(SwizzleKind::tma128, "tma128", "TMA 128B", 128),
    tma_mode(SwizzleKind::tma128_atom32, "tma128-atom32",
             "TMA 128B, 32B atoms (Blackwell; predicted: not measured on Blackwell)", 128, 32,
             kNotMeasuredOnBlackwell),
    tma_mode(SwizzleKind::tma128_atom64, "tma128-atom64",
             "TMA 128B, 64B atoms (Blackwell; predicted: not measured on Blackwell)", 128, 64,
             kNotMeasuredOnBlackwell),
    {.kind = SwizzleKind::triton,
     .name = "triton",
     .parameters = SwizzleParameters::triton,
     .usage = "triton:VEC,PERPHASE,MAXPHASE",
     .expected = "triton:VEC,PERPHASE,MAXPHASE with three integers, e.g. triton:8,1,8",
     .example = SwizzleSpec{SwizzleKind::triton, {}, {8, 1, 8}},
     .label = "Triton vec/perPhase/maxPhase",
     .help = kTritonHelp,
     .moves = SwizzleMoves::columns,
     .column_xor_form = ColumnXorForm::row_bit_basis,
     .counts_elements = false,
     .tma_span_bytes = 0,
     .tma_chunk_bytes = 0,
     .caveat = {},
     .notation = "triton",
     .simplicity = 6,
     .byte_swizzle = no_byte_swizzle,
     .column_xor = triton_column_xor,
     .check_parameters = triton_parameters,
     .check_tile = check_triton_tile,
     .native = native_triton,
     .equivalent_byte_swizzle = triton_byte_form,
     .sweep = sweep_triton,
     .named_in_sweep = false},
};

constexpr std::size_t kKindCount = std::size(kKinds);

// Every enumerator has exactly one descriptor (the enumerators run from 0 without gaps).
constexpr bool each_kind_once() {
  std::array<int, kKindCount> seen{};
  for (const SwizzleKindInfo& k : kKinds) {
    const auto i = static_cast<std::size_t>(k.kind);
    if (i >= kKindCount || seen[i]++ != 0) return false;
  }
  return true;
}
static_assert(each_kind_once(), "each SwizzleKind needs exactly one descriptor in kKinds");

// kKinds' entry for each enumerator, found once at compile time.
constexpr std::array<std::size_t, kKindCount> kEntryOfKind = [] {
  std::array<std::size_t, kKindCount> entry{};
  for (std::size_t i = 0; i < kKindCount; ++i) entry[static_cast<std::size_t>(kKinds[i].kind)] = i;
  return entry;
}();

}  // namespace

// [SECTION] Spelling and parsing

const SwizzleKindInfo& swizzle_kind(SwizzleKind kind) {
  return kKinds[kEntryOfKind[static_cast<std::size_t>(kind)]];
}

std::span<const SwizzleKindInfo> swizzle_kinds() {
  return kKinds;
}

std::string to_string(const SwizzleSpec& s) {
  const SwizzleKindInfo& k = swizzle_kind(s.kind);
  const std::string prefix = std::string(k.name) + ":";
  switch (k.parameters) {
    case SwizzleParameters::none:
      return std::string(k.name);
    case SwizzleParameters::cute:
      return triple(prefix, s.cute.bits, s.cute.base, s.cute.shift);
    case SwizzleParameters::triton:
      return triple(prefix, s.triton.vec, s.triton.per_phase, s.triton.max_phase);
  }
  return std::string(k.name);
}

std::ostream& operator<<(std::ostream& os, const SwizzleSpec& s) {
  return os << to_string(s);
}

Expected<SwizzleSpec> parse_swizzle(std::string_view text) {
  for (const SwizzleKindInfo& k : kKinds) {
    if (k.parameters == SwizzleParameters::none) {
      if (text == k.name) return SwizzleSpec{k.kind};
      continue;
    }
    if (!text.starts_with(k.name) || text.substr(k.name.size(), 1) != ":") continue;
    int v[3] = {0, 0, 0};
    if (!parse_triple(text.substr(k.name.size() + 1), v)) {
      return Error{"bad swizzle " + quote(text) + ": expected " + std::string(k.expected)};
    }
    const SwizzleSpec spec = k.parameters == SwizzleParameters::triton
                                 ? SwizzleSpec{k.kind, {}, {v[0], v[1], v[2]}}
                                 : SwizzleSpec{k.kind, {v[0], v[1], v[2]}};
    if (Expected<void> valid = k.check_parameters(spec); !valid) return Error{valid.error()};
    return spec;
  }
  // "none, xor, ..., tma128 or triton:VEC,PERPHASE,MAXPHASE"
  std::string expected;
  for (std::size_t i = 0; i < kKindCount; ++i) {
    if (i > 0) expected += i + 1 == kKindCount ? " or " : ", ";
    expected += kKinds[i].usage;
  }
  return Error{"unknown swizzle " + quote(text) + ": expected " + expected};
}

}  // namespace banklab
