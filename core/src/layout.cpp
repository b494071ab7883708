#include "banklab/layout.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <ostream>
#include <sstream>

#include "banklab/format.hpp"
#include "banklab/hardware.hpp"

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

}  // namespace

std::int64_t TileLayout::operator()(int r, int c) const {
  switch (swizzle.kind) {
    case SwizzleKind::none: return logical_byte(r, c);
    case SwizzleKind::xor_columns:
      // cols is a power of two (check()), so c ^ (r mod C) stays inside the row.
      return logical_byte(r, c ^ (r & (cols - 1)));
    case SwizzleKind::cute:
    case SwizzleKind::tma32:
    case SwizzleKind::tma64:
    case SwizzleKind::tma128: return swizzle.byte_swizzle()(logical_byte(r, c));
  }
  return logical_byte(r, c);
}

Cell TileLayout::physical_cell(int r, int c) const {
  const std::int64_t byte = (*this)(r, c);
  return {static_cast<int>(byte / pitch_bytes()),
          static_cast<int>(byte % pitch_bytes() / elem_bytes())};
}

int TileLayout::bank(int r, int c) const { return bank_of_byte((*this)(r, c)); }

// Each rule builds its message only when it fails: check() runs on every evaluation, and the
// valid path must cost next to nothing.
std::string TileLayout::check() const {
  const int e = elem_bytes();
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
  if (size_bytes() > kSharedMemoryBytes) {
    std::ostringstream msg;
    msg << to_string(*this) << " needs " << size_bytes() << " B, more than the "
        << kSharedMemoryBytes << " B (228 KB) of shared memory an H100/H200 SM has";
    return msg.str();
  }
  switch (swizzle.kind) {
    case SwizzleKind::none: return {};
    case SwizzleKind::xor_columns: {
      if (std::has_single_bit(static_cast<unsigned>(cols))) return {};
      std::ostringstream msg;
      msg << "the xor swizzle stores (r, c) at column c ^ (r mod C), which stays inside the row "
             "only when C is a power of two; C is "
          << cols;
      return msg.str();
    }
    case SwizzleKind::cute: {
      const Swizzle& s = swizzle.cute;
      if (std::string why = s.check(); !why.empty()) return why;
      if (s.bits > 0 && (1 << s.base) < e) {
        std::ostringstream msg;
        msg << s << " changes byte-offset bit " << s.base << ", inside a " << e
            << "-byte element, which would split elements; M must be at least "
            << std::countr_zero(static_cast<unsigned>(e)) << " for " << dtype_name(dtype);
        return msg.str();
      }
      std::int64_t escaping = 0;
      if (swizzle_stays_inside(s, size_bytes(), &escaping)) return {};
      std::ostringstream msg;
      msg << s << " is not a bijection on the " << size_bytes() << " B tile: byte " << escaping
          << " would move to " << s(escaping) << ", past the end; the tile must be a whole "
          << "number of the swizzle's " << (std::int64_t{1} << s.period_log2()) << "-byte periods";
      return msg.str();
    }
    case SwizzleKind::tma32:
    case SwizzleKind::tma64:
    case SwizzleKind::tma128: {
      const int span = swizzle.tma_span_bytes();
      const int repeat = swizzle.tma_repeat_bytes();
      if (pad == 0 && pitch_bytes() == span && size_bytes() % repeat == 0) return {};
      std::ostringstream msg;
      msg << "TMA " << span << "B swizzle";
      if (pad != 0) {
        msg << ": TMA writes its box densely, so a TMA-swizzled tile has no padding (pad " << pad
            << " given)";
      } else if (pitch_bytes() < span) {
        msg << " spans " << span << " B but a row of " << to_string(*this) << " is "
            << pitch_bytes() << " B: the span exceeds the row; use " << span / e << " columns of "
            << dtype_name(dtype) << ", or a narrower mode";
      } else if (pitch_bytes() > span) {
        msg << " spans " << span << " B but a row of " << to_string(*this) << " is "
            << pitch_bytes() << " B: TMA allows a box row of at most the swizzle span; use "
            << span / e << " columns of " << dtype_name(dtype) << ", or a wider mode";
      } else {
        msg << " repeats every " << repeat << " B (" << repeat / span << " rows); the tile's "
            << rows << " rows (" << size_bytes() << " B) are not a whole number of repeats";
      }
      return msg.str();
    }
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

std::ostream& operator<<(std::ostream& os, const TileLayout& t) { return os << to_string(t); }

Expected<Cell> parse_tile_size(std::string_view text) {
  const std::size_t x = text.find_first_of("xX");
  Cell size;
  auto parse = [](std::string_view part, int* value) {
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), *value);
    return ec == std::errc() && end == part.data() + part.size() && !part.empty();
  };
  if (x == std::string_view::npos || !parse(text.substr(0, x), &size.row) ||
      !parse(text.substr(x + 1), &size.col)) {
    return Error{"bad tile size " + quote(text) + ": expected RxC, e.g. 32x32"};
  }
  return size;
}

}  // namespace banklab
