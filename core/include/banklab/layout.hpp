#pragma once
// A shared-memory tile: R x C elements of one dtype, row-major, each row padded by P elements,
// optionally swizzled. Its call operator is the layout function (r, c) -> byte offset.
//
//   no swizzle:   byte(r, c) = r * pitch + c * e           pitch = (C + P) * e
//   xor:          byte(r, c) = r * pitch + (c ^ (r mod C)) * e
//   cute / tma:   byte(r, c) = Swizzle(r * pitch + c * e)  (on byte offsets within the tile)
//
// Example: float tile[32][33] -> byte 132r + 4c -> word 33r + c -> bank (r + c) mod 32.
#include <cstdint>
#include <iosfwd>
#include <string>

#include "banklab/dtype.hpp"
#include "banklab/swizzle.hpp"

namespace banklab {

struct Cell {
  int row = 0;
  int col = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
};

// The largest tile TileLayout::check() accepts: each side, and the padding of a row.
inline constexpr int kMaxTileSide = 4096;
inline constexpr int kMaxTilePad = 1024;

struct TileLayout {
  DType dtype = DType::fp32;
  int rows = 32;
  int cols = 32;
  int pad = 0;  // elements appended to every row
  SwizzleSpec swizzle;

  int elem_bytes() const { return dtype_bytes(dtype); }
  // 64-bit before the sum: a tile that check() has not yet refused may have absurd sides.
  std::int64_t pitch_bytes() const { return (std::int64_t{cols} + pad) * elem_bytes(); }
  std::int64_t size_bytes() const { return pitch_bytes() * rows; }

  // Byte offset of element (r, c) before and after the swizzle.
  std::int64_t logical_byte(int r, int c) const {
    return r * pitch_bytes() + std::int64_t{c} * elem_bytes();
  }
  std::int64_t operator()(int r, int c) const;
  // The physical slot (row, column of the padded row) where element (r, c) is stored.
  Cell physical_cell(int r, int c) const;
  int bank(int r, int c) const;

  // Empty when the tile is valid; otherwise the first rule it breaks, with its numbers:
  // sides in 1..4096, 0 <= pad <= 1024, at most 228 KB, swizzle fits the tile and is a
  // bijection on it, TMA span equal to the row and the tile a whole number of repeats.
  std::string check() const;

  friend bool operator==(const TileLayout&, const TileLayout&) = default;
};

// "float tile[32][33]", "bf16 tile[32][32] xor", "float tile[8][32] tma128".
std::string to_string(const TileLayout& t);
std::ostream& operator<<(std::ostream& os, const TileLayout& t);

// "RxC" (32x32, 8X64), the tile size the CLI accepts.
Expected<Cell> parse_tile_size(std::string_view text);

}  // namespace banklab
