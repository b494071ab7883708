// The arithmetic written out (explain.hpp): word formulas and bank expressions, the lanes to
// blame, and the explanation built part by part from an analysis.
//
// [SECTION] Word formulas and bank expressions
// [SECTION] Lanes and culprits
// [SECTION] The explanation's parts
// [SECTION] Explanations
// [SECTION] Strides, lanes, alignment and lists
#include "core/report/explain.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>

namespace banklab {

namespace {

// [SECTION] Word formulas and bank expressions

// word(r, c) = floor((a*r + b*c) / div): the 4-byte word of element (r, c) in an unswizzled
// tile, reduced so the lesson's forms come out: 33r + c (fp32, pad 1), 16r + c/2 (bf16),
// (33r + c)/2 (bf16, pad 1), 66r + 2c (fp64, pad 1).
struct WordFormula {
  std::int64_t a = 0, b = 0, div = 1;

  static WordFormula of(const TileLayout& t) {
    const std::int64_t pitch = t.pitch_bytes();
    const std::int64_t e = t.elem_bytes();
    const std::int64_t g = std::gcd(std::gcd(pitch, e), std::int64_t{kBankWidthBytes});
    return {pitch / g, e / g, kBankWidthBytes / g};
  }
};

std::string term(std::int64_t coef, const std::string& var) {
  if (coef == 0) return "";
  if (coef == 1) return var;
  return std::to_string(coef) + var;
}

std::string sum(const std::string& x, const std::string& y) {
  if (x.empty()) return y.empty() ? "0" : y;
  if (y.empty()) return x;
  return x + " + " + y;
}

// The c part of the word: "c", "2c", "c/2", "c/4"; or a number when c is known.
std::string c_part(const WordFormula& f, const std::string& c_name, std::int64_t c_value,
                   bool c_known) {
  if (c_known) {
    const std::int64_t v = f.a % f.div == 0 ? f.b * c_value / f.div : f.b * c_value;
    return v == 0 ? "" : std::to_string(v);
  }
  if (f.div == 1 || f.a % f.div != 0) return term(f.b, c_name);
  return term(f.b, c_name) + "/" + std::to_string(f.div);
}

// word expression with r and c named (or c fixed); mod32 reduces the r coefficient as the bank
// expression does.
std::string word_expression(const WordFormula& f, const std::string& r_name,
                            const std::string& c_name, std::int64_t c_value, bool c_known,
                            bool mod32) {
  if (f.div > 1 && f.a % f.div != 0) {
    const std::string c =
        c_known ? (f.b * c_value == 0 ? "" : std::to_string(f.b * c_value)) : term(f.b, c_name);
    return "(" + sum(term(f.a, r_name), c) + ")/" + std::to_string(f.div);
  }
  std::int64_t a = f.div > 1 ? f.a / f.div : f.a;
  if (mod32) a %= kBankCount;
  return sum(term(a, r_name), c_part(f, c_name, c_value, c_known));
}

// "bank = (33r + c) mod 32 = (r + c) mod 32"; the lesson's "= c" when the row term vanishes and
// the columns stay below 32 banks.
std::string bank_expression(const WordFormula& f, const TileLayout& t) {
  const std::string full = word_expression(f, "r", "c", 0, false, false);
  const std::string reduced = word_expression(f, "r", "c", 0, false, true);
  std::string out = "bank = (" + full + ") mod 32";
  const bool row_term_vanishes = reduced.find('r') == std::string::npos;
  if (row_term_vanishes && f.div == 1 && f.b * (t.cols - 1) < kBankCount) {
    out += " = " + reduced;
  } else if (reduced != full) {
    out += " = (" + reduced + ") mod 32";
  }
  return out;
}

// The bank of lane L's word for a fixed column c: "bank (L + 5) mod 32", or "bank 5 for every
// lane" when the row term vanishes mod 32.
std::string lane_bank(const WordFormula& f, std::int64_t c) {
  const std::string reduced = word_expression(f, "L", "c", c, true, true);
  if (reduced.find('L') == std::string::npos)  // the row term vanished: a constant
    return "bank " + std::to_string(std::stoll(reduced.empty() ? "0" : reduced) % kBankCount) +
           " for every lane";
  if (reduced.find(' ') == std::string::npos) return "bank " + reduced + " mod 32";
  return "bank (" + reduced + ") mod 32";
}

// "4 .. 7", or "30, 31, 0, 1" when the run of banks wraps past bank 31.
std::string constant_banks(std::int64_t first_word, int words) {
  std::string out;
  const std::int64_t first = first_word % kBankCount;
  if (first + words <= kBankCount)
    return std::to_string(first) + " .. " + std::to_string(first + words - 1);
  for (int k = 0; k < words; ++k) out += (k ? ", " : "") + std::to_string((first + k) % kBankCount);
  return out;
}

// [SECTION] Lanes and culprits

std::string lanes_text(std::uint32_t lanes) {
  if (!lanes) return "none";
  const int lo = std::countr_zero(lanes);
  const int hi = 31 - std::countl_zero(lanes);
  if (std::popcount(lanes) == hi - lo + 1)
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
  return std::to_string(std::popcount(lanes)) + " lanes";
}

std::string plural(std::int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The culprits of one phase: its busiest bank, the lanes that want it, their distinct words.
Culprits culprits_in(const Analysis& a, int phase) {
  Culprits c;
  const Phase& ph = a.phases[static_cast<std::size_t>(phase)];
  if (!ph.active_lanes) return c;
  c.phase = phase;
  c.bank = ph.busiest_bank;
  c.ways = ph.wavefront_count;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(ph.active_lanes >> lane & 1u)) continue;
    const LaneRecord& l = a.lanes[lane];
    bool wants = false;
    for (int k = 0; k < l.word_count; ++k) {
      if (l.banks[k] != c.bank) continue;
      wants = true;
      c.words.push_back(l.words[k]);
    }
    if (wants) c.lanes.push_back(lane);
  }
  std::sort(c.words.begin(), c.words.end());
  c.words.erase(std::unique(c.words.begin(), c.words.end()), c.words.end());
  return c;
}

// "lanes 0, 8, 16 and 24 all want bank 0" (or "lane 3 and lane ..."): the verdict's culprits.
std::string culprit_line(const Analysis& a) {
  const Culprits c = busiest(a);
  if (c.lanes.empty()) return "no active lane";
  const bool all = c.lanes.size() > 2 && c.lanes.size() < kWarpSize;
  return list_lanes(c.lanes) + (all ? " all want" : " want") + " bank " + std::to_string(c.bank) +
         ", " + plural(c.ways, "word", "distinct words");
}

// [SECTION] The explanation's parts

// A fixed word stride s over 32 single-word lanes of one phase: the general rule, which the
// count always agrees with (the words w0 + sL take 32 / gcd(s, 32) banks, gcd(s, 32) each).
void add_stride_rule(const Analysis& a, Explanation* x) {
  const std::optional<std::int64_t> stride = word_stride(a);
  if (!stride) return;
  const std::int64_t s = *stride;
  const std::int64_t g = std::gcd(s, std::int64_t{kBankCount});
  x->steps.push_back(
      "the rule: a word stride s spreads 32 lanes over 32 / gcd(s, 32) banks, "
      "gcd(s, 32) lanes to a bank; here s = " +
      std::to_string(s) + ", gcd = " + std::to_string(g) + ": " +
      plural(kBankCount / g, "bank", "banks") + ", " + std::to_string(g) + "-way" +
      (g == 1 ? " (s is odd, so coprime with 32)" : ""));
}

// The address bits a byte-offset swizzle moves, drawn as bits:
//   bit  9 8 7 6 5 4 3 2 1 0
//        y y y z z z . . . .    z ^= y
void add_swizzle_bits(const TileLayout& t, Explanation* x) {
  const Swizzle z = t.byte_swizzle();
  const int top = z.period_log2() - 1;
  std::string bits = "bit ", marks = "    ";
  for (int b = top; b >= 0; --b) {
    const std::string n = std::to_string(b);
    const bool y = b >= z.base + z.shift && b < z.base + z.shift + z.bits;
    const bool zz = b >= z.base && b < z.base + z.bits;
    bits += " " + n;
    marks += std::string(n.size(), ' ') + (y ? "y" : zz ? "z" : ".");
  }
  x->steps.push_back(bits);
  x->steps.push_back(marks + "   apply(x) = x ^ ((x & " + std::to_string(z.yyy_mask()) + ") >> " +
                     std::to_string(z.shift) + "): bits y are XORed into bits z");
  const int pitch_log2 = std::countr_zero(static_cast<std::uint64_t>(t.pitch_bytes()));
  if (std::has_single_bit(static_cast<std::uint64_t>(t.pitch_bytes())) &&
      z.base + z.shift >= pitch_log2) {
    x->steps.push_back("with " + std::to_string(t.pitch_bytes()) + "-byte rows, bits " +
                       std::to_string(pitch_log2) + " and up are the row number and bits " +
                       std::to_string(z.base) + ".." + std::to_string(z.base + z.bits - 1) +
                       " the " + std::to_string(1 << z.base) +
                       "-byte chunk: each row XORs its "
                       "chunk index with its own row bits, a permutation of the row's chunks, so "
                       "rows that shared banks now use different ones");
  }
}

// c ^ r: why the XOR swizzle is conflict-free, with the lanes of this access as the example.
void add_xor_argument(const Scenario& s, const std::array<LaneElements, kWarpSize>& elements,
                      Explanation* x) {
  const TileLayout& t = s.tile;
  x->steps.push_back("for a fixed row r, c -> c ^ (r mod " + std::to_string(t.cols) +
                     ") is its own inverse, so it permutes the row's " + std::to_string(t.cols) +
                     " columns: a row write still covers every column once and the tile wastes "
                     "no bytes");
  if (s.pattern != AccessPattern::column) return;
  std::string example;
  for (int lane = 0; lane < 4 && lane < t.rows; ++lane) {
    const Cell c = elements[lane].first;
    example += (lane ? ", " : "") + std::string("lane ") + std::to_string(lane) + " -> column " +
               std::to_string(t.physical_cell(c.row, c.col).col);
  }
  x->steps.push_back(
      "reading column c, lane L (row L) finds its element at column c ^ L, "
      "different for every lane: " +
      example + ", ...");
}

// Rows that cannot take a vector access because the pad shifts their start off alignment;
// false when the rows are all aligned (or the access is not wider than an element).
bool add_alignment(const Scenario& s, Explanation* x) {
  const TileLayout& t = s.tile;
  const int width = s.effective_width();
  if (width <= t.elem_bytes() || s.pattern == AccessPattern::raw) return false;
  const RowAlignment r = row_alignment(t, width);
  if (r.step == 0) return false;
  const std::string w = std::to_string(width);
  x->steps.push_back("row pitch " + std::to_string(r.pitch) + " B; " + std::to_string(r.pitch) +
                     " mod " + w + " = " + std::to_string(r.step) + ": row r starts " +
                     std::to_string(r.step) + "r mod " + w + " bytes past a " + w +
                     "-byte boundary");
  x->steps.push_back("aligned: r a multiple of " + std::to_string(r.period) + ", " +
                     list_numbers({r.aligned.begin(), r.aligned.end()}, "rows") +
                     "; misaligned: " + std::to_string(r.misaligned.size()) + " of " +
                     std::to_string(t.rows) + " rows (" + std::to_string(r.period - 1) + " in " +
                     std::to_string(r.period) + ")");
  x->steps.push_back("a " + w + "-byte access must start on a " + w +
                     "-byte boundary, so only the aligned rows can take it; a pad of " +
                     std::to_string(r.aligning_pad) + " (" +
                     std::to_string(std::int64_t{t.cols + r.aligning_pad} * t.elem_bytes()) +
                     "-byte rows) aligns every row");
  return true;
}

// What the pad costs in shared memory.
void add_pad_cost(const TileLayout& t, Explanation* x) {
  if (t.pad <= 0) return;
  const PadCost c = pad_cost(t);
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", c.percent);
  x->steps.push_back("the pad costs " + std::to_string(t.rows) + " x " + std::to_string(t.pad) +
                     " x " + std::to_string(t.elem_bytes()) + " B = " + std::to_string(c.bytes) +
                     " B, " + pct + " of the " + std::to_string(c.tile_bytes) + "-byte tile");
}

std::string phase_structure(const Analysis& a) {
  const WarpAccess& x = a.access;
  if (is_matrix_op(x.op)) {
    return std::string(op_name(x.op)) +
           ": each 8x8 matrix is one phase, its 8 row addresses "
           "(16 B each, 128 B in all) given by lanes 8m..8m+7";
  }
  if (x.width <= 4) {
    return std::to_string(x.width) +
           "-byte accesses: all 32 lanes form one phase (a wavefront "
           "carries 32 banks x 4 B = 128 B)";
  }
  const std::string w = std::to_string(x.width);
  if (a.packed) {
    return w + "-byte loads whose lane pairs (l, l^" + std::to_string(a.packing_partner) +
           ") are idle or share an address pack two lanes to a slot: " +
           plural(static_cast<std::int64_t>(a.phases.size()), "phase", "phases") + " of " +
           std::to_string(std::popcount(a.phases[0].lanes)) + " lanes";
  }
  return w + "-byte accesses: " +
         plural(static_cast<std::int64_t>(a.phases.size()), "phase", "phases") + " of " +
         std::to_string(std::popcount(a.phases[0].lanes)) + " lanes (" +
         std::to_string(128 / x.width) + " x " + w + " B = 128 B each)" +
         (is_load(x.op) ? "; no lane pairs share addresses, so the loads do not pack"
                        : "; stores never pack");
}

// The counting part of the derivation, common to tile scenarios and raw offsets.
void add_counting_steps(const Analysis& a, Explanation* x) {
  x->steps.push_back(phase_structure(a));
  bool broadcast = false;
  for (const LaneRecord& l : a.lanes) broadcast = broadcast || (l.active && l.shares_word);
  for (std::size_t p = 0; p < a.phases.size(); ++p) {
    const Phase& ph = a.phases[p];
    if (!ph.active_lanes) {
      x->steps.push_back("phase " + std::to_string(p) + " (lanes " + lanes_text(ph.lanes) +
                         "): no active lane, 0 wavefronts");
      continue;
    }
    std::uint32_t banks = 0;
    std::vector<std::int64_t> words;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!(ph.active_lanes >> lane & 1u)) continue;
      const LaneRecord& l = a.lanes[lane];
      for (int k = 0; k < l.word_count; ++k) {
        banks |= 1u << l.banks[k];
        words.push_back(l.words[k]);
      }
    }
    std::sort(words.begin(), words.end());
    const auto distinct = std::unique(words.begin(), words.end()) - words.begin();
    std::string line = "phase " + std::to_string(p) + " (lanes " + lanes_text(ph.lanes) +
                       "): " + plural(distinct, "distinct word", "distinct words") + " in " +
                       plural(std::popcount(banks), "bank", "banks") + "; ";
    if (ph.wavefront_count == 1) {
      line += "no bank holds two of them -> 1 wavefront";
    } else {
      const Culprits c = culprits_in(a, static_cast<int>(p));
      line += "bank " + std::to_string(ph.busiest_bank) + " holds " +
              std::to_string(ph.wavefront_count) + " of them (" + list_lanes(c.lanes) +
              (c.lanes.size() > 1 ? " want " : " wants ") + list_numbers(c.words, "words") +
              ") -> " + std::to_string(ph.wavefront_count) + "-way, " +
              std::to_string(ph.wavefront_count) + " wavefronts";
    }
    x->steps.push_back(line);
    if (a.phases.size() > 4 && p == 3) {
      x->steps.push_back("... and so on for the remaining phases");
      break;
    }
  }
  if (broadcast) {
    x->steps.push_back(std::string("lanes on the same word are served together (") +
                       (is_load(a.access.op) ? "a broadcast" : "one write") +
                       "), which is not a conflict");
  }
  const int w = a.wavefront_count();
  const int ideal = a.ideal_wavefronts;
  x->steps.push_back(
      "wavefronts = " + std::to_string(w) + "; ideal = " + std::to_string(ideal) +
      " (one per phase with an active lane: " + std::to_string(a.active_lanes) + " lanes x " +
      std::to_string(a.access.width) + " B = " + std::to_string(a.requested_bytes) +
      " B); bank conflicts = " + std::to_string(w) + " - " + std::to_string(ideal) + " = " +
      std::to_string(a.bank_conflicts()) + ", as Nsight Compute counts them");
  if (w > 0) {
    char share[32];
    std::snprintf(share, sizeof share, "%.0f%%", 100.0 * ideal / w);
    x->steps.push_back("cost: " + plural(w, "clock", "clocks") +
                       " of the SM's shared-memory pipeline at one 128-byte wavefront per clock, "
                       "where " +
                       std::to_string(ideal) + " would do: " + share +
                       " of shared-memory bandwidth");
  }
  if (w == 0) {
    x->verdict = "no active lane: 0 wavefronts";
  } else if (a.bank_conflicts() == 0) {
    x->verdict =
        "conflict-free: " + plural(w, "wavefront", "wavefronts") + ", the minimum for this request";
  } else {
    x->verdict = std::to_string(a.max_ways) + "-way bank conflict (" + culprit_line(a) +
                 "): " + plural(w, "wavefront", "wavefronts") + " where " + std::to_string(ideal) +
                 " would do (" + std::to_string(a.bank_conflicts()) + " excess)";
  }
}

