// The inverse question (solve.hpp): access families parsed and walked over a tile, counted
// once per distinct bank pattern, and the layouts searched simplest first.
//
// [SECTION] Access families
// [SECTION] Walking and counting a family
// [SECTION] Reasons
// [SECTION] The search
// [SECTION] The public functions
#include "core/solve/solve.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <numeric>
#include <unordered_map>

#include "core/base/format.hpp"
#include "core/model/analysis.hpp"

namespace banklab {

// [SECTION] Access families

int AccessFamily::effective_width(DType dtype) const {
  if (pattern == AccessPattern::matrix) return 16;
  return width > 0 ? width : dtype_bytes(dtype);
}

Expected<AccessFamily> parse_family(std::string_view text) {
  std::string quoted(1, '\'');  // appended: GCC 12 warns falsely (-Wrestrict) on "'" + string
  quoted += text;
  quoted += '\'';
  const std::string expected =
      "expected KIND[:WIDTH][:OP] with KIND row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 "
      "or stmatrix.x4, WIDTH 1, 2, 4, 8 or 16 bytes, OP ld or st (e.g. row:16:st)";
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() > 3 || parts[0].empty())
    return Error{"bad access family " + quoted + ": " + expected};
  AccessFamily f;
  if (parts[0] == "row" || parts[0] == "column") {
    f.pattern = parts[0] == "row" ? AccessPattern::row : AccessPattern::column;
  } else if (const auto op = parse_op(parts[0]); op && is_matrix_op(*op)) {
    f.pattern = AccessPattern::matrix;
    f.op = *op;
  } else {
    return Error{"bad access family " + quoted + ": unknown kind '" + std::string(parts[0]) +
                 "'; " + expected};
  }
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    int width = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), width);
    if (ec == std::errc() && end == part.data() + part.size() && i == 1) {
      const Expected<int> w = parse_width(part);
      if (!w) return Error{"access family " + quoted + ": " + w.error()};
      if (f.pattern == AccessPattern::matrix && *w != 16) {
        return Error{"access family " + quoted + ": " + std::string(op_name(f.op)) +
                     " gives 16-byte row addresses; its width is 16, not " + std::string(part)};
      }
      f.width = *w;
      continue;
    }
    const auto op = parse_op(part);
    if (!op || (i == 1 && parts.size() == 3)) {
      return Error{"bad access family " + quoted + ": " + expected};
    }
    if (f.pattern == AccessPattern::matrix) {
      if (*op != f.op) {
        return Error{"access family " + quoted + ": the op of " + std::string(op_name(f.op)) +
                     " is itself; leave ':" + std::string(part) + "' out"};
      }
    } else if (is_matrix_op(*op)) {
      return Error{"access family " + quoted + ": " + std::string(part) +
                   " is a kind of its own, not the op of a row or column access"};
    } else {
      f.op = *op;
    }
  }
  return f;
}

std::string to_string(const AccessFamily& f) {
  if (f.pattern == AccessPattern::matrix) return std::string(op_name(f.op));
  std::string text(pattern_name(f.pattern));
  if (f.width > 0) {
    text += ':';
    text += std::to_string(f.width);
  }
  text += ':';
  text += op_name(f.op);
  return text;
}

std::string family_label(const AccessFamily& f, DType dtype) {
  if (f.pattern == AccessPattern::matrix) {
    return std::string(op_name(f.op)) + (is_load(f.op) ? " reads" : " writes");
  }
  const int w = f.effective_width(dtype);
  std::string label = w != dtype_bytes(dtype) ? std::to_string(w) + "-byte " : "";
  label += f.pattern == AccessPattern::row ? "row " : "column ";
  label += is_load(f.op) ? "reads" : "stores";
  return label;
}

