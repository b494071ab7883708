// Drills: the names, fixes and designs as text, checking a fix, the reversal, the rubric, the
// session and the JSON form of a question. The questions are drawn in drill_generate.cpp and
// graded in drill_grade.cpp.
//
// [SECTION] splitmix64, and the names of levels, asks and mistakes (with the lesson's words)
// [SECTION] Text helpers; fixes and designs as flags, and a scenario as analyze's flags
// [SECTION] The reversal arithmetic, checking a fix
// [SECTION] The rubric, the session, the JSON
#include "core/teach/drill.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/teach/drill_internal.hpp"

namespace banklab {

// [SECTION] splitmix64, and the names of levels, asks and mistakes (with the lesson's words)

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int SplitMix64::below(int n) {
  return static_cast<int>(next() % static_cast<std::uint64_t>(n));
}

std::string_view level_name(DrillLevel l) {
  switch (l) {
    case DrillLevel::weak:
      return "weak";
    case DrillLevel::hire:
      return "hire";
    case DrillLevel::strong_hire:
      return "strong-hire";
  }
  return "weak";
}

std::string_view rubric_band(DrillLevel l) {
  switch (l) {
    case DrillLevel::weak:
      return "Weak";
    case DrillLevel::hire:
      return "Hire";
    case DrillLevel::strong_hire:
      return "Strong Hire";
  }
  return "Weak";
}

std::optional<DrillLevel> parse_level(std::string_view text) {
  for (DrillLevel l : kAllDrillLevels)
    if (text == level_name(l)) return l;
  return std::nullopt;
}

namespace {

// In AskKind's order (checked below): the counts' questions are the ones the drill asks.
constexpr AskDescriptor kAskDescriptors[] = {
    {AskKind::wavefronts, "wavefronts", AnswerForm::number, true,
     "How many wavefronts does this instruction take?", "a whole number"},
    {AskKind::ways, "ways", AnswerForm::number, true,
     "Its worst phase is an n-way conflict: what is n? (1 = conflict-free)", "a whole number"},
    {AskKind::bank, "bank", AnswerForm::number, false, "", "a bank, 0 to 31"},
    {AskKind::fix, "fix", AnswerForm::fix, false, "",
     "a pad and/or a swizzle: pad 2, swizzle tma128, or both"},
    {AskKind::worth, "worth", AnswerForm::yes_no, false, "", "yes (fix it) or no (leave it)"},
    {AskKind::choice, "choice", AnswerForm::letter, false, "",
     "the letter of a choice: a, b, c or d"},
    {AskKind::design, "design", AnswerForm::design, false, "",
     "a swizzle and an alignment: --swizzle tma128 --align 1024"},
    {AskKind::ideal, "ideal", AnswerForm::number, true,
     "What is its ideal: the fewest wavefronts these addresses allow?", "a whole number"},
    {AskKind::conflicts, "conflicts", AnswerForm::number, true,
     "How many bank conflicts does Nsight Compute report for it (wavefronts beyond the ideal)?",
     "a whole number"},
};

constexpr bool asks_in_order() {
  for (std::size_t i = 0; i < std::size(kAskDescriptors); ++i)
    if (static_cast<std::size_t>(kAskDescriptors[i].kind) != i) return false;
  return true;
}
static_assert(asks_in_order(), "kAskDescriptors lists every AskKind once, in the enum's order");

}  // namespace

const AskDescriptor& ask_descriptor(AskKind k) {
  return kAskDescriptors[static_cast<std::size_t>(k)];
}

std::string_view ask_name(AskKind k) {
  return ask_descriptor(k).name;
}

std::string_view mistake_name(Mistake m) {
  switch (m) {
    case Mistake::none:
      return "none";
    case Mistake::broadcast_counted:
      return "broadcast-counted";
    case Mistake::element_index_banks:
      return "element-index-banks";
    case Mistake::bf16_pad_one_packed:
      return "bf16-pad-one-packed";
    case Mistake::hidden_behind_hbm:
      return "hidden-behind-hbm";
    case Mistake::deep_conflict_ignored:
      return "deep-conflict-ignored";
    case Mistake::pad_breaks_alignment:
      return "pad-breaks-alignment";
    case Mistake::aligned_pad_conflicts:
      return "aligned-pad-conflicts";
    case Mistake::padded_tensor_core_tile:
      return "padded-tensor-core-tile";
    case Mistake::fix_misses_other_indices:
      return "fix-misses-other-indices";
    case Mistake::conflicts_for_wavefronts:
      return "conflicts-for-wavefronts";
    case Mistake::ways_for_wavefronts:
      return "ways-for-wavefronts";
    case Mistake::sixteen_banks:
      return "sixteen-banks";
    case Mistake::global_coalescing:
      return "global-coalescing";
    case Mistake::tma_span_exceeded:
      return "tma-span-exceeded";
    case Mistake::tma_misaligned:
      return "tma-misaligned";
    case Mistake::counter_mixup:
      return "counter-mixup";
    case Mistake::arbitration_ignored:
      return "arbitration-ignored";
    case Mistake::warp_of_2d_block:
      return "warp-of-2d-block";
    case Mistake::global_stride_as_banks:
      return "global-stride-as-banks";
    case Mistake::desc_field_raw:
      return "desc-field-raw";
    case Mistake::desc_lbo_sbo_swapped:
      return "desc-lbo-sbo-swapped";
    case Mistake::desc_swizzle_code:
      return "desc-swizzle-code";
    case Mistake::desc_swizzle_not_tma:
      return "desc-swizzle-not-tma";
    case Mistake::desc_sbo_row_pitch:
      return "desc-sbo-row-pitch";
    case Mistake::desc_isa_base_offset:
      return "desc-isa-base-offset";
    case Mistake::desc_advance_in_elements:
      return "desc-advance-in-elements";
    case Mistake::desc_advance_past_box:
      return "desc-advance-past-box";
    case Mistake::desc_advance_by_stride:
      return "desc-advance-by-stride";
  }
  return "none";
}

std::string_view mistake_text(Mistake m) {
  switch (m) {
    case Mistake::none:
      return "";
    case Mistake::broadcast_counted:
      return "Lanes on the same word are a broadcast (one write for stores), not a bank conflict: "
             "a bank's cost is its distinct words, not its lanes.";
    case Mistake::element_index_banks:
      return "Banks come from 4-byte word indices, not element indices: bf16 packs two elements "
             "and fp8 four into one word.";
    case Mistake::bf16_pad_one_packed:
      return "An odd bf16 pad (one, say) leaves odd rows on 2-byte boundaries, so a packed bf16x2 "
             "store into them, one 4-byte store, is misaligned and faults: pad by an even number.";
    case Mistake::hidden_behind_hbm:
      return "A moderate conflict hides behind HBM: shared memory still outruns DRAM, so fixing "
             "it does not move end-to-end time. Measure first.";
    case Mistake::deep_conflict_ignored:
      return "A conflict this deep drops shared memory below HBM and becomes the bottleneck: "
             "fix it, then measure.";
    case Mistake::pad_breaks_alignment:
      return "A vector store (float4, float2, a bf16x2 pair) needs every row to start on a "
             "multiple of its width; a pad that breaks that leaves some rows unable to take it. "
             "Keep the row a multiple of the width, or swizzle instead (TMA writes dense boxes "
             "whose rows are a multiple of 16 bytes: a pitch of one extra element it cannot "
             "make).";
    case Mistake::aligned_pad_conflicts:
      return "The pad that keeps rows 16-byte aligned makes the stride a multiple of 4 words, so "
             "a column still lands in 8 banks at most: swizzle instead.";
    case Mistake::padded_tensor_core_tile:
      return "This tile is written by TMA and read by WGMMA in one of their swizzle modes: a "
             "pad is not one of those layouts (a TMA box row must be a multiple of 16 bytes, and "
             "WGMMA's descriptor strides step in 16-byte units), so the fix is the TMA swizzle "
             "whose span covers the row.";
    case Mistake::fix_misses_other_indices:
      return "A fix has to hold for every column the loop reads, not just the one in front of "
             "you (bf16 tile[32][33] is conflict-free on even columns only).";
    case Mistake::conflicts_for_wavefronts:
      return "Bank conflicts are wavefronts beyond the ideal (what Nsight Compute reports); the "
             "instruction takes the ideal plus the conflicts.";
    case Mistake::ways_for_wavefronts:
      return "An n-way conflict is the cost of one phase; wider accesses split the warp into "
             "phases, and the wavefronts add up over them.";
    case Mistake::sixteen_banks:
      return "Hopper has 32 banks of 4 bytes (bank = word mod 32) and serves a 4-byte access of "
             "the whole warp at once; 16 banks and half-warps were the first CUDA GPUs' rule.";
    case Mistake::global_coalescing:
      return "That is global memory's rule (one transaction per 32-byte sector): shared memory "
             "has no sectors, only banks, and a strided column costs the most distinct words "
             "one bank holds. An odd word stride spreads the warp over all 32 banks.";
    case Mistake::tma_span_exceeded:
      return "A TMA swizzle is defined on rows of at most its span, and no TMA mode is wider "
             "than 128B: a wider tile is loaded as several boxes of 128-byte rows, each its own "
             "swizzled region (or swizzled in code, with xor or a CuTe swizzle).";
    case Mistake::tma_misaligned:
      return "TMA's swizzle XORs absolute address bits (7-9 for 128B) into the chunk index, so "
             "the tile must start on the swizzle's repeat: 1024 B for 128B, 512 for 64B, 256 "
             "for 32B (128 B for an unswizzled box).";
    case Mistake::counter_mixup:
      return "Nsight Compute counts shared-memory wavefronts (all of them), bank conflicts "
             "(wavefronts beyond the ideal) and instructions apart, loads (LDS, LDSM) under op_ld "
             "and stores (STS, STSM) under op_st.";
    case Mistake::arbitration_ignored:
      return "In a real kernel the hardware conflict counter also counts arbitration with other "
             "traffic (TMA writes, L1 fills, tensor-core reads), so it can exceed what any "
             "address pattern explains: measure the access alone before blaming the layout.";
    case Mistake::warp_of_2d_block:
      return "A warp is 32 consecutive threads in x-fastest order: with blockDim.x = 16 it holds "
             "two values of threadIdx.y, so two columns of the tile share its banks, and a pad "
             "of one leaves them colliding (analyze --decl ... --expr ... --block 16x16 shows "
             "every warp).";
    case Mistake::global_stride_as_banks:
      return "Global memory has no banks: a strided global access costs 32-byte sectors (one per "
             "lane when the stride is 32 bytes or more), and it shows in the sectors per "
             "request, not in the shared-memory conflict counters.";
    case Mistake::desc_field_raw:
      return "A descriptor stores its start, LBO and SBO as (bytes & 0x3FFFF) >> 4: the field's "
             "value is a count of 16-byte units.";
    case Mistake::desc_lbo_sbo_swapped:
      return "LBO (bits 16-29) is the leading-dimension offset and SBO (bits 32-45) the stride "
             "between groups of 8 core-matrix rows: swapped, the tensor core reads the wrong "
             "rows without any error.";
    case Mistake::desc_swizzle_code:
      return "The swizzle codes differ by architecture: wgmma's bits 62-63 (1 = 128B, 2 = 64B, "
             "3 = 32B) and tcgen05's bits 61-63 (2 = 128B, 4 = 64B, 6 = 32B, 1 = 128B with "
             "32-byte atoms).";
    case Mistake::desc_swizzle_not_tma:
      return "The descriptor's swizzle mode must be the tensor map's: another mode reads another "
             "permutation of the chunks TMA wrote, and the MMA multiplies the wrong numbers.";
    case Mistake::desc_sbo_row_pitch:
      return "SBO is the stride between groups of 8 rows (a K-major swizzled tile's atom: 8 "
             "rows of the swizzle's width), not the pitch of one row.";
    case Mistake::desc_isa_base_offset:
      return "TMA swizzles the absolute address, so a box off its 1024-byte boundary keeps its "
             "line's phase and base offset 0 reads it; the PTX ISA's (start >> 7) & 7 misread "
             "nearly every element on the H200 (docs/descriptor-lab.md).";
    case Mistake::desc_advance_in_elements:
      return "The start is a byte address, and one instruction reads 32 bytes of K (two 16-byte "
             "core matrices): advance by the unswizzled byte offset of the step's first "
             "element.";
    case Mistake::desc_advance_past_box:
      return "Inside a swizzle row the start advances 32 bytes a step; past the row's end the "
             "next k-step is in the next box (CuTe's tile_to_shape order), not further along "
             "the same one.";
    case Mistake::desc_advance_by_stride:
      return "SBO, a row's pitch and a box along MN are strides of the MN direction: a k-step "
             "moves along K, by the unswizzled offset of its first element.";
  }
  return "";
}

// [SECTION] Text helpers; fixes and designs as flags, and a scenario as analyze's flags

std::string drill_detail::lower(std::string_view text) {
  std::string t(text);
  for (char& ch : t) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  return t;
}

std::optional<int> drill_detail::whole_number(std::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string drill_detail::join(const std::vector<std::string>& words, std::string_view between) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += between;
    out += w;
  }
  return out;
}