std::string lane_example(const Analysis& a, const std::array<LaneElements, kWarpSize>* elements,
                         int lane) {
  const LaneRecord& l = a.lanes[lane];
  std::string line = "lane " + std::to_string(lane) + ": ";
  if (elements && (*elements)[lane].count > 0) {
    const Cell c = (*elements)[lane].first;
    line += "(" + std::to_string(c.row) + ", " + std::to_string(c.col) + ") -> ";
  }
  line += "byte " + std::to_string(l.byte) + " -> word " + std::to_string(l.words[0]);
  if (l.word_count > 1) line += ".." + std::to_string(l.words[l.word_count - 1]);
  line += " -> bank " + std::to_string(l.banks[0]);
  if (l.word_count > 1) line += ".." + std::to_string(l.banks[l.word_count - 1]);
  return line;
}

// Lane 0, the busiest bank's lanes (up to four) and the last active lane: the example always
// shows the lanes that collide.
void add_lane_examples(const Analysis& a, const std::array<LaneElements, kWarpSize>* elements,
                       Explanation* x) {
  const std::vector<int> shown = example_lanes(a);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (i > 0 && shown[i] > shown[i - 1] + 1) x->steps.push_back("...");
    x->steps.push_back(lane_example(a, elements, shown[i]));
  }
}