Expected<void> check_family(const AccessFamily& f, DType dtype, int rows, int cols) {
  const int e = dtype_bytes(dtype);
  const int w = f.effective_width(dtype);
  const std::string name = to_string(f);
  if (w < e) {
    return Error{name + ": a " + std::to_string(w) + "-byte access cannot hold one " +
                 std::to_string(e) + "-byte " + std::string(dtype_name(dtype)) + " element"};
  }
  const int k = w / e;
  switch (f.pattern) {
    case AccessPattern::row:
      if (std::int64_t{rows} * cols % k != 0) {
        return Error{name + ": " + std::to_string(rows) + "x" + std::to_string(cols) +
                     " elements do not split into lanes of " + std::to_string(k)};
      }
      return {};
    case AccessPattern::column:
      if (cols % k != 0) {
        return Error{name + ": a row of " + std::to_string(cols) +
                     " elements does not split into " + "groups of " + std::to_string(k) +
                     " per lane"};
      }
      return {};
    case AccessPattern::matrix: {
      const int m = matrix_count(f.op);
      const std::int64_t chunks = std::int64_t{cols} * e / 16;
      if (rows % 8 != 0 || std::int64_t{cols} * e % 16 != 0 || chunks % m != 0) {
        return Error{name + " reads " + std::to_string(m) +
                     " 16-byte chunk(s) of 8 rows at a time: it " +
                     "needs a multiple of 8 rows and of " + std::to_string(16 * m) +
                     " bytes a row; " + "the tile has " + std::to_string(rows) + " rows of " +
                     std::to_string(std::int64_t{cols} * e) + " B"};
      }
      return {};
    }
    case AccessPattern::raw:
      break;
  }
  return Error{name + ": raw offsets (the raw form) are not a family over a tile"};
}

// [SECTION] Walking and counting a family

namespace {

// Calls visit(access) for every instruction of the family; stops at the first broken rule and
// returns it (done when all are legal).
// byte_of(r, c): the layout function, or its tabulated byte_map. Only the instructions that
// start in rows [0, row_limit) are visited (all of them for row_limit = t.rows).
template <class ByteOf, class Visit>
Expected<void> for_each_access(const TileLayout& t, const ByteOf& byte_of, const AccessFamily& f,
                               int row_limit, bool* permuted, Visit&& visit) {
  const int e = t.elem_bytes();
  const int w = f.effective_width(t.dtype);
  const int k = w / e;
  WarpAccess access;
  access.op = f.op;
  access.width = w;
  // Places one lane; false (and broken says why) when the layout breaks a rule for it.
  std::string broken;
  auto place = [&](int lane, Cell first) -> bool {
    if (k == 1) {  // one element: always one block, in order; only its alignment can fail
      const std::int64_t byte = byte_of(first.row, first.col);
      if (byte % w == 0) {
        access.offsets[static_cast<std::size_t>(lane)] = byte;
        return true;
      }
    }
    const LaneBlock block = lane_block_of(byte_of, t.cols, e, first, k);
    if (block.contiguous && block.lowest % w == 0) {
      if (!block.in_order && permuted) *permuted = true;
      access.offsets[static_cast<std::size_t>(lane)] = block.lowest;
      return true;
    }
    const std::string label = family_label(f, t.dtype);
    if (!block.contiguous) {
      broken = label + " are split: lane " + std::to_string(lane) + "'s " + std::to_string(k) +
               " elements from (" + std::to_string(first.row) + ", " + std::to_string(first.col) +
               ") do not form one " + std::to_string(w) + "-byte block";
    } else if (t.pitch_bytes() % w != 0) {
      broken = label + " become misaligned: " + std::to_string(t.pitch_bytes()) + "-byte rows";
    } else {
      broken = label + " become misaligned: lane " + std::to_string(lane) + " starts at byte " +
               std::to_string(block.lowest);
    }
    return false;
  };
  const std::int64_t total = std::int64_t{t.rows} * t.cols;
  const std::int64_t start_limit = std::int64_t{row_limit} * t.cols;
  switch (f.pattern) {
    case AccessPattern::row:
      for (std::int64_t start = 0; start < start_limit; start += std::int64_t{kWarpSize} * k) {
        access.offsets.fill(kInactiveLane);
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const std::int64_t pos = start + std::int64_t{lane} * k;
          if (pos + k > total) break;
          const Cell first{static_cast<int>(pos / t.cols), static_cast<int>(pos % t.cols)};
          if (!place(lane, first)) return Error{std::move(broken)};
        }
        visit(access);
      }
      break;
    case AccessPattern::column:
      for (int r0 = 0; r0 < row_limit; r0 += kWarpSize) {
        for (int c = 0; c < t.cols; c += k) {
          access.offsets.fill(kInactiveLane);
          for (int lane = 0; lane < kWarpSize && r0 + lane < t.rows; ++lane) {
            if (!place(lane, {r0 + lane, c})) return Error{std::move(broken)};
          }
          visit(access);
        }
      }
      break;
    case AccessPattern::matrix: {
      const int m = matrix_count(f.op);
      const int chunks = t.cols * e / 16;
      for (int r0 = 0; r0 < row_limit; r0 += 8) {
        for (int n = 0; n < chunks; n += m) {
          access.offsets.fill(kInactiveLane);
          for (int lane = 0; lane < 8 * m; ++lane) {
            const Cell first{r0 + lane % 8, (n + lane / 8) * 16 / e};
            if (!place(lane, first)) return Error{std::move(broken)};
          }
          visit(access);
        }
      }
      break;
    }
    case AccessPattern::raw:
      break;
  }
  return {};
}