namespace {

// The words of a line, split at blanks and at '='.
std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '=')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '=') ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

using drill_detail::whole_number;

std::vector<std::string> fix_flags(const Fix& f) {
  // Written by the key table, as every scenario's flags are: the fix's keys of a tile scenario.
  Scenario s;
  std::vector<const ScenarioKey*> keys;
  if (f.pad) {
    s.tile.pad = *f.pad;
    keys.push_back(&named_key("pad"));
  }
  if (f.swizzle) {
    s.tile.swizzle = *f.swizzle;
    keys.push_back(&named_key("swizzle"));
  }
  return scenario_words(s, keys);
}

Expected<Fix> parse_fix(std::string_view text) {
  const std::vector<std::string_view> w = words(text);
  Fix f;
  for (std::size_t i = 0; i < w.size(); i += 2) {
    std::string_view name = w[i];
    if (name.starts_with("--")) name.remove_prefix(2);
    if (name != "pad" && name != "swizzle") {
      return Error{"a fix is --pad P and/or --swizzle S, not " + quote(w[i])};
    }
    if (i + 1 == w.size()) return Error{"--" + std::string(name) + " needs a value"};
    if ((name == "pad" && f.pad) || (name == "swizzle" && f.swizzle)) {
      return Error{"--" + std::string(name) + " is given twice"};
    }
    if (name == "pad") {
      // A pad outside what a tile takes is not an answer, whether it fits an int or not.
      const std::optional<int> pad = whole_number(w[i + 1]);
      if (!pad || *pad < 0 || *pad > kMaxTilePad) {
        return Error{"--pad expects a whole number of elements from 0 to " +
                     std::to_string(kMaxTilePad) + ", got " + quote(w[i + 1])};
      }
      f.pad = *pad;
    } else {
      Expected<SwizzleSpec> swizzle = parse_swizzle(w[i + 1]);
      if (!swizzle) return Error{"--swizzle: " + swizzle.error()};
      f.swizzle = *swizzle;
    }
  }
  if (!f.pad && !f.swizzle) return Error{"a fix is --pad P and/or --swizzle S (e.g. --pad 1)"};
  return f;
}