// The formula lines of an unswizzled (or swizzled) tile, and what the access makes of them.
void add_formula(const Scenario& s, Explanation* x) {
  const TileLayout& t = s.tile;
  const std::string decl = to_string(t);
  const WordFormula f = WordFormula::of(t);
  const std::int64_t pitch = t.pitch_bytes();
  const int e = t.elem_bytes();
  const std::string byte = sum(term(pitch, "r"), term(e, "c"));
  const std::string second_word = e > 4 ? " (and the word after it)" : "";
  const SwizzleKindInfo& kind = swizzle_kind(t.swizzle.kind);
  switch (kind.moves) {
    case SwizzleMoves::nothing:
      x->formula = "element (r, c) of " + decl + " -> byte " + byte + " -> word " +
                   word_expression(f, "r", "c", 0, false, false) + second_word;
      x->bank_expression = bank_expression(f, t);
      break;
    case SwizzleMoves::columns:
      if (kind.column_xor_form == ColumnXorForm::row_mod_columns) {
        x->formula = "element (r, c) of " + decl + " is stored at column c' = c ^ (r mod " +
                     std::to_string(t.cols) + ") -> byte " + sum(term(pitch, "r"), term(e, "c'")) +
                     " -> word " + word_expression(f, "r", "c'", 0, false, false) + second_word;
        x->bank_expression = "bank = (" + word_expression(f, "r", "c'", 0, false, true) +
                             ") mod 32, with c' = c ^ (r mod " + std::to_string(t.cols) + ")";
      } else {  // one basis per row bit: Triton's
        const TritonSwizzle& tr = t.swizzle.triton;
        x->formula = "element (r, c) of " + decl +
                     " is stored at column c' = c ^ x(r), Triton's row XOR in elements: x(r) = " +
                     "XOR over the set bits 2^k of r of (" + std::to_string(tr.vec) +
                     " * ((2^k / " + std::to_string(tr.per_phase) + ") mod " +
                     std::to_string(tr.max_phase) + ")) mod " + std::to_string(t.cols) +
                     " -> byte " + sum(term(pitch, "r"), term(e, "c'"));
        x->bank_expression = "bank = (" + word_expression(f, "r", "c'", 0, false, true) +
                             ") mod 32, with c' = c ^ x(r)";
      }
      break;
    case SwizzleMoves::bytes: {
      std::ostringstream os;
      os << t.byte_swizzle();
      // The unit matters: cute-elem's Swizzle counts elements, and is shown in its byte form.
      std::string unit = " on byte offsets";
      if (kind.counts_elements) {
        std::ostringstream given;
        given << t.swizzle.cute;
        unit = " on byte offsets (" + given.str() + " on " + std::string(dtype_name(t.dtype)) +
               " element indices, M raised by log2 " + std::to_string(e) + ")";
      }
      x->formula = "element (r, c) of " + decl + " -> byte " + os.str() + "(" + byte + ")" + unit;
      // TMA rows are exactly one span long (TileLayout::check), so the XORed address bits
      // 7.. are row bits: 128B mode r mod 8; 64B mode (r / 2) mod 4; 32B mode (r / 4) mod 2.
      if (const int span = kind.tma_span_bytes; span != 0) {
        const int chunk = kind.tma_chunk_bytes;
        const std::string chunks = std::to_string(span / chunk);
        const std::string rows = span == 128 ? "r" : "(r / " + std::to_string(128 / span) + ")";
        x->formula += ": " + std::to_string(chunk) + "-byte chunk q of row r lands at chunk q ^ (" +
                      rows + " mod " + chunks + ")";
        if (!kind.caveat.empty()) x->formula += " (" + std::string(kind.caveat) + ")";
      }
      x->bank_expression = "bank = (swizzled byte / 4) mod 32";
      break;
    }
  }
  if (t.swizzle.kind != SwizzleKind::none) return;
  const int k = s.elements_per_lane();
  if (s.pattern == AccessPattern::column) {
    const std::int64_t c = std::int64_t{s.index} * k;
    // A lane of k elements moves k*e bytes: its first word is the one the formula gives, and
    // its words continue into the next banks.
    const int words = std::max(1, k * e / kBankWidthBytes);
    const std::string first_word = word_expression(f, "L", "c", c, true, false);
    std::string where = "word " + first_word + " -> " + lane_bank(f, c);
    if (words > 1) {
      const std::string last = " + " + std::to_string(words - 1);
      const std::string bank = word_expression(f, "L", "c", c, true, true);
      where =
          "words " + first_word + " .. " + first_word + last + " -> banks " +
          (bank.find('L') == std::string::npos
               ? constant_banks(std::stoll(bank.empty() ? "0" : bank), words) + " for every lane"
               : "(" + bank + ") mod 32 and the " + std::to_string(words - 1) + " after it");
    }
    x->steps.push_back(
        "column read, c = " + std::to_string(c) + ": lane L takes " +
        (k == 1 ? "element (L, " + std::to_string(c) + ")"
                : "elements (L, " + std::to_string(c) + ".." + std::to_string(c + k - 1) + ")") +
        " -> " + where);
  } else if (s.pattern == AccessPattern::row) {
    x->steps.push_back("row access from row " + std::to_string(s.index) + ": lane L takes " +
                       (k == 1 ? "element L"
                               : "elements " + std::to_string(k) + "L.." + std::to_string(k) +
                                     "L+" + std::to_string(k - 1)) +
                       " in row-major order, so consecutive lanes walk consecutive words");
  } else if (s.pattern == AccessPattern::matrix) {
    // Row i of matrix m is chunk N + m of row i: byte pitch*i + 16(N + m), first bank
    // (pitch/4 * i + 4(N + m)) mod 32, the row's other three words in the next three banks.
    const std::string chunk = s.index == 0 ? "m" : "(" + std::to_string(s.index) + " + m)";
    const std::string first_bank = sum(term(pitch / 4 % kBankCount, "i"), "4" + chunk);
    x->steps.push_back(
        "matrix m, row i (lane 8m + i): the 16 bytes at byte " +
        sum(term(pitch, "i"), "16" + chunk) + " -> banks " +
        (pitch / 4 % kBankCount == 0 ? first_bank : "(" + first_bank + ") mod 32") +
        " to 3 more: every row of a matrix " +
        (pitch / 4 % kBankCount == 0
             ? "in the same 4 banks"
             : "starts " + std::to_string(pitch / 4 % kBankCount) + " banks after the one above"));
  }
}