// One count per distinct pattern, shifted to start in word 0 (see solve.hpp: a shift by whole
// words rotates the banks and keeps every count).
class PatternCounter {
 public:
  struct Count {
    int wavefronts = 0;
    int ideal = 0;
    int ways = 0;
  };

  Count operator()(const WarpAccess& a) {
    std::int64_t low = INT64_MAX;
    for (std::int64_t o : a.offsets)
      if (o != kInactiveLane) low = std::min(low, o);
    Key key;
    key.op_width = static_cast<int>(a.op) * 32 + a.width;
    const std::int64_t shift = low == INT64_MAX ? 0 : low / kBankWidthBytes * kBankWidthBytes;
    for (std::size_t l = 0; l < kWarpSize; ++l) {  // offsets inside 228 KB fit 32 bits
      key.offsets[l] = static_cast<std::int32_t>(
          a.offsets[l] == kInactiveLane ? kInactiveLane : a.offsets[l] - shift);
    }
    auto [it, inserted] = memo_.try_emplace(key);
    if (inserted) {
      WarpAccess shifted = a;
      for (std::size_t l = 0; l < kWarpSize; ++l) shifted.offsets[l] = key.offsets[l];
      const Analysis an = analyze(shifted);
      it->second = {an.wavefront_count(), an.ideal_wavefronts, an.max_ways};
      ++analyses_;
    }
    return it->second;
  }
  int analyses() const { return analyses_; }

 private:
  struct Key {
    std::array<std::int32_t, kWarpSize> offsets{};
    int op_width = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct Hash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(k.op_width);
      for (std::size_t l = 0; l < kWarpSize; l += 2) {  // two lanes per step
        const std::uint64_t pair = static_cast<std::uint32_t>(k.offsets[l]) |
                                   std::uint64_t{static_cast<std::uint32_t>(k.offsets[l + 1])}
                                       << 32;
        h = (h ^ pair) * 1099511628211ull;
      }
      return static_cast<std::size_t>(h);
    }
  };
  std::unordered_map<Key, Count, Hash> memo_;
  int analyses_ = 0;
};

// A family's count, or the rule it breaks under the layout.
struct Outcome {
  FamilyCount count;
  Expected<void> legal;  // or the rule the family breaks
};

// The rows after which the layout repeats itself shifted: the smallest power of two P dividing
// R with byte(r + P, c) = byte(r, c) + P * pitch for every element (R when there is none).
int row_period(const TileLayout& t, const std::vector<std::int32_t>& map) {
  const std::size_t cols = static_cast<std::size_t>(t.cols);
  for (int p = 1; p < t.rows; p *= 2) {
    if (t.rows % p != 0) break;
    const std::int64_t shift = p * t.pitch_bytes();
    const std::size_t n = static_cast<std::size_t>(t.rows - p) * cols;
    const std::size_t step = static_cast<std::size_t>(p) * cols;
    bool periodic = true;
    for (std::size_t i = 0; i < n && periodic; ++i) periodic = map[i + step] == map[i] + shift;
    if (periodic) return p;
  }
  return t.rows;
}

