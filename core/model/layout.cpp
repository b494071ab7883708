#include "core/model/layout.hpp"

#include <algorithm>
#include <bit>
#include <ostream>
#include <sstream>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab {

namespace {

constexpr int kMaxSide = kMaxTileSide;
constexpr int kMaxPad = kMaxTilePad;

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
std::string check_cute(const TileLayout& t) {
  const int e = t.elem_bytes();
  if (std::string why = t.swizzle.cute.check(); !why.empty()) return why;
  const Swizzle s = t.byte_swizzle();  // cute-elem's M, raised by log2 e, may pass bit 30
  if (std::string why = s.check(); !why.empty()) return why;
  std::ostringstream name;
  name << s;
  if (t.swizzle.kind == SwizzleKind::cute_elem) {
    name << " (cute-elem:" << t.swizzle.cute.bits << "," << t.swizzle.cute.base << ","
         << t.swizzle.cute.shift << " on " << dtype_name(t.dtype) << " elements, in bytes)";
  }
  if (s.bits > 0 && (std::int64_t{1} << s.base) < e) {
    std::ostringstream msg;
    msg << name.str() << " touches byte-offset bit " << s.base << ", inside a " << e
        << "-byte element, which would split elements; M must be at least "
        << std::countr_zero(static_cast<unsigned>(e)) << " for " << dtype_name(t.dtype)
        << " byte offsets (or use cute-elem:B,M,S, which counts elements)";
    return msg.str();
  }
  std::int64_t escaping = 0;
  if (swizzle_stays_inside(s, t.size_bytes(), &escaping)) return {};
  std::ostringstream msg;
  msg << name.str() << " is not a bijection on the " << t.size_bytes() << " B tile: byte "
      << escaping << " would move to " << s(escaping) << ", past the end; the tile must be a "
      << "whole number of the swizzle's " << (std::int64_t{1} << s.period_log2())
      << "-byte periods";
  return msg.str();
}

// Triton's swizzled shared layouts are linear maps over the bits of power-of-two shapes, and
// have no padding (Triton's padded_shared is another encoding).
std::string check_triton(const TileLayout& t) {
  if (std::string why = t.swizzle.triton.check(); !why.empty()) return why;
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
  return msg.str();
}

// TMA writes its box densely: no pad; a box row is a multiple of 16 B and at most the span;
// a narrower row is placed at span pitch; the tile is a whole number of repeats.
std::string check_tma(const TileLayout& t) {
  const int e = t.elem_bytes();
  const int span = t.swizzle.tma_span_bytes();
  const int repeat = t.swizzle.tma_repeat_bytes();
  const std::int64_t row = t.row_bytes();
  if (t.pad == 0 && row <= span && row % 16 == 0 && t.size_bytes() % repeat == 0) return {};
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
  } else if (row % 16 != 0) {
    msg << ": a TMA box row must be a multiple of 16 B, and a row of " << to_string(t) << " is "
        << row << " B";
  } else {
    msg << " repeats every " << repeat << " B (" << repeat / t.pitch_bytes() << " rows of "
        << t.pitch_bytes() << " B); the tile's " << t.rows << " rows (" << t.size_bytes()
        << " B) are not a whole number of repeats";
  }
  return msg.str();
}

}  // namespace

std::int64_t TileLayout::operator()(int r, int c) const {
  switch (swizzle.kind) {
    case SwizzleKind::none:
      return logical_byte(r, c);
    case SwizzleKind::xor_columns:
      // cols is a power of two (check()), so c ^ (r mod C) stays inside the row.
      return logical_byte(r, c ^ (r & (cols - 1)));
    case SwizzleKind::triton:
      return logical_byte(r, c ^ swizzle.triton.column_xor(r, cols));
    case SwizzleKind::cute:
    case SwizzleKind::cute_elem:
    case SwizzleKind::tma32:
    case SwizzleKind::tma64:
    case SwizzleKind::tma128:
      return byte_swizzle()(logical_byte(r, c));
  }
  return logical_byte(r, c);
}

Cell TileLayout::physical_cell(int r, int c) const {
  const std::int64_t byte = (*this)(r, c);
  return {static_cast<int>(byte / pitch_bytes()),
          static_cast<int>(byte % pitch_bytes() / elem_bytes())};
}

int TileLayout::bank(int r, int c) const {
  return bank_of_byte((*this)(r, c));
}

std::optional<Cell> TileLayout::element_at(std::int64_t byte) const {
  // Every layout is its own inverse on the slot level: the byte swizzles are involutions, and
  // xor and triton XOR the column by a value of the row alone.
  const std::int64_t logical = byte_swizzle()(byte);
  const int r = static_cast<int>(logical / pitch_bytes());
  int c = static_cast<int>(logical % pitch_bytes() / elem_bytes());
  if (c >= cols) return std::nullopt;  // padding, or the gap of a narrow TMA box
  if (swizzle.kind == SwizzleKind::xor_columns) c ^= r & (cols - 1);
  if (swizzle.kind == SwizzleKind::triton) c ^= swizzle.triton.column_xor(r, cols);
  return Cell{r, c};
}