// Does the count depend on which column (or row) is read? Sweeps the index over the tile and
// says so when it does: bf16 tile[32][33] is conflict-free for even columns only.
void add_index_sweep(const Scenario& s, const Evaluation& e, Explanation* x) {
  if (s.pattern != AccessPattern::column && s.pattern != AccessPattern::row) return;
  const int k = s.elements_per_lane();
  const int count = s.pattern == AccessPattern::column ? s.tile.cols / std::max(k, 1) : s.tile.rows;
  if (count < 2) return;
  const int limit = std::min(count, 256);
  std::map<int, std::vector<int>> by_wavefronts;
  Scenario probe = s;
  int off_edge = 0;  // indices whose warp runs past the tile's edge
  for (int i = 0; i < limit; ++i) {
    probe.index = i;
    const Evaluation pe = evaluate(probe);
    if (!pe.ok()) return;
    // A warp that runs off the tile's edge leaves lanes idle: a different access, not a
    // property of the layout.
    if (pe.analysis->active_lanes != e.analysis->active_lanes) {
      ++off_edge;
      continue;
    }
    by_wavefronts[pe.analysis->wavefront_count()].push_back(i);
  }
  const std::string what = s.pattern == AccessPattern::column ? "column" : "row";
  if (by_wavefronts.size() < 2) {
    x->steps.push_back("the same count holds for every one of the " +
                       std::to_string(limit - off_edge) + " " + what + "s" +
                       (limit < count ? " checked" : "") +
                       (off_edge ? " whose warp stays inside the tile" : ""));
    return;
  }
  const int here = e.analysis->wavefront_count();
  if (by_wavefronts.size() == 2) {
    auto parity_of = [](const std::vector<int>& v) {
      int parity = v[0] % 2;
      for (int i : v)
        if (i % 2 != parity) return -1;
      return parity;
    };
    const auto& [w0, list0] = *by_wavefronts.begin();
    const auto& [w1, list1] = *by_wavefronts.rbegin();
    const int p0 = parity_of(list0);
    if (p0 >= 0 && parity_of(list1) == 1 - p0) {
      const bool even_cheaper = p0 == 0;
      x->caveats.push_back(
          "The " + what + " matters: " + (even_cheaper ? "even " : "odd ") + what + "s take " +
          plural(w0, "wavefront", "wavefronts") + ", " + (even_cheaper ? "odd " : "even ") + what +
          "s " + std::to_string(w1) + "." +
          (s.tile.elem_bytes() < 4 && s.pattern == AccessPattern::column
               ? " Two elements share each word, so the " + what +
                     " parity moves where a lane's word starts; a claim that this layout is "
                     "conflict-free holds for half the " +
                     what + "s only (measured on the H200)."
               : ""));
      return;
    }
  }
  std::string line = "The " + what + " matters:";
  for (const auto& [w, list] : by_wavefronts) {
    line += " " + plural(static_cast<std::int64_t>(list.size()), what, what + "s") +
            (list.size() == 1 ? " takes " : " take ") + std::to_string(w) + ";";
  }
  line.back() = '.';
  line += " This " + what + " takes " + std::to_string(here) + ".";
  if (limit < count) line += " (first " + std::to_string(limit) + " " + what + "s checked)";
  x->caveats.push_back(line);
}

}  // namespace