// The rows of one block of instructions: 32 for column reads, 8 for the matrix ops, and for the
// row walk the rows after which instructions start at column 0 again.
int instruction_block_rows(const TileLayout& t, const AccessFamily& f) {
  switch (f.pattern) {
    case AccessPattern::column:
      return kWarpSize;
    case AccessPattern::matrix:
      return 8;
    default: {
      const std::int64_t per =
          std::int64_t{kWarpSize} * (f.effective_width(t.dtype) / t.elem_bytes());
      return static_cast<int>(per / std::gcd(per, std::int64_t{t.cols}));
    }
  }
}

// Counts the family. When the layout repeats every P rows shifted by P * pitch bytes (a
// multiple of 16, so alignment, words and banks all shift together), the instructions of rows
// [T, 2T) are those of [0, T) shifted, T = lcm(P, block rows): the first T rows are counted and
// multiplied by R / T, which is exact. Otherwise every instruction is counted.
Outcome count_family(const TileLayout& t, const std::vector<std::int32_t>& map, int period,
                     const AccessFamily& f, PatternCounter& counter) {
  Outcome out;
  out.count.family = f;
  const auto byte_of = [&map, cols = std::size_t(t.cols)](int r, int c) {
    return std::int64_t{map[std::size_t(r) * cols + std::size_t(c)]};
  };
  const int block = instruction_block_rows(t, f);
  const std::int64_t span = std::lcm(std::int64_t{period}, std::int64_t{block});
  const bool repeats = span < t.rows && t.rows % span == 0 && span * t.pitch_bytes() % 16 == 0;
  const int rows = repeats ? static_cast<int>(span) : t.rows;
  const int times = t.rows / rows;
  out.legal = for_each_access(t, byte_of, f, rows, &out.count.permuted, [&](const WarpAccess& a) {
    const PatternCounter::Count c = counter(a);
    out.count.instructions += times;
    out.count.wavefronts += c.wavefronts * times;
    out.count.ideal += c.ideal * times;
    out.count.worst_ways = std::max(out.count.worst_ways, c.ways);
  });
  return out;
}

// [SECTION] Reasons

std::string percent(std::int64_t part, std::int64_t whole) {
  return format("%.1f %%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

// "pad 1", "xor", "tma128", "cute:3,4,3 + pad 2": what a reason starts with.
std::string short_name(const TileLayout& t) {
  if (t.swizzle.kind == SwizzleKind::none)
    return t.pad == 0 ? "no pad" : "pad " + std::to_string(t.pad);
  std::string name = to_string(t.swizzle);
  if (t.pad != 0) name += " + pad " + std::to_string(t.pad);
  return name;
}

std::string family_reason(const FamilyCount& c, DType dtype) {
  const std::string label = family_label(c.family, dtype);
  std::string text = c.wavefronts == c.ideal
                         ? "conflict-free " + label
                         : label + " " + std::to_string(c.worst_ways) +
                               "-way at worst: " + std::to_string(c.wavefronts) +
                               " wavefronts against " + std::to_string(c.ideal);
  if (c.permuted)
    text += " (each lane's elements land permuted in its block: reorder them in registers)";
  return text;
}

std::string overhead_reason(const TileLayout& t) {
  const std::int64_t over = t.overhead_bytes();
  const std::int64_t data = t.size_bytes() - over;
  if (over == 0) return "no bytes wasted";
  if (t.pitch_bytes() > t.row_bytes()) {
    return std::to_string(over) + " B of gap (" + percent(over, data) +
           "): " + std::to_string(t.row_bytes()) + "-byte box rows at " +
           std::to_string(t.pitch_bytes()) + "-byte pitch";
  }
  return std::to_string(over) + " B of padding (" + percent(over, data) +
         "): " + std::to_string(t.pitch_bytes()) + "-byte rows";
}

// [SECTION] The search

// Simplicity: the kind's rank, and last the layouts that make registers reorder elements.
int simplicity_of(const TileLayout& t) {
  if (t.swizzle.kind == SwizzleKind::none) return t.pad == 0 ? 0 : 1;
  return swizzle_kind(t.swizzle.kind).simplicity;
}

// The search space, simplest first, so that the first layout of each placement names it.
// `named` marks the layouts a user would name (pads, xor, TMA): when the tile refuses one, it
// is listed as rejected; the CuTe and Triton sweeps are only counted.
struct Trial {
  TileLayout layout;
  bool named = false;
};

std::vector<Trial> search_space(const SolveRequest& q) {
  const int e = dtype_bytes(q.dtype);
  std::vector<Trial> out;
  auto add = [&](int pad, SwizzleSpec sw, bool named) {
    out.push_back({TileLayout{q.dtype, q.rows, q.cols, pad, sw}, named});
  };
  // Pads beyond 128 B of row repeat the banks of a smaller pad at a higher cost.
  for (int pad = 0; pad < 128 / e; ++pad) add(pad, {}, true);
  // Every kind's own sweep (its descriptor's), the simplest kinds first: xor, the TMA modes,
  // CuTe, Triton.
  std::vector<const SwizzleKindInfo*> kinds;
  for (const SwizzleKindInfo& k : swizzle_kinds()) kinds.push_back(&k);
  // Iterator algorithms, not std::ranges ones: the browser's libc++ has none of the latter.
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const SwizzleKindInfo* a, const SwizzleKindInfo* b) {
                     return a->simplicity < b->simplicity;
                   });
  const std::int64_t tile_bytes = std::int64_t{q.rows} * q.cols * e;
  std::vector<SwizzleSpec> swept;
  for (const SwizzleKindInfo* k : kinds) {
    swept.clear();
    k->sweep(*k, e, tile_bytes, swept);
    for (const SwizzleSpec& sw : swept) add(0, sw, k->named_in_sweep);
  }
  return out;
}

