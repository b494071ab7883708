#pragma once
// Does the descriptor read what the producer wrote? The producer is TMA (a box of a tensor map
// with its swizzle mode) or an epilogue's stores (STS / stmatrix into a tile swizzled by a
// CuTe Swizzle, a column XOR, or none): either way a BankLab tile (TileLayout), `boxes` of them
// side by side along the operand's contiguous dimension, box j at dest + j * box size, which is
// how CuTe's tile_to_shape stacks the atoms and how a kernel issues one TMA copy per 128-byte
// slab.
//
// The operand is MN x K elements. K-major: the box's rows run along MN and its columns along K;
// MN-major: the rows run along K and the columns along MN. Each instruction reads the whole MN
// extent and 32 bytes of K; the descriptor of k-step s is the given one with its start advanced
// as CUTLASS advances it (DescriptorIterator): by the unswizzled offset of element (0, s * K of
// one step) in the tile, e.g. +32 bytes per step inside a 128-byte swizzled row. The swizzle is
// then applied to the absolute address, which is why an advance inside the atom still lands on
// the chunks TMA swizzled.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/model/descriptor.hpp"
#include "core/model/layout.hpp"

namespace banklab {

struct OperandFill {
  TileLayout box;
  int boxes = 1;
  std::int64_t dest = 0;  // the shared-memory address of the first box

  // "TMA" for the TMA swizzle modes and none, "STS" for the layouts only threads write.
  bool is_tma() const { return box.swizzle.is_tma() || box.swizzle.kind == SwizzleKind::none; }
};

// The operand's MN and K extents the fill covers.
struct OperandExtent {
  int mn = 0;
  int k = 0;
};
OperandExtent operand_extent(const OperandFill& fill, OperandMajor major);

// Where the producer put element (mn, k): the absolute byte address; and the same before the
// swizzle, relative to dest (what CUTLASS's descriptor increment adds).
std::int64_t producer_byte(const OperandFill& fill, OperandMajor major, int mn, int k);
std::int64_t producer_unswizzled(const OperandFill& fill, OperandMajor major, int mn, int k);

// The rules the fill breaks as a producer for this operand: the tile's own rules, the
// destination's alignment to the swizzle pattern, whole instructions along K, whole core
// matrices along MN.
std::vector<DescFinding> check_fill(const OperandFill& fill, const OperandShape& op);

struct StepStart {
  int k_step = 0;
  std::int64_t start = 0;    // the descriptor's start for this step
  std::int64_t advance = 0;  // start - the first step's start
  std::int64_t mismatched = 0;
};

struct ElementMismatch {
  int k_step = 0;
  int mn = 0;
  int k = 0;                    // along the whole operand
  std::int64_t written = 0;     // where the producer put it
  std::int64_t read = 0;        // where the descriptor reads it
  std::optional<int> found_mn;  // the element the producer put at `read`, if any
  std::optional<int> found_k;
  CoreMatrix core;  // the first mismatching core matrix (operand coordinates)
};

struct DescriptorAgreement {
  std::vector<DescFinding> producer_rules;
  std::vector<DescFinding> descriptor_rules;
  bool compared = false;  // false when a rule leaves the producer's or the reader's bytes undefined
  OperandExtent extent;
  std::vector<StepStart> steps;
  std::int64_t elements = 0;
  std::int64_t mismatched = 0;
  std::optional<ElementMismatch> first;

  bool agrees() const { return compared && mismatched == 0; }
};

DescriptorAgreement check_agreement(const MatrixDescriptor& d, const OperandShape& op,
                                    const OperandFill& fill);

// A descriptor that reads what the fill wrote (start at dest; base offset 0, then the PTX ISA's
// (dest >> 7) & 7 for a pattern that begins at dest), the fill's own swizzle mode tried first;
// none when no canonical layout describes the fill (a row-major tile with 16+-byte rows, say).
std::optional<MatrixDescriptor> suggest_descriptor(MmaArch arch, const OperandShape& op,
                                                   const OperandFill& fill);

}  // namespace banklab