bool TileLayout::is_gap_slot(int row, int slot) const {
  return !element_at(row * pitch_bytes() + std::int64_t{slot} * elem_bytes()).has_value();
}

// Each rule builds its message only when it fails: check() runs on every evaluation, and the
// valid path must cost next to nothing.
std::string TileLayout::check() const {
  if (rows < 1 || rows > kMaxSide || cols < 1 || cols > kMaxSide) {
    std::ostringstream msg;
    msg << "tile " << rows << "x" << cols << " is not a tile: each side must be between 1 and "
        << kMaxSide << " elements";
    return msg.str();
  }
  if (pad < 0 || pad > kMaxPad) {
    std::ostringstream msg;
    msg << "pad " << pad << " is out of range: a row can be padded by 0 to " << kMaxPad
        << " elements";
    return msg.str();
  }
  // The most one block can have (an extern array; the code form above 48 KB, code_view.hpp).
  if (std::string why =
          check_shared_bytes(size_bytes(), SharedDeclaration::extern_array, to_string(*this));
      !why.empty()) {
    return why;
  }
  switch (swizzle.kind) {
    case SwizzleKind::none:
      return {};
    case SwizzleKind::xor_columns: {
      if (std::has_single_bit(static_cast<unsigned>(cols))) return {};
      std::ostringstream msg;
      msg << "the xor swizzle stores (r, c) at column c ^ (r mod C), which stays inside the row "
             "only when C is a power of two; C is "
          << cols;
      return msg.str();
    }
    case SwizzleKind::triton:
      return check_triton(*this);
    case SwizzleKind::cute:
    case SwizzleKind::cute_elem:
      return check_cute(*this);
    case SwizzleKind::tma32:
    case SwizzleKind::tma64:
    case SwizzleKind::tma128:
      return check_tma(*this);
  }
  return {};
}

std::string to_string(const TileLayout& t) {
  std::ostringstream os;
  // 64-bit: the tile being printed may be an absurd one that check() is about to refuse.
  os << dtype_c_name(t.dtype) << " tile[" << t.rows << "][" << std::int64_t{t.cols} + t.pad << "]";
  if (t.swizzle.kind != SwizzleKind::none) os << " " << to_string(t.swizzle);
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const TileLayout& t) {
  return os << to_string(t);
}

std::vector<std::string> Spelling::args() const {
  std::vector<std::string> out;
  if (pad != 0) out.insert(out.end(), {"--pad", std::to_string(pad)});
  if (swizzle.kind != SwizzleKind::none) out.insert(out.end(), {"--swizzle", to_string(swizzle)});
  return out;
}

namespace {

int log2_exact(std::int64_t x) {  // -1 unless x is a power of two
  return x > 0 && std::has_single_bit(static_cast<std::uint64_t>(x))
             ? std::countr_zero(static_cast<std::uint64_t>(x))
             : -1;
}

}  // namespace

Spelling spelling(const TileLayout& t) {
  const int e = t.elem_bytes();
  const SwizzleSpec& sw = t.swizzle;
  std::ostringstream native;
  std::string notation = "banklab";
  switch (sw.kind) {
    case SwizzleKind::none:
      native << to_string(t);
      break;
    case SwizzleKind::xor_columns:
      native << to_string(t) << ": element (r, c) at column c ^ (r mod " << t.cols << ")";
      break;
    case SwizzleKind::cute:
      notation = "cute (bytes)";
      native << sw.cute << " on byte offsets";
      break;
    case SwizzleKind::cute_elem:
      notation = "cute (elements)";
      native << sw.cute << " on " << dtype_name(t.dtype) << " element indices";
      break;
    case SwizzleKind::tma32:
    case SwizzleKind::tma64:
    case SwizzleKind::tma128:
      notation = "tma";
      native << "CU_TENSOR_MAP_SWIZZLE_" << sw.tma_span_bytes() << "B";
      if (t.row_bytes() < t.pitch_bytes()) {
        native << " (" << t.row_bytes() << "-byte box rows at " << t.pitch_bytes()
               << "-byte pitch)";
      }
      break;
    case SwizzleKind::triton:
      notation = "triton";
      native << "#ttg.swizzled_shared<{vec=" << sw.triton.vec
             << ", perPhase=" << sw.triton.per_phase << ", maxPhase=" << sw.triton.max_phase
             << ", order=[1,0]}> (" << e * 8 << "-bit elements)";
      break;
  }
  if (t.pad != 0 && sw.kind != SwizzleKind::none) native << ", rows padded by " << t.pad;
  return Spelling{notation, t.pad, sw, native.str()};
}

