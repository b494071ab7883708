#pragma once
// Drills: questions about one warp-wide access, generated from (level, seed, index), with every
// answer computed by the core and every wrong answer checked against the lesson's common
// mistakes.
//
//   make_question(hire, 7, 0)  ->  "bf16 tile[32][33], column 3, ld 2 B per lane.
//                                   How many wavefronts does this instruction take?"   answer 2
//   grade(q, "1")              ->  wrong; no mistake of the list gives 1
//   grade(q, "32")             ->  wrong; "banks come from 4-byte words, not elements"
//
// Levels place people as the lesson's rubric does:
//   weak         the basics the rubric's Weak candidate misses: a lane's word and bank, which
//                of the transpose's two accesses conflicts, the pad of one and why it works,
//                a broadcast; passing it says the basics are there, failing it says Weak;
//   hire         the Hire bar: word index mod 32 for rows and columns of float tiles of any
//                width and pad, idle lanes, the stride rule (coprimality), a pad or a swizzle
//                that fixes a column, whether a conflict is worth fixing behind HBM;
//   strong-hire  the Strong Hire bar: bf16 and fp8 packing, 8- and 16-byte phases and load
//                packing, broadcasts, the aligned pad's 4-way conflict, float4 and TMA fills,
//                ldmatrix/stmatrix and the TMA and CuTe swizzles, the Nsight Compute counters,
//                and designing a swizzle with its alignment.
//
// Asks: the wavefronts; the n of the worst phase's n-way conflict; the bank of a lane's first
// word; a fix (a pad or swizzle checked by the core for every row, column or chunk of the
// pattern, never against a stored key); "worth" (is a fix worth it when HBM is the limit, the
// two sides compared per transposed byte with the shipped recording's figures); a choice among
// lettered answers (which counter shows it, why a counter exceeds what addresses explain); and
// a design (a swizzle and the alignment its tile needs, for a tile and the way it is filled).
//
// The generator draws from its own splitmix64, so the same (level, seed, index) gives the same
// question on every platform and compiler (std:: distributions are not portable).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

// splitmix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by the golden gamma and
// mixed by two multiply-xorshift rounds. next() from state 0 gives 0xe220a8397b1dcdaf.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  int below(int n);  // in [0, n), n >= 1 (modulo: the bias of 2^-50 does not matter here)
  template <class T, std::size_t N>
  const T& pick(const T (&choices)[N]) {
    return choices[below(static_cast<int>(N))];
  }

 private:
  std::uint64_t state_;
};

enum class DrillLevel : std::uint8_t { weak, hire, strong_hire };
inline constexpr DrillLevel kAllDrillLevels[] = {DrillLevel::weak, DrillLevel::hire,
                                                 DrillLevel::strong_hire};
std::string_view level_name(DrillLevel l);   // "weak", "hire", "strong-hire"
std::string_view rubric_band(DrillLevel l);  // "Weak", "Hire", "Strong Hire"
// What the lesson's rubric says a candidate at that band can do.
std::string_view rubric_text(DrillLevel band);
std::optional<DrillLevel> parse_level(std::string_view text);

enum class AskKind : std::uint8_t {
  wavefronts,
  ways,
  bank,
  fix,
  worth,
  choice,
  design,
  ideal,      // the fewest wavefronts the request allows (after load packing)
  conflicts,  // wavefronts beyond the ideal: what Nsight Compute reports as bank conflicts
};
// How an answer to an ask is typed and read: a whole number, yes or no, analyze's flags for a
// fix, a letter, or a fix with its alignment.
enum class AnswerForm : std::uint8_t { number, yes_no, fix, letter, design };

