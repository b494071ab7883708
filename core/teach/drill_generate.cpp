// The drill's questions: each level is a list of families, each family draws a scenario and an
// ask from the question's own splitmix64 stream; the answers come from evaluate() and, for a
// fix, from a search over pads and swizzles checked by check_fix().
//
//   1. the families: weak, hire, strong-hire (one function each), and each level's mix
//   2. the answers: the fix search, the lane of a bank ask, the text, the target mistake
//   3. make_question(): the question's own stream, drawn until a family's draw makes a question
#include <cassert>

#include "core/base/format.hpp"
#include "core/teach/drill.hpp"
#include "core/teach/drill_internal.hpp"

namespace banklab {
namespace {

constexpr std::uint32_t kAllLanes = 0xFFFFFFFFu;
constexpr SwizzleSpec kNone{};
constexpr SwizzleSpec kXor{SwizzleKind::xor_columns, {}};
constexpr SwizzleSpec kTma32{SwizzleKind::tma32, {}};
constexpr SwizzleSpec kTma64{SwizzleKind::tma64, {}};
constexpr SwizzleSpec kTma128{SwizzleKind::tma128, {}};

// What a family draws: the scenario and the ask, and for a fix what may change and what the
// tile must keep legal. `premise` is said before the scenario (the offsets of a custom access,
// the setting of a judgement question); `intended` is the mistake the family is built to catch.
struct Draw {
  Scenario s;
  AskKind kind = AskKind::wavefronts;
  Mistake intended = Mistake::none;
  std::string premise;
  FixChoice choice = FixChoice::pad_or_swizzle;
  std::vector<Scenario> keep;
};

// --- weak: 4-byte scalar rows and columns of float tiles -----------------------------------

Draw weak_scalar(SplitMix64& rng) {
  static constexpr int kCols[] = {16, 32, 32, 64};
  static constexpr int kPads[] = {0, 0, 1, 2, 3, 4, 8, 16};
  static constexpr std::uint32_t kMasks[] = {0x0000FFFFu, 0xFFFF0000u, 0x55555555u, 0x000000FFu,
                                             0x0F0F0F0Fu};
  static constexpr AccessPattern kPatterns[] = {AccessPattern::column, AccessPattern::column,
                                                AccessPattern::row};
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::bank};
  const int cols = rng.pick(kCols);
  const AccessPattern pattern = rng.pick(kPatterns);
  const int index = rng.below(pattern == AccessPattern::column ? cols : 32);
  Draw d;
  d.s = tile_access(DType::fp32, 32, cols, rng.pick(kPads), kNone, pattern,
                    rng.below(2) ? Op::st : Op::ld, index, 4);
  if (rng.below(4) == 0) d.s.lane_mask = rng.pick(kMasks);
  d.kind = rng.pick(kAsks);
  if (d.kind == AskKind::wavefronts) d.intended = Mistake::conflicts_for_wavefronts;
  return d;
}

// --- hire: packing, phases, broadcasts, alignment, judgement --------------------------------

// One bf16 or fp8 element per lane down a column: the element-index mistake gives other banks.
Draw packed_scalar(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::bf16, DType::bf16, DType::fp8};
  static constexpr int kCols[] = {32, 64};
  static constexpr int kPads[] = {0, 1, 2, 3, 4, 8};
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::bank};
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  Draw d;
  d.s = tile_access(dtype, 32, cols, rng.pick(kPads), kNone, AccessPattern::column,
                    rng.below(2) ? Op::st : Op::ld, rng.below(cols), dtype_bytes(dtype));
  d.kind = rng.pick(kAsks);
  d.intended = Mistake::element_index_banks;
  return d;
}

// 8- and 16-byte lanes: several phases, so n-way and wavefronts part ways.
Draw wide_access(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::fp32, DType::fp64, DType::bf16};
  static constexpr int kWidths[] = {8, 16};
  static constexpr int kPads[] = {0, 0, 1, 2, 4, 8};
  static constexpr int kCols[] = {32, 64};
  static constexpr AccessPattern kPatterns[] = {AccessPattern::row, AccessPattern::column};
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  const AccessPattern pattern = rng.pick(kPatterns);
  const int width = rng.pick(kWidths);
  const int k = width / dtype_bytes(dtype);
  const int index = rng.below(pattern == AccessPattern::column ? cols / k : 32);
  Draw d;
  d.s = tile_access(dtype, 32, cols, rng.pick(kPads), kNone, pattern,
                    rng.below(2) ? Op::st : Op::ld, index, width);
  d.kind = rng.below(2) ? AskKind::ways : AskKind::wavefronts;
  d.intended = Mistake::ways_for_wavefronts;
  return d;
}

