// A lesson step read through a matrix descriptor (lesson_descriptor.hpp): its words, its verdict
// and the {desc_...} placeholders, every value from check_agreement() and the descriptor model.
#include "core/teach/lesson_descriptor.hpp"

#include <algorithm>

#include "core/base/format.hpp"

namespace banklab {

OperandFill step_fill(const StepDescriptor& d, const TileLayout& tile) {
  return {tile, d.boxes, d.dest};
}

OperandShape step_operand(const StepDescriptor& d, const TileLayout& tile) {
  return {d.major, tile.dtype};
}

DescriptorAgreement step_agreement(const StepDescriptor& d, const TileLayout& tile) {
  return check_agreement(d.desc, step_operand(d, tile), step_fill(d, tile));
}

namespace {

// A byte quantity of the word: 0 up to the field's limit (the rules say what a misaligned one
// does, so it is taken as written).
Expected<std::int64_t> byte_value(std::string_view text, std::string_view flag) {
  return parse_integer(text, flag, 0, kDescriptorByteLimit - 1);
}

Expected<void> set_field(StepDescriptor& d, std::string_view flag, std::string_view v,
                         bool& start_given) {
  if (flag == "--arch") {
    const Expected<MmaArch> a = parse_mma_arch(v);
    if (!a) return Error{a.error()};
    d.desc.arch = *a;
  } else if (flag == "--major") {
    const Expected<OperandMajor> m = parse_operand_major(v);
    if (!m) return Error{m.error()};
    d.major = *m;
  } else if (flag == "--boxes") {
    const Expected<std::int64_t> n = parse_integer(v, flag, 1, kMaxStepBoxes);
    if (!n) return Error{n.error()};
    d.boxes = static_cast<int>(*n);
  } else if (flag == "--swizzle") {
    const Expected<DescSwizzle> sw = parse_desc_swizzle(v);
    if (!sw) return Error{sw.error()};
    d.desc.swizzle = *sw;
  } else if (flag == "--start" || flag == "--lbo" || flag == "--sbo" || flag == "--dest") {
    const Expected<std::int64_t> b = byte_value(v, flag);
    if (!b) return Error{b.error()};
    if (flag == "--start") start_given = true;
    (flag == "--start" ? d.desc.start
     : flag == "--lbo" ? d.desc.lbo
     : flag == "--sbo" ? d.desc.sbo
                       : d.dest) = *b;
  } else if (flag == "--base-offset") {
    const Expected<std::int64_t> b = parse_integer(v, flag, 0, 7);
    if (!b) return Error{b.error()};
    d.desc.base_offset = static_cast<int>(*b);
  } else if (flag == "--k-step") {
    const Expected<std::int64_t> k = parse_integer(v, flag, 0, 1023);
    if (!k) return Error{k.error()};
    d.k_step = static_cast<int>(*k);
  } else {
    return Error{std::string(flag) +
                 " is not a descriptor flag (--arch, --major, --swizzle, --start, --lbo, --sbo, "
                 "--base-offset, --dest, --boxes, --k-step)"};
  }
  return {};
}

const DescFinding* first_finding(const DescriptorAgreement& a, FindingLevel level) {
  for (const auto* list : {&a.descriptor_rules, &a.producer_rules})
    for (const DescFinding& f : *list)
      if (f.level == level) return &f;
  return nullptr;
}

std::string swizzle_words(const MatrixDescriptor& d) {
  return std::string(desc_swizzle(d.swizzle).ptx_name);
}

std::string element_words(int mn, int k) {
  return format("element (mn %d, k %d)", mn, k);
}

Expected<std::string> mismatch_value(std::string_view name, const DescriptorAgreement& a) {
  if (!a.first) return Error{"the descriptor reads every element where it was written"};
  const ElementMismatch& m = *a.first;
  if (name == "desc_first_mismatch") {
    std::string out = format("%s of k-step %d: written at byte %lld, read at byte %lld",
                             element_words(m.mn, m.k).c_str(), m.k_step,
                             static_cast<long long>(m.written), static_cast<long long>(m.read));
    if (m.found_mn && m.found_k) out += ", which holds " + element_words(*m.found_mn, *m.found_k);
    return out;
  }
  return format("MN %d-%d x K %d-%d", m.core.mn_first, m.core.mn_first + m.core.mn_count - 1,
                m.core.k_first, m.core.k_first + m.core.k_count - 1);
}

Expected<std::string> fix_value(std::string_view name, const StepDescriptor& d,
                                const TileLayout& tile) {
  const std::optional<MatrixDescriptor> fix =
      suggest_descriptor(d.desc.arch, step_operand(d, tile), step_fill(d, tile));
  if (!fix) return Error{"no canonical layout describes this tile"};
  if (name == "desc_fix_sbo") return std::to_string(fix->sbo);
  if (name == "desc_fix_swizzle") return swizzle_words(*fix);
  return format("%s, SBO %lld (%s)", swizzle_words(*fix).c_str(), static_cast<long long>(fix->sbo),
                hex_word(encode(*fix)).c_str());
}

// The k-step an argument names, within the fill's steps.
Expected<std::size_t> step_of(std::string_view arg, const DescriptorAgreement& a) {
  const Expected<std::int64_t> k =
      parse_integer(arg, "the k-step", 0, static_cast<std::int64_t>(a.steps.size()) - 1);
  if (!k) return Error{k.error()};
  return static_cast<std::size_t>(*k);
}

// What the agreement says: the verdict, the counts, the steps, the first mismatch, the fix, and
// the rules' words.
std::optional<Expected<std::string>> agreement_value(std::string_view name, std::string_view arg,
                                                     const StepDescriptor& d,
                                                     const TileLayout& tile) {
  const DescriptorAgreement a = step_agreement(d, tile);
  if (name == "desc_verdict") return descriptor_verdict(d, tile);
  if (name == "desc_note" || name == "desc_rule") {
    const DescFinding* f =
        first_finding(a, name == "desc_note" ? FindingLevel::note : FindingLevel::error);
    if (!f) return Error{name == "desc_note" ? "the step's rules hold no note" : "no rule broken"};
    return f->rule;
  }
  if (!a.compared) return Error{descriptor_verdict(d, tile)};
  if (name == "desc_elements") return std::to_string(a.elements);
  if (name == "desc_mismatched") return std::to_string(a.mismatched);
  if (name == "desc_steps") return std::to_string(a.steps.size());
  if (name == "desc_advance" || name == "desc_start_of") {
    const Expected<std::size_t> k = step_of(arg, a);
    if (!k) return Error{k.error()};
    const StepStart& st = a.steps[*k];
    return std::to_string(name == "desc_advance" ? st.advance : st.start);
  }
  if (name == "desc_first_mismatch" || name == "desc_core_mismatch") return mismatch_value(name, a);
  if (name == "desc_fix" || name == "desc_fix_sbo" || name == "desc_fix_swizzle")
    return fix_value(name, d, tile);
  return std::nullopt;
}

// The layout alone, without the legend cute_notation() appends (", T = 16 B / element; ..."):
// a lesson's text says what T is.
std::string layout_only(const std::string& symbolic) {
  return symbolic.substr(0, symbolic.find(", T ="));
}

// What the descriptor and its mode say, whatever it reads.
std::optional<std::string> field_value(std::string_view name, const StepDescriptor& d,
                                       const TileLayout& tile) {
  const MatrixDescriptor& m = d.desc;
  const DescSwizzleInfo& sw = desc_swizzle(m.swizzle);
  const OperandShape op = step_operand(d, tile);
  const CoreMatrix core = core_matrix_of(op, 0, 0);
  if (name == "desc_word") return hex_word(encode(m));
  if (name == "desc_swizzle") return swizzle_words(m);
  if (name == "desc_start") return std::to_string(m.start);
  if (name == "desc_lbo") return std::to_string(m.lbo);
  if (name == "desc_sbo") return std::to_string(m.sbo);
  if (name == "desc_base_offset") return std::to_string(m.base_offset);
  if (name == "desc_dest") return std::to_string(d.dest);
  if (name == "desc_isa_base_offset") return std::to_string((m.start >> 7) & 7);
  if (name == "desc_layout") return layout_only(cute_notation(m, op).symbolic);
  if (name == "desc_layout_numbers") return cute_notation(m, op).numeric;
  if (name == "desc_layout_mn")
    return layout_only(cute_notation(m, {OperandMajor::mn, tile.dtype}).symbolic);
  // A core matrix's rows run along MN for a K-major operand and along K for an MN-major one;
  // each row is one 16-byte chunk of T elements.
  const bool k_major = op.major == OperandMajor::k;
  const int core_rows = k_major ? core.mn_count : core.k_count;
  const int row_elements = k_major ? core.k_count : core.mn_count;
  if (name == "desc_chunk_elements") return std::to_string(row_elements);
  if (name == "desc_k_elements") return std::to_string(op.k_step_elements());
  if (name == "desc_step_bytes") return std::to_string(kMmaStepBytes);
  if (name == "desc_core_rows") return std::to_string(core_rows);
  if (name == "desc_core_bytes") return std::to_string(row_elements * op.elem_bytes());
  if (name == "desc_atom_rows") return std::to_string(sw.atom_rows);
  if (name == "desc_atom_elements") return std::to_string(sw.width_bytes / op.elem_bytes());
  if (name == "desc_major") return std::string(to_string(op.major));
  if (name == "desc_row_bytes") return std::to_string(sw.width_bytes);
  if (name == "desc_atom_bytes") return std::to_string(sw.width_bytes * sw.atom_rows);
  if (name == "desc_boundary") return std::to_string(sw.boundary_bytes);
  return std::nullopt;
}

}  // namespace

Expected<StepDescriptor> parse_step_descriptor(std::span<const std::string> words,
                                               const Scenario& s) {
  if (!s.tile.swizzle.is_tma())
    return Error{
        "a descriptor step reads a tile TMA fills: give the scenario a TMA swizzle (--swizzle "
        "tma32, tma64 or tma128)"};
  StepDescriptor d;
  bool start_given = false;
  for (std::size_t i = 0; i < words.size(); i += 2) {
    if (i + 1 == words.size()) return Error{words[i] + " needs a value"};
    if (const Expected<void> set = set_field(d, words[i], words[i + 1], start_given); !set)
      return Error{set.error()};
  }
  if (!start_given) d.desc.start = d.dest;
  const DescSwizzleInfo& sw = desc_swizzle(d.desc.swizzle);
  if ((d.desc.arch == MmaArch::sm90 ? sw.sm90_code : sw.sm100_code) < 0)
    return Error{std::string(sw.ptx_name) + " is not a mode of " +
                 std::string(to_string(d.desc.arch)) + "'s descriptor"};
  const DescriptorAgreement a = step_agreement(d, s.tile);
  if (a.compared && d.k_step >= static_cast<int>(a.steps.size()))
    return Error{
        format("--k-step %d: the tile holds k-steps 0 to %zu", d.k_step, a.steps.size() - 1)};
  return d;
}

std::string descriptor_verdict(const StepDescriptor& d, const TileLayout& tile) {
  const DescriptorAgreement a = step_agreement(d, tile);
  if (!a.compared) {
    for (const auto* list : {&a.descriptor_rules, &a.producer_rules})
      for (const DescFinding& f : *list)
        if (f.undefined) return "not compared: " + f.rule;
    return "not compared";
  }
  if (a.agrees())
    return format("the descriptor reads all %lld elements where TMA wrote them",
                  static_cast<long long>(a.elements));
  return format("the descriptor misreads %lld of %lld elements",
                static_cast<long long>(a.mismatched), static_cast<long long>(a.elements));
}

std::string describe_descriptor(const StepDescriptor& d) {
  const MatrixDescriptor& m = d.desc;
  return format("%s descriptor %s: %s-major, %s, LBO %lld, SBO %lld, start %lld, k-step %d",
                m.arch == MmaArch::sm90 ? "wgmma (sm90)" : "tcgen05 (sm100)",
                hex_word(encode(m)).c_str(), std::string(to_string(d.major)).c_str(),
                swizzle_words(m).c_str(), static_cast<long long>(m.lbo),
                static_cast<long long>(m.sbo), static_cast<long long>(m.start), d.k_step);
}

std::optional<Expected<std::string>> descriptor_value(std::string_view name, std::string_view arg,
                                                      const Scenario& s, const StepDescriptor* d) {
  if (!name.starts_with("desc_")) return std::nullopt;
  if (d == nullptr)
    return Error{"needs a step read through a descriptor (descriptor = [\"--swizzle\", ...])"};
  if (auto v = field_value(name, *d, s.tile)) return *v;
  if (auto v = agreement_value(name, arg, *d, s.tile)) return std::move(*v);
  return Error{"unknown placeholder (see docs/lessons.md for the list)"};
}

}  // namespace banklab
