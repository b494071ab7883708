// Drills: grading an answer, and naming the mistake a wrong one matches. The questions are drawn
// in drill_generate.cpp; names, fixes, the rubric and the session live in drill.cpp.
//
//   1. the recognisers of a wrong number: element indices, broadcasts at any phase, 16 banks
//      and half-warps, global memory's sectors, conflicts or n-way for wavefronts
//   2. the mistakes a wrong fix matches
//   3. grading a number, a judgement, a fix, a choice, a design; grade()
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "core/base/format.hpp"
#include "core/teach/drill.hpp"
#include "core/teach/drill_internal.hpp"

namespace banklab::drill_detail {

namespace {

// --- 1. the recognisers of a wrong number --------------------------------------------------

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

// The same mistake seen over the whole warp, phases ignored: the most lanes on one address, and
// the most lanes in one bank ("16 lanes share each address, so 16").
std::pair<int, int> lanes_per_address_and_bank(const Analysis& a) {
  std::map<std::int64_t, int> per_address;
  std::array<int, kBankCount> per_bank{};
  for (const LaneRecord& l : a.lanes) {
    if (!l.active) continue;
    ++per_address[l.byte];
    for (int k = 0; k < l.word_count; ++k) ++per_bank[l.banks[k]];
  }
  int address = 0;
  for (const auto& [byte, n] : per_address) address = std::max(address, n);
  return {address, *std::max_element(per_bank.begin(), per_bank.end())};
}

// The same access with every element taken for its own 4-byte word (element i in bank i mod
// 32): only for one sub-word element per lane, where the mistake changes the count.
std::optional<Analysis> element_index_analysis(const Question& q, const Analysis& a) {
  const Scenario& s = q.scenario;
  if (s.pattern == AccessPattern::raw || s.tile.elem_bytes() >= 4 ||
      s.effective_width() != s.tile.elem_bytes()) {
    return std::nullopt;
  }
  WarpAccess alt = a.access;
  alt.width = 4;
  for (std::int64_t& o : alt.offsets)
    if (o != kInactiveLane) o = o / s.tile.elem_bytes() * 4;
  return analyze(alt);
}

// The count of the first CUDA GPUs (compute capability 1.x), still in old course notes: 16 banks
// and a warp served as two half-warps, each costing its busiest bank's distinct words.
// {wavefronts = the sum over the half-warps, ways = the worse half}.
std::pair<int, int> sixteen_bank_count(const Analysis& a) {
  constexpr int kOldBanks = 16;
  int total = 0, worst = 0;
  for (int half = 0; half < 2; ++half) {
    std::array<std::set<std::int64_t>, kOldBanks> words;
    for (int lane = half * 16; lane < half * 16 + 16; ++lane) {
      const LaneRecord& l = a.lanes[lane];
      if (!l.active) continue;
      for (int k = 0; k < l.word_count; ++k) words[l.words[k] % kOldBanks].insert(l.words[k]);
    }
    std::size_t cost = 0;
    for (const auto& w : words) cost = std::max(cost, w.size());
    total += static_cast<int>(cost);
    worst = std::max(worst, static_cast<int>(cost));
  }
  return {total, worst};
}

// Global memory's rule applied to shared memory: one transaction per distinct 32-byte sector,
// so a strided column "is uncoalesced, 32". Shared memory has no sectors.
int global_sectors(const Analysis& a) {
  std::set<std::int64_t> sectors;
  for (const LaneRecord& l : a.lanes)
    if (l.active) sectors.insert(l.byte / 32);
  return static_cast<int>(sectors.size());
}

}  // namespace

Mistake classify_number(const Question& q, const Analysis& a, int value) {
  if (value == q.answer) return Mistake::none;
  std::vector<std::pair<Mistake, int>> candidates;
  const std::optional<Analysis> element = element_index_analysis(q, a);
  const auto [lanes_total, lanes_worst] = lanes_per_bank(a);
  const auto [per_address, per_bank] = lanes_per_address_and_bank(a);
  const auto [old_total, old_worst] = sixteen_bank_count(a);
  const int sectors = global_sectors(a);
  switch (q.kind) {
    case AskKind::bank: {
      const LaneRecord& l = a.lanes[q.lane];
      if (q.scenario.pattern != AccessPattern::raw)
        candidates.push_back(
            {Mistake::element_index_banks,
             static_cast<int>(l.byte / q.scenario.tile.elem_bytes() % kBankCount)});
      candidates.push_back({Mistake::sixteen_banks, static_cast<int>(l.words[0] % 16)});
      break;
    }
    case AskKind::wavefronts:
      if (element) candidates.push_back({Mistake::element_index_banks, element->wavefront_count()});
      for (int v : {lanes_total, per_address, per_bank})
        candidates.push_back({Mistake::broadcast_counted, v});
      if (a.ideal_wavefronts > 1) candidates.push_back({Mistake::ways_for_wavefronts, a.max_ways});
      candidates.push_back({Mistake::conflicts_for_wavefronts, a.bank_conflicts()});
      candidates.push_back({Mistake::sixteen_banks, old_total});
      candidates.push_back({Mistake::global_coalescing, sectors});
      break;
    case AskKind::ways:
      if (element) candidates.push_back({Mistake::element_index_banks, element->max_ways});
      for (int v : {lanes_worst, per_address, per_bank})
        candidates.push_back({Mistake::broadcast_counted, v});
      if (a.ideal_wavefronts > 1)
        candidates.push_back({Mistake::ways_for_wavefronts, a.wavefront_count()});
      candidates.push_back({Mistake::sixteen_banks, old_worst});
      candidates.push_back({Mistake::global_coalescing, sectors});
      break;
    case AskKind::ideal:
      // The floor as requested bytes / 128, packing ignored: lanes on one address counted twice.
      candidates.push_back(
          {Mistake::broadcast_counted, static_cast<int>((a.requested_bytes + 127) / 128)});
      candidates.push_back({Mistake::conflicts_for_wavefronts, a.wavefront_count()});
      break;
    case AskKind::conflicts:
      candidates.push_back({Mistake::conflicts_for_wavefronts, a.wavefront_count()});
      candidates.push_back({Mistake::conflicts_for_wavefronts, a.wavefront_count() - 1});
      candidates.push_back(
          {Mistake::broadcast_counted,
           a.wavefront_count() - static_cast<int>((a.requested_bytes + 127) / 128)});
      break;
    default:
      break;
  }
  // A 2-D block's warp taken for one column of 32 consecutive threadIdx.x: the count of its
  // first block row alone.
  if (q.block_x > 0 && (q.kind == AskKind::wavefronts || q.kind == AskKind::ways)) {
    WarpAccess first_row = a.access;
    for (int lane = q.block_x; lane < kWarpSize; ++lane) first_row.offsets[lane] = kInactiveLane;
    const Analysis one = analyze(first_row);
    candidates.insert(candidates.begin(),
                      {Mistake::warp_of_2d_block,
                       q.kind == AskKind::ways ? one.max_ways : one.wavefront_count()});
  }
  // A broadcast count is a mistake only where lanes do share an address or a bank's word;
  // global memory's sectors only where the banks are conflict-free (a deeper conflict's count
  // has likelier causes than sectors).
  const bool shares = per_address > 1;
  for (const auto& [mistake, v] : candidates) {
    if (v != value) continue;
    if (mistake == Mistake::broadcast_counted && !shares) continue;
    if (mistake == Mistake::global_coalescing && a.max_ways > 1) continue;
    return mistake;
  }
  return Mistake::none;
}

// --- 2. the mistakes a wrong fix matches -----------------------------------------------------

Mistake classify_fix(const Question& q, const Fix& f, const FixCheck& c) {
  if (c.works) return Mistake::none;
  const bool pad_changed = f.pad && *f.pad != q.scenario.tile.pad;
  // An answer of another kind (a swizzle to a pad question, a pad where the tile must stay
  // dense) is no mistake of the list: the feedback says what the question allows.
  if (!c.allowed && q.choice != FixChoice::tma_only) return Mistake::none;
  // A TMA swizzle on rows wider than its span: the tile itself is refused, whatever the pad.
  if (f.swizzle && f.swizzle->is_tma() && c.fixed.tile.row_bytes() > f.swizzle->tma_span_bytes())
    return Mistake::tma_span_exceeded;
  // A pad, or a swizzle TMA does not write, on a tile TMA writes.
  if (!c.allowed && q.choice == FixChoice::tma_only) return Mistake::padded_tensor_core_tile;
  if (!c.keep_ok && pad_changed) {
    return q.scenario.tile.dtype == DType::bf16 && *f.pad % 2 == 1 ? Mistake::bf16_pad_one_packed
                                                                   : Mistake::pad_breaks_alignment;
  }
  const bool keeps_16_bytes = std::any_of(q.keep.begin(), q.keep.end(), [](const Scenario& k) {
    return k.effective_width() == kMaxAccessBytes;
  });
  if (c.allowed && c.keep_ok && f.pad && !f.swizzle && keeps_16_bytes && !c.all_indices_ok)
    return Mistake::aligned_pad_conflicts;
  // A pad that leaves the asked access itself misaligned (a float2 or float4 column read).
  if (pad_changed && !evaluate(c.fixed).ok() && q.scenario.effective_width() > 4)
    return Mistake::pad_breaks_alignment;
  // A pad that fixes one column of the tile, not the warp's two columns of a 2-D block.
  if (q.block_x > 0 && pad_changed && !c.all_indices_ok) {
    Scenario column = apply_fix(q.scenario, f);
    column = tile_access(column.tile.dtype, column.tile.rows, column.tile.cols, column.tile.pad,
                         column.tile.swizzle, AccessPattern::column, Op::ld, 0);
    const Evaluation e = evaluate(column);
    if (e.ok() && e.analysis->bank_conflicts() == 0) return Mistake::warp_of_2d_block;
  }
  if (c.allowed && c.keep_ok && c.asked_index_ok && !c.all_indices_ok)
    return Mistake::fix_misses_other_indices;
  return Mistake::none;
}

}  // namespace banklab::drill_detail