// Where every element goes, folded into one number, and whether each has its own slot.
std::uint64_t placement_hash(const TileLayout& t, const std::vector<std::int32_t>& map,
                             bool* bijective) {
  const int e = t.elem_bytes();
  std::vector<std::uint8_t> used(static_cast<std::size_t>(t.size_bytes() / e), 0);
  std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(t.size_bytes());
  *bijective = true;
  for (const std::int32_t byte : map) {
    h = (h ^ static_cast<std::uint64_t>(byte)) * 1099511628211ull;
    const std::size_t slot = static_cast<std::size_t>(byte / e);
    if (byte < 0 || byte % e != 0 || slot >= used.size() || used[slot]) {
      *bijective = false;
    } else {
      used[slot] = 1;
    }
  }
  return h;
}

// Counts every family under t; returns the candidate, or why it is rejected: the rule broken
// and what the other families would have given.
Expected<Candidate> judge_candidate(const TileLayout& t, const std::vector<std::int32_t>& map,
                                    const std::vector<AccessFamily>& families,
                                    PatternCounter& counter) {
  Candidate c;
  c.layout = t;
  c.overhead_bytes = t.overhead_bytes();
  c.simplicity = simplicity_of(t);
  std::vector<std::string> good;
  std::string broken;
  const int period = row_period(t, map);
  for (const AccessFamily& f : families) {
    Outcome o = count_family(t, map, period, f, counter);
    if (!o.legal) {
      if (broken.empty()) broken = o.legal.error();
      continue;
    }
    good.push_back(family_reason(o.count, t.dtype));
    c.total_wavefronts += o.count.wavefronts;
    c.total_ideal += o.count.ideal;
    c.simplicity += o.count.permuted ? 10 : 0;
    c.families.push_back(o.count);
  }
  if (!broken.empty()) {
    std::string text = short_name(t) + ": ";
    for (std::size_t i = 0; i < good.size(); ++i) text += (i ? ", " : "") + good[i];
    return Error{text + (good.empty() ? "" : ", but ") + broken};
  }
  c.reasons = std::move(good);
  c.reasons.push_back(overhead_reason(t));
  return c;
}

}  // namespace

// [SECTION] The public functions

Expected<std::vector<WarpAccess>> family_accesses(const TileLayout& t, const AccessFamily& f,
                                                  bool* permuted) {
  std::vector<WarpAccess> out;
  const auto byte_of = [&t](int r, int c) { return t(r, c); };
  const Expected<void> legal = for_each_access(t, byte_of, f, t.rows, permuted,
                                               [&](const WarpAccess& a) { out.push_back(a); });
  if (!legal) return Error{legal.error()};
  return out;
}