namespace {

// The byte swizzle that t applies, in CuTe's terms, if it has one: the byte kinds' own,
// xor's Swizzle<log2 C, log2 e, log2 C>, and Triton's reduction for power-of-two parameters.
std::optional<Swizzle> byte_form(const TileLayout& t) {
  const int log_e = std::countr_zero(static_cast<unsigned>(t.elem_bytes()));
  switch (t.swizzle.kind) {
    case SwizzleKind::none:
      return std::nullopt;
    case SwizzleKind::xor_columns: {
      const int k = log2_exact(t.cols);
      return Swizzle{k, log_e, k};
    }
    case SwizzleKind::triton: {
      const TritonSwizzle& tr = t.swizzle.triton;
      const int b = log2_exact(tr.max_phase);
      const int m = log2_exact(std::int64_t{tr.vec} * t.elem_bytes());
      const int row_phase = log2_exact(t.row_bytes() * tr.per_phase);
      if (b < 0 || m < 0 || row_phase < 0) return std::nullopt;
      return Swizzle{b, m, row_phase - m};
    }
    default:
      return t.byte_swizzle();
  }
}

// Every spelling t might have in another notation; spellings() keeps the ones that are exact.
std::vector<TileLayout> candidate_spellings(const TileLayout& t) {
  std::vector<TileLayout> out;
  auto with = [&](int pad, SwizzleSpec sw) {
    TileLayout c = t;
    c.pad = pad;
    c.swizzle = sw;
    out.push_back(c);
  };
  with(0, SwizzleSpec{SwizzleKind::xor_columns});
  const std::optional<Swizzle> s = byte_form(t);
  if (!s || s->bits <= 0) return out;
  const int log_e = std::countr_zero(static_cast<unsigned>(t.elem_bytes()));
  // A narrow TMA box is the same bytes as a tile padded to the span, swizzled in bytes.
  const int pad = static_cast<int>((t.pitch_bytes() - t.row_bytes()) / t.elem_bytes()) + t.pad;
  with(pad, SwizzleSpec{SwizzleKind::cute, *s});
  if (s->base >= log_e) {
    with(pad, SwizzleSpec{SwizzleKind::cute_elem, {s->bits, s->base - log_e, s->shift}});
  }
  for (SwizzleKind k : {SwizzleKind::tma32, SwizzleKind::tma64, SwizzleKind::tma128}) {
    if (SwizzleSpec{k}.byte_swizzle(1) == *s) with(0, SwizzleSpec{k});
  }
  // Triton: vec = 2^M / e, maxPhase = 2^B, perPhase = 2^(M+S) / row bytes.
  const int log_row = log2_exact(t.row_bytes());
  if (s->base >= log_e && s->shift > 0 && log_row >= 0 && s->base + s->shift >= log_row) {
    with(0,
         SwizzleSpec{SwizzleKind::triton,
                     {},
                     {1 << (s->base - log_e), 1 << (s->base + s->shift - log_row), 1 << s->bits}});
  }
  return out;
}

}  // namespace

std::vector<std::int32_t> byte_map(const TileLayout& t) {
  // The layout function with everything that does not depend on (r, c) taken out of the loop.
  std::vector<std::int32_t> out(static_cast<std::size_t>(t.rows) *
                                static_cast<std::size_t>(t.cols));
  const std::int64_t pitch = t.pitch_bytes();
  const std::int64_t e = t.elem_bytes();
  const Swizzle s = t.byte_swizzle();
  std::size_t i = 0;
  for (int r = 0; r < t.rows; ++r) {
    int x = 0;  // the row's column XOR (xor, triton)
    if (t.swizzle.kind == SwizzleKind::xor_columns) x = r & (t.cols - 1);
    if (t.swizzle.kind == SwizzleKind::triton) x = t.swizzle.triton.column_xor(r, t.cols);
    const std::int64_t row = r * pitch;
    if (s.bits == 0) {
      for (int c = 0; c < t.cols; ++c) out[i++] = static_cast<std::int32_t>(row + (c ^ x) * e);
    } else {  // x is 0 here: only the byte swizzles
      for (int c = 0; c < t.cols; ++c) out[i++] = static_cast<std::int32_t>(s(row + c * e));
    }
  }
  return out;
}

bool same_placement(const TileLayout& a, const TileLayout& b) {
  return a.rows == b.rows && a.cols == b.cols && a.dtype == b.dtype &&
         a.size_bytes() == b.size_bytes() && byte_map(a) == byte_map(b);
}

std::vector<Spelling> spellings(const TileLayout& t) {
  std::vector<Spelling> out = {spelling(t)};
  for (const TileLayout& c : candidate_spellings(t)) {
    const Spelling sp = spelling(c);
    const bool known = std::any_of(out.begin(), out.end(),
                                   [&](const Spelling& o) { return o.notation == sp.notation; });
    if (known || !c.check().empty() || !same_placement(t, c)) continue;
    out.push_back(sp);
  }
  return out;
}

Expected<Cell> parse_tile_size(std::string_view text) {
  const std::optional<Dimensions> size = parse_dimensions(text);
  if (!size) return Error{"bad tile size " + quote(text) + ": expected RxC, e.g. 32x32"};
  return Cell{size->first, size->second};
}

}  // namespace banklab
