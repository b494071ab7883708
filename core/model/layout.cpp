#include "core/model/layout.hpp"

#include <algorithm>
#include <bit>
#include <ostream>
#include <sstream>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab {

namespace {

constexpr int kMaxSide = kMaxTileSide;
constexpr int kMaxPad = kMaxTilePad;

}  // namespace

std::int64_t TileLayout::operator()(int r, int c) const {
  switch (swizzle_kind(swizzle.kind).moves) {
    case SwizzleMoves::nothing:
      return logical_byte(r, c);
    case SwizzleMoves::columns:
      return logical_byte(r, c ^ swizzle.column_xor(r, cols));
    case SwizzleMoves::bytes:
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
  c ^= swizzle.column_xor(r, cols);
  return Cell{r, c};
}

bool TileLayout::is_gap_slot(int row, int slot) const {
  return !element_at(row * pitch_bytes() + std::int64_t{slot} * elem_bytes()).has_value();
}

// Each rule builds its message only when it fails: check() runs on every evaluation, and the
// valid path must cost next to nothing.
Expected<void> TileLayout::check() const {
  if (rows < 1 || rows > kMaxSide || cols < 1 || cols > kMaxSide) {
    std::ostringstream msg;
    msg << "tile " << rows << "x" << cols << " is not a tile: each side must be between 1 and "
        << kMaxSide << " elements";
    return Error{msg.str()};
  }
  if (pad < 0 || pad > kMaxPad) {
    std::ostringstream msg;
    msg << "pad " << pad << " is out of range: a row can be padded by 0 to " << kMaxPad
        << " elements";
    return Error{msg.str()};
  }
  // The most one block can have (an extern array; the code form above 48 KB, code_view.hpp).
  // Named only when it does not fit: the name of every tile checked was a tenth of the drill
  // suites' time (issue 36).
  if (!shared_bytes_fit(size_bytes(), SharedDeclaration::extern_array)) {
    return check_shared_bytes(size_bytes(), SharedDeclaration::extern_array, to_string(*this));
  }
  return swizzle_kind(swizzle.kind).check_tile(*this);
}

std::string to_string(const TileLayout& t) {
  std::ostringstream os;
  // 64-bit: the tile being printed may be an absurd one that check() is about to refuse.
  os << dtype_c_name(t.dtype) << " tile[" << t.rows << "][" << std::int64_t{t.cols} + t.pad << "]";
  if (t.swizzle.kind != SwizzleKind::none) os << " " << to_string(t.swizzle);
  // Blackwell's TMA atom modes say, wherever a tile is named, that they are predicted.
  if (const std::string_view caveat = swizzle_kind(t.swizzle.kind).caveat; !caveat.empty()) {
    os << " (" << caveat << ")";
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const TileLayout& t) {
  return os << to_string(t);
}

std::vector<std::string> Spelling::args() const {
  // The layout's two keys, each left out at its default (no pad, no swizzle).
  Scenario s;
  s.tile.pad = pad;
  s.tile.swizzle = swizzle;
  std::vector<const ScenarioKey*> keys;
  if (pad != 0) keys.push_back(&named_key("pad"));
  if (swizzle.kind != SwizzleKind::none) keys.push_back(&named_key("swizzle"));
  return scenario_words(s, keys);
}

Spelling spelling(const TileLayout& t) {
  const SwizzleSpec& sw = t.swizzle;
  const SwizzleKindInfo& kind = swizzle_kind(sw.kind);
  std::string native = kind.native(t);
  if (t.pad != 0 && sw.kind != SwizzleKind::none)
    native += ", rows padded by " + std::to_string(t.pad);
  return Spelling{std::string(kind.notation), t.pad, sw, native};
}

namespace {

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
  const std::optional<Swizzle> s = swizzle_kind(t.swizzle.kind).equivalent_byte_swizzle(t);
  if (!s || s->bits <= 0) return out;
  const int log_e = std::countr_zero(static_cast<unsigned>(t.elem_bytes()));
  // A narrow TMA box is the same bytes as a tile padded to the span, swizzled in bytes.
  const int pad = static_cast<int>((t.pitch_bytes() - t.row_bytes()) / t.elem_bytes()) + t.pad;
  with(pad, SwizzleSpec{SwizzleKind::cute, *s});
  if (s->base >= log_e) {
    with(pad, SwizzleSpec{SwizzleKind::cute_elem, {s->bits, s->base - log_e, s->shift}});
  }
  for (const SwizzleKindInfo& k : swizzle_kinds()) {  // the TMA modes that are s
    if (k.tma_span_bytes != 0 && k.byte_swizzle(k.example, 1) == *s) with(0, k.example);
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
    const int x = t.swizzle.column_xor(r, t.cols);  // 0 unless the kind moves columns
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
    if (known || !c.check() || !same_placement(t, c)) continue;
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
