#include "core/model/analysis.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <iomanip>
#include <ostream>
#include <string>

namespace banklab {

std::uint32_t Wavefront::lanes() const {
  std::uint32_t all = 0;
  for (const BankSlot& s : banks) all |= s.lanes;
  return all;
}

int Wavefront::banks_used() const {
  return static_cast<int>(
      std::count_if(banks.begin(), banks.end(), [](const BankSlot& s) { return s.used(); }));
}

namespace {

// Rule 2: lanes per phase before packing. The hardware serves at most 128 B per wavefront, so
// a phase is as many lanes as fit: 32 lanes of up to 4 B, 16 of 8 B, 8 of 16 B; ldmatrix and
// stmatrix serve one 8x16-byte matrix per phase.
int lanes_per_phase(const WarpAccess& a) {
  if (is_matrix_op(a.op)) return 8;
  if (a.width <= 4) return 32;
  return a.width == 8 ? 16 : 8;
}

// Rule 4: a load of 8 or 16 B whose lanes pair up (partner l^1, or else l^2, idle or on the
// same address) is served as if each pair were one lane: the phases merge two by two. Measured
// on the H200: the partners l^3, l^4, l^8 and l^16 never pack, and stores never pack.
int packing_partner(const WarpAccess& a) {
  if (!is_load(a.op) || is_matrix_op(a.op) || a.width < 8) return 0;
  for (int partner : {1, 2}) {
    bool pairs = true;
    for (int lane = 0; lane < kWarpSize && pairs; ++lane) {
      const int other = lane ^ partner;
      pairs = !a.active(lane) || !a.active(other) || a.offsets[lane] == a.offsets[other];
    }
    if (pairs) return partner;
  }
  return 0;
}

}  // namespace

// Rule 3, per phase: each bank serves one distinct word per wavefront. The words of a bank are
// queued in the order of the first lane that touches them, so wavefront j of the phase serves
// the j-th word of every bank that has one; the phase costs as many wavefronts as its longest
// queue. No access needs more than 32: a phase of n lanes each touching w/4 words in w/4
// different banks puts at most n words in one bank, and n * phases = 32 for widths >= 4 B.
Analysis analyze(const WarpAccess& a) {
  assert((a.width == 1 || a.width == 2 || a.width == 4 || a.width == 8 || a.width == 16) &&
         "analyze() needs an access that check_access() accepts");
  Analysis r;
  r.access = a;
  r.packing_partner = packing_partner(a);
  r.packed = r.packing_partner != 0;
  const int phase_lanes = lanes_per_phase(a) * (r.packed ? 2 : 1);
  const int used_lanes = a.addressed_lanes();
  const int phase_count = used_lanes / phase_lanes;
  r.phases.reserve(static_cast<std::size_t>(phase_count));
  r.wavefronts.reserve(kMaxWavefronts);

  // queue[bank][j]: the j-th distinct word of the bank in this phase and the lanes it serves,
  // i.e. exactly the slot wavefront j of the phase will hold for that bank.
  std::array<std::array<BankSlot, kMaxWavefronts>, kBankCount> queue;
  std::array<int, kBankCount> queue_length{};
  // Every distinct word of the access, per bank, across phases (for distinct_words).
  std::array<std::array<std::int32_t, kMaxWavefronts>, kBankCount> seen;
  std::array<int, kBankCount> seen_length{};
  std::uint32_t banks_touched = 0;

  for (int p = 0; p < phase_count; ++p) {
    Phase phase;
    phase.first_wavefront = r.wavefront_count();
    queue_length.fill(0);
    const int first_lane = p * phase_lanes;
    for (int lane = first_lane; lane < first_lane + phase_lanes; ++lane) {
      phase.lanes |= 1u << lane;
      LaneRecord& rec = r.lanes[lane];
      rec.phase = p;
      if (!a.active(lane)) continue;
      phase.active_lanes |= 1u << lane;
      rec.active = true;
      rec.byte = a.offsets[lane];
      const std::int64_t first_word = word_of_byte(rec.byte);
      rec.word_count = static_cast<int>(word_of_byte(rec.byte + a.width - 1) - first_word + 1);
      for (int k = 0; k < rec.word_count; ++k) {
        const auto word = static_cast<std::int32_t>(first_word + k);
        const int bank = bank_of_word(word);
        int slot = 0;
        while (slot < queue_length[bank] && queue[bank][slot].word != word) ++slot;
        if (slot == queue_length[bank]) queue[bank][queue_length[bank]++] = {word, 0};
        queue[bank][slot].lanes |= 1u << lane;
        rec.words[k] = word;
        rec.banks[k] = bank;
        rec.wavefronts[k] = phase.first_wavefront + slot;
        rec.last_wavefront = std::max(rec.last_wavefront, rec.wavefronts[k]);
      }
    }
    for (int bank = 0; bank < kBankCount; ++bank) {
      if (queue_length[bank] == 0) continue;
      banks_touched |= 1u << bank;
      if (queue_length[bank] > phase.wavefront_count) {
        phase.wavefront_count = queue_length[bank];
        phase.busiest_bank = bank;
      }
      for (int j = 0; j < queue_length[bank]; ++j) {
        const std::int32_t word = queue[bank][j].word;
        int i = 0;
        while (i < seen_length[bank] && seen[bank][i] != word) ++i;
        if (i == seen_length[bank]) seen[bank][seen_length[bank]++] = word;
      }
    }
    r.wavefronts.resize(r.wavefronts.size() + static_cast<std::size_t>(phase.wavefront_count));
    Wavefront* wf = r.wavefronts.data() + phase.first_wavefront;
    for (int j = 0; j < phase.wavefront_count; ++j) wf[j].phase = p;
    for (int bank = 0; bank < kBankCount; ++bank)
      for (int j = 0; j < queue_length[bank]; ++j) wf[j].banks[bank] = queue[bank][j];
    for (int lane = first_lane; lane < first_lane + phase_lanes; ++lane) {
      LaneRecord& rec = r.lanes[lane];
      for (int k = 0; k < rec.word_count; ++k) {
        const std::uint32_t lanes =
            queue[rec.banks[k]][rec.wavefronts[k] - phase.first_wavefront].lanes;
        if ((lanes & (lanes - 1)) != 0) rec.shares_word = true;  // more than one lane
      }
    }
    if (phase.active_lanes) {
      ++r.ideal_wavefronts;
      r.active_lanes += std::popcount(phase.active_lanes);
    }
    r.max_ways = std::max(r.max_ways, phase.wavefront_count);
    r.phases.push_back(phase);
  }
  for (int bank = 0; bank < kBankCount; ++bank) r.distinct_words += seen_length[bank];
  r.distinct_banks = std::popcount(banks_touched);
  r.requested_bytes = std::int64_t{r.active_lanes} * a.width;
  return r;
}

std::ostream& operator<<(std::ostream& os, const Analysis& a) {
  os << a.access.op << ", " << a.access.width << " B per lane: " << a.wavefront_count()
     << " wavefronts, ideal " << a.ideal_wavefronts << ", bank conflicts " << a.bank_conflicts();
  if (a.packed) os << " (loads packed with partner lane l^" << a.packing_partner << ")";
  os << "\n lane  byte      words          banks        wavefront\n";
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = a.lanes[lane];
    if (!l.active) continue;
    std::string words, banks;
    for (int k = 0; k < l.word_count; ++k) {
      if (k) {
        words += ',';
        banks += ',';
      }
      words += std::to_string(l.words[k]);
      banks += std::to_string(l.banks[k]);
    }
    os << std::setw(5) << lane << std::setw(7) << l.byte << "  " << std::left << std::setw(15)
       << words << std::setw(13) << banks << std::right << l.last_wavefront
       << (l.shares_word ? " shared" : "") << "\n";
  }
  for (int w = 0; w < a.wavefront_count(); ++w) {
    os << "wavefront " << std::setw(2) << w << " (phase " << a.wavefronts[w].phase << "):";
    for (int bank = 0; bank < kBankCount; ++bank) {
      const BankSlot& s = a.wavefronts[w].banks[bank];
      if (s.used()) os << " b" << bank << "=w" << s.word;
    }
    os << "\n";
  }
  return os;
}

}  // namespace banklab