// Each ask's behaviour in one table (as swizzle.hpp's descriptors do for the swizzle kinds):
// its name, how its answer is read and written, whether it counts the access's wavefronts, the
// question a count asks, and what the app tells the user to type.
struct AskDescriptor {
  AskKind kind;
  std::string_view name;  // "wavefronts": the JSON's kind
  AnswerForm form;
  // A count of wavefronts (the total, the worst phase's n, the ideal, the excess): what the
  // phases, load packing and broadcasts across phases change.
  bool count;
  std::string_view prompt;  // a count's question; empty where the text is built per question
  std::string_view hint;    // "a whole number", "yes (fix it) or no (leave it)", ...
};
const AskDescriptor& ask_descriptor(AskKind k);
// "wavefronts", "ways", "bank", "fix", "worth", "choice", "design", "ideal", "conflicts"
std::string_view ask_name(AskKind k);

// The wrong answers the drill recognises: the lesson's four common mistakes first, then the
// confusions its text warns about.
enum class Mistake : std::uint8_t {
  none,
  broadcast_counted,         // lanes on one word counted as a conflict
  element_index_banks,       // banks from element indices, not 4-byte word indices
  bf16_pad_one_packed,       // a bf16 pad of one, then packed bf16x2 stores into the rows
  hidden_behind_hbm,         // fixing a conflict that HBM hides
  deep_conflict_ignored,     // leaving a conflict deep enough to drop below HBM
  pad_breaks_alignment,      // a pad that misaligns the rows for vector (or TMA) stores
  aligned_pad_conflicts,     // the aligned pad (a multiple of 16 B) still leaves a conflict
  padded_tensor_core_tile,   // padding a tile that TMA writes and WGMMA reads
  fix_misses_other_indices,  // a fix that works for the asked column only
  conflicts_for_wavefronts,  // the excess (Nsight's conflict count) given for the total
  ways_for_wavefronts,       // n-way and wavefronts confused where the warp has several phases
  sixteen_banks,             // 16 banks and half-warp phases (compute capability 1.x)
  global_coalescing,         // global memory's rule (distinct 32-byte sectors) for banks
  tma_span_exceeded,         // a TMA swizzle on rows wider than its span (no mode is wider
                             // than 128B)
  tma_misaligned,            // a TMA-swizzled tile not aligned to the swizzle's repeat
  counter_mixup,             // the wrong Nsight Compute counter (total, op, instructions)
  arbitration_ignored,       // a counter above the addresses blamed on the addresses
  warp_of_2d_block,          // a warp of a 2-D block taken for 32 consecutive threadIdx.x
  global_stride_as_banks,    // a strided global access called a bank conflict
  // Matrix descriptors (drill_descriptor.cpp): reading, writing and advancing one.
  desc_field_raw,            // LBO / SBO read as the field's value, not the field << 4
  desc_lbo_sbo_swapped,      // LBO and SBO swapped
  desc_swizzle_code,         // the swizzle field's code read with the wrong table
  desc_swizzle_not_tma,      // a descriptor mode other than the tensor map's swizzle
  desc_sbo_row_pitch,        // SBO set to one row's pitch, not the stride between row groups
  desc_isa_base_offset,      // (start >> 7) & 7 for a tile TMA swizzled on the absolute address
  desc_advance_in_elements,  // the start advanced by elements or a core matrix, not 32 bytes
  desc_advance_past_box,     // 32 bytes a step past the end of a box's swizzle row
  desc_advance_by_stride,    // the start advanced along MN (SBO, a box, a row) for a k-step
};
std::string_view mistake_name(Mistake m);  // "element-index-banks", ...
// The mistake in the lesson's words, one sentence.
std::string_view mistake_text(Mistake m);

// A fix changes the tile's pad, its swizzle, or both; what it leaves out stays as it was.
struct Fix {
  std::optional<int> pad;
  std::optional<SwizzleSpec> swizzle;
  friend bool operator==(const Fix&, const Fix&) = default;
};
// {"--pad", "2"}, {"--swizzle", "tma128"}, {"--pad", "0", "--swizzle", "xor"}.
std::vector<std::string> fix_flags(const Fix& f);
// "--pad 2", "--swizzle=xor", "pad 2 swizzle none": the flags as analyze takes them (the dashes
// may be left out).
Expected<Fix> parse_fix(std::string_view text);
Scenario apply_fix(Scenario s, const Fix& f);