Expected<Design> parse_design(std::string_view text) {
  // The alignment is taken out, and the rest read as a fix of the swizzle alone.
  const std::vector<std::string_view> w = words(text);
  Design d;
  std::string rest;
  for (std::size_t i = 0; i < w.size(); ++i) {
    std::string_view name = w[i];
    if (name.starts_with("--")) name.remove_prefix(2);
    if (name != "align") {
      rest += std::string(w[i]) + " ";
      continue;
    }
    if (i + 1 == w.size()) return Error{"--align needs a value"};
    if (d.align != 0) return Error{"--align is given twice"};
    const std::optional<int> align = whole_number(w[++i]);
    if (!align || *align < 1)
      return Error{"--align expects a whole number of bytes, got " + quote(w[i])};
    d.align = *align;
  }
  if (d.align == 0) return Error{"a design is --swizzle S --align BYTES (e.g. --align 16)"};
  Expected<Fix> f = parse_fix(rest);
  if (!f) return Error{f.error()};
  if (f->pad && *f->pad != 0) return Error{"a design is a swizzle and an alignment, not a pad"};
  d.fix = *f;
  return d;
}

Scenario apply_fix(Scenario s, const Fix& f) {
  if (f.pad) s.tile.pad = *f.pad;
  if (f.swizzle) s.tile.swizzle = *f.swizzle;
  return s;
}

