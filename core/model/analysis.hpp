#pragma once
// Wavefronts, exactly as an H100/H200 counts them for one warp-wide shared-memory instruction.
//
//   1. Banks.   Lane at byte a with width w touches words a/4 ... (a+w-1)/4; bank = word mod 32.
//   2. Phases.  1-4 B: one phase of 32 lanes; 8 B: two of 16; 16 B: four of 8.
//               ldmatrix/stmatrix: one phase per matrix (lanes 8m..8m+7).
//   3. Cost.    A phase with an active lane costs the maximum, over the 32 banks, of the number
//               of distinct words of that bank its lanes touch (lanes on one word cost one).
//   4. Packing. Loads of 8 and 16 B only: if every active lane's partner l^1 (or, failing
//               that, l^2) is inactive or on the same address, the phases merge pairwise:
//               8 B -> one phase of 32, 16 B -> two phases of 16.
//   5. Ideal.   The number of phases with an active lane; bank conflicts = wavefronts - ideal,
//               the figure Nsight Compute reports for the instruction.
//
// Within a phase, the distinct words of one bank are served one per wavefront, in the order of
// the first lane that touches each; that order is what the views draw and step through.
#include <array>
#include <cstdint>
#include <iosfwd>
#include <vector>

#include "core/model/access.hpp"

namespace banklab {

inline constexpr int kMaxWordsPerLane = 4;  // a 16-byte access touches 4 words

// One lane of the warp.
struct LaneRecord {
  bool active = false;
  std::int64_t byte = kInactiveLane;
  int phase = -1;
  int word_count = 0;
  std::array<std::int64_t, kMaxWordsPerLane> words{};
  std::array<int, kMaxWordsPerLane> banks{};
  std::array<int, kMaxWordsPerLane> wavefronts{};  // global wavefront index of each word
  int last_wavefront = -1;   // the lane's data is complete after this wavefront
  bool shares_word = false;  // another active lane of its phase touches one of its words
                             // (a broadcast for loads, one merged write for stores)
};

// What one bank does in one wavefront: the word it serves (or none) and the lanes served.
// A slot always serves at least one lane, so "no lanes" is "unused"; that keeps an empty slot
// all zero bytes, and a new wavefront costs one memset.
struct BankSlot {
  std::int32_t word = 0;    // meaningful when used(); words of 228 KB fit in 32 bits
  std::uint32_t lanes = 0;  // bit L set when lane L gets (or gives) this word
  bool used() const { return lanes != 0; }
};

struct Wavefront {
  int phase = 0;
  std::array<BankSlot, kBankCount> banks{};
  std::uint32_t lanes() const;  // every lane served in this wavefront
  int banks_used() const;
};

struct Phase {
  std::uint32_t lanes = 0;         // the lanes that belong to it
  std::uint32_t active_lanes = 0;  // of those, the ones that access memory
  int first_wavefront = 0;
  int wavefront_count = 0;  // the phase's cost; 0 with no active lane
  int busiest_bank = -1;    // a bank that sets the cost (lowest index), -1 with no active lane
};

struct Analysis {
  WarpAccess access;
  bool packed = false;      // rule 4 merged the phases
  int packing_partner = 0;  // 1 or 2 when packed
  std::vector<Phase> phases;
  std::vector<Wavefront> wavefronts;
  std::array<LaneRecord, kWarpSize> lanes{};

  int wavefront_count() const { return static_cast<int>(wavefronts.size()); }
  int ideal_wavefronts = 0;
  int bank_conflicts() const { return wavefront_count() - ideal_wavefronts; }
  int max_ways = 0;        // the worst phase's cost: "an n-way conflict"
  int distinct_banks = 0;  // banks touched by any active lane
  int distinct_words = 0;  // words touched by any active lane
  int active_lanes = 0;
  std::int64_t requested_bytes = 0;  // active lanes x width
};

// Precondition: check_access(access) has no error (only the width is asserted here: the full
// check costs as much as the analysis). Allocation-light: two small vectors per call.
Analysis analyze(const WarpAccess& access);

// The per-lane table and the bank grid, as text.
std::ostream& operator<<(std::ostream& os, const Analysis& a);

}  // namespace banklab
