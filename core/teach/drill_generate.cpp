// The drill's questions: each level is a list of families (templates), each family draws a
// scenario and an ask from the question's own splitmix64 stream; the answers come from
// evaluate() and, for a fix or a design, from a search over pads and swizzles checked by
// check_fix().
//
// [SECTION] What every lane does, in words (lanes_in_words)
// [SECTION] The families: weak, hire, strong-hire, and each level's mix
// [SECTION] The answers: the fix search, the lane of a bank ask, the text, the target mistake
// [SECTION] make_question(): drawn until a family's draw makes one
#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <utility>

#include "core/base/format.hpp"
#include "core/model/hardware.hpp"
#include "core/report/explain.hpp"
#include "core/teach/drill.hpp"
#include "core/teach/drill_descriptor.hpp"
#include "core/teach/drill_internal.hpp"

namespace banklab {

// [SECTION] What every lane does, in words (lanes_in_words)

namespace {

std::string lane_range(int first, int last) {
  return first == last ? "lane " + std::to_string(first)
                       : "lanes " + std::to_string(first) + "-" + std::to_string(last);
}

std::string element_range(int first, int last) {
  return first == last ? "element " + std::to_string(first)
                       : "elements " + std::to_string(first) + "-" + std::to_string(last);
}

// "lanes 24-31 fall past the tile's last row and sit idle": the lanes in `mask`, run by run;
// every other lane as a person says it ("the odd lanes (1, 3, ..., 31)"), not as 16 runs.
std::string idle_runs(std::uint32_t mask, const std::string& why) {
  if (mask == 0xAAAAAAAAu) return "the odd lanes (1, 3, 5, ..., 31) " + why;
  if (mask == 0x55555555u) return "the even lanes (0, 2, 4, ..., 30) " + why;
  std::string out;
  for (int lane = 0; lane < kWarpSize;) {
    if (!(mask >> lane & 1u)) {
      ++lane;
      continue;
    }
    int last = lane;
    while (last + 1 < kWarpSize && (mask >> (last + 1) & 1u)) ++last;
    out += (out.empty() ? "" : ", ") + lane_range(lane, last);
    lane = last + 1;
  }
  return out.empty() ? out : out + " " + why;
}

}  // namespace

std::string lanes_in_words(const Scenario& s) {
  if (s.pattern == AccessPattern::raw) return {};
  const Evaluation e = evaluate(s);
  const TileLayout& t = s.tile;
  const bool store = s.op == Op::st || s.op == Op::stmatrix_x4;
  const int k = std::max(1, s.elements_per_lane());
  std::string out;
  std::uint32_t off = ~s.lane_mask, past = 0;
  switch (s.pattern) {
    case AccessPattern::column: {
      const int c = s.index * k;
      out =
          std::string("lane L ") + (store ? "writes " : "reads ") +
          (k == 1 ? "element (L, " + std::to_string(c) + ")"
                  : "elements (L, " + std::to_string(c) + ") to (L, " + std::to_string(c + k - 1) +
                        ") as one " + std::to_string(s.effective_width()) + "-byte access");
      for (int lane = t.rows; lane < kWarpSize; ++lane) past |= 1u << lane;
      past &= s.lane_mask;
      if (past) out += "; " + idle_runs(past, "have no row of the tile and sit idle");
      break;
    }
    case AccessPattern::row: {
      // Runs of lanes that share a row: "lanes 0-15 read elements 0-15 of row 5". The runs are
      // the warp's as if every lane were on (where the lanes sit is the layout's, not the
      // mask's); the lanes switched off are said after them, as a person would say it.
      Scenario every_lane = s;
      every_lane.lane_mask = 0xFFFFFFFFu;
      const Evaluation all = evaluate(every_lane);
      const auto& el_of = (all.ok() ? all : e).elements;
      const std::uint32_t described = all.ok() ? 0xFFFFFFFFu : s.lane_mask;
      std::string runs;
      for (int lane = 0; lane < kWarpSize;) {
        const LaneElements& el = el_of[lane];
        if (!(described >> lane & 1u) || el.count == 0) {
          if (s.lane_mask >> lane & 1u) past |= 1u << lane;
          ++lane;
          continue;
        }
        int last = lane;
        while (last + 1 < kWarpSize && el_of[last + 1].count > 0 &&
               (described >> (last + 1) & 1u) && el_of[last + 1].first.row == el.first.row)
          ++last;
        runs +=
            std::string(runs.empty() ? "" : ", and ") + lane_range(lane, last) + " " +
            (store ? (lane == last ? "writes " : "write ") : (lane == last ? "reads " : "read ")) +
            element_range(el.first.col, el_of[last].first.col + k - 1) + " of row " +
            std::to_string(el.first.row);
        lane = last + 1;
      }
      // The plain case in the plain words: one row, lane L on element L.
      const LaneElements& first = el_of[0];
      const bool plain = k == 1 && described == 0xFFFFFFFFu && past == 0 && first.count > 0 &&
                         first.first.col == 0 && el_of[kWarpSize - 1].count > 0 &&
                         el_of[kWarpSize - 1].first.row == first.first.row;
      out = plain ? std::string("lane L ") + (store ? "writes" : "reads") + " element L of row " +
                        std::to_string(first.first.row)
                  : runs + (k > 1 ? " (" + std::to_string(k) + " elements a lane)" : "");
      if (past) out += "; " + idle_runs(past, "fall past the tile's last row and sit idle");
      break;
    }
    case AccessPattern::matrix: {
      const int n = matrix_count(s.op);
      out = "lanes 8m to 8m+7 give the addresses of rows 0-7 of matrix m (m = 0.." +
            std::to_string(n - 1) + "), the 16-byte chunk " + std::to_string(s.index) +
            " + m of each row";
      if (n < 4) out += "; " + lane_range(8 * n, kWarpSize - 1) + " give no address";
      off = 0;
      break;
    }
    case AccessPattern::raw:
      break;
  }
  if (off) out += "; " + idle_runs(off, "are switched off");
  if (t.pitch_bytes() != t.row_bytes()) {
    out += " (TMA places each " + std::to_string(t.row_bytes()) + "-byte row at a " +
           std::to_string(t.pitch_bytes()) + "-byte pitch)";
  }
  return out;
}

namespace {

using drill_detail::index_name;

using namespace swizzles;  // kNone, kXor, kTma32, kTma64, kTma128

// What a family draws: the scenario and the ask, and for a fix what may change and what the
// tile must keep legal. `premise` is said before the scenario (the offsets of a raw access,
// the setting of a judgement); `intended` the mistakes the family is built to catch, in order:
// the first one an answer can be recognised as becomes the question's target.
struct Draw {
  Scenario s;
  AskKind kind = AskKind::wavefronts;
  std::vector<Mistake> intended;
  std::string premise;
  FixChoice choice = FixChoice::pad_or_swizzle;
  std::vector<Scenario> keep;
  std::vector<Choice> choices;  // choice asks: the right one first (shuffled when asked)
  std::string ask;              // choice asks: the question itself
  bool tma_fill = false;        // design asks
  int block_x = 0;              // 2-D block asks: blockDim.x, and the warp asked about
  int block_warp = 0;
  std::string measured;  // worth asks: the recording's transpose that measured this conflict
  // A count (wavefronts, n-way, ideal, conflicts) is asked only where the Hire formula over the
  // whole warp gives another answer (whole_warp_answer): what phases, packing or a broadcast
  // across phases change is what a Strong Hire question of this draw grades.
  bool phases_change_answer = false;
  bool says_access = true;  // false: the question is about the tile (a descriptor), not a warp
};

AskKind pick_ask(SplitMix64& rng) {
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::bank};
  return rng.pick(kAsks);
}

Op ld_or_st(SplitMix64& rng) {
  return rng.below(2) ? Op::st : Op::ld;
}

// One of two phrasings of a choice, drawn: each option of a question is said short or long, so
// that the right one is the longest, or the shortest, about as often as any other option
// (issue 34: the right option was the shortest of every global-stride question).
std::string phrasing(SplitMix64& rng, std::string short_form, std::string long_form) {
  return rng.below(2) ? std::move(long_form) : std::move(short_form);
}

// [SECTION] The families: weak, hire, strong-hire, and each level's mix
//
// Each draw from the generator is a statement or a declarator of its own, never one of several
// in a call's arguments: C++ leaves their order to the compiler (GCC draws the last argument
// first, clang the first), and a seed gives the same questions in every build, the desktop's
// (GCC) and the browser's (clang) alike. The draws keep the order GCC's build gave them, so the
// questions of a seed did not change (issue 36: clang's build drew others, and test_core_drill
// failed there).

// --- weak: the basics the rubric's Weak candidate misses ---

// A lane's word and bank in a float tile, by row or by column.
Draw weak_bank(SplitMix64& rng) {
  static constexpr int kPads[] = {0, 1};
  const AccessPattern p = rng.below(2) ? AccessPattern::row : AccessPattern::column;
  const int index = rng.below(32);
  const Op op = ld_or_st(rng);
  const int pad = rng.pick(kPads);
  Draw d;
  d.s = tile_access(DType::fp32, 32, 32, pad, kNone, p, op, index, 4);
  d.kind = AskKind::bank;
  d.intended = {Mistake::sixteen_banks};
  return d;
}

// Float tile widths from a wide range: a column of float tile[32][W] is gcd(W, 32)-way, so the
// answers spread over 1 to 32, three widths to each, and no width is worth memorising.
constexpr int kFloatWidths[] = {17, 33, 65, 18, 34, 50, 20, 36, 52,
                                24, 40, 56, 16, 48, 80, 32, 64, 96};

// Which of the transpose's two accesses conflicts: the row write, or the column read of a float
// tile of any width.
Draw weak_which_conflicts(SplitMix64& rng) {
  const bool column = rng.below(6) != 0;
  const int cols = rng.pick(kFloatWidths);
  Draw d;
  d.s = tile_access(DType::fp32, 32, cols, 0, kNone,
                    column ? AccessPattern::column : AccessPattern::row, column ? Op::ld : Op::st,
                    rng.below(column ? cols : 32), 4);
  d.kind = rng.below(2) ? AskKind::ways : AskKind::wavefronts;
  d.intended = {Mistake::global_coalescing, Mistake::conflicts_for_wavefronts,
                Mistake::sixteen_banks};
  return d;
}

// Groups of lanes on one 4-byte word each, the groups `unit` words apart: a broadcast within a
// group, and the groups' words in one bank or not.
Draw broadcast_groups(int group, int unit, SplitMix64& rng) {
  Draw d;
  d.s.pattern = AccessPattern::raw;
  d.s.op = ld_or_st(rng);
  d.s.width = 4;
  for (int lane = 0; lane < kWarpSize; ++lane) d.s.raw_offsets[lane] = 4 * unit * (lane / group);
  const std::string verb = d.s.op == Op::ld ? "loads" : "stores";
  d.premise = group == kWarpSize
                  ? "All 32 lanes " + std::string(d.s.op == Op::ld ? "load" : "store") +
                        " the same 4 bytes, tile[0][0] of a float tile."
                  : "Lane L " + verb + " the float at byte " + std::to_string(4 * unit) +
                        " x floor(L / " + std::to_string(group) + ") of a float tile: lanes " +
                        std::to_string(group) + "k to " + std::to_string(group) + "k + " +
                        std::to_string(group - 1) + " share word " +
                        (unit == 1 ? std::string("k") : std::to_string(unit) + "k") + ".";
  d.kind = rng.below(2) ? AskKind::ways : AskKind::wavefronts;
  d.intended = {Mistake::broadcast_counted};
  return d;
}

// The groups and their spacing, chosen so that the answers spread over 1 to 16 (1 for the
// whole warp on one word): the groups' words fall in 32 / gcd(unit, 32) banks, each holding
// (32 / group) / that many of them.
Draw weak_broadcast(SplitMix64& rng) {
  struct Groups {
    int group, unit;
  };
  static constexpr Groups kGroups[] = {{32, 1}, {4, 8},  {16, 32}, {2, 8},
                                       {8, 32}, {2, 16}, {4, 32},  {2, 32}};
  const Groups g = rng.pick(kGroups);
  return broadcast_groups(g.group, g.unit, rng);
}

// A float column to fix, the tile shown at its real width: a pad when plain stores fill it
// (the pad of one, when the width is even), or, when float2 or float4 stores fill its rows, a
// fix that keeps them legal (no pad can: it must keep the rows a multiple of the vector).
Draw column_fix(SplitMix64& rng, bool vector_fill) {
  static constexpr int kEven[] = {16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 72, 96};
  static constexpr int kDense[] = {32, 64};
  Draw d;
  if (!vector_fill) {
    const int cols = rng.pick(kEven);
    const int index = rng.below(cols);
    d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, ld_or_st(rng), index,
                      4);
    d.choice = FixChoice::pad_only;
  } else {
    const int cols = rng.pick(kDense), width = rng.below(2) ? 8 : 16;
    d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, Op::ld,
                      rng.below(cols), 4);
    d.keep.push_back(
        tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::row, Op::st, 0, width));
    d.choice = FixChoice::pad_or_swizzle;
    d.premise = std::string("The rows are filled with ") + (width == 8 ? "float2" : "float4") +
                " stores (" + std::to_string(width) + " B per lane), which must stay legal.";
    d.intended = {Mistake::pad_breaks_alignment};
  }
  d.kind = AskKind::fix;
  return d;
}

