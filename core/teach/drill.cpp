// Drills: the names, reading and checking answers, the rubric and the JSON form of a question.
// The questions themselves are drawn in drill_generate.cpp.
//
//   1. splitmix64, and the names of levels, asks and mistakes (with the lesson's words)
//   2. fixes as flags, and a scenario as analyze's flags
//   3. the mistakes a wrong number matches (classify_number)
//   4. the reversal arithmetic, checking a fix, the mistakes a wrong fix matches
//   5. grading a number, a judgement, a fix; the rubric; the session; the JSON
#include "core/teach/drill.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/base/format.hpp"
#include "core/base/json_writer.hpp"
#include "core/teach/drill_internal.hpp"

namespace banklab {

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

std::string_view ask_name(AskKind k) {
  switch (k) {
    case AskKind::wavefronts:
      return "wavefronts";
    case AskKind::ways:
      return "ways";
    case AskKind::bank:
      return "bank";
    case AskKind::fix:
      return "fix";
    case AskKind::worth:
      return "worth";
  }
  return "wavefronts";
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
      return "A bf16 pad of one leaves odd rows on 2-byte boundaries, so packed bf16x2 stores into "
             "them are misaligned: pad by two.";
    case Mistake::hidden_behind_hbm:
      return "A moderate conflict hides behind HBM: shared memory still outruns DRAM, so fixing "
             "it does not move end-to-end time. Measure first.";
    case Mistake::deep_conflict_ignored:
      return "A conflict this deep drops shared memory below HBM and becomes the bottleneck: "
             "fix it, then measure.";
    case Mistake::pad_breaks_alignment:
      return "Vector and TMA stores need 16-byte-aligned rows; a pad that breaks that alignment "
             "cannot be used. Swizzle instead.";
    case Mistake::aligned_pad_conflicts:
      return "The pad that keeps rows 16-byte aligned makes the stride a multiple of 4 words, so "
             "a column still lands in only 8 banks: swizzle instead.";
    case Mistake::padded_tensor_core_tile:
      return "TMA writes and WGMMA reads swizzled layouts, so a padded tile cannot feed them: "
             "padding is for hand-written scalar code, swizzling for tensor-core pipelines.";
    case Mistake::fix_misses_other_indices:
      return "A fix has to hold for every column the loop reads, not just the one in front of "
             "you (bf16 tile[32][33] is conflict-free on even columns only).";
    case Mistake::conflicts_for_wavefronts:
      return "Bank conflicts are wavefronts beyond the ideal (what Nsight Compute reports); the "
             "instruction takes the ideal plus the conflicts.";
    case Mistake::ways_for_wavefronts:
      return "An n-way conflict is the cost of one phase; wider accesses split the warp into "
             "phases, and the wavefronts add up over them.";
  }
  return "";
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

std::optional<int> whole_number(std::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::string> fix_flags(const Fix& f) {
  std::vector<std::string> flags;
  if (f.pad) {
    flags.push_back("--pad");
    flags.push_back(std::to_string(*f.pad));
  }
  if (f.swizzle) {
    flags.push_back("--swizzle");
    flags.push_back(to_string(*f.swizzle));
  }
  return flags;
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

Scenario apply_fix(Scenario s, const Fix& f) {
  if (f.pad) s.tile.pad = *f.pad;
  if (f.swizzle) s.tile.swizzle = *f.swizzle;
  return s;
}

std::vector<std::string> analyze_flags(const Scenario& s) {
  std::vector<std::string> flags;
  auto add = [&](std::string name, std::string value) {
    flags.push_back(std::move(name));
    flags.push_back(std::move(value));
  };
  const std::string mask = lane_mask_hex(s.lane_mask);
  if (s.pattern == AccessPattern::custom) {
    std::string offsets;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (lane) offsets += ',';
      offsets += std::to_string(s.custom_offsets[lane]);
    }
    add("--op", std::string(op_name(s.op)));
    add("--width", std::to_string(s.effective_width()));
    add("--offsets", offsets);
    if (s.lane_mask != 0xFFFFFFFFu) add("--lanes", mask);
    return flags;
  }
  add("--dtype", std::string(dtype_name(s.tile.dtype)));
  add("--tile", std::to_string(s.tile.rows) + "x" + std::to_string(s.tile.cols));
  add("--pad", std::to_string(s.tile.pad));
  if (s.tile.swizzle.kind != SwizzleKind::none) add("--swizzle", to_string(s.tile.swizzle));
  add("--access",
      std::string(s.pattern == AccessPattern::matrix ? op_name(s.op) : pattern_name(s.pattern)));
  add("--index", std::to_string(s.index));
  if (s.pattern != AccessPattern::matrix) {
    add("--op", std::string(op_name(s.op)));
    add("--width", std::to_string(s.effective_width()));
  }
  if (s.lane_mask != 0xFFFFFFFFu) add("--lanes", mask);
  return flags;
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
    case AccessPattern::custom:
      break;
  }
  for (int i = 0; i < count; ++i) out.push_back(i);
  return out;
}

namespace {

// Per phase, the lanes (not the distinct words) in the busiest bank: what one counts when lanes
// on the same word are taken for a conflict. {sum over phases, worst phase}.
std::pair<int, int> lanes_per_bank(const Analysis& a) {
  int total = 0, worst = 0;
  for (const Phase& p : a.phases) {
    std::array<int, kBankCount> n{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!(p.active_lanes >> lane & 1u)) continue;
      const LaneRecord& l = a.lanes[lane];
      for (int k = 0; k < l.word_count; ++k) ++n[l.banks[k]];
    }
    const int cost = *std::max_element(n.begin(), n.end());
    total += cost;
    worst = std::max(worst, cost);
  }
  return {total, worst};
}

// The same access with every element taken for its own 4-byte word (element i in bank i mod
// 32): only for one sub-word element per lane, where the mistake changes the count.
std::optional<Analysis> element_index_analysis(const Question& q, const Analysis& a) {
  const Scenario& s = q.scenario;
  if (s.pattern == AccessPattern::custom || s.tile.elem_bytes() >= 4 ||
      s.effective_width() != s.tile.elem_bytes()) {
    return std::nullopt;
  }
  WarpAccess alt = a.access;
  alt.width = 4;
  for (std::int64_t& o : alt.offsets)
    if (o != kInactiveLane) o = o / s.tile.elem_bytes() * 4;
  return analyze(alt);
}

}  // namespace