// [SECTION] Explanations

Explanation explain(const Scenario& s, const Evaluation& e) {
  Explanation x;
  if (!e.ok()) {
    x.verdict = "cannot analyse: " + first_error(e.diagnostics);
    for (const Diagnostic& d : e.diagnostics) x.steps.push_back(d.message);
    if (s.tile.check() && add_alignment(s, &x)) {
      const RowAlignment r = row_alignment(s.tile, s.effective_width());
      x.verdict = "cannot analyse: " + std::to_string(r.misaligned.size()) + " of " +
                  std::to_string(s.tile.rows) + " rows (" + std::to_string(r.period - 1) + " in " +
                  std::to_string(r.period) + ") are misaligned for " + std::to_string(r.width) +
                  "-byte accesses; " + first_error(e.diagnostics);
    }
    return x;
  }
  if (s.pattern != AccessPattern::raw) {
    add_formula(s, &x);
    const SwizzleKindInfo& kind = swizzle_kind(s.tile.swizzle.kind);
    if (kind.column_xor_form == ColumnXorForm::row_mod_columns) {
      add_xor_argument(s, e.elements, &x);
    } else if (kind.moves != SwizzleMoves::nothing) {
      add_swizzle_bits(s.tile, &x);
    }
    add_pad_cost(s.tile, &x);
  }
  add_lane_examples(*e.analysis, &e.elements, &x);
  add_stride_rule(*e.analysis, &x);
  add_counting_steps(*e.analysis, &x);
  add_index_sweep(s, e, &x);
  for (const Diagnostic& d : e.diagnostics)
    if (d.severity != Severity::error) x.caveats.push_back(d.message);
  return x;
}