Draw weak_fix(SplitMix64& rng) {
  return column_fix(rng, rng.below(2) == 0);
}

// --- hire: the Hire bar, word index mod 32 for any float tile ---

// Rows and columns of float tiles of any width, ld or st, some lanes switched off.
Draw hire_scalar(SplitMix64& rng) {
  static constexpr int kPads[] = {0, 0, 0, 2, 4, 8};
  static constexpr std::uint32_t kMasks[] = {0x0000FFFFu, 0xFFFF0000u, 0x55555555u, 0x000000FFu,
                                             0x0F0F0F0Fu};
  const int cols = rng.pick(kFloatWidths);
  const AccessPattern p = rng.below(5) ? AccessPattern::column : AccessPattern::row;
  const int index = rng.below(p == AccessPattern::column ? cols : 32);
  const Op op = ld_or_st(rng);
  Draw d;
  d.s = tile_access(DType::fp32, 32, cols, rng.pick(kPads), kNone, p, op, index, 4);
  if (rng.below(4) == 0) d.s.lane_mask = rng.pick(kMasks);
  d.kind = pick_ask(rng);
  d.intended = {Mistake::global_coalescing, Mistake::sixteen_banks,
                Mistake::conflicts_for_wavefronts};
  return d;
}

// A warp of a 2-D block, blockDim.x = 16 or 8: lane L is thread (L mod B, (32 / B) w + L / B),
// so the warp reads 32 / B columns of tile[threadIdx.x][threadIdx.y], B rows each. A pad that
// makes one column conflict-free can leave the columns colliding: the known cause of
// "conflicts after padding".
Draw block_draw(SplitMix64& rng, int pad) {
  static constexpr int kCols16[] = {16, 18, 20, 24, 32};
  static constexpr int kCols8[] = {8, 12, 16, 20, 24, 32};
  const int block_x = rng.below(3) ? 16 : 8;
  const int cols = block_x == 16 ? rng.pick(kCols16) : rng.pick(kCols8);
  Draw d;
  d.block_x = block_x;
  d.block_warp = rng.below(block_x * cols / kWarpSize);
  TileLayout t;
  t.dtype = DType::fp32;
  t.rows = block_x;
  t.cols = cols;
  t.pad = pad;
  d.s = block_warp_access(t, d.block_x, d.block_warp);
  d.premise = format(
      "A block of %d x %d threads (blockDim.x = %d) reads tile[threadIdx.x][threadIdx.y] of "
      "__shared__ float tile[%d][%d]. Take warp %d: `banklab analyze --decl \"__shared__ float "
      "tile[%d][%d];\" --expr \"tile[threadIdx.x][threadIdx.y]\" --block %dx%d --warp %d`.",
      block_x, cols, block_x, block_x, cols + pad, d.block_warp, block_x, cols + pad, block_x, cols,
      d.block_warp);
  d.intended = {Mistake::warp_of_2d_block};
  return d;
}