Mistake classify_number(const Question& q, const Analysis& a, int value) {
  std::vector<std::pair<Mistake, int>> candidates;
  const std::optional<Analysis> element = element_index_analysis(q, a);
  const auto [lanes_total, lanes_worst] = lanes_per_bank(a);
  switch (q.kind) {
    case AskKind::bank: {
      const LaneRecord& l = a.lanes[q.lane];
      if (q.scenario.pattern != AccessPattern::custom)
        candidates.push_back(
            {Mistake::element_index_banks,
             static_cast<int>(l.byte / q.scenario.tile.elem_bytes() % kBankCount)});
      break;
    }
    case AskKind::wavefronts:
      if (element) candidates.push_back({Mistake::element_index_banks, element->wavefront_count()});
      candidates.push_back({Mistake::broadcast_counted, lanes_total});
      if (a.ideal_wavefronts > 1) candidates.push_back({Mistake::ways_for_wavefronts, a.max_ways});
      candidates.push_back({Mistake::conflicts_for_wavefronts, a.bank_conflicts()});
      break;
    case AskKind::ways:
      if (element) candidates.push_back({Mistake::element_index_banks, element->max_ways});
      candidates.push_back({Mistake::broadcast_counted, lanes_worst});
      if (a.ideal_wavefronts > 1)
        candidates.push_back({Mistake::ways_for_wavefronts, a.wavefront_count()});
      break;
    case AskKind::fix:
    case AskKind::worth:
      break;
  }
  if (value == q.answer) return Mistake::none;
  for (const auto& [mistake, v] : candidates)
    if (v == value) return mistake;
  return Mistake::none;
}

}  // namespace drill_detail
}  // namespace banklab