Explanation explain(const Analysis& a) {
  Explanation x;
  x.formula = "lane at byte a, width w -> words a/4 .. (a+w-1)/4 -> bank = word mod 32";
  x.bank_expression = "bank = (byte / 4) mod 32";
  add_lane_examples(a, nullptr, &x);
  add_stride_rule(a, &x);
  add_counting_steps(a, &x);
  return x;
}

// [SECTION] Strides, lanes, alignment and lists

std::optional<std::int64_t> word_stride(const Analysis& a) {
  if (a.phases.size() != 1 || a.active_lanes != kWarpSize) return std::nullopt;
  const std::int64_t s = a.lanes[1].words[0] - a.lanes[0].words[0];
  if (s <= 0) return std::nullopt;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = a.lanes[lane];
    if (l.word_count != 1 || (lane > 0 && l.words[0] - a.lanes[lane - 1].words[0] != s))
      return std::nullopt;
  }
  return s;
}

std::vector<int> example_lanes(const Analysis& a) {
  std::vector<int> shown;
  int last = -1;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!a.lanes[lane].active) continue;
    if (shown.empty()) shown.push_back(lane);
    last = lane;
  }
  if (last < 0) return shown;
  const Culprits c = busiest(a);
  if (c.lanes.size() > 1)
    for (std::size_t i = 0; i < c.lanes.size() && i < 4; ++i) shown.push_back(c.lanes[i]);
  // No collision to show: the first three active lanes, as the lesson walks them.
  for (int lane = shown[0] + 1; shown.size() < 3 && lane < last; ++lane)
    if (a.lanes[lane].active) shown.push_back(lane);
  shown.push_back(last);
  std::sort(shown.begin(), shown.end());
  shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
  return shown;
}