std::vector<std::string> analyze_flags(const Scenario& s) {
  // The keys a reader needs to reproduce the bank view, in the order the drill shows them, each
  // value spelled by its key (scenario_keys.hpp): the width always said (as the bytes it means),
  // a swizzle and a lane mask only where there is one.
  Scenario shown = s;
  shown.width = s.effective_width();
  std::vector<const ScenarioKey*> keys;
  if (s.pattern == AccessPattern::raw) {
    keys = {&named_key("op"), &named_key("width"), &named_key("offsets")};
  } else {
    keys = {&named_key("dtype"), &named_key("tile"), &named_key("pad")};
    if (s.tile.swizzle.kind != SwizzleKind::none) keys.push_back(&named_key("swizzle"));
    keys.insert(keys.end(), {&named_key("access"), &named_key("index")});
    if (s.pattern != AccessPattern::matrix)
      keys.insert(keys.end(), {&named_key("op"), &named_key("width")});
  }
  if (s.lane_mask != 0xFFFFFFFFu) keys.push_back(&named_key("lanes"));
  return scenario_words(shown, keys);
}

namespace drill_detail {

std::vector<int> pattern_indices(const Scenario& s) {
  std::vector<int> out;
  int count = 0;
  switch (s.pattern) {
    case AccessPattern::row:
      count = s.tile.rows;
      break;
    case AccessPattern::column:
      count = s.tile.cols / std::max(1, s.elements_per_lane());
      break;
    case AccessPattern::matrix:
      count = s.tile.cols * s.tile.elem_bytes() / 16 - matrix_count(s.op) + 1;
      break;
    case AccessPattern::raw:
      break;
  }
  for (int i = 0; i < count; ++i) out.push_back(i);
  return out;
}

}  // namespace drill_detail
}  // namespace banklab