// Custom offsets where groups of lanes share an address: broadcasts (or merged writes).
Draw broadcast(SplitMix64& rng) {
  static constexpr int kWidths[] = {4, 4, 8, 16};
  static constexpr int kGroups[] = {2, 4, 8, 16, 32};
  static constexpr int kUnits[] = {1, 2, 8, 32, 33};
  const int width = rng.pick(kWidths);
  const int group = rng.pick(kGroups);
  const int unit = rng.pick(kUnits);
  const bool consecutive = rng.below(2) == 0;
  const std::int64_t stride = std::int64_t{unit} * width;
  Draw d;
  d.s.pattern = AccessPattern::custom;
  d.s.op = rng.below(2) ? Op::st : Op::ld;
  d.s.width = width;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int j = consecutive ? lane / group : lane % (kWarpSize / group);
    d.s.custom_offsets[lane] = stride * j;
  }
  const std::string j = consecutive ? "floor(L / " + std::to_string(group) + ")"
                                    : "(L mod " + std::to_string(kWarpSize / group) + ")";
  d.premise = "Lane L " + std::string(d.s.op == Op::ld ? "loads " : "stores ") +
              std::to_string(width) + " bytes at byte " + std::to_string(stride) + " x " + j +
              ", so " + std::to_string(group) + " lanes share each address.";
  d.kind = rng.below(2) ? AskKind::ways : AskKind::wavefronts;
  d.intended = Mistake::broadcast_counted;
  return d;
}

// A bf16 column read, a pad to choose, and packed bf16x2 row stores that must stay legal.
Draw packed_store_fix(SplitMix64& rng) {
  static constexpr int kCols[] = {32, 64, 128};
  static constexpr int kPads[] = {0, 4, 8};
  const int cols = rng.pick(kCols);
  const int pad = rng.pick(kPads);
  Draw d;
  d.s = tile_access(DType::bf16, 32, cols, pad, kNone, AccessPattern::column, Op::ld,
                    rng.below(cols), 2);
  d.keep.push_back(
      tile_access(DType::bf16, 32, cols, pad, kNone, AccessPattern::row, Op::st, 0, 4));
  d.kind = AskKind::fix;
  d.choice = FixChoice::pad_only;
  d.intended = Mistake::bf16_pad_one_packed;
  d.premise =
      "The rows are filled with packed bf16x2 stores (4 B per lane), which must stay legal.";
  return d;
}

// Is a fix worth it when HBM is the limit? Column reads of 2- to 32-way conflicts.
Draw worth(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::fp32, DType::fp32, DType::bf16};
  static constexpr int kPads[] = {0, 1, 2, 4, 8, 12, 16, 32};
  const DType dtype = rng.pick(kTypes);
  Draw d;
  d.s = tile_access(dtype, 32, 32, rng.pick(kPads), kNone, AccessPattern::column, Op::ld,
                    rng.below(32), dtype_bytes(dtype));
  d.kind = AskKind::worth;
  using namespace drill_detail;
  d.premise =
      "This column read is the shared-memory side of a large transpose, and the profile "
      "shows HBM near its peak of " +
      tbps(kLessonHbmTbps) + " (H100 SXM). Shared memory moves " + std::to_string(kLessonSms) +
      " SMs x " + std::to_string(kWavefrontBytes) + " B per clock at " +
      std::string(kLessonClockText) + ", about " + tbps(kLessonSharedTbps) +
      " when conflict-free, divided by the wavefronts per ideal.";
  return d;
}

// --- strong-hire: ldmatrix/stmatrix, swizzles, choosing a fix -------------------------------

