// Whether a descriptor reads what TMA or an epilogue wrote (descriptor_agreement.hpp).
#include "core/model/descriptor_agreement.hpp"

#include <algorithm>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"

namespace banklab {

namespace {

// The box coordinates of operand element (mn, k): K-major rows run along MN, MN-major along K;
// the contiguous coordinate picks the box.
struct BoxCell {
  int box = 0;
  int row = 0;
  int col = 0;
};

BoxCell box_cell(const OperandFill& fill, OperandMajor major, int mn, int k) {
  const int row = major == OperandMajor::k ? mn : k;
  const int along = major == OperandMajor::k ? k : mn;
  return {along / fill.box.cols, row, along % fill.box.cols};
}

// The alignment the producer needs of dest. TMA: the 128 bytes every bulk tensor copy's shared
// destination needs (PTX ISA); its swizzle follows the absolute address, so a box off the
// swizzle's repeat keeps the phase of the line it lands in (measured on the H200: a 128B box at
// byte 512, read exactly by a descriptor at 512 with base offset 0; docs/descriptor-lab.md). An
// epilogue's stores: 16-byte chunks, and whole 128-byte lines when they swizzle (the tile's own
// offsets): a pattern that begins on a line is one a base offset describes, one that begins
// mid-line is not.
std::int64_t fill_alignment(const OperandFill& fill) {
  if (fill.is_tma()) return 128;
  return fill.box.byte_swizzle().bits > 0 ? 128 : 16;
}

// The period of the epilogue's swizzle (the tile's own offsets), 0 for TMA or none.
std::int64_t sts_period(const OperandFill& fill) {
  const Swizzle s = fill.box.byte_swizzle();
  return fill.is_tma() || s.bits == 0 ? 0 : std::int64_t{1} << s.period_log2();
}

}  // namespace

OperandExtent operand_extent(const OperandFill& fill, OperandMajor major) {
  const int along = fill.box.cols * fill.boxes;
  return major == OperandMajor::k ? OperandExtent{fill.box.rows, along}
                                  : OperandExtent{along, fill.box.rows};
}

std::int64_t producer_byte(const OperandFill& fill, OperandMajor major, int mn, int k) {
  const BoxCell c = box_cell(fill, major, mn, k);
  const std::int64_t box_start = fill.dest + c.box * fill.box.size_bytes();
  // TMA swizzles the absolute address (fill_alignment() says how that was measured); the
  // epilogue's stores swizzle offsets within the tile. The same bytes on an aligned tile.
  if (fill.box.swizzle.is_tma()) {
    return fill.box.byte_swizzle()(box_start + fill.box.logical_byte(c.row, c.col));
  }
  return box_start + fill.box(c.row, c.col);
}

std::int64_t producer_unswizzled(const OperandFill& fill, OperandMajor major, int mn, int k) {
  const BoxCell c = box_cell(fill, major, mn, k);
  return c.box * fill.box.size_bytes() + fill.box.logical_byte(c.row, c.col);
}

std::vector<DescFinding> check_fill(const OperandFill& fill, const OperandShape& op) {
  std::vector<DescFinding> rules;
  const std::string who = fill.is_tma() ? "TMA" : "the epilogue's stores";
  if (fill.box.dtype != op.dtype) {
    rules.push_back({FindingLevel::error,
                     format("the fill holds %s but the operand is %s",
                            std::string(dtype_name(fill.box.dtype)).c_str(),
                            std::string(dtype_name(op.dtype)).c_str()),
                     "give both the same --dtype", true});
    return rules;
  }
  if (Expected<void> valid = fill.box.check(); !valid) {
    rules.push_back({FindingLevel::error, valid.error(), "change the box or its swizzle", true});
    return rules;
  }
  if (fill.boxes < 1 || fill.boxes > 64) {
    rules.push_back({FindingLevel::error, format("%d boxes: give 1 to 64", fill.boxes),
                     "use --boxes 1 to 64", true});
    return rules;
  }
  const std::int64_t total = fill.box.size_bytes() * fill.boxes;
  if (fill.dest + total > kMaxSharedPerBlockBytes) {
    rules.push_back({FindingLevel::error,
                     format("the fill ends at byte %lld, past the %lld bytes of shared memory one "
                            "block may have",
                            static_cast<long long>(fill.dest + total),
                            static_cast<long long>(kMaxSharedPerBlockBytes)),
                     "fewer or smaller boxes, or a lower --dest", true});
    return rules;
  }
  const std::int64_t align = fill_alignment(fill);
  if (fill.dest < 0 || fill.dest % align != 0) {
    rules.push_back(
        {FindingLevel::error,
         format("%s writes from byte %lld, which is not %lld-byte aligned%s", who.c_str(),
                static_cast<long long>(fill.dest), static_cast<long long>(align),
                fill.is_tma()  ? ": a bulk tensor copy needs its shared destination aligned to 128"
                : align == 128 ? ": its swizzle pattern would begin mid-line, where no base "
                                 "offset describes it"
                               : ""),
         format("align the tile to %lld bytes (e.g. %lld)", static_cast<long long>(align),
                static_cast<long long>((std::max<std::int64_t>(fill.dest, 0) / align + 1) * align)),
         true});
  } else if (const int repeat = fill.box.swizzle.tma_repeat_bytes();
             repeat > 0 && fill.dest % repeat != 0) {
    rules.push_back(
        {FindingLevel::note,
         format("TMA writes from byte %lld, %lld bytes into a %d-byte swizzle repeat: it swizzles "
                "the absolute address, so the pattern keeps that line's phase (measured on the "
                "H200, 128B at byte 512) and a descriptor with base offset 0 reads it",
                static_cast<long long>(fill.dest), static_cast<long long>(fill.dest % repeat),
                repeat),
         format("nothing to fix; align to %d bytes if other code assumes the pattern starts here",
                repeat)});
  } else if (const std::int64_t period = sts_period(fill); period > 0 && fill.dest % period != 0) {
    rules.push_back(
        {FindingLevel::note,
         format("the epilogue's swizzle pattern begins at byte %lld, %lld bytes into its %lld-byte "
                "period: a descriptor there reads it with base offset (%lld >> 7) & 7 = %lld, the "
                "PTX ISA's formula",
                static_cast<long long>(fill.dest), static_cast<long long>(fill.dest % period),
                static_cast<long long>(period), static_cast<long long>(fill.dest),
                static_cast<long long>(fill.dest >> 7 & 7)),
         format("write base offset %lld, or align the tile to %lld bytes",
                static_cast<long long>(fill.dest >> 7 & 7), static_cast<long long>(period))});
  }
  const OperandExtent x = operand_extent(fill, op.major);
  if (x.k % op.k_step_elements() != 0) {
    rules.push_back({FindingLevel::error,
                     format("K is %d elements, not a whole number of %d-element instructions "
                            "(32 bytes of K each)",
                            x.k, op.k_step_elements()),
                     "make K a multiple of 32 bytes", true});
  }
  const bool whole_mn =
      op.major == OperandMajor::k ? x.mn % 8 == 0 : std::int64_t{x.mn} * op.elem_bytes() % 16 == 0;
  if (!whole_mn) {
    rules.push_back({FindingLevel::error,
                     format("MN is %d: not a whole number of core matrices (8 rows K-major, 16 "
                            "bytes MN-major)",
                            x.mn),
                     "make MN a multiple of 8 rows / 16 bytes", true});
  }
  return rules;
}

namespace {

// The producer's element that starts at byte `at`, if any: looked up once, for the first
// mismatch only.
std::optional<std::pair<int, int>> written_at(const OperandFill& fill, OperandMajor major,
                                              OperandExtent x, std::int64_t at) {
  for (int mn = 0; mn < x.mn; ++mn) {
    for (int k = 0; k < x.k; ++k) {
      if (producer_byte(fill, major, mn, k) == at) return std::pair{mn, k};
    }
  }
  return std::nullopt;
}

// The elements of k-step s read from the wrong bytes (stopping at the first when `first_only`);
// records the first mismatch of the whole operand.
std::int64_t compare_step(const MatrixDescriptor& step_desc, const OperandShape& op,
                          const OperandFill& fill, int s, bool first_only, DescriptorAgreement& a) {
  const int step_k = op.k_step_elements();
  std::int64_t mismatched = 0;
  for (int mn = 0; mn < a.extent.mn; ++mn) {
    for (int kl = 0; kl < step_k; ++kl) {
      const int k = s * step_k + kl;
      const std::int64_t written = producer_byte(fill, op.major, mn, k);
      const std::int64_t read = descriptor_byte(step_desc, op, mn, kl);
      if (written == read) continue;
      ++mismatched;
      if (!a.first) {
        a.first = ElementMismatch{
            s, mn, k, written, read, std::nullopt, std::nullopt, core_matrix_of(op, mn, k)};
      }
      if (first_only) return mismatched;
    }
  }
  return mismatched;
}

// The comparison, whole or (for the search of a fix) up to the first mismatch.
DescriptorAgreement compare_reads(const MatrixDescriptor& d, const OperandShape& op,
                                  const OperandFill& fill, bool first_only) {
  DescriptorAgreement a;
  a.descriptor_rules = check_descriptor(d, op);
  a.producer_rules = check_fill(fill, op);
  if (!read_is_defined(a.descriptor_rules) || !read_is_defined(a.producer_rules)) return a;
  a.extent = operand_extent(fill, op.major);
  const int step_k = op.k_step_elements();
  for (int s = 0; s < a.extent.k / step_k; ++s) {
    // CUTLASS's increment: the unswizzled offset of the step's first element.
    const std::int64_t advance = producer_unswizzled(fill, op.major, 0, s * step_k);
    MatrixDescriptor step_desc = d;
    step_desc.start = d.start + advance;
    const std::int64_t mismatched = compare_step(step_desc, op, fill, s, first_only, a);
    a.steps.push_back({s, step_desc.start, advance, mismatched});
    a.mismatched += mismatched;
    a.elements += std::int64_t{a.extent.mn} * step_k;
    if (first_only && mismatched != 0) break;
  }
  a.compared = true;
  return a;
}

}  // namespace

DescriptorAgreement check_agreement(const MatrixDescriptor& d, const OperandShape& op,
                                    const OperandFill& fill) {
  DescriptorAgreement a = compare_reads(d, op, fill, false);
  if (a.first) {
    if (const auto found = written_at(fill, op.major, a.extent, a.first->read)) {
      a.first->found_mn = found->first;
      a.first->found_k = found->second;
    }
  }
  return a;
}

std::optional<MatrixDescriptor> suggest_descriptor(MmaArch arch, const OperandShape& op,
                                                   const OperandFill& fill) {
  // The offsets a canonical layout of this fill can use: the distances between its rows, core
  // matrices and boxes.
  const std::int64_t pitch = fill.box.pitch_bytes();
  const std::int64_t box = fill.box.size_bytes();
  std::vector<std::int64_t> offsets = {16,   32,   64,   128,       256,       512, 1024,
                                       2048, 4096, 8192, pitch * 8, pitch * 4, box};
  const OperandExtent x = operand_extent(fill, op.major);
  offsets.push_back(std::int64_t{x.mn} / 8 * 128);
  offsets.push_back(std::int64_t{x.mn} * op.elem_bytes() / 16 * 128);
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  std::vector<DescSwizzle> modes;
  for (const DescSwizzleInfo& s : desc_swizzles()) {
    const bool same = fill.box.byte_swizzle() == s.byte_swizzle;
    modes.insert(same ? modes.begin() : modes.end(), s.mode);
  }
  const auto clean = [](const DescriptorAgreement& a) {
    return a.agrees() &&
           std::none_of(a.descriptor_rules.begin(), a.descriptor_rules.end(),
                        [](const DescFinding& f) { return f.level == FindingLevel::error; });
  };
  // Base offset 0 first (TMA's pattern follows the absolute address), then the PTX ISA's
  // (dest >> 7) & 7 for a pattern that begins at dest (an epilogue's stores).
  const int isa_base_offset = static_cast<int>(fill.dest >> 7 & 7);
  for (const int base_offset : {0, isa_base_offset}) {
    for (const DescSwizzle mode : modes) {
      if (base_offset != 0 && mode == DescSwizzle::none) continue;
      // K-major swizzled layouts ignore LBO: CUTLASS writes 16 (encoded 1).
      const bool lbo_unused = mode != DescSwizzle::none && op.major == OperandMajor::k;
      for (const std::int64_t lbo : lbo_unused ? std::vector<std::int64_t>{16} : offsets) {
        for (const std::int64_t sbo : offsets) {
          const MatrixDescriptor d{arch, mode, fill.dest, lbo, sbo, base_offset, false};
          if (clean(compare_reads(d, op, fill, true))) return d;
        }
      }
    }
    if (isa_base_offset == 0) break;
  }
  return std::nullopt;
}

}  // namespace banklab