namespace banklab {

// [SECTION] The reversal arithmetic, checking a fix

std::string drill_detail::index_name(const Scenario& s) {
  switch (s.pattern) {
    case AccessPattern::row:
      return "row";
    case AccessPattern::column:
      return "column";
    case AccessPattern::matrix:
      return "chunk";
    case AccessPattern::raw:
      break;
  }
  return "index";
}

std::string drill_detail::article(int n) {
  const std::string digits = std::to_string(n);
  return digits[0] == '8' || n == 11 || n == 18 ? "an " : "a ";
}

std::string drill_detail::wavefronts_text(const Analysis& a) {
  return std::to_string(a.wavefront_count()) +
         (a.wavefront_count() == 1 ? " wavefront" : " wavefronts") + " (ideal " +
         std::to_string(a.ideal_wavefronts) + ")";
}

std::string drill_detail::tbps(double v) {
  return format("%.2f TB/s", v);
}

std::optional<Reversal> reversal(const Analysis& a) {
  const Expected<Measurements>& m = recorded();
  if (!m) return std::nullopt;
  Reversal r;
  r.sm_count = m->sm_count;
  r.clock_mhz = m->sm_clock_mhz;
  r.shared_tbps = m->shared_tbps();
  r.copy_tbps = m->copy_gbps / 1000;
  const double cost = double(std::max(1, a.wavefront_count())) / std::max(1, a.ideal_wavefronts);
  r.transposed_shared_tbps = transposed_shared_tbps(r.shared_tbps, a.access.width, cost);
  r.transposed_hbm_tbps = transposed_hbm_tbps(r.copy_tbps);
  return r;
}

int drill_detail::tma_alignment_of(const TileLayout& t) {
  if (t.swizzle.kind == SwizzleKind::none || t.swizzle.is_tma())
    return t.swizzle.tma_alignment_bytes();
  if (!t.check()) return 0;
  for (const Spelling& s : spellings(t))
    if (s.notation == "tma") return s.swizzle.tma_alignment_bytes();
  return 0;
}

namespace {

// Whether TMA can write the tile: no swizzle, a TMA mode, or a layout one of them spells.
bool tma_writable(const TileLayout& t) {
  return drill_detail::tma_alignment_of(t) > 0;
}

}  // namespace

Scenario block_warp_access(const TileLayout& t, int block_x, int warp) {
  Scenario s;
  s.tile = t;
  s.pattern = AccessPattern::raw;
  s.op = Op::ld;
  s.width = t.elem_bytes();
  const int rows_per_warp = kWarpSize / block_x;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int x = lane % block_x, y = warp * rows_per_warp + lane / block_x;
    if (x < t.rows && y < t.cols) {
      s.raw_offsets[lane] = t(x, y);
    } else {
      s.lane_mask &= ~(1u << lane);
    }
  }
  return s;
}