Draw block_numbers(SplitMix64& rng) {
  static constexpr int kPads[] = {0, 1, 1, 2, 3, 4, 5, 8};
  Draw d = block_draw(rng, rng.pick(kPads));
  d.kind = rng.below(2) ? AskKind::ways : AskKind::wavefronts;
  return d;
}

Draw block_fix(SplitMix64& rng) {
  Draw d = block_draw(rng, 0);
  d.kind = AskKind::fix;
  d.choice = FixChoice::pad_only;
  return d;
}

// A float column to fix at the Hire bar: a pad for the tile's real width, a pad for a 2-D
// block's warp, or a swizzle when the tile must stay dense.
Draw hire_fix(SplitMix64& rng) {
  switch (rng.below(4)) {
    case 0:
      return column_fix(rng, false);
    case 1:
    case 2:
      return block_fix(rng);
    default: {
      static constexpr int kCols[] = {32, 64};
      const int cols = rng.pick(kCols);
      const int index = rng.below(cols);
      Draw d;
      d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, ld_or_st(rng),
                        index, 4);
      d.kind = AskKind::fix;
      d.choice = FixChoice::swizzle_only;
      d.premise = "The tile must stay dense: there is no shared memory to spare for a pad.";
      return d;
    }
  }
}

Draw hire_broadcast(SplitMix64& rng) {
  static constexpr int kGroups[] = {2, 4, 8, 16};
  static constexpr int kUnits[] = {1, 8, 16, 32, 64};
  const int group = rng.pick(kGroups);
  const int unit = rng.pick(kUnits);
  return broadcast_groups(group, unit, rng);
}

// A global access with a stride, the other half of the transpose: lanes reading down a column
// of a row-major matrix in global memory touch one 32-byte sector each, and no bank at all.
Draw global_stride(SplitMix64& rng) {
  static constexpr int kCols[] = {1024, 4096, 16384};
  const int cols = rng.pick(kCols);
  Draw d;
  // The shared side the kernel pairs with it: the row write of a padded tile.
  d.s = tile_access(DType::fp32, 32, 32, 1, kNone, AccessPattern::row, Op::st, rng.below(32), 4);
  const int sectors = kWarpSize;  // a stride of cols x 4 bytes >= 32: one sector per lane
  d.premise = format(
      "A naive transpose reads in[(size_t)threadIdx.x * %d + c] from global memory, a float "
      "matrix of %d columns: lane L reads row L of column c, %d bytes after lane L - 1. It then "
      "stores the value with the row write below.",
      cols, cols, cols * 4);
  d.ask = "What does the strided global read cost?";
  const std::string sectors_text =
      phrasing(rng, format("%d sectors, one per lane; no bank is involved", sectors),
               format("%d separate 32-byte sectors, one for each of the %d lanes; no bank is "
                      "involved at all",
                      sectors, kWarpSize));
  const std::string banks_text =
      phrasing(rng, format("a %d-way bank conflict: every lane is in bank c mod 32", sectors),
               format("a %d-way bank conflict, %d wavefronts", sectors, sectors));
  const std::string one_text = phrasing(
      rng, "one 128-byte transaction, since the warp reads 128 bytes", "one 128-byte transaction");
  const std::string nothing_text =
      phrasing(rng, "nothing extra: a conflict-free row write follows it",
               "nothing beyond one request: the row write after it is conflict-free, so the read "
               "costs no more than a coalesced one");
  d.choices = {
      {sectors_text, Mistake::none,
       "global memory is served in 32-byte sectors, and lanes 4 KB or more apart share none; "
       "banks belong to shared memory only"},
      {banks_text, Mistake::global_stride_as_banks,
       "global loads go through L1 and L2 in 32-byte sectors, not through shared memory's banks"},
      {one_text, Mistake::global_coalescing,
       "128 bytes in one transaction needs 32 consecutive floats; these are a column apart"},
      {nothing_text, Mistake::conflicts_for_wavefronts,
       "the shared-memory row write is conflict-free, but the read is one sector per lane"}};
  d.kind = AskKind::choice;
  d.intended = {Mistake::global_stride_as_banks};
  return d;
}

// Is a fix worth it when HBM is the limit? Only conflicts the shipped recording measured end to
// end (the transposes of its suites): the column read of the naive tile and of the 16-byte
// aligned pad, for fp32, bf16 and fp64, on tiles of the same conflict from 32 to 256 columns.
// The answer is the per-byte comparison (reversal.hpp), and set_answer keeps it only where the
// recording agrees.
Draw worth(SplitMix64& rng, bool with_others) {
  static constexpr DType kTypes[] = {DType::fp32, DType::fp32, DType::bf16, DType::fp64};
  const DType dtype = with_others ? rng.pick(kTypes) : DType::fp32;
  const bool aligned_pad = rng.below(2) == 0;
  const int pad = aligned_pad ? 16 / dtype_bytes(dtype) : 0;
  const int cols = 32 * (1 + rng.below(8));
  const int per_lane = dtype_bytes(dtype);
  Draw d;
  d.s = tile_access(dtype, 32, cols, pad, kNone, AccessPattern::column, Op::ld,
                    rng.below(cols / 2) * 2, per_lane);
  d.kind = AskKind::worth;
  d.measured = std::string(dtype_name(dtype)) + (aligned_pad ? "-aligned-pad" : "-naive");
  const Reversal r = *reversal(*evaluate(d.s).analysis);
  d.premise = format(
      "This column read is the shared-memory side of a large %s transpose on the H200: each "
      "element is stored once by a conflict-free row write and loaded once by this read. Shared "
      "memory serves %d SMs x 128 B per clock at %.0f MHz, %s of wavefronts; HBM's copy roof of "
      "%s counts bytes read plus written, so HBM transposes %s of matrix (the shipped "
      "recording's figures).",
      std::string(dtype_name(dtype)).c_str(), r.sm_count, r.clock_mhz,
      drill_detail::tbps(r.shared_tbps).c_str(), drill_detail::tbps(r.copy_tbps).c_str(),
      drill_detail::tbps(r.transposed_hbm_tbps).c_str());
  return d;
}

Draw hire_worth(SplitMix64& rng) {
  return worth(rng, false);
}

// --- strong-hire: the Strong Hire bar ---

// bf16 or fp8 elements down a column, one per lane or packed 8 or 16 bytes to a lane (bf16x4,
// bf16x8, 16 fp8): the element-index mistake gives other banks, and the packed lanes' phases
// change the counts.
Draw packed_scalar(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::bf16, DType::bf16, DType::fp8};
  static constexpr int kCols[] = {32, 64};
  static constexpr int kPads[] = {0, 1, 2, 3, 4, 8};
  static constexpr int kLaneBytes[] = {0, 8, 16};  // 0: one element
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  const int width = std::max(dtype_bytes(dtype), rng.pick(kLaneBytes));
  const int index = rng.below(cols * dtype_bytes(dtype) / width);
  const Op op = ld_or_st(rng);
  Draw d;
  d.s =
      tile_access(dtype, 32, cols, rng.pick(kPads), kNone, AccessPattern::column, op, index, width);
  d.kind = pick_ask(rng);
  d.intended = {Mistake::element_index_banks, Mistake::sixteen_banks, Mistake::ways_for_wavefronts};
  d.phases_change_answer = width > 4;
  return d;
}

// 8- and 16-byte lanes: several phases, so n-way and wavefronts part ways.
Draw wide_access(SplitMix64& rng) {
  static constexpr DType kTypes[] = {DType::fp32, DType::fp64, DType::bf16};
  static constexpr int kWidths[] = {8, 16};
  static constexpr int kPads[] = {0, 0, 2, 4, 8, 16};
  static constexpr int kCols[] = {32, 64};
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  // Rows are conflict-free in every phase; columns, padded or not, spread the n over 1 to 16
  // (a pad that leaves the rows misaligned for the lane's width is drawn again).
  const AccessPattern pattern = rng.below(8) ? AccessPattern::column : AccessPattern::row;
  const int width = rng.pick(kWidths);
  const int k = width / dtype_bytes(dtype);
  const int index = rng.below(pattern == AccessPattern::column ? cols / k : 32);
  const Op op = ld_or_st(rng);
  Draw d;
  d.s = tile_access(dtype, 32, cols, rng.pick(kPads), kNone, pattern, op, index, width);
  static constexpr AskKind kAsks[] = {AskKind::ways, AskKind::wavefronts, AskKind::conflicts};
  d.kind = rng.pick(kAsks);
  d.intended = {Mistake::ways_for_wavefronts, Mistake::conflicts_for_wavefronts};
  d.phases_change_answer = true;
  return d;
}