Draw matrix_access(SplitMix64& rng) {
  static constexpr int kRows[] = {8, 16};
  static constexpr int kCols[] = {32, 64, 128};
  static constexpr int kPads[] = {0, 0, 8};
  static constexpr SwizzleSpec kSwizzles[] = {kNone,
                                              kNone,
                                              kTma32,
                                              kTma64,
                                              kTma128,
                                              kXor,
                                              {SwizzleKind::cute, {2, 4, 3}},
                                              {SwizzleKind::cute, {3, 4, 3}},
                                              {SwizzleKind::cute, {2, 4, 4}}};
  static constexpr Op kOps[] = {Op::ldmatrix_x1, Op::ldmatrix_x2, Op::ldmatrix_x4, Op::ldmatrix_x4,
                                Op::stmatrix_x4};
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::bank};
  const int cols = rng.pick(kCols);
  const Op op = rng.pick(kOps);
  const int first_chunks = cols * 2 / 16 - matrix_count(op) + 1;
  Draw d;
  d.s = tile_access(DType::bf16, rng.pick(kRows), cols, rng.pick(kPads), rng.pick(kSwizzles),
                    AccessPattern::matrix, op, rng.below(first_chunks), 16);
  d.kind = rng.pick(kAsks);
  d.intended = Mistake::ways_for_wavefronts;
  return d;
}

Draw swizzled_scalar(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::fp32, DType::bf16};
  static constexpr int kCols[] = {16, 32, 64};
  static constexpr SwizzleSpec kSwizzles[] = {kXor,
                                              kTma32,
                                              kTma64,
                                              kTma128,
                                              {SwizzleKind::cute, {3, 2, 3}},
                                              {SwizzleKind::cute, {5, 2, 5}},
                                              {SwizzleKind::cute, {3, 4, 3}}};
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::bank};
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  Draw d;
  d.s = tile_access(dtype, 32, cols, 0, rng.pick(kSwizzles), AccessPattern::column,
                    rng.below(2) ? Op::st : Op::ld, rng.below(cols), dtype_bytes(dtype));
  d.kind = rng.pick(kAsks);
  if (dtype == DType::bf16) d.intended = Mistake::element_index_banks;
  return d;
}

// ldmatrix/stmatrix on a tile that TMA writes and WGMMA reads: a swizzle, never a pad.
Draw tensor_core_fix(SplitMix64& rng) {
  static constexpr int kRows[] = {8, 16};
  static constexpr int kCols[] = {32, 64};
  static constexpr Op kOps[] = {Op::ldmatrix_x2, Op::ldmatrix_x4, Op::stmatrix_x4};
  const int cols = rng.pick(kCols);
  const Op op = rng.pick(kOps);
  Draw d;
  d.s = tile_access(DType::bf16, rng.pick(kRows), cols, 0, kNone, AccessPattern::matrix, op,
                    rng.below(cols * 2 / 16 - matrix_count(op) + 1), 16);
  d.kind = AskKind::fix;
  d.choice = FixChoice::swizzle_only;
  d.intended = Mistake::padded_tensor_core_tile;
  d.premise = "TMA writes this tile and WGMMA reads it, so its rows cannot be padded.";
  return d;
}

// A float column read whose rows are filled with float4 stores: 16-byte rows rule out the pads.
Draw float4_fix(SplitMix64& rng) {
  static constexpr int kCols[] = {32, 64};
  static constexpr int kPads[] = {0, 4, 8};
  const int cols = rng.pick(kCols);
  const int pad = rng.pick(kPads);
  Draw d;
  d.s = tile_access(DType::fp32, 32, cols, pad, kNone, AccessPattern::column, Op::ld,
                    rng.below(cols), 4);
  d.keep.push_back(
      tile_access(DType::fp32, 32, cols, pad, kNone, AccessPattern::row, Op::st, 0, 16));
  d.kind = AskKind::fix;
  d.intended = rng.below(2) ? Mistake::aligned_pad_conflicts : Mistake::pad_breaks_alignment;
  d.premise = "The rows are filled with float4 stores (16 B per lane), which must stay legal.";
  return d;
}

// A plain column read to fix with any pad or swizzle; for bf16 the one-element pad is a trap.
Draw column_fix(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::fp32, DType::bf16};
  static constexpr int kCols[] = {16, 32, 64};
  static constexpr int kPads[] = {0, 4, 8, 16};
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  Draw d;
  d.s = tile_access(dtype, 32, cols, rng.pick(kPads), kNone, AccessPattern::column,
                    rng.below(2) ? Op::st : Op::ld, rng.below(cols), dtype_bytes(dtype));
  d.kind = AskKind::fix;
  if (dtype == DType::bf16) d.intended = Mistake::fix_misses_other_indices;
  return d;
}

using Family = Draw (*)(SplitMix64&);