namespace {

// The access a fix leaves: the question's scenario with the fix applied, and for a 2-D block
// the warp's offsets rebuilt from the fixed tile.
Scenario fixed_access(const Question& q, const Fix& f, int warp) {
  Scenario s = apply_fix(q.scenario, f);
  return q.block_x > 0 ? block_warp_access(s.tile, q.block_x, warp) : s;
}

// Every access the fix must make conflict-free: each index of the pattern, or each warp of the
// 2-D block.
std::vector<Scenario> every_index(const Question& q, const Fix& f) {
  std::vector<Scenario> out;
  if (q.block_x > 0) {
    const TileLayout t = apply_fix(q.scenario, f).tile;
    const int warps = t.rows * t.cols / kWarpSize;
    for (int warp = 0; warp < warps; ++warp) out.push_back(fixed_access(q, f, warp));
    return out;
  }
  const Scenario fixed = apply_fix(q.scenario, f);
  for (int index : drill_detail::pattern_indices(fixed)) {
    Scenario s = fixed;
    s.index = index;
    out.push_back(s);
  }
  return out;
}

}  // namespace

FixCheck check_fix(const Question& q, const Fix& f) {
  FixCheck c;
  c.fixed = fixed_access(q, f, q.block_warp);
  auto fail = [&](std::string why) {
    if (c.why.empty()) c.why = std::move(why);
  };
  const bool pad_changed = f.pad && *f.pad != q.scenario.tile.pad;
  const bool swizzle_changed = f.swizzle && *f.swizzle != q.scenario.tile.swizzle;
  const bool no_pad = q.choice == FixChoice::swizzle_only || q.choice == FixChoice::tma_only;
  c.allowed = !(no_pad && pad_changed) && !(q.choice == FixChoice::pad_only && swizzle_changed);
  if (!c.allowed) {
    fail(q.choice == FixChoice::tma_only
             ? "this tile is written by TMA and read by WGMMA, so its rows cannot be padded"
         : q.choice == FixChoice::swizzle_only
             ? "this tile must stay dense, so its rows cannot be padded"
             : "this question asks for a pad (--pad P), not a swizzle");
  } else if (q.choice == FixChoice::tma_only && swizzle_changed && !tma_writable(c.fixed.tile)) {
    c.allowed = false;
    fail(
        "TMA writes its own swizzles only (tma32, tma64, tma128, or a CuTe swizzle that places "
        "every element as one of them does), not " +
        to_string(c.fixed.tile.swizzle));
  }
  // A broken store is reported before a slow read: the one cannot run, the other only costs.
  c.keep_ok = true;
  for (const Scenario& kept : q.keep) {
    // A swizzle that permutes elements inside a lane's vector does so on many rows of a fill:
    // one note names the first such row and counts the rest (feedback fits a terminal).
    std::string permuted;
    int permuted_rows = 0;
    for (int index : drill_detail::pattern_indices(kept)) {
      Scenario s = apply_fix(kept, f);
      s.index = index;
      const Evaluation e = evaluate(s);
      if (e.ok()) {
        const auto note = std::find_if(e.diagnostics.begin(), e.diagnostics.end(),
                                       [](const Diagnostic& d) { return d.rule == "permuted"; });
        if (note != e.diagnostics.end() && permuted_rows++ == 0)
          permuted = "the tile is filled by " + describe(s) + ", and " + note->message;
        continue;
      }
      fail("the tile is also filled by " + describe(s) +
           ", which the fix breaks: " + first_error(e.diagnostics));
      c.keep_ok = false;
      break;
    }
    if (permuted_rows > 1)
      permuted += " (as in " + std::to_string(permuted_rows - 1) + " more of the rows it fills)";
    if (permuted_rows > 0) c.notes.push_back(std::move(permuted));
  }
  const Evaluation asked = evaluate(c.fixed);
  c.asked_index_ok = asked.ok() && asked.analysis->bank_conflicts() == 0;
  c.all_indices_ok = true;
  int warp = -1;
  for (const Scenario& s : every_index(q, f)) {
    ++warp;
    // Said only where an index fails: describing every index of every fix tried cost about a
    // quarter of the drill suites' time (issue 36).
    const auto what = [&] {
      return q.block_x > 0
                 ? "warp " + std::to_string(warp) + " of the block on " + to_string(s.tile)
                 : describe(s);
    };
    const Evaluation e = evaluate(s);
    if (!e.ok()) {
      fail(what() + ": " + first_error(e.diagnostics));
    } else if (e.analysis->bank_conflicts() > 0) {
      fail(what() + " still takes " + drill_detail::wavefronts_text(*e.analysis) + ", " +
           drill_detail::article(e.analysis->max_ways) + std::to_string(e.analysis->max_ways) +
           "-way conflict");
    } else {
      continue;
    }
    c.all_indices_ok = false;
    break;
  }
  c.works = c.allowed && c.all_indices_ok && c.keep_ok;
  return c;
}