// 8- and 16-byte loads whose lanes share addresses with a partner: l ^ 1 and l ^ 2 pack the
// phases, other partners do not; stores never do.
Draw load_packing(SplitMix64& rng) {
  static constexpr int kWidths[] = {8, 16};
  static constexpr int kPartners[] = {1, 2, 1, 2, 4, 8};
  static constexpr int kSpreads[] = {1, 1, 2, 4};  // the address steps width x spread a lane
  const int width = rng.pick(kWidths), partner = rng.pick(kPartners);
  const int spread = rng.pick(kSpreads);
  const bool load = rng.below(4) != 0;
  Draw d;
  d.s.pattern = AccessPattern::raw;
  d.s.op = load ? Op::ld : Op::st;
  d.s.width = width;
  // Lane L and lane L ^ partner share the chunk of the lower of the two.
  const std::int64_t unit = std::int64_t{width} * spread;
  for (int lane = 0; lane < kWarpSize; ++lane) d.s.raw_offsets[lane] = unit * (lane & ~partner);
  // In words: the pairs spelled out (0 and 1, 2 and 3, ...), the formula with the mask itself
  // (a bit number would be off by its log: mask 4 is bit 2).
  const std::string p = std::to_string(partner);
  const int second = partner == 1 ? 2 : 1;  // the lowest lane of the second pair
  d.premise = std::string("Lane L ") + (load ? "loads" : "stores") + " " + std::to_string(width) +
              " bytes at byte " + std::to_string(unit) + " x (L & ~" + p + "): lanes L and L ^ " +
              p + " share an address (lanes 0 and " + p + ", " + std::to_string(second) + " and " +
              std::to_string(second ^ partner) + ", and so on).";
  // Packing shows in the ideal and the conflicts, not only in the wavefronts.
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ideal, AskKind::conflicts,
                                      AskKind::conflicts};
  d.kind = rng.pick(kAsks);
  d.intended = {Mistake::broadcast_counted, Mistake::conflicts_for_wavefronts};
  d.phases_change_answer = true;
  return d;
}

// Broadcast groups of 8- and 16-byte lanes: the mistake counts lanes per address at any phase;
// the Hire formula counts a word shared across phases once (4-byte lanes are one phase, and
// the weak and hire levels ask them).
Draw wide_broadcast(SplitMix64& rng) {
  static constexpr int kWidths[] = {8, 16};
  static constexpr int kGroups[] = {2, 4, 8, 16, 32};
  static constexpr int kUnits[] = {1, 2, 8, 32, 33};
  const int width = rng.pick(kWidths), group = rng.pick(kGroups), unit = rng.pick(kUnits);
  Draw d;
  d.s.pattern = AccessPattern::raw;
  d.s.op = ld_or_st(rng);
  d.s.width = width;
  const std::int64_t stride = std::int64_t{unit} * width;
  for (int lane = 0; lane < kWarpSize; ++lane) d.s.raw_offsets[lane] = stride * (lane / group);
  const std::string verb = d.s.op == Op::ld ? "load" : "store";
  d.premise =
      group == kWarpSize
          ? "All 32 lanes " + verb + " the same " + std::to_string(width) + " bytes, at byte 0."
          : "Lane L " + verb + "s " + std::to_string(width) + " bytes at byte " +
                std::to_string(stride) + " x floor(L / " + std::to_string(group) + "), so " +
                std::to_string(group) + " lanes share each address.";
  static constexpr AskKind kAsks[] = {AskKind::ways, AskKind::wavefronts, AskKind::ideal,
                                      AskKind::conflicts};
  d.kind = rng.pick(kAsks);
  d.intended = {Mistake::broadcast_counted};
  d.phases_change_answer = true;
  return d;
}

// The pad that keeps float4 rows aligned: a multiple of 16 bytes, so a float column lands in
// 8 banks; read a float2 or a float4 to a lane, the column's phases of 16 or 8 lanes each see
// fewer of the rows.
Draw aligned_pad(SplitMix64& rng) {
  static constexpr int kPads[] = {4, 8, 12, 20, 28};
  static constexpr int kWidths[] = {4, 8, 16};
  const int width = rng.pick(kWidths);
  const int index = rng.below(32 * 4 / width);
  const Op op = ld_or_st(rng);
  Draw d;
  d.s = tile_access(DType::fp32, 32, 32, rng.pick(kPads), kNone, AccessPattern::column, op, index,
                    width);
  d.premise = "The rows are padded so that float4 stores can fill them.";
  d.kind = rng.below(2) ? AskKind::ways : AskKind::wavefronts;
  d.intended = {Mistake::global_coalescing, Mistake::sixteen_banks, Mistake::ways_for_wavefronts};
  d.phases_change_answer = width > 4;
  return d;
}

Draw matrix_access(SplitMix64& rng) {
  static constexpr int kRows[] = {8, 16};
  static constexpr int kCols[] = {32, 64, 128};
  static constexpr int kPads[] = {0, 0, 8};
  static constexpr SwizzleSpec kSwizzles[] = {kNone,
                                              kNone,
                                              kTma32,
                                              kTma64,
                                              kTma128,
                                              {SwizzleKind::cute, {2, 4, 3}},
                                              {SwizzleKind::cute, {3, 4, 3}},
                                              {SwizzleKind::cute, {2, 4, 4}}};
  static constexpr Op kOps[] = {Op::ldmatrix_x1, Op::ldmatrix_x2, Op::ldmatrix_x4, Op::ldmatrix_x4,
                                Op::stmatrix_x4};
  const int cols = rng.pick(kCols);
  const Op op = rng.pick(kOps);
  const int first_chunks = cols * 2 / 16 - matrix_count(op) + 1;
  const int chunk = rng.below(first_chunks);
  const SwizzleSpec swizzle = rng.pick(kSwizzles);
  const int pad = rng.pick(kPads);
  Draw d;
  d.s = tile_access(DType::bf16, rng.pick(kRows), cols, pad, swizzle, AccessPattern::matrix, op,
                    chunk, 16);
  static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::conflicts,
                                      AskKind::bank};
  d.kind = rng.pick(kAsks);
  d.intended = {Mistake::ways_for_wavefronts};
  d.phases_change_answer = true;  // one phase per matrix (a bank ask is no count)
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
  const DType dtype = rng.pick(kTypes);
  const int cols = rng.pick(kCols);
  const int index = rng.below(cols);
  const Op op = ld_or_st(rng);
  const SwizzleSpec swizzle = rng.pick(kSwizzles);
  // A swizzle of whole 16-byte chunks (M = 4: the TMA modes, Swizzle<3,4,3>) keeps a lane's 16
  // bytes together, so half of its columns are read a 16-byte chunk to a lane, in phases of 8.
  const bool chunks = swizzle.byte_swizzle(dtype_bytes(dtype)).base == 4 && rng.below(2) == 0;
  const int width = chunks ? 16 : dtype_bytes(dtype);
  Draw d;
  d.s = tile_access(dtype, 32, cols, 0, swizzle, AccessPattern::column, op,
                    chunks ? index * dtype_bytes(dtype) / width : index, width);
  d.kind = pick_ask(rng);
  if (dtype == DType::bf16) d.intended = {Mistake::element_index_banks};
  d.phases_change_answer = chunks;
  return d;
}