// What a fix question lets the user change: tma_only is a swizzle TMA can write (its 32B, 64B or
// 128B mode, or a CuTe swizzle that stores every element where one of them does).
enum class FixChoice : std::uint8_t { pad_or_swizzle, pad_only, swizzle_only, tma_only };

// A design answer: a swizzle and the alignment of the tile's first byte.
// "--swizzle tma128 --align 1024" (the dashes may be left out).
struct Design {
  Fix fix;
  int align = 0;
};
Expected<Design> parse_design(std::string_view text);

// One lettered answer of a choice ask: its text, and for a wrong one the mistake it is and why.
struct Choice {
  std::string text;
  Mistake mistake = Mistake::none;  // none for the right one
  std::string why;                  // why it is wrong (or right), one sentence
};

struct Question {
  DrillLevel level = DrillLevel::weak;
  std::uint64_t seed = 0;
  int index = 0;
  std::string_view family;  // the template that drew it: "column-fix", "which-counter", ...
  AskKind kind = AskKind::wavefronts;
  Scenario scenario;
  int lane = -1;                   // bank asks: the lane asked about
  Mistake target = Mistake::none;  // the mistake this question is built to catch, if any
  std::string text;                // the question as asked, without its answer

  // Fix asks: what may change, and the other accesses the tile must keep legal (the stores that
  // fill it); a fix must make the asked pattern conflict-free at every one of its indices.
  FixChoice choice = FixChoice::pad_or_swizzle;
  std::vector<Scenario> keep;

  int answer = 0;  // wavefronts, n-way, bank; worth: 1 = fix it, 0 = leave it; choice: the
                   // right choice's index; design: the alignment in bytes
  Fix fix;         // fix and design asks: one fix the search found (any that works is right)
  std::vector<Choice> choices;  // choice asks, in the order shown (a, b, c, ...)
  bool tma_fill = false;        // design asks: TMA writes the tile (else float4 stores)
  // 2-D block asks: the threads of a block row (16 for blockDim.x = 16; 0 for none). The warp
  // reads tile[threadIdx.x][threadIdx.y] of `scenario.tile`, so it holds 32 / block_x values
  // of threadIdx.y; `scenario` is its 32 offsets (raw), rebuilt by a fix from the tile.
  int block_x = 0;
  int block_warp = 0;  // the warp asked about
  // Worth asks: the shipped recording's transpose that measured this conflict end to end
  // ("fp32-aligned-pad"), whose figure the feedback gives beside the conflict-free one's.
  std::string measured;
};

// The warp `warp` of a block of block_x x (cols) threads reading tile[threadIdx.x][threadIdx.y]:
// lane L is thread (L mod block_x, warp x 32 / block_x + L / block_x). Raw offsets over `t`.
Scenario block_warp_access(const TileLayout& t, int block_x, int warp);

Question make_question(DrillLevel level, std::uint64_t seed, int index);
// The templates a level draws from, by name, each once.
std::span<const std::string_view> drill_families(DrillLevel level);

// The flags of `banklab analyze` that give this scenario: "--dtype bf16 --tile 32x32 ...".
std::vector<std::string> analyze_flags(const Scenario& s);

// Whether a fix works: allowed by the question, every index of the asked pattern conflict-free,
// every kept access still legal. `why` names the first failure with its numbers.
struct FixCheck {
  bool works = false;
  std::string why;
  // What a working fix still asks of the kernel, from the core's notes on the fixed accesses:
  // "the swizzle permutes the elements inside lane 8's 16-byte block: ... reorder the elements
  // in registers" (an xor under float4 stores).
  std::vector<std::string> notes;
  Scenario fixed;               // the question's scenario with the fix applied
  bool allowed = false;         // the fix changes only what the question lets it change
  bool asked_index_ok = false;  // the asked index is legal and conflict-free
  bool all_indices_ok = false;  // every index of the pattern is
  bool keep_ok = false;         // every kept access is still legal at every index
};
FixCheck check_fix(const Question& q, const Fix& f);