constexpr Family kWeak[] = {weak_scalar};
constexpr Family kHire[] = {packed_scalar, packed_scalar, wide_access,      wide_access,
                            broadcast,     broadcast,     packed_store_fix, worth};
// A third of the strong-hire questions ask for a fix; the rest count ldmatrix/stmatrix and
// swizzled columns, and judge one conflict against HBM.
constexpr Family kStrongHire[] = {matrix_access,   matrix_access,   matrix_access,
                                  matrix_access,   swizzled_scalar, swizzled_scalar,
                                  swizzled_scalar, tensor_core_fix, packed_store_fix,
                                  column_fix,      float4_fix,      worth};

// The family of a question: drawn once, so that the lists above are the mix the user gets.
Family pick_family(DrillLevel level, SplitMix64& rng) {
  switch (level) {
    case DrillLevel::weak:
      return rng.pick(kWeak);
    case DrillLevel::hire:
      return rng.pick(kHire);
    case DrillLevel::strong_hire:
      return rng.pick(kStrongHire);
  }
  return weak_scalar;
}

// --- answers ---------------------------------------------------------------------------------

// The fixes tried, in order: every pad from 1 to 32 (with the swizzle off), then the named
// swizzles and a range of CuTe swizzles (with the pad at 0). The first that works is the key.
std::vector<Fix> fix_candidates(const Question& q) {
  std::vector<Fix> out;
  const TileLayout& t = q.scenario.tile;
  if (q.choice != FixChoice::swizzle_only) {
    for (int pad = 1; pad <= 32; ++pad) {
      if (pad == t.pad) continue;
      Fix f{.pad = pad, .swizzle = std::nullopt};
      if (t.swizzle.kind != SwizzleKind::none) f.swizzle = kNone;
      out.push_back(f);
    }
  }
  if (q.choice != FixChoice::pad_only) {
    std::vector<SwizzleSpec> swizzles = {kXor, kTma32, kTma64, kTma128};
    for (int b = 1; b <= 3; ++b)
      for (int m = 2; m <= 4; ++m)
        for (int s = 3; s <= 5; ++s) swizzles.push_back({SwizzleKind::cute, {b, m, s}});
    for (const SwizzleSpec& sw : swizzles) {
      if (sw == t.swizzle) continue;
      Fix f{.pad = std::nullopt, .swizzle = sw};
      if (t.pad != 0) f.pad = 0;
      out.push_back(f);
    }
  }
  return out;
}

// A lane for a bank ask: active, and where the family targets the element-index mistake, one
// whose element-index bank differs from its word's bank (the scan starts at a drawn lane).
int pick_lane(const Draw& d, const Analysis& a, SplitMix64& rng) {
  const int start = rng.below(kWarpSize);
  int fallback = -1;
  for (int i = 0; i < kWarpSize; ++i) {
    const int lane = (start + i) % kWarpSize;
    const LaneRecord& l = a.lanes[lane];
    if (!l.active) continue;
    if (fallback < 0) fallback = lane;
    if (d.intended != Mistake::element_index_banks ||
        l.byte / d.s.tile.elem_bytes() % kBankCount != l.banks[0]) {
      return lane;
    }
  }
  return fallback;
}

std::string ask_text(const Question& q, const Analysis& a) {
  const std::string idx = q.scenario.pattern == AccessPattern::matrix ? "chunk" : "column";
  switch (q.kind) {
    case AskKind::wavefronts:
      return "How many wavefronts does this instruction take?";
    case AskKind::ways:
      return "Its worst phase is an n-way conflict: what is n? (1 = conflict-free)";
    case AskKind::bank:
      return "Which bank holds the first word lane " + std::to_string(q.lane) + " touches?";
    case AskKind::fix: {
      std::string what = q.choice == FixChoice::pad_only ? "a pad (--pad P)"
                         : q.choice == FixChoice::swizzle_only
                             ? "a swizzle (--swizzle S)"
                             : "a pad or a swizzle (--pad P, --swizzle S)";
      std::string unit = q.scenario.pattern == AccessPattern::row ? "row" : idx;
      return "It takes " + std::to_string(a.wavefront_count()) + " wavefronts where " +
             std::to_string(a.ideal_wavefronts) + " would do. Name " + what +
             " that makes this access conflict-free at every " + unit + " of the tile" +
             (q.keep.empty() ? "." : ", keeping those stores legal.");
    }
    case AskKind::worth:
      return "Is removing this conflict worth it? (yes or no)";
  }
  return "";
}