namespace banklab {

namespace {

using namespace drill_detail;

// --- 3. grading ------------------------------------------------------------------------------

Grade grade_number(const Question& q, std::string_view text) {
  Grade g;
  const std::optional<int> value = whole_number(text);
  if (!value) {
    g.feedback = quote(text) + " is not a whole number";
    return g;
  }
  g.read = true;
  const Evaluation e = evaluate(q.scenario);  // the generator asks about legal scenarios only
  const Analysis& a = *e.analysis;
  g.right = *value == q.answer;
  g.mistake = classify_number(q, a, *value);
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
    case AskKind::ideal:
    case AskKind::conflicts:
      fact = "it takes " + wavefronts_text(a) + ", so " + std::to_string(a.bank_conflicts()) +
             (a.bank_conflicts() == 1 ? " conflict" : " conflicts") +
             (a.packed ? "; the load packs lanes L and L ^ " + std::to_string(a.packing_partner) +
                             ", which share an address, into one phase"
                       : "");
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
  g.feedback = g.right ? "Right: " + fact + "."
                       : "Wrong: you said " + std::to_string(*value) + "; " + fact + ".";
  g.shown = q.scenario;
  return g;
}

std::optional<bool> yes_or_no(std::string_view text) {
  const std::string t = lower(text);
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
    g.feedback = quote(text) + " is neither yes (fix it) nor no (leave it)";
    return g;
  }
  g.read = true;
  const Evaluation e = evaluate(q.scenario);
  const Analysis& a = *e.analysis;
  const Reversal r = *reversal(a);  // a worth question is only drawn with the recording
  g.right = *fix == (q.answer == 1);
  if (!g.right) g.mistake = *fix ? Mistake::hidden_behind_hbm : Mistake::deep_conflict_ignored;
  const std::string fact = r.worth_fixing()
                               ? "fix it: per transposed byte the banks fall below HBM"
                               : "leave it: per transposed byte the banks stay above HBM";
  g.feedback = (g.right ? "Right: " : "Wrong: ") + fact + ".";
  g.details.push_back(
      format("shared memory: %d SMs x %d B per clock at %.0f MHz = %s of wavefronts", r.sm_count,
             kWavefrontBytes, r.clock_mhz, tbps(r.shared_tbps).c_str()));
  g.details.push_back(format(
      "each transposed byte is stored once (a row write, %d wavefront%s) and loaded once (this "
      "read, %d): %s x %lld B / (%d x 128 B) = %s of matrix",
      a.ideal_wavefronts, a.ideal_wavefronts == 1 ? "" : "s", a.wavefront_count(),
      tbps(r.shared_tbps).c_str(), static_cast<long long>(a.requested_bytes),
      a.ideal_wavefronts + a.wavefront_count(), tbps(r.transposed_shared_tbps).c_str()));
  if (const Expected<Measurements>& m = recorded(); m && !q.measured.empty()) {
    const std::string dtype(dtype_name(q.scenario.tile.dtype));
    const MeasuredFigure* slow = m->find(q.measured);
    const MeasuredFigure* fast = m->find(dtype + "-padded");
    if (slow && fast)
      g.details.push_back("measured end to end on the H200: this conflict (" + q.measured +
                          ") at " + slow->value + " of the copy roof, the conflict-free pad (" +
                          dtype + "-padded) at " + fast->value);
  }
  g.details.push_back("HBM reads and writes each byte: the copy roof of " + tbps(r.copy_tbps) +
                      " / 2 = " + tbps(r.transposed_hbm_tbps) + " of matrix -> " +
                      (r.worth_fixing() ? "the banks are the bottleneck"
                                        : "HBM is the bottleneck; measure before fixing"));
  g.shown = q.scenario;
  return g;
}

Grade grade_fix(const Question& q, std::string_view text) {
  Grade g;
  const Expected<Fix> f = parse_fix(text);
  if (!f) {
    g.feedback = f.error();
    return g;
  }
  g.read = true;
  const FixCheck c = check_fix(q, *f);
  g.right = c.works;
  g.mistake = classify_fix(q, *f, c);
  const std::string flags = join(fix_flags(*f), " ");
  if (g.right) {
    g.feedback = "Right: with " + flags + " every " + index_name(q.scenario) + " is conflict-free" +
                 (q.keep.empty() ? "" : " and the stores that fill the tile stay legal") + ".";
    // What a right fix still asks of the kernel: the swizzle moves elements inside a vector.
    for (const std::string& note : c.notes) g.details.push_back("note: " + note);
    g.shown = c.fixed;
  } else {
    g.feedback = "Wrong: with " + flags + ", " + c.why + ".";
    g.details.push_back("one fix that works: " + join(fix_flags(q.fix), " "));
    g.shown = apply_fix(q.scenario, q.fix);
  }
  return g;
}

// "b", "(b)", "B)" or the text of a choice (case-insensitive): the index, or none.
std::optional<int> choice_index(const Question& q, std::string_view text) {
  std::string t = lower(text);
  if (t.size() >= 2 && t.front() == '(') t.erase(0, 1);
  if (!t.empty() && t.back() == ')') t.pop_back();
  if (t.size() == 1 && t[0] >= 'a' && t[0] < 'a' + static_cast<int>(q.choices.size()))
    return t[0] - 'a';
  for (std::size_t i = 0; i < q.choices.size(); ++i)
    if (lower(q.choices[i].text) == t) return static_cast<int>(i);
  return std::nullopt;
}

Grade grade_choice(const Question& q, std::string_view text) {
  Grade g;
  const std::optional<int> i = choice_index(q, text);
  if (!i) {
    g.feedback = quote(text) + " is not one of the choices: answer with its letter, a to " +
                 std::string(1, static_cast<char>('a' + q.choices.size() - 1));
    return g;
  }
  g.read = true;
  g.right = *i == q.answer;
  const Choice& picked = q.choices[static_cast<std::size_t>(*i)];
  const Choice& right = q.choices[static_cast<std::size_t>(q.answer)];
  const char letter = static_cast<char>('a' + q.answer);
  g.feedback = g.right
                   ? "Right: (" + std::string(1, letter) + ") " + right.text + "."
                   : "Wrong: the answer is (" + std::string(1, letter) + ") " + right.text + ".";
  g.mistake = picked.mistake;
  if (!g.right && !picked.why.empty()) g.details.push_back("your choice: " + picked.why);
  if (!right.why.empty()) g.details.push_back(right.why);
  g.shown = q.scenario;
  return g;
}

Grade grade_design(const Question& q, std::string_view text) {
  Grade g;
  const Expected<Design> d = parse_design(text);
  if (!d) {
    g.feedback = d.error();
    return g;
  }
  g.read = true;
  const FixCheck c = check_fix(q, d->fix);
  const SwizzleSpec sw = c.fixed.tile.swizzle;
  // TMA's alignment is its mode's (a CuTe swizzle that is one of them needs the same); float4
  // stores need their own width. check_fix has refused what TMA cannot write.
  const int needed = q.tma_fill ? tma_alignment_of(c.fixed.tile) : kMaxAccessBytes;
  const bool aligned = needed > 0 && d->align >= needed && d->align % needed == 0;
  g.right = c.works && aligned;
  const std::string given = join(fix_flags(d->fix), " ") + " --align " + std::to_string(d->align);
  if (g.right) {
    g.feedback = "Right: " + given + ": every " + index_name(q.scenario) +
                 " is conflict-free, and the tile is aligned as its fill needs.";
    for (const std::string& note : c.notes) g.details.push_back("note: " + note);
    g.shown = c.fixed;
    return g;
  }
  g.mistake = classify_fix(q, d->fix, c);
  std::string why = c.why;
  if (c.works && !aligned) {
    why = q.tma_fill
              ? "TMA's " + to_string(sw) +
                    " XORs absolute address bits, so the tile must start on a " +
                    std::to_string(needed) + "-byte boundary, not " + std::to_string(d->align)
              : "float4 stores need every row on a " + std::to_string(kMaxAccessBytes) +
                    "-byte boundary, so the tile too, not " + std::to_string(d->align);
    if (q.tma_fill) g.mistake = Mistake::tma_misaligned;
  }
  g.feedback = "Wrong: " + given + ": " + why + ".";
  g.details.push_back("one design that works: " + join(fix_flags(q.fix), " ") + " --align " +
                      std::to_string(q.answer));
  g.shown = apply_fix(q.scenario, q.fix);
  return g;
}

}  // namespace

Grade grade(const Question& q, std::string_view answer) {
  const std::string_view text = trim(answer);
  if (text.empty()) {
    Grade g;
    g.feedback = "no answer given";
    return g;
  }
  switch (ask_descriptor(q.kind).form) {
    case AnswerForm::fix:
      return grade_fix(q, text);
    case AnswerForm::yes_no:
      return grade_worth(q, text);
    case AnswerForm::letter:
      return grade_choice(q, text);
    case AnswerForm::design:
      return grade_design(q, text);
    case AnswerForm::number:
      break;
  }
  return grade_number(q, text);
}

}  // namespace banklab