Culprits busiest(const Analysis& a) {
  int worst = -1;
  for (std::size_t p = 0; p < a.phases.size(); ++p)
    if (a.phases[p].active_lanes &&
        (worst < 0 || a.phases[p].wavefront_count > a.phases[worst].wavefront_count))
      worst = static_cast<int>(p);
  return worst < 0 ? Culprits{} : culprits_in(a, worst);
}

RowAlignment row_alignment(const TileLayout& t, int width) {
  RowAlignment r;
  r.width = width;
  r.pitch = t.pitch_bytes();
  r.step = width > 0 ? r.pitch % width : 0;
  r.period = width > 0 ? static_cast<int>(width / std::gcd(r.pitch, std::int64_t{width})) : 1;
  for (int row = 0; row < t.rows; ++row)
    (row % r.period == 0 ? r.aligned : r.misaligned).push_back(row);
  r.aligning_pad = t.pad;
  // A width of at most 16 bytes is reached within 16 more elements of pad; a wider (invalid)
  // width asked for by an analysis that failed gets no suggestion rather than a long search.
  if (width > 16) return r;
  while (width > 0 && std::int64_t{t.cols + r.aligning_pad} * t.elem_bytes() % width != 0)
    ++r.aligning_pad;
  return r;
}

PadCost pad_cost(const TileLayout& t) {
  PadCost c;
  c.bytes = std::int64_t{t.rows} * t.pad * t.elem_bytes();
  c.tile_bytes = t.size_bytes();
  c.percent = c.tile_bytes > 0
                  ? 100.0 * static_cast<double>(c.bytes) / static_cast<double>(c.tile_bytes)
                  : 0.0;
  return c;
}