// A bf16 column read and packed row stores that must stay legal: bf16x2 (4 B), where a pad of
// two elements works and the pad of one breaks them, or bf16x4 (8 B), whose 8-byte rows leave
// every pad an even number of words, so only a swizzle makes the column conflict-free.
Draw packed_store_fix(SplitMix64& rng) {
  static constexpr int kCols[] = {32, 64, 128};
  static constexpr int kPads[] = {0, 4, 8, 12};
  const int cols = rng.pick(kCols);
  const int pad = rng.pick(kPads);
  const int store_bytes = rng.below(2) ? 8 : 4;
  Draw d;
  d.s = tile_access(DType::bf16, 32, cols, pad, kNone, AccessPattern::column, Op::ld,
                    rng.below(cols), 2);
  d.keep.push_back(
      tile_access(DType::bf16, 32, cols, pad, kNone, AccessPattern::row, Op::st, 0, store_bytes));
  d.kind = AskKind::fix;
  d.choice = store_bytes == 4 ? FixChoice::pad_only : FixChoice::pad_or_swizzle;
  d.intended = {Mistake::bf16_pad_one_packed, Mistake::pad_breaks_alignment};
  d.premise =
      format("The rows are filled with packed %s stores (%d B per lane), which must stay legal.",
             store_bytes == 4 ? "bf16x2" : "bf16x4", store_bytes);
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
  // Each of the three wrong fixes, in a drawn order: the first that applies is the target.
  d.intended = {Mistake::tma_span_exceeded, Mistake::aligned_pad_conflicts,
                Mistake::pad_breaks_alignment};
  std::rotate(d.intended.begin(), d.intended.begin() + rng.below(3), d.intended.end());
  d.premise = "The rows are filled with float4 stores (16 B per lane), which must stay legal.";
  return d;
}

// Columns of other widths to pad: fp8 (four to a word), float2 and float4 lanes, doubles.
Draw wide_column_fix(SplitMix64& rng) {
  struct Kind {
    DType dtype;
    int width;
  };
  static constexpr Kind kKinds[] = {
      {DType::fp8, 1}, {DType::fp32, 8}, {DType::fp32, 16}, {DType::fp64, 8}, {DType::bf16, 2}};
  static constexpr int kPads[] = {0, 8};
  const Kind kind = rng.pick(kKinds);
  const int k = kind.width / dtype_bytes(kind.dtype);
  const int cols = 32;
  const int index = rng.below(cols / k);
  Draw d;
  d.s = tile_access(kind.dtype, 32, cols, rng.pick(kPads), kNone, AccessPattern::column, Op::ld,
                    index, kind.width);
  d.kind = AskKind::fix;
  d.choice = FixChoice::pad_only;
  d.intended = {Mistake::fix_misses_other_indices, Mistake::pad_breaks_alignment};
  return d;
}

// ldmatrix/stmatrix on a tile that TMA writes and WGMMA reads: a TMA swizzle, never a pad.
Draw tensor_core_fix(SplitMix64& rng) {
  static constexpr int kRows[] = {8, 16};
  static constexpr int kCols[] = {16, 32, 64};
  const int cols = rng.pick(kCols);
  static constexpr Op kWide[] = {Op::ldmatrix_x2, Op::ldmatrix_x4, Op::stmatrix_x4};
  const Op op = cols == 16 ? Op::ldmatrix_x2 : rng.pick(kWide);
  const int chunk = rng.below(cols * 2 / 16 - matrix_count(op) + 1);
  Draw d;
  d.s = tile_access(DType::bf16, rng.pick(kRows), cols, 0, kNone, AccessPattern::matrix, op, chunk,
                    16);
  d.kind = AskKind::fix;
  d.choice = FixChoice::tma_only;
  d.intended = {Mistake::padded_tensor_core_tile};
  d.premise = "TMA writes this tile and WGMMA reads it, so its rows cannot be padded.";
  return d;
}

// Which counter shows it: the conflict (or wavefront) counter of the instruction's own op.
Draw which_counter(SplitMix64& rng) {
  Draw d;
  switch (rng.below(6)) {
    case 0:
      d.s = tile_access(DType::fp32, 32, 32, 0, kNone, AccessPattern::column, Op::ld, rng.below(32),
                        4);
      break;
    case 1:
      d.s = tile_access(DType::bf16, 32, 32, 0, kNone, AccessPattern::column, Op::st, rng.below(32),
                        2);
      break;
    case 2:
      d.s = tile_access(DType::fp32, 32, 32, 4, kNone, AccessPattern::column, Op::ld, rng.below(32),
                        4);
      break;
    case 3:
      d.s = tile_access(DType::fp64, 32, 32, 0, kNone, AccessPattern::column, Op::st, rng.below(32),
                        8);
      break;
    default:
      d.s = tile_access(DType::bf16, 8, 64, 0, kNone, AccessPattern::matrix,
                        rng.below(2) ? Op::ldmatrix_x4 : Op::stmatrix_x4, 0, 16);
  }
  const Analysis a = *evaluate(d.s).analysis;
  const bool load = is_load(d.s.op);
  const bool wavefronts = rng.below(3) == 0;
  const std::string conflicts(load ? kNcuConflictsLd : kNcuConflictsSt);
  const std::string other_conflicts(load ? kNcuConflictsSt : kNcuConflictsLd);
  const std::string waves(load ? kNcuWavefrontsLd : kNcuWavefrontsSt);
  const std::string other_waves(load ? kNcuWavefrontsSt : kNcuWavefrontsLd);
  const std::string instructions(load ? kNcuInstructionsLd : kNcuInstructionsSt);
  const std::string op(op_name(d.s.op));
  const std::string which =
      load ? "loads (LDS and LDSM) count under op_ld" : "stores (STS and STSM) count under op_st";
  const std::string counts = format("it reads %d here: %d wavefronts - %d ideal",
                                    a.bank_conflicts(), a.wavefront_count(), a.ideal_wavefronts);
  if (wavefronts) {
    d.ask = "Measured alone with Nsight Compute, which counter shows all of its wavefronts?";
    d.choices = {
        {waves, Mistake::none, format("it reads %d here; %s", a.wavefront_count(), which.c_str())},
        {conflicts, Mistake::counter_mixup,
         "that is the bank conflicts, wavefronts beyond the ideal: " + counts},
        {other_waves, Mistake::counter_mixup, "that counts the other op's instructions: " + which},
        {instructions, Mistake::counter_mixup,
         "that counts instructions (one here), not wavefronts"}};
  } else {
    d.ask = "Measured alone with Nsight Compute, which counter shows its bank conflicts?";
    d.choices = {{conflicts, Mistake::none, counts + "; " + which},
                 {waves, Mistake::conflicts_for_wavefronts,
                  format("that is all %d wavefronts, the ideal included", a.wavefront_count())},
                 {other_conflicts, Mistake::counter_mixup,
                  "that counts the other op's instructions: " + which},
                 {instructions, Mistake::counter_mixup,
                  "that counts instructions (one here), not conflicts"}};
  }
  d.premise = "A " + op + " instruction.";
  d.kind = AskKind::choice;
  d.intended = {Mistake::counter_mixup};
  return d;
}

// Why a real kernel's conflict counter can exceed what the instruction's addresses explain.
Draw counter_exceeds(SplitMix64& rng) {
  Draw d;
  switch (rng.below(3)) {
    case 0:
      d.s = tile_access(DType::bf16, 8, 64, 0, kTma128, AccessPattern::matrix, Op::ldmatrix_x4, 0,
                        16);
      break;
    case 1:
      d.s = tile_access(DType::fp32, 32, 32, 1, kNone, AccessPattern::column, Op::ld, rng.below(32),
                        4);
      break;
    default:
      d.s =
          tile_access(DType::fp32, 32, 32, 0, kNone, AccessPattern::row, Op::ld, rng.below(32), 16);
  }
  const Analysis a = *evaluate(d.s).analysis;
  d.premise = format(
      "In a pipelined kernel, with TMA filling the next stage while this instruction runs, "
      "Nsight Compute's %s reports bank conflicts for it, though its addresses take %d "
      "wavefront%s for an ideal of %d.",
      std::string(is_load(d.s.op) ? kNcuConflictsLd : kNcuConflictsSt).c_str(), a.wavefront_count(),
      a.wavefront_count() == 1 ? "" : "s", a.ideal_wavefronts);
  d.ask = "Why can the counter exceed what the addresses explain?";
  const std::string arbitration_text =
      phrasing(rng, "it also counts cycles lost to arbitration with other SRAM traffic",
               "other SRAM traffic (TMA, L1 fills) wins arbitration, and the counter counts the "
               "cycles this access waits");
  const std::string broadcast_text =
      phrasing(rng, "it counts the lanes that read one shared address as conflicts, each one again",
               "it counts broadcasts as conflicts");
  const std::string first_text =
      phrasing(rng, "it counts every wavefront beyond the first one, not beyond the ideal count",
               "it counts from the first wavefront, not from the ideal");
  const std::string layout_text =
      phrasing(rng, "the layout conflicts after all, and the addresses as given undercount it",
               "the addresses undercount the layout's real conflicts, which only the hardware "
               "counter sees in full, cycle by cycle");
  d.choices = {
      {arbitration_text, Mistake::none,
       "the hardware counter sees every cycle the access waits; measure the access alone (one "
       "warp, one instruction) to see what its addresses cost"},
      {broadcast_text, Mistake::broadcast_counted,
       "lanes on one address are served together, and the counter does not count them"},
      {first_text, Mistake::conflicts_for_wavefronts,
       format("it counts beyond the ideal: %d - %d = %d for these addresses", a.wavefront_count(),
              a.ideal_wavefronts, a.bank_conflicts())},
      {layout_text, Mistake::arbitration_ignored,
       format("the addresses give the layout's whole cost, %d wavefronts; the excess is not the "
              "layout's",
              a.wavefront_count())}};
  d.kind = AskKind::choice;
  d.intended = {Mistake::arbitration_ignored};
  return d;
}

