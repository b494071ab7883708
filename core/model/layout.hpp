#pragma once
// A shared-memory tile: R x C elements of one dtype, row-major, each row padded by P elements,
// optionally swizzled. Its call operator is the layout function (r, c) -> byte offset.
//
//   no swizzle:   byte(r, c) = r * pitch + c * e           pitch = (C + P) * e
//   xor:          byte(r, c) = r * pitch + (c ^ (r mod C)) * e
//   triton:       byte(r, c) = r * pitch + (c ^ column_xor(r, C)) * e     (TritonSwizzle)
//   cute / tma:   byte(r, c) = Swizzle(r * pitch + c * e)  (on byte offsets within the tile;
//                 cute-elem's Swizzle counts elements, so its M is raised by log2 e first)
//
// A TMA box row narrower than the swizzle span (bf16 32x16 under tma128: 32-byte rows, a
// 128-byte span) is placed at span pitch, as the driver and the H200 do: pitch = span, and the
// slots no element lands in are the gap (element_at() says which; is_gap_slot() for views).
//
// Example: float tile[32][33] -> byte 132r + 4c -> word 33r + c -> bank (r + c) mod 32.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/model/dtype.hpp"
#include "core/model/swizzle.hpp"

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
  // The bytes of one row as the kernel declares it: (C + P) * e.
  std::int64_t row_bytes() const { return (std::int64_t{cols} + pad) * elem_bytes(); }
  // Where row r + 1 starts: the row, or the TMA span when a narrow box row is placed at it.
  std::int64_t pitch_bytes() const {
    const std::int64_t span = swizzle.tma_span_bytes();
    return span > 0 && row_bytes() < span ? span : row_bytes();  // 64-bit: absurd sides too
  }
  std::int64_t size_bytes() const { return pitch_bytes() * rows; }
  // Bytes per row that hold no element: padding plus the narrow-box gap.
  std::int64_t overhead_bytes() const {
    return size_bytes() - std::int64_t{rows} * cols * elem_bytes();
  }
  // Element slots per stored row (pitch / e): what a physical view draws.
  int slots_per_row() const { return static_cast<int>(pitch_bytes() / elem_bytes()); }
  // The byte-offset swizzle of cute, cute-elem and the TMA modes (identity for the others).
  Swizzle byte_swizzle() const { return swizzle.byte_swizzle(elem_bytes()); }

  // Byte offset of element (r, c) before and after the swizzle.
  std::int64_t logical_byte(int r, int c) const {
    return r * pitch_bytes() + std::int64_t{c} * elem_bytes();
  }
  std::int64_t operator()(int r, int c) const;
  // The physical slot (row, column of the padded row) where element (r, c) is stored.
  Cell physical_cell(int r, int c) const;
  int bank(int r, int c) const;
  // The inverse: the element stored at a byte offset, or none for padding and the TMA gap.
  // Precondition: check() passes and 0 <= byte < size_bytes().
  std::optional<Cell> element_at(std::int64_t byte) const;
  // Whether physical slot (row, slot) of the stored tile holds no element.
  bool is_gap_slot(int row, int slot) const;

  // Done when the tile is valid; otherwise the first rule it breaks, with its numbers:
  // sides in 1..4096, 0 <= pad <= 1024, at most the 227 KB of one block, swizzle fits the tile and
  // is a bijection on it; TMA: no pad, box rows a multiple of 16 B and at most the span, the tile a
  // whole number of repeats; xor and triton: power-of-two columns (triton: rows too, no pad).
  Expected<void> check() const;

  friend bool operator==(const TileLayout&, const TileLayout&) = default;
};

// "float tile[32][33]", "bf16 tile[32][32] xor", "float tile[8][32] tma128"; a Blackwell atom
// mode adds "(predicted: not measured on Blackwell)".
std::string to_string(const TileLayout& t);
std::ostream& operator<<(std::ostream& os, const TileLayout& t);

// One way to write a layout in one notation: how BankLab's flags spell it, and how the tool
// that owns the notation writes it ("Swizzle<3,4,3> over byte offsets",
// "#ttg.swizzled_shared<{vec=8, perPhase=1, maxPhase=8, order=[1,0]}>").
struct Spelling {
  std::string notation;  // "banklab", "cute (bytes)", "cute (elements)", "tma", "triton"
  int pad = 0;
  SwizzleSpec swizzle;
  std::string native;
  // The flags `banklab analyze` takes for it: {"--pad", "1"}, {"--swizzle", "xor"}; empty for
  // the plain tile.
  std::vector<std::string> args() const;
};

// The byte of every element, row-major (R*C entries): the layout function tabulated, for code
// that asks it many times. Precondition: t.check() passes (so every byte fits 32 bits).
std::vector<std::int32_t> byte_map(const TileLayout& t);

// Whether a and b (same dtype and shape, both valid) store every element at the same byte and
// take the same bytes.
bool same_placement(const TileLayout& a, const TileLayout& b);

// t in its own notation (no other is tried).
Spelling spelling(const TileLayout& t);

// Every notation that can express t, each once, t's own spelling first. A spelling is listed
// only when its tile passes check() and stores every element at the byte t stores it at
// (checked element by element, not assumed). Precondition: t.check() passes.
std::vector<Spelling> spellings(const TileLayout& t);

// "RxC" (32x32, 8X64), the tile size the CLI accepts.
Expected<Cell> parse_tile_size(std::string_view text);

}  // namespace banklab