std::string list_numbers(const std::vector<std::int64_t>& v, const std::string& what) {
  const std::string lead = v.size() == 1 ? what.substr(0, what.size() - 1) : what;
  std::string out = lead + " ";
  if (v.empty()) return "no " + what;
  bool progression = v.size() > 6;
  for (std::size_t i = 2; progression && i < v.size(); ++i)
    progression = v[i] - v[i - 1] == v[1] - v[0];
  if (progression && v[1] - v[0] == 1)
    return out + std::to_string(v[0]) + "-" + std::to_string(v.back());
  if (progression) {
    return out + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
           ", ..., " + std::to_string(v.back());
  }
  if (v.size() > 6) {
    for (std::size_t i = 0; i < 4; ++i) out += std::to_string(v[i]) + ", ";
    return out + "... (" + std::to_string(v.size()) + " " + what + ")";
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += i + 1 == v.size() ? " and " : ", ";
    out += std::to_string(v[i]);
  }
  return out;
}

std::string list_lanes(const std::vector<int>& lanes) {
  if (lanes.size() == kWarpSize) return "all 32 lanes";
  return list_numbers(std::vector<std::int64_t>(lanes.begin(), lanes.end()), "lanes");
}

std::string to_text(const Explanation& x) {
  std::string out;
  if (!x.formula.empty()) out += x.formula + "\n";
  if (!x.bank_expression.empty()) out += x.bank_expression + "\n";
  for (const std::string& s : x.steps) out += "  " + s + "\n";
  out += "=> " + x.verdict + "\n";
  for (const std::string& c : x.caveats) out += "note: " + c + "\n";
  return out;
}

}  // namespace banklab