// The question's text: the premise, the scenario, the lanes switched off, the ask.
std::string question_text(const Question& q, const Draw& d, const Analysis& a) {
  std::string text = d.premise.empty() ? "" : d.premise + " ";
  text += describe(q.scenario);
  if (q.scenario.lane_mask != kAllLanes)
    text += " (lanes " + lane_ranges(q.scenario.lane_mask) + ")";
  return text + ". " + ask_text(q, a);
}

// The answer of a numeric or judgement ask; false when this draw makes a poor question (a
// judgement too close to call: within a factor of two of HBM either way).
bool set_answer(Question& q, const Analysis& a) {
  switch (q.kind) {
    case AskKind::wavefronts:
      q.answer = a.wavefront_count();
      return true;
    case AskKind::ways:
      q.answer = a.max_ways;
      return true;
    case AskKind::bank:
      q.answer = a.lanes[q.lane].banks[0];
      return true;
    case AskKind::worth: {
      const Reversal r = reversal(a);
      if (a.bank_conflicts() == 0) return false;
      if (r.shared_tbps < 2 * r.hbm_tbps && r.shared_tbps * 2 > r.hbm_tbps) return false;
      q.answer = r.worth_fixing() ? 1 : 0;
      q.target = r.worth_fixing() ? Mistake::deep_conflict_ignored : Mistake::hidden_behind_hbm;
      return true;
    }
    case AskKind::fix: {
      if (a.bank_conflicts() == 0) return false;
      for (const Fix& f : fix_candidates(q)) {
        if (check_fix(q, f).works) {
          q.fix = f;
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

// The wrong fix each fix family is built to catch.
Fix intended_wrong_fix(Mistake m) {
  switch (m) {
    case Mistake::aligned_pad_conflicts:
      return {.pad = 4, .swizzle = std::nullopt};
    case Mistake::padded_tensor_core_tile:
      return {.pad = 8, .swizzle = std::nullopt};
    default:
      return {.pad = 1, .swizzle = std::nullopt};
  }
}

// The target is the family's intended mistake when an answer built from it is recognised as
// that mistake and no other (the answers of two mistakes can coincide on a given scenario).
Mistake target_for(const Question& q, Mistake intended, const Analysis& a) {
  if (intended == Mistake::none) return Mistake::none;
  if (q.kind == AskKind::fix) {
    const Fix wrong = intended_wrong_fix(intended);
    return drill_detail::classify_fix(q, wrong, check_fix(q, wrong)) == intended ? intended
                                                                                 : Mistake::none;
  }
  for (int v = 0; v <= 64; ++v)
    if (drill_detail::classify_number(q, a, v) == intended) return intended;
  return Mistake::none;
}

std::uint64_t question_seed(DrillLevel level, std::uint64_t seed, int index) {
  SplitMix64 mix(seed);
  const std::uint64_t a = mix.next();
  SplitMix64 mix2(a ^ (std::uint64_t{static_cast<std::uint8_t>(level)} << 56) ^
                  static_cast<std::uint64_t>(static_cast<std::uint32_t>(index)));
  return mix2.next();
}

}  // namespace

Question make_question(DrillLevel level, std::uint64_t seed, int index) {
  SplitMix64 rng(question_seed(level, seed, index));
  const Family family = pick_family(level, rng);
  // A draw that makes no question (a swizzle or an alignment the tile does not allow, a
  // judgement too close to call, a fix none of the candidates gives) is drawn again from the
  // same family; every family has draws that work for most of its choices.
  for (int attempt = 0;; ++attempt) {
    assert(attempt < 1000 && "the drill's families draw a usable question far sooner");
    const Draw d = family(rng);
    const Evaluation e = evaluate(d.s);
    if (!e.ok()) continue;
    Question q;
    q.level = level;
    q.seed = seed;
    q.index = index;
    q.kind = d.kind;
    q.scenario = d.s;
    q.choice = d.choice;
    q.keep = d.keep;
    if (q.kind == AskKind::bank) q.lane = pick_lane(d, *e.analysis, rng);
    if (!set_answer(q, *e.analysis)) continue;
    if (q.kind != AskKind::worth) q.target = target_for(q, d.intended, *e.analysis);
    q.text = question_text(q, d, *e.analysis);
    return q;
  }
}

}  // namespace banklab