// Which counter shows a cp.async fill's bank conflicts: the Details page splits shared-memory
// counters by operation, and LDGSTS is its own (op_ldgsts), neither op_st nor op_ld; its
// wavefronts come only from instrumented SASS. The names are the H200's Nsight Compute's
// (tests/scan/check-counter-names.sh, tests/scan/measured/counter-names.txt).
Draw cp_async_counter(SplitMix64& rng) {
  static constexpr int kCols[] = {32, 36, 40, 64, 68};
  const int cols = rng.pick(kCols);
  Draw d;
  d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, Op::st,
                    rng.below(cols / 4), 16);
  const Analysis a = *evaluate(d.s).analysis;
  const std::string counts = format("it reads %d for these copies: %d wavefronts - %d ideal",
                                    a.bank_conflicts(), a.wavefront_count(), a.ideal_wavefronts);
  d.premise =
      "Each lane's cp.async.cg.shared.global (LDGSTS.128) copies 16 bytes from global memory "
      "into this column; in shared memory that is a 16-byte store.";
  d.ask = "On Nsight Compute's Details page, which counter shows these copies' bank conflicts?";
  d.choices = {
      {std::string(kNcuConflictsLdgsts), Mistake::none,
       "LDGSTS is an operation of its own, op_ldgsts; " + counts},
      {std::string(kNcuConflictsSt), Mistake::counter_mixup,
       "a cp.async is counted like a 16-byte store, but op_st counts STS and STSM only"},
      {std::string(kNcuConflictsLd), Mistake::counter_mixup,
       "it reads global memory, but its shared side is a write, and op_ld counts LDS and LDSM"},
      {std::string(kNcuSassWavefrontsLdgsts), Mistake::conflicts_for_wavefronts,
       format("that is all %d of the copies' wavefronts, the ideal included",
              a.wavefront_count())}};
  d.kind = AskKind::choice;
  d.intended = {Mistake::counter_mixup};
  return d;
}

// cp.async (LDGSTS) fills: the shared side of a 16-byte cp.async is a 16-byte store, counted
// with the other shared-memory wavefronts (Nsight Compute's L1 Wavefronts Shared on the Source
// page, the LDGSTS row; docs/scan.md). Either its own wavefronts, lane L copying into row L
// (phases of 8 lanes, so the tile's width decides), or a fix for the column read that keeps
// the copies' 16-byte destinations legal.
Draw cp_async_fill(SplitMix64& rng) {
  Draw d;
  const int form = rng.below(3);
  if (form == 2) return cp_async_counter(rng);
  if (form == 0) {
    static constexpr int kCols[] = {32, 36, 40, 48, 64, 68, 72, 96};
    const int cols = rng.pick(kCols);
    d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, Op::st,
                      rng.below(cols / 4), 16);
    d.premise =
        "cp.async.cg.shared.global (LDGSTS.128) copies 16 bytes per lane from global "
        "memory; in shared memory that is a 16-byte store.";
    static constexpr AskKind kAsks[] = {AskKind::wavefronts, AskKind::ways, AskKind::conflicts};
    d.kind = rng.pick(kAsks);
    d.intended = {Mistake::ways_for_wavefronts, Mistake::conflicts_for_wavefronts};
    d.phases_change_answer = true;
    return d;
  }
  static constexpr int kCols[] = {32, 64};
  const int cols = rng.pick(kCols);
  d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, Op::ld, rng.below(cols),
                    4);
  d.keep.push_back(tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::row, Op::st, 0, 16));
  d.kind = AskKind::fix;
  d.premise =
      "cp.async (LDGSTS.128) fills the rows 16 bytes per lane, and its shared "
      "destination must be 16-byte aligned.";
  d.intended = {Mistake::pad_breaks_alignment, Mistake::aligned_pad_conflicts};
  std::rotate(d.intended.begin(), d.intended.begin() + rng.below(2), d.intended.end());
  return d;
}

// Design the swizzle for this tile and the way it is filled, and the alignment it needs.
Draw design_swizzle(SplitMix64& rng) {
  Draw d;
  d.kind = AskKind::design;
  d.choice = FixChoice::swizzle_only;
  if (rng.below(3) != 0) {
    // TMA fills a bf16 operand tile that ldmatrix reads: the mode by the row's bytes.
    static constexpr int kCols[] = {16, 32, 64};
    const int cols = rng.pick(kCols);
    const Op op = cols == 16 ? Op::ldmatrix_x2 : Op::ldmatrix_x4;
    d.s = tile_access(DType::bf16, 8 * (1 + rng.below(2)), cols, 0, kNone, AccessPattern::matrix,
                      op, 0, 16);
    d.tma_fill = true;
    d.choice = FixChoice::tma_only;
    d.premise = "TMA fills this tile (one box) and " + std::string(op_name(op)) + " reads it.";
    d.intended = {Mistake::tma_misaligned, Mistake::tma_span_exceeded};
  } else {
    // Columns read back a float or a float4 to a lane: an element swizzle for the one, a
    // 16-byte chunk swizzle for the other.
    static constexpr int kCols[] = {32, 64};
    static constexpr int kReadBytes[] = {4, 16};
    const int cols = rng.pick(kCols);
    const int read = rng.pick(kReadBytes);
    d.s = tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::column, Op::ld,
                      rng.below(cols * 4 / read), read);
    d.keep.push_back(
        tile_access(DType::fp32, 32, cols, 0, kNone, AccessPattern::row, Op::st, 0, 16));
    d.premise = "float4 stores fill the rows of this tile and columns are read back.";
    d.intended = {Mistake::tma_span_exceeded};
  }
  return d;
}

Draw strong_worth(SplitMix64& rng) {
  return worth(rng, true);
}

using Family = Draw (*)(SplitMix64&);
struct NamedFamily {
  std::string_view name;
  Family draw;
  bool needs_recording = false;  // worth: the recording's figures
};

// weak: the basics; a sixth of the questions ask for a fix.
constexpr NamedFamily kWeak[] = {{"bank-of-a-lane", weak_bank},
                                 {"which-access-conflicts", weak_which_conflicts},
                                 {"which-access-conflicts", weak_which_conflicts},
                                 {"broadcast", weak_broadcast},
                                 {"broadcast", weak_broadcast},
                                 {"pad-or-vector-fill", weak_fix}};
// hire: the Hire bar.
constexpr NamedFamily kHire[] = {
    {"float-tile", hire_scalar},   {"float-tile", hire_scalar},
    {"float-tile", hire_scalar},   {"broadcast-groups", hire_broadcast},
    {"2d-block", block_numbers},   {"2d-block", block_numbers},
    {"column-fix", hire_fix},      {"global-stride", global_stride},
    {"worth-it", hire_worth, true}};