// The transpose's two sides per transposed byte (reversal.hpp) with the shipped recording's
// figures: shared memory with this access as the column read (and a conflict-free row write),
// against HBM's copy roof / 2. Empty when the recording cannot be read; worth questions are then
// not asked.
struct Reversal {
  int sm_count = 0;
  double clock_mhz = 0;
  double shared_tbps = 0;             // the whole GPU's wavefronts, in TB/s, conflict-free
  double copy_tbps = 0;               // the recorded fp32 copy roof, read plus write
  double transposed_shared_tbps = 0;  // TB/s of matrix the banks transpose with this read
  double transposed_hbm_tbps = 0;     // TB/s of matrix HBM transposes: copy / 2
  bool worth_fixing() const { return transposed_shared_tbps < transposed_hbm_tbps; }
};
std::optional<Reversal> reversal(const Analysis& a);

// "lane L reads element (L, 3) of float tile[32][33] (column 3, one element each)": what every
// lane does, in words, for a question's text: idle lanes said and why, a row that wraps into
// the next named as two rows, a lane of k elements named by its elements, a narrow TMA box's
// pitch.
std::string lanes_in_words(const Scenario& s);

struct Grade {
  bool read = false;  // false: the text is not an answer (`feedback` says why); ask again
  bool right = false;
  Mistake mistake = Mistake::none;   // when wrong, the mistake the answer matches, if any
  std::string feedback;              // "Right: 16 wavefronts (ideal 1)." or "Wrong: ..."
  std::vector<std::string> details;  // the arithmetic behind it (the fix check, the bandwidths)
  std::optional<Scenario> shown;     // the scenario whose bank view explains the answer
};
Grade grade(const Question& q, std::string_view answer);

// Where a session places the user on the lesson's rubric, 80% right being a pass:
//   weak         passed: the basics are there, above the rubric's Weak (band weak, basics set;
//                the hire level places higher); failed: Weak;
//   hire         passed: Hire; failed: Weak;
//   strong-hire  passed: Strong Hire; failed: under the Strong Hire bar (band hire, which the
//                hire level confirms or not).
struct Placement {
  DrillLevel band = DrillLevel::weak;
  bool basics = false;  // the weak level passed: not the rubric's Weak, not yet placed higher
  std::string text;     // "Hire: 4/5 at the hire level, at least 80% right. The rubric's ..."
};
Placement place(DrillLevel level, int right, int total);

// A run of questions at one level, as the CLI and the app keep it: the question in front of
// the user, its grade once answered, the score and the streak of right answers in a row.
//
//   DrillSession d(DrillLevel::hire, 7);   // question 0 of seed 7
//   d.answer("16");                        // graded; d.graded says right or wrong
//   d.next();                              // question 1
class DrillSession {
 public:
  DrillSession(DrillLevel level, std::uint64_t seed);

  DrillLevel level() const { return level_; }
  std::uint64_t seed() const { return seed_; }
  const Question& question() const { return question_; }
  // The current question's grade once it has been answered; nullopt before.
  const std::optional<Grade>& graded() const { return graded_; }
  int right() const { return right_; }
  int answered() const { return answered_; }
  int streak() const { return streak_; }  // right answers in a row, ending with the last one

  // Grades the current question once: false, with nothing counted, when the text is not an
  // answer (graded() then holds the reason) or the question was already answered.
  bool answer(std::string_view text);
  void next();  // the next question of the seed
  Placement placement() const { return place(level_, right_, answered_); }

 private:
  DrillLevel level_;
  std::uint64_t seed_;
  int index_ = 0;
  Question question_;
  std::optional<Grade> graded_;
  int right_ = 0, answered_ = 0, streak_ = 0;
};

// One JSON object, no newline: kind, level, seed, index, args, lane (bank asks), question,
// answer (a number; for fix, the flags; for worth, true = fix it), target (when set).
void append_json(std::string& out, const Question& q);

}  // namespace banklab