// [SECTION] The rubric, the session, the JSON

// The rubric's bands in the lesson's words.
std::string_view rubric_text(DrillLevel band) {
  switch (band) {
    case DrillLevel::weak:
      return "knows \"add one to the column dimension\" but cannot say which access conflicts or "
             "why 33 works.";
    case DrillLevel::hire:
      return "writes word index mod 32 for both access patterns, gets 32-way and conflict-free, "
             "and explains coprimality.";
    case DrillLevel::strong_hire:
      return "redoes the arithmetic for BF16 and 16-byte stores, shows the aligned pad leaves a "
             "4-way conflict, and explains why TMA and WGMMA use swizzled layouts instead of "
             "padding.";
  }
  return "";
}

Placement place(DrillLevel level, int right, int total) {
  const bool passed = total > 0 && right * 5 >= total * 4;
  Placement p;
  p.band = passed || level == DrillLevel::weak
               ? level
               : static_cast<DrillLevel>(static_cast<int>(level) - 1);
  p.basics = passed && level == DrillLevel::weak;
  const std::string score = std::to_string(right) + "/" + std::to_string(total) + " at the " +
                            std::string(level_name(level)) + " level";
  const std::string rubric =
      "The rubric's " + std::string(rubric_band(p.band)) + ": " + std::string(rubric_text(p.band));
  if (p.basics) {
    p.text = "The basics: " + score +
             ", at least 80% right. You say which access conflicts and why the pad works, which "
             "the rubric's Weak candidate cannot (" +
             std::string(rubric_text(DrillLevel::weak)) + ") Next: --level hire.";
  } else if (passed) {
    p.text = std::string(rubric_band(level)) + ": " + score + ", at least 80% right. " + rubric;
    if (level != DrillLevel::strong_hire) {
      p.text += " Next: --level " +
                std::string(level_name(static_cast<DrillLevel>(static_cast<int>(level) + 1))) + ".";
    }
  } else if (level == DrillLevel::weak) {
    p.text = "Weak: " + score + ", under the 80% of the basics. " + rubric;
  } else {
    p.text =
        std::string(rubric_band(p.band)) +
        (level == DrillLevel::strong_hire ? " at best: " : ": ") + score +
        ", under the 80% that places you at " + std::string(rubric_band(level)) + ". " + rubric +
        (level == DrillLevel::strong_hire ? " (--level hire says whether you are there.)" : "");
  }
  return p;
}

