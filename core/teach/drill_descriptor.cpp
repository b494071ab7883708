// The drill's descriptor questions (drill_descriptor.hpp): every answer and every wrong option's
// reason comes from the Descriptor Lab (decode(), check_agreement(), suggest_descriptor()).
//
// [SECTION] The tile, the operand, the option texts
// [SECTION] decode: which swizzle, LBO and SBO a word holds
// [SECTION] which-reads: the descriptor that reads what TMA wrote
// [SECTION] base-offset: a 128B box off its boundary
// [SECTION] k-advance: the start of k-step s
#include "core/teach/drill_descriptor.hpp"

#include <algorithm>
#include <cassert>
#include <string_view>

#include "core/base/format.hpp"
#include "core/model/descriptor_agreement.hpp"
#include "core/model/scenario_keys.hpp"

namespace banklab::drill_detail {
namespace {

// [SECTION] The tile, the operand, the option texts

constexpr int kTileRows = 64;  // MN rows of every operand asked about: eight core matrices
constexpr DescSwizzle kSwizzled[] = {DescSwizzle::b32, DescSwizzle::b64, DescSwizzle::b128};
constexpr DType kTypes[] = {DType::bf16, DType::fp8, DType::fp32};

std::string tma_swizzle_name(DescSwizzle m) {
  return "tma" + std::to_string(desc_swizzle(m).width_bytes);
}

// One TMA box of kTileRows rows, each one swizzle row wide, with an ldmatrix read of it (as wide
// as its row allows) for the question's bank view.
Scenario tma_tile(DType t, DescSwizzle mode) {
  const int cols = desc_swizzle(mode).width_bytes / dtype_bytes(t);
  for (std::string_view op : {"ldmatrix.x4", "ldmatrix.x2", "ldmatrix.x1"}) {
    const std::vector<std::string> words = {
        "--dtype",   std::string(dtype_name(t)), "--tile",   format("%dx%d", kTileRows, cols),
        "--swizzle", tma_swizzle_name(mode),     "--access", std::string(op)};
    const Expected<Scenario> s = scenario_from_words(words);
    if (s && evaluate(*s).ok()) return *s;
  }
  assert(false && "every TMA mode's row holds one 16-byte chunk at least");
  return {};
}

OperandShape k_major(DType t) {
  return {OperandMajor::k, t};
}

std::string mode_name(DescSwizzle m) {
  return std::string(desc_swizzle(m).ptx_name);
}

// "128-Byte swizzle, LBO 16 B, SBO 1024 B": every option of a descriptor question this way.
std::string fields_text(DescSwizzle m, std::int64_t lbo, std::int64_t sbo) {
  return format("%s, LBO %lld B, SBO %lld B", mode_name(m).c_str(), static_cast<long long>(lbo),
                static_cast<long long>(sbo));
}

std::string misread_text(const DescriptorAgreement& a) {
  return format("it reads %lld of the %lld elements from the wrong bytes",
                static_cast<long long>(a.mismatched), static_cast<long long>(a.elements));
}

// The codes of the word's swizzle field on `arch`, from the descriptor model's table:
// "1 = 128-Byte swizzle, 2 = 64-Byte swizzle, 3 = 32-Byte swizzle".
std::string code_table(MmaArch arch) {
  std::string out;
  for (const DescSwizzleInfo& m : desc_swizzles()) {
    const int code = arch == MmaArch::sm90 ? m.sm90_code : m.sm100_code;
    if (code <= 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(code) + " = " + std::string(m.ptx_name);
  }
  return out;
}

// An LBO for a K-major swizzled descriptor, which ignores it: any 16-byte multiple is as right.
std::int64_t any_lbo(SplitMix64& rng) {
  static constexpr std::int64_t kLbos[] = {0, 16, 64, 256, 1024, 2048, 4096, 8192};
  return rng.pick(kLbos);
}

// [SECTION] decode: which swizzle, LBO and SBO a word holds

// The mode a reader finds who looks the code up in the wrong table: wgmma's 128B code (1) is
// tcgen05's 128B with 32-byte atoms; 64B's and 32B's codes read in the other order, or in
// tcgen05's table (2 = 128B), give 128B.
DescSwizzle misread_mode(DescSwizzle m) {
  return m == DescSwizzle::b128 ? DescSwizzle::b128_atom32 : DescSwizzle::b128;
}

DescriptorDraw decode_form(SplitMix64& rng) {
  MatrixDescriptor d;
  d.arch = rng.below(2) ? MmaArch::sm100 : MmaArch::sm90;
  d.swizzle = rng.pick(kSwizzled);
  d.lbo = 16 * (1 + rng.below(64));
  d.sbo = 16 * (1 + rng.below(256));
  if (d.sbo == d.lbo) d.sbo += 16;
  d.start = 1024 * rng.below(64);
  const std::uint64_t word = encode(d);
  const MatrixDescriptor read = decode(word, d.arch).fields;
  const std::string arch = d.arch == MmaArch::sm90 ? "wgmma (sm90)" : "tcgen05 (sm100)";
  DescriptorDraw x;
  x.s = tma_tile(DType::bf16, read.swizzle);
  x.premise = format("A kernel builds the %s shared-memory descriptor %s.", arch.c_str(),
                     hex_word(word).c_str());
  x.ask = "Which swizzle mode, LBO and SBO does it hold?";
  const std::string table = code_table(d.arch);
  x.choices = {
      {fields_text(read.swizzle, read.lbo, read.sbo), Mistake::none,
       format("bits 16-29 and 32-45 hold the offsets >> 4 (%lld and %lld), the swizzle field "
              "reads %s",
              static_cast<long long>(read.lbo >> 4), static_cast<long long>(read.sbo >> 4),
              table.c_str())},
      {fields_text(read.swizzle, read.sbo, read.lbo), Mistake::desc_lbo_sbo_swapped,
       "LBO is bits 16-29, the lower field; SBO is bits 32-45"},
      {fields_text(misread_mode(read.swizzle), read.lbo, read.sbo), Mistake::desc_swizzle_code,
       "on " + arch + " the swizzle field reads " + table},
      {fields_text(read.swizzle, read.lbo >> 4, read.sbo >> 4), Mistake::desc_field_raw,
       "the fields hold bytes >> 4: multiply them by 16"}};
  x.intended = {Mistake::desc_lbo_sbo_swapped, Mistake::desc_swizzle_code};
  return x;
}

// [SECTION] which-reads: the descriptor that reads what TMA wrote

// An option: the descriptor, and why it reads the tile or not, from the agreement.
Choice descriptor_choice(const MatrixDescriptor& d, const OperandShape& op, const OperandFill& fill,
                         Mistake m, std::string_view reason) {
  const DescriptorAgreement a = check_agreement(d, op, fill);
  std::string why = a.agrees() ? format("it reads all %lld elements where TMA wrote them",
                                        static_cast<long long>(a.elements))
                               : misread_text(a);
  return {fields_text(d.swizzle, d.lbo, d.sbo), m, why + "; " + std::string(reason)};
}

// A TMA tile of a drawn element type and swizzle mode, read as a K-major operand.
struct DrawnTile {
  DescSwizzle mode;
  Scenario s;
  OperandShape op;
};
DrawnTile draw_tile(SplitMix64& rng) {
  const DType t = rng.pick(kTypes);
  const DescSwizzle mode = rng.pick(kSwizzled);
  return {mode, tma_tile(t, mode), k_major(t)};
}

DescriptorDraw which_reads_form(SplitMix64& rng) {
  const auto [mode, scenario, op] = draw_tile(rng);
  DescriptorDraw x;
  x.s = scenario;
  const OperandFill fill{x.s.tile, 1, 1024 * rng.below(8)};
  MatrixDescriptor right = *suggest_descriptor(MmaArch::sm90, op, fill);
  right.lbo = any_lbo(rng);
  MatrixDescriptor other = right, pitch = right, swapped = right;
  do {
    other.swizzle = rng.pick(kSwizzled);
  } while (other.swizzle == mode);
  other.sbo =
      std::int64_t{desc_swizzle(other.swizzle).width_bytes} * desc_swizzle(other.swizzle).atom_rows;
  other.lbo = any_lbo(rng);
  pitch.sbo = x.s.tile.pitch_bytes();
  pitch.lbo = any_lbo(rng);
  swapped.lbo = right.sbo;
  swapped.sbo = 16;
  x.premise =
      format("TMA wrote %s with its %s at shared-memory byte %lld.", to_string(x.s.tile).c_str(),
             mode_name(mode).c_str(), static_cast<long long>(fill.dest));
  x.ask = format(
      "Which descriptor, starting at byte %lld, makes wgmma read it as a K-major "
      "operand?",
      static_cast<long long>(fill.dest));
  x.choices = {
      descriptor_choice(right, op, fill, Mistake::none,
                        "the mode is the tensor map's, SBO the bytes of one atom's rows, and a "
                        "K-major swizzled descriptor ignores LBO"),
      descriptor_choice(other, op, fill, Mistake::desc_swizzle_not_tma,
                        "its mode is not the one TMA swizzled with"),
      descriptor_choice(pitch, op, fill, Mistake::desc_sbo_row_pitch,
                        "SBO is the stride between groups of core-matrix rows, not one row's "
                        "pitch"),
      descriptor_choice(swapped, op, fill, Mistake::desc_lbo_sbo_swapped,
                        "LBO and SBO are swapped")};
  x.intended = {Mistake::desc_swizzle_not_tma, Mistake::desc_sbo_row_pitch};
  return x;
}

// [SECTION] base-offset: a 128B box off its boundary

DescriptorDraw base_offset_form(SplitMix64& rng) {
  DescriptorDraw x;
  x.s = tma_tile(DType::bf16, DescSwizzle::b128);
  const OperandShape op = k_major(DType::bf16);
  const OperandFill fill{x.s.tile, 1, 1024 * rng.below(4) + 128 * (1 + rng.below(7))};
  const MatrixDescriptor right = *suggest_descriptor(MmaArch::sm90, op, fill);
  const int isa = static_cast<int>((fill.dest >> 7) & 7);
  const int other = isa == 4 ? 2 : 8 - isa;  // the same rows counted the other way
  // What a wrong base offset reads, in the lab's count (the H200 measured these misreads).
  const auto misreads = [&](int base_offset) {
    MatrixDescriptor wrong = right;
    wrong.base_offset = base_offset;
    const DescriptorAgreement a = check_agreement(wrong, op, fill);
    return format(
        "the swizzle takes its row from address bits 7-9 minus %d, as if the pattern "
        "began mid-tile: %lld of %lld elements misread",
        base_offset, static_cast<long long>(a.mismatched), static_cast<long long>(a.elements));
  };
  const std::vector<DescFinding> fill_rules = check_fill(fill, op);
  x.premise = format(
      "TMA wrote %s with its %s at shared-memory byte %lld, %lld bytes past a "
      "%d-byte boundary.",
      to_string(x.s.tile).c_str(), mode_name(right.swizzle).c_str(),
      static_cast<long long>(fill.dest),
      static_cast<long long>(fill.dest % desc_swizzle(right.swizzle).boundary_bytes),
      desc_swizzle(right.swizzle).boundary_bytes);
  x.ask = format(
      "wgmma reads it through a %s descriptor starting at byte %lld. Which base "
      "offset must the descriptor hold?",
      mode_name(right.swizzle).c_str(), static_cast<long long>(fill.dest));
  const std::string agrees = format(
      "TMA swizzled the absolute address, so the pattern keeps its line's phase; the lab reads "
      "all %lld elements with it (measured on the H200: docs/descriptor-lab.md)",
      static_cast<long long>(check_agreement(right, op, fill).elements));
  x.choices = {{format("base offset %d", right.base_offset), Mistake::none, agrees},
               {format("base offset %d", isa), Mistake::desc_isa_base_offset, misreads(isa)},
               {format("base offset %d", other), Mistake::desc_isa_base_offset, misreads(other)},
               {"none: move the box to the boundary first", Mistake::tma_misaligned,
                fill_rules.empty() ? "" : fill_rules.front().rule}};
  x.intended = {Mistake::desc_isa_base_offset};
  return x;
}

// [SECTION] k-advance: the start of k-step s

DescriptorDraw k_advance_form(SplitMix64& rng) {
  const auto [mode, scenario, op] = draw_tile(rng);
  DescriptorDraw x;
  x.s = scenario;
  const int width = desc_swizzle(mode).width_bytes;
  // Boxes side by side along K until K holds one 128-byte swizzle row's worth: four k-steps.
  const OperandFill fill{x.s.tile, desc_swizzle(DescSwizzle::b128).width_bytes / width,
                         1024 * rng.below(8)};
  const MatrixDescriptor d = *suggest_descriptor(MmaArch::sm90, op, fill);
  const DescriptorAgreement a = check_agreement(d, op, fill);
  const int s = 1 + rng.below(static_cast<int>(a.steps.size()) - 1);
  const std::int64_t right = a.steps[static_cast<std::size_t>(s)].start;
  const std::int64_t box_bytes = x.s.tile.size_bytes();
  const CoreMatrix core = core_matrix_of(op, 0, 0);
  const std::int64_t chunk = std::int64_t{core.k_count} * op.elem_bytes();  // one core matrix
  struct Wrong {
    std::int64_t start;
    Mistake m;
    std::string why;
  };
  const Wrong candidates[] = {
      {d.start + s * kMmaStepBytes, Mistake::desc_advance_past_box,
       format("%d bytes a step runs past the box's %d-byte row into bytes of the same box",
              kMmaStepBytes, width)},
      {d.start + s * op.k_step_elements(), Mistake::desc_advance_in_elements,
       format("the start is in bytes: a step is %d elements, %d bytes", op.k_step_elements(),
              kMmaStepBytes)},
      {d.start + s * d.sbo, Mistake::desc_advance_by_stride,
       "SBO strides along MN, between groups of rows; K advances within them"},
      {d.start + s * box_bytes, Mistake::desc_advance_by_stride,
       format("a whole box holds %d k-step%s", width / kMmaStepBytes,
              width / kMmaStepBytes == 1 ? "" : "s")},
      {d.start + s * x.s.tile.pitch_bytes(), Mistake::desc_advance_by_stride,
       "a row's pitch steps along MN, not K"},
      {d.start + s * chunk, Mistake::desc_advance_in_elements,
       format("one instruction reads %d bytes of K, two core matrices of %lld bytes each",
              kMmaStepBytes, static_cast<long long>(chunk))}};
  x.premise = fill.boxes == 1
                  ? format("TMA wrote %s with its %s at shared-memory byte %lld.",
                           to_string(x.s.tile).c_str(), mode_name(mode).c_str(),
                           static_cast<long long>(fill.dest))
                  : format(
                        "TMA wrote %d boxes of %s with its %s side by side along K, box j at byte "
                        "%lld + j x %lld.",
                        fill.boxes, to_string(x.s.tile).c_str(), mode_name(mode).c_str(),
                        static_cast<long long>(fill.dest), static_cast<long long>(box_bytes));
  x.ask = format(
      "The K-major wgmma descriptor of k-step 0 (%s) starts at byte %lld. Where does "
      "the descriptor of k-step %d start?",
      fields_text(d.swizzle, d.lbo, d.sbo).c_str(), static_cast<long long>(d.start), s);
  x.choices = {{format("at byte %lld", static_cast<long long>(right)), Mistake::none,
                format("the start advances by the unswizzled offset of element (0, %d), the "
                       "step's first: +%lld bytes; the hardware swizzles the absolute address",
                       s * op.k_step_elements(), static_cast<long long>(right - d.start))}};
  for (const Wrong& w : candidates) {
    const bool seen = std::any_of(x.choices.begin(), x.choices.end(), [&](const Choice& c) {
      return c.text == format("at byte %lld", static_cast<long long>(w.start));
    });
    if (!seen && x.choices.size() < 4)
      x.choices.push_back({format("at byte %lld", static_cast<long long>(w.start)), w.m, w.why});
  }
  x.intended = {Mistake::desc_advance_past_box, Mistake::desc_advance_in_elements,
                Mistake::desc_advance_by_stride};
  return x;
}

}  // namespace

DescriptorDraw descriptor_drill(SplitMix64& rng) {
  switch (rng.below(4)) {
    case 0:
      return decode_form(rng);
    case 1:
      return which_reads_form(rng);
    case 2:
      return base_offset_form(rng);
    default:
      return k_advance_form(rng);
  }
}

}  // namespace banklab::drill_detail