Expected<Candidate> evaluate_candidate(const TileLayout& t,
                                       const std::vector<AccessFamily>& families) {
  if (Expected<void> valid = t.check(); !valid) return Error{valid.error()};
  for (const AccessFamily& f : families) {
    if (Expected<void> fits = check_family(f, t.dtype, t.rows, t.cols); !fits)
      return Error{fits.error()};
  }
  PatternCounter counter;
  const std::vector<std::int32_t> map = byte_map(t);
  Expected<Candidate> c = judge_candidate(t, map, families, counter);
  if (!c) return c;
  placement_hash(t, map, &c->bijective);
  c->spellings = spellings(t);
  return c;
}

Expected<SolveResult> solve(const SolveRequest& q) {
  if (q.families.size() < 2) {
    return Error{
        "solve needs two or more access families (how the tile is written and how it "
        "is read); got " +
        std::to_string(q.families.size())};
  }
  const TileLayout plain{q.dtype, q.rows, q.cols, 0, {}};
  if (Expected<void> valid = plain.check(); !valid) return Error{valid.error()};
  for (const AccessFamily& f : q.families) {
    if (Expected<void> fits = check_family(f, q.dtype, q.rows, q.cols); !fits)
      return Error{fits.error()};
  }
  SolveResult result;
  PatternCounter counter;
  struct Seen {
    std::uint64_t hash;
    TileLayout layout;
    std::size_t candidate;  // index into result.candidates, or SIZE_MAX when rejected
  };
  std::vector<Seen> seen;
  for (const Trial& trial : search_space(q)) {
    const TileLayout& t = trial.layout;
    ++result.layouts_tried;
    if (const Expected<void> valid = t.check(); !valid) {
      if (trial.named)
        result.rejected.push_back({t, short_name(t) + ": " + valid.error()});
      else
        ++result.invalid_skipped;
      continue;
    }
    if (q.max_overhead_bytes && t.overhead_bytes() > *q.max_overhead_bytes) {
      result.rejected.push_back({t, short_name(t) + ": " + overhead_reason(t) +
                                        ", over --max-overhead " +
                                        std::to_string(*q.max_overhead_bytes) + " B"});
      continue;
    }
    const std::vector<std::int32_t> map = byte_map(t);
    bool bijective = false;
    const std::uint64_t h = placement_hash(t, map, &bijective);
    auto same = std::find_if(seen.begin(), seen.end(), [&](const Seen& s) {
      return s.hash == h && s.layout.size_bytes() == t.size_bytes() && byte_map(s.layout) == map;
    });
    if (same != seen.end()) {
      if (same->candidate != SIZE_MAX) {
        Candidate& c = result.candidates[same->candidate];
        const Spelling sp = spelling(t);
        const bool known =
            std::any_of(c.spellings.begin(), c.spellings.end(),
                        [&](const Spelling& o) { return o.notation == sp.notation; });
        if (!known) c.spellings.push_back(sp);
      }
      continue;
    }
    if (!bijective) {  // check() promises a bijection; say so if it ever does not hold
      result.rejected.push_back(
          {t, short_name(t) + ": two elements share a slot (not a bijection)"});
      continue;
    }
    Expected<Candidate> c = judge_candidate(t, map, q.families, counter);
    if (!c) {
      seen.push_back({h, t, SIZE_MAX});
      result.rejected.push_back({t, c.error()});
      continue;
    }
    c->bijective = true;
    c->spellings = {spelling(t)};
    seen.push_back({h, t, result.candidates.size()});
    result.candidates.push_back(std::move(*c));
  }
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     if (a.excess() != b.excess()) return a.excess() < b.excess();
                     if (a.overhead_bytes != b.overhead_bytes)
                       return a.overhead_bytes < b.overhead_bytes;
                     return a.simplicity < b.simplicity;
                   });
  // Each candidate in every notation that can express it (verified element by element), with
  // any other spelling the search met for the same placement.
  for (Candidate& c : result.candidates) {
    std::vector<Spelling> all = spellings(c.layout);
    for (Spelling& s : c.spellings) {
      const bool known = std::any_of(all.begin(), all.end(),
                                     [&](const Spelling& o) { return o.notation == s.notation; });
      if (!known) all.push_back(std::move(s));
    }
    c.spellings = std::move(all);
  }
  result.analyses = counter.analyses();
  return result;
}

}  // namespace banklab