namespace banklab {

namespace {

std::string index_name(const Scenario& s) {
  switch (s.pattern) {
    case AccessPattern::row:
      return "row";
    case AccessPattern::column:
      return "column";
    case AccessPattern::matrix:
      return "chunk";
    case AccessPattern::custom:
      break;
  }
  return "index";
}

// "a 16-way", "an 8-way", "an 11-way", "an 18-way".
std::string article(int n) {
  const std::string digits = std::to_string(n);
  return digits[0] == '8' || n == 11 || n == 18 ? "an " : "a ";
}

std::string wavefronts_text(const Analysis& a) {
  return std::to_string(a.wavefront_count()) +
         (a.wavefront_count() == 1 ? " wavefront" : " wavefronts") + " (ideal " +
         std::to_string(a.ideal_wavefronts) + ")";
}

}  // namespace

std::string drill_detail::tbps(double v) {
  return format("%.2f TB/s", v);
}

Reversal reversal(const Analysis& a) {
  Reversal r;
  r.hbm_tbps = kLessonHbmTbps;
  const double full = kLessonSharedTbps;
  r.shared_tbps = a.wavefront_count() == 0 ? full : full * a.ideal_wavefronts / a.wavefront_count();
  return r;
}

FixCheck check_fix(const Question& q, const Fix& f) {
  FixCheck c;
  c.fixed = apply_fix(q.scenario, f);
  auto fail = [&](std::string why) {
    if (c.why.empty()) c.why = std::move(why);
  };
  const bool pad_changed = f.pad && *f.pad != q.scenario.tile.pad;
  const bool swizzle_changed = f.swizzle && *f.swizzle != q.scenario.tile.swizzle;
  c.allowed = !(q.choice == FixChoice::swizzle_only && pad_changed) &&
              !(q.choice == FixChoice::pad_only && swizzle_changed);
  if (!c.allowed) {
    fail(q.choice == FixChoice::swizzle_only
             ? "this tile is written by TMA and read by WGMMA, so its rows cannot be padded"
             : "this question asks for a pad (--pad P), not a swizzle");
  }
  // A broken store is reported before a slow read: the one cannot run, the other only costs.
  c.keep_ok = true;
  for (const Scenario& kept : q.keep) {
    for (int index : drill_detail::pattern_indices(kept)) {
      Scenario s = apply_fix(kept, f);
      s.index = index;
      const Evaluation e = evaluate(s);
      if (e.ok()) continue;
      fail("the tile is also filled by " + describe(s) +
           ", which the fix breaks: " + first_error(e.diagnostics));
      c.keep_ok = false;
      break;
    }
  }
  const Evaluation asked = evaluate(c.fixed);
  c.asked_index_ok = asked.ok() && asked.analysis->bank_conflicts() == 0;
  c.all_indices_ok = true;
  for (int index : drill_detail::pattern_indices(c.fixed)) {
    Scenario s = c.fixed;
    s.index = index;
    const Evaluation e = evaluate(s);
    if (!e.ok()) {
      fail(describe(s) + ": " + first_error(e.diagnostics));
    } else if (e.analysis->bank_conflicts() > 0) {
      fail(describe(s) + " still takes " + wavefronts_text(*e.analysis) + ", " +
           article(e.analysis->max_ways) + std::to_string(e.analysis->max_ways) + "-way conflict");
    } else {
      continue;
    }
    c.all_indices_ok = false;
    break;
  }
  c.works = c.allowed && c.all_indices_ok && c.keep_ok;
  return c;
}

namespace drill_detail {

Mistake classify_fix(const Question& q, const Fix& f, const FixCheck& c) {
  if (c.works) return Mistake::none;
  const bool pad_changed = f.pad && *f.pad != q.scenario.tile.pad;
  if (!c.allowed && q.choice == FixChoice::swizzle_only && pad_changed)
    return Mistake::padded_tensor_core_tile;
  if (!c.keep_ok && pad_changed) {
    return q.scenario.tile.dtype == DType::bf16 && *f.pad % 2 == 1 ? Mistake::bf16_pad_one_packed
                                                                   : Mistake::pad_breaks_alignment;
  }
  const bool keeps_16_bytes =
      std::ranges::any_of(q.keep, [](const Scenario& k) { return k.effective_width() == 16; });
  if (c.allowed && c.keep_ok && f.pad && !f.swizzle && keeps_16_bytes && !c.all_indices_ok)
    return Mistake::aligned_pad_conflicts;
  if (c.allowed && c.keep_ok && c.asked_index_ok && !c.all_indices_ok)
    return Mistake::fix_misses_other_indices;
  return Mistake::none;
}

}  // namespace drill_detail

namespace {

Grade grade_number(const Question& q, std::string_view text) {
  Grade g;
  const std::optional<int> value = whole_number(text);
  if (!value) {
    g.verdict = quote(text) + " is not a whole number";
    return g;
  }
  g.read = true;
  const Evaluation e = evaluate(q.scenario);  // the generator asks about legal scenarios only
  const Analysis& a = *e.analysis;
  g.right = *value == q.answer;
  g.mistake = drill_detail::classify_number(q, a, *value);
  std::string fact;
  switch (q.kind) {
    case AskKind::wavefronts:
      fact = "it takes " + wavefronts_text(a);
      break;
    case AskKind::ways:
      fact = a.max_ways == 1 ? "it is conflict-free, 1-way"
                             : "it is " + article(a.max_ways) + std::to_string(a.max_ways) +
                                   "-way conflict in its worst phase";
      break;
    default: {
      const LaneRecord& l = a.lanes[q.lane];
      fact = "lane " + std::to_string(q.lane) + "'s first word is word " +
             std::to_string(l.words[0]) + ", in bank " + std::to_string(l.banks[0]);
      std::string chain = "lane " + std::to_string(q.lane) + ": ";
      if (const LaneElements& el = e.elements[q.lane]; el.count > 0) {
        chain += "element (" + std::to_string(el.first.row) + ", " + std::to_string(el.first.col) +
                 ") -> ";
      }
      chain += "byte " + std::to_string(l.byte) + " -> word " + std::to_string(l.byte) +
               " / 4 = " + std::to_string(l.words[0]) + " -> bank " + std::to_string(l.words[0]) +
               " mod 32 = " + std::to_string(l.banks[0]);
      g.details.push_back(chain);
    }
  }
  g.verdict = g.right ? "Right: " + fact + "."
                      : "Wrong: you said " + std::to_string(*value) + "; " + fact + ".";
  g.shown = q.scenario;
  return g;
}

std::optional<bool> yes_or_no(std::string_view text) {
  std::string t(text);
  for (char& ch : t) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  for (std::string_view yes : {"yes", "y", "1", "fix"})
    if (t == yes) return true;
  for (std::string_view no : {"no", "n", "0", "leave"})
    if (t == no) return false;
  return std::nullopt;
}

Grade grade_worth(const Question& q, std::string_view text) {
  Grade g;
  const std::optional<bool> fix = yes_or_no(text);
  if (!fix) {
    g.verdict = quote(text) + " is neither yes (fix it) nor no (leave it)";
    return g;
  }
  g.read = true;
  const Evaluation e = evaluate(q.scenario);
  const Reversal r = reversal(*e.analysis);
  g.right = *fix == (q.answer == 1);
  if (!g.right) g.mistake = *fix ? Mistake::hidden_behind_hbm : Mistake::deep_conflict_ignored;
  const std::string fact = r.worth_fixing() ? "fix it: shared memory drops below HBM"
                                            : "leave it: shared memory stays above HBM";
  g.verdict = (g.right ? "Right: " : "Wrong: ") + fact + ".";
  const Analysis& a = *e.analysis;
  g.details.push_back("shared memory, whole GPU: " + std::to_string(kLessonSms) + " SMs x " +
                      std::to_string(kWavefrontBytes) + " B per clock x " +
                      std::string(kLessonClockText) + " x " + std::to_string(a.ideal_wavefronts) +
                      "/" + std::to_string(a.wavefront_count()) +
                      " (ideal over wavefronts) = " + drill_detail::tbps(r.shared_tbps));
  g.details.push_back("HBM3, H100 SXM: " + drill_detail::tbps(r.hbm_tbps) + " -> " +
                      (r.worth_fixing() ? "shared memory is the bottleneck"
                                        : "HBM is the bottleneck; measure before fixing"));
  g.shown = q.scenario;
  return g;
}

Grade grade_fix(const Question& q, std::string_view text) {
  Grade g;
  const Expected<Fix> f = parse_fix(text);
  if (!f) {
    g.verdict = f.error();
    return g;
  }
  g.read = true;
  const FixCheck c = check_fix(q, *f);
  std::string flags;
  for (const std::string& w : fix_flags(*f)) flags += (flags.empty() ? "" : " ") + w;
  g.right = c.works;
  g.mistake = drill_detail::classify_fix(q, *f, c);
  if (g.right) {
    g.verdict = "Right: with " + flags + " every " + index_name(q.scenario) + " is conflict-free" +
                (q.keep.empty() ? "" : " and the stores that fill the tile stay legal") + ".";
    g.shown = c.fixed;
  } else {
    g.verdict = "Wrong: with " + flags + ", " + c.why + ".";
    std::string key;
    for (const std::string& w : fix_flags(q.fix)) key += (key.empty() ? "" : " ") + w;
    g.details.push_back("one fix that works: " + key);
    g.shown = apply_fix(q.scenario, q.fix);
  }
  return g;
}

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

}  // namespace

Grade grade(const Question& q, std::string_view answer) {
  const std::string_view text = trim(answer);
  if (text.empty()) {
    Grade g;
    g.verdict = "no answer given";
    return g;
  }
  switch (q.kind) {
    case AskKind::fix:
      return grade_fix(q, text);
    case AskKind::worth:
      return grade_worth(q, text);
    default:
      return grade_number(q, text);
  }
}

Placement place(DrillLevel level, int right, int total) {
  const bool passed = total > 0 && right * 5 >= total * 4;
  Placement p;
  p.band = passed || level == DrillLevel::weak
               ? level
               : static_cast<DrillLevel>(static_cast<int>(level) - 1);
  const std::string score = std::to_string(right) + "/" + std::to_string(total);
  p.text = std::string(rubric_band(p.band)) + ": " + score + " at the " +
           std::string(level_name(level)) + " level" +
           (passed ? ", at least 80% right"
                   : ", under the 80% that places you at " + std::string(rubric_band(level))) +
           ". The rubric's " + std::string(rubric_band(p.band)) + ": " +
           std::string(rubric_text(p.band));
  if (passed && level != DrillLevel::strong_hire) {
    p.text += " Next: --level " +
              std::string(level_name(static_cast<DrillLevel>(static_cast<int>(level) + 1))) + ".";
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
      .field("index", q.index);
  strings("args", analyze_flags(q.scenario));
  if (q.kind == AskKind::bank) w.field("lane", q.lane);
  w.field("question", q.text);
  switch (q.kind) {
    case AskKind::fix:
      strings("answer", fix_flags(q.fix));
      break;
    case AskKind::worth:
      w.field("answer", q.answer == 1);
      break;
    default:
      w.field("answer", q.answer);
  }
  if (q.kind == AskKind::fix) {
    w.field("choice", q.choice == FixChoice::pad_only       ? "pad"
                      : q.choice == FixChoice::swizzle_only ? "swizzle"
                                                            : "pad-or-swizzle");
    w.key("keep").begin_array();
    for (const Scenario& k : q.keep) strings("", analyze_flags(k));
    w.end_array();
  }
  if (q.target != Mistake::none) w.field("target", mistake_name(q.target));
  w.end_object();
}

}  // namespace banklab