DrillSession::DrillSession(DrillLevel level, std::uint64_t seed)
    : level_(level), seed_(seed), question_(make_question(level, seed, 0)) {}

bool DrillSession::answer(std::string_view text) {
  if (graded_ && graded_->read) return false;
  graded_ = grade(question_, text);
  if (!graded_->read) return false;
  ++answered_;
  if (graded_->right) {
    ++right_;
    ++streak_;
  } else {
    streak_ = 0;
  }
  return true;
}

void DrillSession::next() {
  question_ = make_question(level_, seed_, ++index_);
  graded_.reset();
}

void append_json(std::string& out, const Question& q) {
  JsonWriter w(out);
  auto strings = [&](std::string_view key, const std::vector<std::string>& list) {
    if (!key.empty()) w.key(key);
    w.begin_array();
    for (const std::string& item : list) w.value(item);
    w.end_array();
  };
  w.begin_object()
      .field("kind", ask_name(q.kind))
      .field("level", level_name(q.level))
      .field("seed", q.seed)
      .field("index", q.index)
      .field("family", q.family);
  strings("args", analyze_flags(q.scenario));
  if (q.kind == AskKind::bank) w.field("lane", q.lane);
  w.field("question", q.text);
  switch (ask_descriptor(q.kind).form) {
    case AnswerForm::fix:
      strings("answer", fix_flags(q.fix));
      break;
    case AnswerForm::yes_no:
      w.field("answer", q.answer == 1);
      break;
    case AnswerForm::letter: {
      w.field("answer", std::string(1, static_cast<char>('a' + q.answer)));
      std::vector<std::string> texts;
      for (const Choice& c : q.choices) texts.push_back(c.text);
      strings("choices", texts);
      break;
    }
    case AnswerForm::design: {
      std::vector<std::string> flags = fix_flags(q.fix);
      flags.insert(flags.end(), {"--align", std::to_string(q.answer)});
      strings("answer", flags);
      break;
    }
    case AnswerForm::number:
      w.field("answer", q.answer);
  }
  if (q.kind == AskKind::fix || q.kind == AskKind::design) {
    w.field("choice", q.choice == FixChoice::pad_only       ? "pad"
                      : q.choice == FixChoice::swizzle_only ? "swizzle"
                      : q.choice == FixChoice::tma_only     ? "tma-swizzle"
                                                            : "pad-or-swizzle");
    w.key("keep").begin_array();
    for (const Scenario& k : q.keep) strings("", analyze_flags(k));
    w.end_array();
  }
  if (q.block_x > 0) {
    w.field("block", std::to_string(q.block_x) + "x" +
                         std::to_string(q.scenario.tile.rows * q.scenario.tile.cols / q.block_x));
    w.field("warp", q.block_warp);
  }
  if (q.target != Mistake::none) w.field("target", mistake_name(q.target));
  w.end_object();
}

}  // namespace banklab