// Matrix descriptors: drill_descriptor.cpp draws the question, here it becomes a choice.
Draw descriptor_question(SplitMix64& rng) {
  drill_detail::DescriptorDraw x = drill_detail::descriptor_drill(rng);
  Draw d;
  d.s = std::move(x.s);
  d.kind = AskKind::choice;
  d.premise = std::move(x.premise);
  d.ask = std::move(x.ask);
  d.choices = std::move(x.choices);
  d.intended = std::move(x.intended);
  d.says_access = false;
  return d;
}

// strong-hire: the Strong Hire bar, seventeen templates. Those whose counts phases, packing and
// broadcasts across phases change, and the fixes that alignment decides, are drawn twice: the
// Hire formula (words per bank over the whole warp) answers at most a quarter of the questions
// (tests/core/test_drill_strategies.cpp).
constexpr NamedFamily kStrongHire[] = {{"packed-elements", packed_scalar},
                                       {"wide-lanes", wide_access},
                                       {"load-packing", load_packing},
                                       {"broadcast-any-phase", wide_broadcast},
                                       {"aligned-pad", aligned_pad},
                                       {"ldmatrix-stmatrix", matrix_access},
                                       {"swizzled-column", swizzled_scalar},
                                       {"packed-store-fix", packed_store_fix},
                                       {"float4-fill-fix", float4_fix},
                                       {"wide-column-fix", wide_column_fix},
                                       {"tensor-core-fix", tensor_core_fix},
                                       {"worth-it", strong_worth, true},
                                       {"which-counter", which_counter},
                                       {"counter-exceeds-addresses", counter_exceeds},
                                       {"design-the-swizzle", design_swizzle},
                                       {"cp-async-fill", cp_async_fill},
                                       {"load-packing", load_packing},
                                       {"wide-lanes", wide_access},
                                       {"broadcast-any-phase", wide_broadcast},
                                       {"float4-fill-fix", float4_fix},
                                       {"cp-async-fill", cp_async_fill},
                                       {"descriptor", descriptor_question},
                                       {"descriptor", descriptor_question}};

std::span<const NamedFamily> families(DrillLevel level) {
  switch (level) {
    case DrillLevel::weak:
      return kWeak;
    case DrillLevel::hire:
      return kHire;
    case DrillLevel::strong_hire:
      return kStrongHire;
  }
  return kWeak;
}

// The family of a question: drawn once, so that the lists above are the mix the user gets. A
// worth family is left out (drawn again) when the recording cannot be read.
const NamedFamily& pick_family(DrillLevel level, SplitMix64& rng) {
  const std::span<const NamedFamily> all = families(level);
  const bool recording = recorded().has_value();
  for (;;) {
    const NamedFamily& f = all[static_cast<std::size_t>(rng.below(static_cast<int>(all.size())))];
    if (recording || !f.needs_recording) return f;
  }
}

// [SECTION] The answers: the fix search, the lane of a bank ask, the text, the target mistake

// The fixes tried, in order: the pads nearest the tile's own first (the smallest change; on a
// tie the smaller), with the swizzle off; then the swizzles (with the pad at 0): the TMA modes
// by span, xor, and a range of CuTe swizzles. The first that works is the key.
std::vector<Fix> fix_candidates(const Question& q) {
  std::vector<Fix> out;
  const TileLayout& t = q.scenario.tile;
  if (q.choice == FixChoice::pad_or_swizzle || q.choice == FixChoice::pad_only) {
    std::vector<int> pads;
    for (int pad = 0; pad <= 32; ++pad)
      if (pad != t.pad) pads.push_back(pad);
    std::stable_sort(pads.begin(), pads.end(),
                     [&](int a, int b) { return std::abs(a - t.pad) < std::abs(b - t.pad); });
    for (int pad : pads) {
      Fix f{.pad = pad, .swizzle = std::nullopt};
      if (t.swizzle.kind != SwizzleKind::none) f.swizzle = kNone;
      out.push_back(f);
    }
  }
  if (q.choice != FixChoice::pad_only) {
    std::vector<SwizzleSpec> swizzles = {kTma32, kTma64, kTma128, kXor};
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

// A lane for a bank ask: active, and where the family targets a mistake that changes a bank,
// one whose mistaken bank differs from its word's bank (the scan starts at a drawn lane).
int pick_lane(const Draw& d, const Analysis& a, SplitMix64& rng) {
  const int start = rng.below(kWarpSize);
  int fallback = -1;
  const bool element =
      std::count(d.intended.begin(), d.intended.end(), Mistake::element_index_banks) > 0;
  const bool sixteen = std::count(d.intended.begin(), d.intended.end(), Mistake::sixteen_banks) > 0;
  for (int i = 0; i < kWarpSize; ++i) {
    const int lane = (start + i) % kWarpSize;
    const LaneRecord& l = a.lanes[lane];
    if (!l.active) continue;
    if (fallback < 0) fallback = lane;
    if (element && l.byte / d.s.tile.elem_bytes() % kBankCount != l.banks[0]) return lane;
    if (!element && sixteen && l.banks[0] >= 16) return lane;
    if (!element && !sixteen) return lane;
  }
  return fallback;
}

std::string ask_text(const Question& q, const Draw& d, const Analysis& a) {
  const AskDescriptor& ask = ask_descriptor(q.kind);
  if (ask.count) return std::string(ask.prompt);
  switch (q.kind) {
    case AskKind::wavefronts:
    case AskKind::ways:
    case AskKind::ideal:
    case AskKind::conflicts:
      break;  // counts: the table's question
    case AskKind::bank:
      return "Which bank holds the first word lane " + std::to_string(q.lane) + " touches?";
    case AskKind::fix: {
      const std::string what = q.choice == FixChoice::pad_only   ? "a pad (--pad P)"
                               : q.choice == FixChoice::tma_only ? "a TMA swizzle (--swizzle S)"
                               : q.choice == FixChoice::swizzle_only
                                   ? "a swizzle (--swizzle S)"
                                   : "a pad or a swizzle (--pad P, --swizzle S)";
      return "It takes " + std::to_string(a.wavefront_count()) + " wavefronts where " +
             std::to_string(a.ideal_wavefronts) + " would do. Name " + what +
             " that makes this access conflict-free at every " + index_name(q.scenario) +
             " of the tile" + (q.keep.empty() ? "." : ", keeping those stores legal.");
    }
    case AskKind::worth:
      return "Would removing this conflict make the transpose measurably faster? (yes: the banks "
             "set the time; no: HBM does)";
    case AskKind::choice: {
      std::string text = d.ask;
      for (std::size_t i = 0; i < q.choices.size(); ++i)
        text += "\n(" + std::string(1, static_cast<char>('a' + i)) + ") " + q.choices[i].text + ".";
      return text;
    }
    case AskKind::design:
      return std::string("Design the swizzle for it and the alignment its tile needs: ") +
             "every " + index_name(q.scenario) +
             " conflict-free, the fill legal (--swizzle S --align BYTES).";
  }
  return "";
}

// The question's text: the premise, what every lane does, the ask.
std::string question_text(const Question& q, const Draw& d, const Analysis& a) {
  std::string text = d.premise.empty() ? "" : d.premise + " ";
  if (d.says_access && q.scenario.pattern != AccessPattern::raw) {
    text += to_string(q.scenario.tile) + " (" +
            (is_matrix_op(q.scenario.op)
                 ? std::string(op_name(q.scenario.op))
                 : std::string(op_name(q.scenario.op)) + ", " +
                       std::to_string(q.scenario.effective_width()) + " B per lane") +
            "): " + lanes_in_words(q.scenario) + ". ";
  }
  return text + ask_text(q, d, a);
}

// Whether the recording's transpose of this conflict (q.measured) ran measurably slower, by
// more than 5 points of the copy roof, than the same run's conflict-free padded tile; none where
// the recording lacks it or measured another conflict than this access's.
std::optional<bool> measured_worth(const Question& q, const Analysis& a) {
  const Expected<Measurements>& m = recorded();
  if (!m || q.measured.empty()) return std::nullopt;
  const std::string dtype(dtype_name(q.scenario.tile.dtype));
  const MeasuredFigure* slow = m->find(q.measured);
  const MeasuredFigure* fast = m->find(dtype + "-padded");
  if (!slow || !fast) return std::nullopt;
  // The recorded tile: 32 columns and the same pad, column 0.
  const Scenario recorded_tile =
      tile_access(q.scenario.tile.dtype, 32, 32, q.scenario.tile.pad, SwizzleSpec{},
                  AccessPattern::column, Op::ld, 0, q.scenario.effective_width());
  const Evaluation e = evaluate(recorded_tile);
  if (!e.ok() || e.analysis->wavefront_count() != a.wavefront_count() ||
      e.analysis->ideal_wavefronts != a.ideal_wavefronts)
    return std::nullopt;
  return std::stod(fast->value) - std::stod(slow->value) > 5.0;
}

// The answer of a numeric, judgement or concept ask; false when this draw makes a poor question
// (a fix none of the candidates gives, a conflict-free access to fix or judge).
bool set_answer(Question& q, const Analysis& a) {
  switch (q.kind) {
    case AskKind::wavefronts:
      q.answer = a.wavefront_count();
      return true;
    case AskKind::ways:
      q.answer = a.max_ways;
      return true;
    case AskKind::ideal:
      q.answer = a.ideal_wavefronts;
      return true;
    case AskKind::conflicts:
      q.answer = a.bank_conflicts();
      return true;
    case AskKind::bank:
      q.answer = a.lanes[q.lane].banks[0];
      return true;
    case AskKind::worth: {
      const std::optional<Reversal> r = reversal(a);
      if (!r || a.bank_conflicts() == 0) return false;
      // Only where the recording measured this conflict, and agrees with the per-byte model.
      const std::optional<bool> measured = measured_worth(q, a);
      if (!measured || *measured != r->worth_fixing()) return false;
      q.answer = r->worth_fixing() ? 1 : 0;
      q.target = r->worth_fixing() ? Mistake::deep_conflict_ignored : Mistake::hidden_behind_hbm;
      return true;
    }
    case AskKind::choice:
      return true;  // set from the draw
    case AskKind::fix:
    case AskKind::design: {
      if (a.bank_conflicts() == 0) return false;
      for (const Fix& f : fix_candidates(q)) {
        if (check_fix(q, f).works) {
          q.fix = f;
          if (q.kind == AskKind::design)
            q.answer = q.tma_fill ? apply_fix(q.scenario, f).tile.swizzle.tma_alignment_bytes()
                                  : kMaxAccessBytes;
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

// What the Hire formula answers to a count: the most distinct words one bank holds over the
// whole warp, as if it were one phase (phases, load packing and a word shared across phases
// ignored), and the floor as the requested bytes / 128; the excess is the one less the other.
int whole_warp_answer(const Analysis& a, AskKind kind) {
  std::array<std::vector<std::int64_t>, kBankCount> words;
  for (const LaneRecord& l : a.lanes) {
    if (!l.active) continue;
    for (int k = 0; k < l.word_count; ++k) {
      auto& bank = words[static_cast<std::size_t>(l.banks[k])];
      if (std::find(bank.begin(), bank.end(), l.words[k]) == bank.end()) bank.push_back(l.words[k]);
    }
  }
  int ways = 1;
  for (const auto& bank : words) ways = std::max(ways, static_cast<int>(bank.size()));
  const int floor =
      std::max(1, static_cast<int>((a.requested_bytes + kWavefrontBytes - 1) / kWavefrontBytes));
  switch (kind) {
    case AskKind::ideal:
      return floor;
    case AskKind::conflicts:
      return std::max(0, ways - floor);
    default:
      return ways;
  }
}

// The wrong fix each fix mistake stands for, on this question.
std::optional<Fix> wrong_fix_for(Mistake m, const Question& q) {
  switch (m) {
    case Mistake::aligned_pad_conflicts:
      return Fix{.pad = 4, .swizzle = std::nullopt};
    case Mistake::padded_tensor_core_tile:
      return Fix{.pad = 8, .swizzle = std::nullopt};
    case Mistake::tma_span_exceeded:
      return Fix{.pad = 0, .swizzle = kTma128};
    case Mistake::bf16_pad_one_packed:
    case Mistake::pad_breaks_alignment:
    case Mistake::fix_misses_other_indices:
      return Fix{.pad = q.scenario.tile.pad + 1, .swizzle = std::nullopt};
    default:
      return std::nullopt;
  }
}

// The target is the first intended mistake that an answer built from it is recognised as (the
// answers of two mistakes can coincide on a given scenario, and some do not apply to it).
Mistake target_for(const Question& q, const std::vector<Mistake>& intended, const Analysis& a) {
  for (Mistake m : intended) {
    switch (q.kind) {
      case AskKind::fix: {
        const std::optional<Fix> wrong = wrong_fix_for(m, q);
        if (wrong && drill_detail::classify_fix(q, *wrong, check_fix(q, *wrong)) == m) return m;
        break;
      }
      case AskKind::design: {
        if (m == Mistake::tma_misaligned && q.tma_fill) return m;  // half the alignment
        const std::optional<Fix> wrong = wrong_fix_for(m, q);
        if (wrong && drill_detail::classify_fix(q, *wrong, check_fix(q, *wrong)) == m) return m;
        break;
      }
      case AskKind::choice:
        for (const Choice& c : q.choices)
          if (c.mistake == m) return m;
        break;
      default:
        for (int v = 0; v <= 64; ++v)
          if (drill_detail::classify_number(q, a, v) == m) return m;
    }
  }
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

// [SECTION] make_question(): drawn until a family's draw makes one

Question make_question(DrillLevel level, std::uint64_t seed, int index) {
  SplitMix64 rng(question_seed(level, seed, index));
  const NamedFamily& family = pick_family(level, rng);
  // A draw that makes no question (a swizzle or an alignment the tile does not allow, a
  // conflict-free access to fix or judge, a fix none of the candidates gives) is drawn again
  // from the same family; every family has draws that work for most of its choices.
  for (int attempt = 0;; ++attempt) {
    assert(attempt < 1000 && "the drill's families draw a usable question far sooner");
    Draw d = family.draw(rng);
    // A fix is asked of the tile as declared: its pad folded into its width, so that --pad P
    // gives tile[R][C + P] for the C the question shows.
    if (d.kind == AskKind::fix && d.block_x == 0 && d.s.tile.swizzle.kind == SwizzleKind::none) {
      d.s.tile.cols += std::exchange(d.s.tile.pad, 0);
      for (Scenario& k : d.keep) k.tile.cols += std::exchange(k.tile.pad, 0);
    }
    const Evaluation e = evaluate(d.s);
    if (!e.ok()) continue;
    Question q;
    q.level = level;
    q.seed = seed;
    q.index = index;
    q.family = family.name;
    q.kind = d.kind;
    q.scenario = d.s;
    q.choice = d.choice;
    q.keep = d.keep;
    q.tma_fill = d.tma_fill;
    q.block_x = d.block_x;
    q.block_warp = d.block_warp;
    q.measured = d.measured;
    if (q.kind == AskKind::choice) {
      // The right choice is drawn first; the choices are shown in a drawn order.
      std::vector<Choice> shuffled = d.choices;
      for (std::size_t i = shuffled.size(); i > 1; --i)
        std::swap(shuffled[i - 1],
                  shuffled[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
      for (std::size_t i = 0; i < shuffled.size(); ++i)
        if (shuffled[i].mistake == Mistake::none) q.answer = static_cast<int>(i);
      q.choices = std::move(shuffled);
    }
    if (q.kind == AskKind::bank) q.lane = pick_lane(d, *e.analysis, rng);
    if (!set_answer(q, *e.analysis)) continue;
    if (d.phases_change_answer && ask_descriptor(q.kind).count &&
        q.answer == whole_warp_answer(*e.analysis, q.kind))
      continue;
    if (q.kind != AskKind::worth) q.target = target_for(q, d.intended, *e.analysis);
    q.text = question_text(q, d, *e.analysis);
    return q;
  }
}

std::span<const std::string_view> drill_families(DrillLevel level) {
  static const auto names = [] {
    std::array<std::vector<std::string_view>, 3> out;
    for (DrillLevel l : kAllDrillLevels) {
      auto& list = out[static_cast<std::size_t>(l)];
      for (const NamedFamily& f : families(l))
        if (std::find(list.begin(), list.end(), f.name) == list.end()) list.push_back(f.name);
    }
    return out;
  }();
  return names[static_cast<std::size_t>(level)];
}

}  // namespace banklab
