// Lessons: the placeholders and their values, reflowing text, and reading TOML tracks.
//
// [SECTION] The placeholders, each with a line for the docs (kPlaceholders)
// [SECTION] Their values: a lane's, the tile's, the analysis's, the facts (fact_value), value()
// [SECTION] reflow() and fill_text()
// [SECTION] Reading a lesson: steps, highlights, FILE:LINE errors; loading the shipped tracks
// [SECTION] The Markdown handout and a filled step
#include "core/teach/lesson.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <optional>
#include <sstream>

#include "core/base/data_dir.hpp"
#include "core/base/file_read.hpp"
#include "core/base/format.hpp"
#include "core/base/toml.hpp"
#include "core/code/code_view.hpp"
#include "core/model/hardware.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario_keys.hpp"
#include "core/report/explain.hpp"
#include "core/report/study.hpp"
#include "core/teach/measured.hpp"
#include "core/teach/reversal.hpp"

namespace banklab {

namespace {

// [SECTION] The placeholders, each with a line for the docs (kPlaceholders)

constexpr Placeholder kPlaceholders[] = {
    {"describe", "the scenario in one line: float tile[32][33], column 0, ld 4 B per lane"},
    {"decl", "the tile: float tile[32][33]"},
    {"declaration", "the CUDA declaration: __shared__ float tile[32][33];"},
    {"code", "the CUDA statement of the access (code_view)"},
    {"element", "the indexed element of the statement: tile[threadIdx.x][0]"},
    {"wavefronts", "wavefronts the instruction takes"},
    {"ideal", "the fewest wavefronts the request size allows"},
    {"conflicts", "wavefronts - ideal, as Nsight Compute reports them"},
    {"ways", "the worst phase's n-way conflict"},
    {"distinct_banks", "banks touched by the active lanes"},
    {"distinct_words", "distinct words touched by the active lanes"},
    {"active_lanes", "lanes that take part"},
    {"requested_bytes", "active lanes x width"},
    {"width", "bytes per lane"},
    {"bandwidth_percent", "ideal / wavefronts as a percentage of shared-memory bandwidth"},
    {"phases", "the phases the warp is served in, after load packing"},
    {"packing_partner",
     "1 or 2: the lane L ^ p whose address each lane shares (packed loads only)"},
    {"metric_wavefronts", "the Nsight Compute counter of this op's wavefronts"},
    {"metric_conflicts", "the Nsight Compute counter of this op's bank conflicts"},
    {"metric_instructions", "the Nsight Compute counter of this op's instructions"},
    {"sass_wavefronts", "the instrumented-SASS wavefronts of the Source page"},
    {"busiest_bank", "the bank that sets the worst phase's cost"},
    {"busiest_lanes", "the lanes that want it: lanes 0, 8, 16 and 24"},
    {"busiest_words", "the distinct words they want: words 0, 288, 576 and 864"},
    {"busiest_count", "how many lanes want the busiest bank"},
    {"formula", "element -> byte -> word, as explain derives it"},
    {"bank_expression", "the bank expression: bank = (33r + c) mod 32 = (r + c) mod 32"},
    {"verdict", "explain's verdict line"},
    {"stride", "the word stride between consecutive lanes (one-word lanes, one phase)"},
    {"gcd", "gcd(stride, 32): the lanes per bank"},
    {"stride_banks", "32 / gcd(stride, 32): the banks the lanes spread over"},
    {"pitch_bytes", "bytes per padded row"},
    {"tile_bytes", "bytes of the padded tile"},
    {"pad", "elements appended to every row"},
    {"pad_bytes", "rows x pad x element size"},
    {"pad_percent", "the pad as a share of the padded tile, one decimal"},
    {"row_step", "pitch mod width: how far each row slips off alignment"},
    {"row_period", "every row_period-th row is aligned for the access width"},
    {"aligned_rows", "the aligned rows: rows 0, 4, 8, ..., 28 (8 rows)"},
    {"misaligned_rows", "how many rows are misaligned for the access width"},
    {"aligning_pad", "the smallest pad that aligns every row for the access width"},
    {"misaligned_row_list", "the misaligned rows: rows 1, 3, 5, ..., 31 (16 rows)"},
    {"tma_alignment:MODE",
     "the alignment TMA needs of its destination with swizzle MODE (none, tma32, tma64, "
     "tma128), bytes"},
    {"tma_bits:MODE", "the address bits that swizzle MODE XORs into the chunk index: 7-9"},
    {"tma_chunk_bits:MODE", "the address bits of the chunk index swizzle MODE changes: 4-6"},
    {"shared_limit:WHICH",
     "a shared-memory limit in KB: static (one static array), block (one block), sm (one SM)"},
    {"bytes:WHAT",
     "a size of the hardware in bytes: wavefront (one wavefront), sector (a global-memory "
     "sector), max_access (the widest access of one lane), tma_box_row (what a TMA box row is a "
     "multiple of)"},
    {"block_rows", "threadIdx.y values of the transpose's block: its warps"},
    {"warp_rows:W", "the tile rows warp W takes in the transpose's j loop: rows 3, 11, 19 and 27"},
    {"transpose_kernel", "the whole transpose kernel for the step's 32 x 32 tile"},
    {"error", "the first rule the scenario breaks (only for a scenario that breaks one)"},
    {"sm_count", "SMs of the H200 the recording was made on"},
    {"smem_tbps", "shared memory of the whole H200, TB/s, conflict-free at the recorded clock"},
    {"smem_tbps_here", "the same at this access's wavefronts per request"},
    {"hbm_transpose_tbps", "TB/s of matrix HBM transposes: the recorded fp32 copy roof / 2"},
    {"smem_transpose_tbps",
     "TB/s of matrix shared memory transposes with this access as the column read (reversal.hpp)"},
    {"hidden_ways", "the deepest column-read conflict HBM still hides, for this access's width"},
    {"byte:L", "lane L's byte offset"},
    {"word:L", "lane L's first word"},
    {"bank:L", "lane L's first bank"},
    {"row:L", "the row of lane L's first element"},
    {"col:L", "the column of lane L's first element"},
    {"element_bank:L",
     "the wrong bank: lane L's element index (row x padded columns + column) "
     "mod 32"},
    {"measured:KEY", "a figure of the shipped recording (core/teach/measured.hpp lists the keys)"},
    {"access", "a step written as code: the access as written: tile[threadIdx.x][threadIdx.y]"},
    {"block", "a step written as code: its block, as --block writes it: 16x16"},
    {"block_x", "a step written as code: blockDim.x"},
    {"warp", "a step written as code: the warp it shows"},
    {"warp_threads",
     "a step written as code: the threads that form the warp: threadIdx.x 0-15 at threadIdx.y "
     "0 and 1"},
    {"thread:L", "a step written as code: lane L's threadIdx: (3, 1)"},
    {"index:L", "a step written as code: the element lane L's access names: tile[3][1]"},
    // A step read through a descriptor (lesson_descriptor.hpp): the descriptor and its mode.
    {"desc_word", "a descriptor step: the 64-bit descriptor word: 0x4000004000000000"},
    {"desc_swizzle", "a descriptor step: its swizzle mode, as the PTX ISA names it"},
    {"desc_start", "a descriptor step: its start address, bytes"},
    {"desc_lbo", "a descriptor step: its leading dimension byte offset (LBO)"},
    {"desc_sbo", "a descriptor step: its stride dimension byte offset (SBO)"},
    {"desc_base_offset", "a descriptor step: its base offset field"},
    {"desc_dest", "a descriptor step: where TMA's (first) box lands, bytes"},
    {"desc_isa_base_offset", "a descriptor step: the PTX ISA's (start >> 7) & 7 for its start"},
    {"desc_layout", "a descriptor step: its canonical layout in CuTe notation (its major-ness)"},
    {"desc_chunk_elements", "a descriptor step: T, the elements of one 16-byte chunk"},
    {"desc_layout_numbers", "a descriptor step: the same with its numbers, strides in elements"},
    {"desc_layout_mn", "a descriptor step: the MN-major canonical layout of the same mode"},
    {"desc_k_elements", "a descriptor step: elements of K one instruction reads"},
    {"desc_step_bytes", "a descriptor step: bytes of K one instruction reads"},
    {"desc_core_rows", "a descriptor step: rows of one core matrix"},
    {"desc_core_bytes", "a descriptor step: bytes of one core matrix's row"},
    {"desc_row_bytes", "a descriptor step: bytes of one swizzled row of its mode"},
    {"desc_atom_bytes", "a descriptor step: bytes of one swizzle atom of its mode (rows x row)"},
    {"desc_boundary", "a descriptor step: the boundary base offset 0 assumes for its mode, bytes"},
    {"desc_atom_rows", "a descriptor step: rows of one swizzle atom of its mode"},
    {"desc_atom_elements", "a descriptor step: elements of one swizzled row of its mode"},
    {"desc_major", "a descriptor step: its operand's major-ness, K or MN"},
    // ... and what it reads (check_agreement).
    {"desc_verdict", "a descriptor step: whether it reads what TMA wrote, in one line"},
    {"desc_elements", "a descriptor step: the operand's elements compared"},
    {"desc_mismatched", "a descriptor step: the elements it reads from the wrong bytes"},
    {"desc_steps", "a descriptor step: the k-steps (instructions) the tile holds"},
    {"desc_advance:S", "a descriptor step: k-step S's start minus k-step 0's, bytes"},
    {"desc_start_of:S", "a descriptor step: k-step S's start address"},
    {"desc_first_mismatch",
     "a descriptor step: the first element misread, where it was written and where it is read"},
    {"desc_core_mismatch", "a descriptor step: the first mismatching core matrix: MN 0-7 x K 0-7"},
    {"desc_fix", "a descriptor step: the descriptor that reads the tile: its mode, SBO and word"},
    {"desc_fix_sbo", "a descriptor step: that descriptor's SBO"},
    {"desc_fix_swizzle", "a descriptor step: that descriptor's swizzle mode"},
    {"desc_note", "a descriptor step: the first note of its rules and its fill's rules"},
    {"desc_rule", "a descriptor step: the first rule it or its fill breaks"},
};

// [SECTION] Their values: a lane's, the tile's, the analysis's, the facts (fact_value), value()

std::string fixed1(double v) {
  return format("%.1f", v);
}

std::string fixed2(double v) {
  return format("%.2f", v);
}

Expected<std::string> lane_value(std::string_view name, std::string_view arg, const Study& st) {
  const Scenario& s = st.scenario;
  const Evaluation& e = st.evaluation;
  int lane = -1;
  if (arg.size() > 0 && arg.size() <= 2 && std::all_of(arg.begin(), arg.end(), ::isdigit))
    lane = std::stoi(std::string(arg));
  if (lane < 0 || lane >= kWarpSize)
    return Error{"the lane must be a number 0..31, got '" + std::string(arg) + "'"};
  const LaneRecord& l = e.analysis->lanes[lane];
  if (!l.active) return Error{"lane " + std::to_string(lane) + " takes no part in this access"};
  const Cell c = e.elements[lane].first;
  if (name == "byte") return std::to_string(l.byte);
  if (name == "word") return std::to_string(l.words[0]);
  if (name == "bank") return std::to_string(l.banks[0]);
  if (s.pattern == AccessPattern::raw) return Error{"raw offsets have no tile element"};
  if (name == "row") return std::to_string(c.row);
  if (name == "col") return std::to_string(c.col);
  const std::int64_t index = std::int64_t{c.row} * (s.tile.cols + s.tile.pad) + c.col;
  return std::to_string(index % kBankCount);  // element_bank
}

// Values that need only the tile and the width: they work for a scenario that breaks a rule.
std::optional<std::string> layout_value(std::string_view name, const Scenario& s) {
  const TileLayout& t = s.tile;
  const RowAlignment r = row_alignment(t, s.effective_width());
  const PadCost c = pad_cost(t);
  if (name == "describe") return describe(s);
  if (name == "decl") return to_string(t);
  if (name == "declaration") return scenario_declaration(s);
  if (name == "width") return std::to_string(s.effective_width());
  if (name == "pitch_bytes") return std::to_string(t.pitch_bytes());
  if (name == "tile_bytes") return std::to_string(t.size_bytes());
  if (name == "pad") return std::to_string(t.pad);
  if (name == "pad_bytes") return std::to_string(c.bytes);
  if (name == "pad_percent") return fixed1(c.percent);
  if (name == "row_step") return std::to_string(r.step);
  if (name == "row_period") return std::to_string(r.period);
  if (name == "aligned_rows") return list_numbers({r.aligned.begin(), r.aligned.end()}, "rows");
  if (name == "misaligned_rows") return std::to_string(r.misaligned.size());
  if (name == "aligning_pad") return std::to_string(r.aligning_pad);
  if (name == "misaligned_row_list")
    return list_numbers({r.misaligned.begin(), r.misaligned.end()}, "rows");
  if (name == "block_rows") return std::to_string(kTransposeBlockRows);
  if (name == "transpose_kernel") {
    const Expected<TransposeKernel> k = transpose_kernel(t);
    if (!k) return "// " + k.error();
    std::string code;
    for (const std::string& line : k->lines) code += (code.empty() ? "" : "\n") + line;
    return code;
  }
  return std::nullopt;
}

Expected<std::string> analysis_value(std::string_view name, const Study& st) {
  const Scenario& s = st.scenario;
  const Evaluation& e = st.evaluation;
  const Analysis& a = *e.analysis;
  const Culprits c = busiest(a);
  const auto stride = word_stride(a);
  const std::int64_t g = stride ? std::gcd(*stride, std::int64_t{kBankCount}) : 0;
  if (name == "wavefronts") return std::to_string(a.wavefront_count());
  if (name == "ideal") return std::to_string(a.ideal_wavefronts);
  if (name == "conflicts") return std::to_string(a.bank_conflicts());
  if (name == "ways") return std::to_string(a.max_ways);
  if (name == "distinct_banks") return std::to_string(a.distinct_banks);
  if (name == "distinct_words") return std::to_string(a.distinct_words);
  if (name == "active_lanes") return std::to_string(a.active_lanes);
  if (name == "requested_bytes") return std::to_string(a.requested_bytes);
  if (name == "bandwidth_percent")
    return std::to_string(100 * a.ideal_wavefronts / std::max(1, a.wavefront_count()));
  if (name == "busiest_bank") return std::to_string(c.bank);
  if (name == "busiest_lanes") return list_lanes(c.lanes);
  if (name == "busiest_words") return list_numbers(c.words, "words");
  if (name == "busiest_count") return std::to_string(c.lanes.size());
  if (name == "smem_tbps" || name == "sm_count" || name == "smem_tbps_here") {
    const Expected<Measurements>& m = recorded();
    if (!m) return Error{m.error()};
    if (name == "sm_count") return std::to_string(m->sm_count);
    const double here =
        name == "smem_tbps" ? 1.0 : double(a.ideal_wavefronts) / std::max(1, a.wavefront_count());
    return fixed1(m->shared_tbps() * here);
  }
  if (name == "phases") {
    const auto active = std::count_if(a.phases.begin(), a.phases.end(),
                                      [](const Phase& p) { return p.active_lanes != 0; });
    return std::to_string(active);
  }
  if (name == "packing_partner") {
    if (!a.packed) return Error{"this access does not pack (docs/hardware-rules.md rule 4)"};
    return std::to_string(a.packing_partner);
  }
  if (name == "metric_wavefronts")
    return std::string(is_load(s.op) ? kNcuWavefrontsLd : kNcuWavefrontsSt);
  if (name == "metric_conflicts")
    return std::string(is_load(s.op) ? kNcuConflictsLd : kNcuConflictsSt);
  if (name == "metric_instructions")
    return std::string(is_load(s.op) ? kNcuInstructionsLd : kNcuInstructionsSt);
  if (name == "sass_wavefronts") return std::string(kNcuSassWavefronts);
  if (name == "hbm_transpose_tbps" || name == "smem_transpose_tbps" || name == "hidden_ways") {
    const Expected<Measurements>& m = recorded();
    if (!m) return Error{m.error()};
    const double copy_tbps = m->copy_gbps / 1000;
    if (name == "hbm_transpose_tbps") return fixed2(transposed_hbm_tbps(copy_tbps));
    const int width = a.access.width;
    if (name == "hidden_ways") return fixed1(hidden_read_cost(m->shared_tbps(), width, copy_tbps));
    const double cost = double(a.wavefront_count()) / std::max(1, a.ideal_wavefronts);
    return fixed2(transposed_shared_tbps(m->shared_tbps(), width, cost));
  }
  if (name == "stride" || name == "gcd" || name == "stride_banks") {
    if (!stride) return Error{"this access has no fixed word stride (one word per lane, 32 lanes)"};
    return std::to_string(name == "stride" ? *stride : name == "gcd" ? g : kBankCount / g);
  }
  if (name == "code" || name == "element") {
    const CodeView v = code_view(st);
    if (v.statement.empty()) return Error{v.note};
    if (name == "element") return v.element;
    std::string code;
    for (const std::string& line : v.statement) code += (code.empty() ? "" : "\n") + line;
    return code;
  }
  const Explanation& x = st.explanation;
  if (name == "formula") return x.formula;
  if (name == "bank_expression") return x.bank_expression;
  if (name == "verdict") return x.verdict;
  return Error{"unknown placeholder"};
}

// Placeholders with an argument that needs no scenario: the recording's figures and the facts of
// the hardware (hardware.hpp, swizzle.hpp) and of the transpose kernel (code_view.hpp).
std::optional<Expected<std::string>> fact_value(std::string_view name, std::string_view arg) {
  if (name == "measured") {
    const Expected<Measurements>& m = recorded();
    if (!m) return Error{m.error()};
    const MeasuredFigure* f = m->find(arg);
    if (f == nullptr)
      return Error{"the recording " + m->file + " has no figure '" + std::string(arg) + "'"};
    return f->value;
  }
  if (name == "tma_alignment" || name == "tma_bits" || name == "tma_chunk_bits") {
    const Expected<SwizzleSpec> sw = parse_swizzle(arg);
    if (!sw || (!sw->is_tma() && sw->kind != SwizzleKind::none))
      return Error{"MODE is none, tma32, tma64 or tma128, got '" + std::string(arg) + "'"};
    if (name == "tma_alignment") return std::to_string(sw->tma_alignment_bytes());
    if (!sw->is_tma()) return Error{"an unswizzled TMA box XORs no address bits"};
    // Swizzle<B,4,3>: the B bits from M + S up are XORed into the chunk bits M and up.
    const Swizzle z = sw->byte_swizzle(1);
    const int low = name == "tma_bits" ? z.base + z.shift : z.base, high = low + z.bits - 1;
    return low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
  }
  if (name == "shared_limit") {
    const std::int64_t bytes = arg == "static"  ? kStaticSharedBytes
                               : arg == "block" ? kMaxSharedPerBlockBytes
                               : arg == "sm"    ? kSharedMemoryBytes
                                                : 0;
    if (bytes == 0) return Error{"WHICH is static, block or sm, got '" + std::string(arg) + "'"};
    return std::to_string(bytes / 1024);
  }
  if (name == "bytes") {
    const int bytes = arg == "wavefront"     ? kWavefrontBytes
                      : arg == "sector"      ? kGlobalSectorBytes
                      : arg == "max_access"  ? kMaxAccessBytes
                      : arg == "tma_box_row" ? kTmaBoxRowMultipleBytes
                                             : 0;
    if (bytes == 0)
      return Error{"WHAT is wavefront, sector, max_access or tma_box_row, got '" +
                   std::string(arg) + "'"};
    return std::to_string(bytes);
  }
  if (name == "warp_rows") {
    int warp = -1;
    if (arg.size() == 1 && arg[0] >= '0' && arg[0] < '0' + kTransposeBlockRows) warp = arg[0] - '0';
    if (warp < 0)
      return Error{"the warp must be a number 0.." + std::to_string(kTransposeBlockRows - 1)};
    std::vector<std::int64_t> rows;
    for (int j = warp; j < kWarpSize; j += kTransposeBlockRows) rows.push_back(j);
    return list_numbers(rows, "rows");
  }
  return std::nullopt;
}

// "0-15" or "7": a range of numbers as a person writes it.
std::string span_text(int first, int last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

// "threadIdx.x 0-15 at threadIdx.y 0 and 1": the threads of a warp, by the rows of the block
// (its values of threadIdx.y, and of threadIdx.z where the block has depth) they come from.
std::string warp_threads(const StepCode& c) {
  struct Row {
    int y, z, x_first, x_last;
  };
  std::vector<Row> rows;
  for (const LaneCode& l : c.code.lanes) {
    if (!l.active) continue;
    if (!rows.empty() && rows.back().y == l.thread[1] && rows.back().z == l.thread[2]) {
      rows.back().x_last = l.thread[0];
    } else {
      rows.push_back({l.thread[1], l.thread[2], l.thread[0], l.thread[0]});
    }
  }
  if (rows.empty()) return "no thread";
  const bool deep = c.params.block[2] > 1;
  const bool same_x = std::all_of(rows.begin(), rows.end(), [&](const Row& r) {
    return r.x_first == rows[0].x_first && r.x_last == rows[0].x_last;
  });
  std::vector<std::string> at;
  for (const Row& r : rows)
    at.push_back(deep ? "(" + std::to_string(r.y) + ", " + std::to_string(r.z) + ")"
                      : std::to_string(r.y));
  const std::string which = deep ? "(threadIdx.y, threadIdx.z) " : "threadIdx.y ";
  if (same_x) {
    std::string list;
    for (std::size_t i = 0; i < at.size(); ++i)
      list += (i == 0 ? "" : i + 1 == at.size() ? " and " : ", ") + at[i];
    return "threadIdx.x " + span_text(rows[0].x_first, rows[0].x_last) + " at " + which + list;
  }
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i)
    out += (i == 0 ? "" : ", ") +
           ("threadIdx.x " + span_text(rows[i].x_first, rows[i].x_last) + " at " + which + at[i]);
  return out;
}

// The placeholders of a step written as code; nullopt for the others.
std::optional<Expected<std::string>> code_value(std::string_view name, std::string_view arg,
                                                const StepCode* c) {
  if (name != "access" && name != "block" && name != "block_x" && name != "warp" &&
      name != "warp_threads" && name != "thread" && name != "index")
    return std::nullopt;
  if (c == nullptr)
    return Error{"only a step written as code (args with --decl and --expr) has one"};
  const auto& b = c->params.block;
  if (name == "access") return c->code.access_text;
  if (name == "block")
    return std::to_string(b[0]) + "x" + std::to_string(b[1]) +
           (b[2] > 1 ? "x" + std::to_string(b[2]) : std::string());
  if (name == "block_x") return std::to_string(b[0]);
  if (name == "warp") return std::to_string(c->code.warp);
  if (name == "warp_threads") return warp_threads(*c);
  int lane = -1;
  if (!arg.empty() && arg.size() <= 2 && std::all_of(arg.begin(), arg.end(), ::isdigit))
    lane = std::stoi(std::string(arg));
  if (lane < 0 || lane >= kWarpSize)
    return Error{"the lane must be a number 0..31, got '" + std::string(arg) + "'"};
  const LaneCode& l = c->code.lanes[static_cast<std::size_t>(lane)];
  if (!l.active) return Error{"lane " + std::to_string(lane) + " takes no part in this access"};
  if (name == "thread")
    return "(" + std::to_string(l.thread[0]) + ", " + std::to_string(l.thread[1]) +
           (b[2] > 1 ? ", " + std::to_string(l.thread[2]) : std::string()) + ")";
  std::string index = c->code.array.name;
  for (std::int64_t i : l.indices) index += "[" + std::to_string(i) + "]";
  return index;
}

Expected<std::string> value(std::string_view key, const Study& st, const StepCode* code,
                            const StepDescriptor* descriptor) {
  const Scenario& s = st.scenario;
  const Evaluation& e = st.evaluation;
  const auto colon = key.find(':');
  const std::string_view name = key.substr(0, colon);
  const std::string_view arg = colon == std::string_view::npos ? "" : key.substr(colon + 1);
  // The table names the ones with an argument "name:ARG".
  bool known = false, takes_arg = false;
  for (const Placeholder& p : kPlaceholders) {
    const std::string_view listed = p.name.substr(0, p.name.find(':'));
    if (listed != name) continue;
    known = true;
    takes_arg = p.name.find(':') != std::string_view::npos;
  }
  if (!known) return Error{"unknown placeholder (see docs/lessons.md for the list)"};
  if (takes_arg != (colon != std::string_view::npos))
    return Error{takes_arg ? "needs an argument: {" + std::string(name) + ":...}"
                           : "takes no argument"};
  if (auto v = fact_value(name, arg)) return std::move(*v);
  if (auto v = code_value(name, arg, code)) return std::move(*v);
  if (auto v = descriptor_value(name, arg, s, descriptor)) return std::move(*v);
  if (const auto v = layout_value(name, s)) return *v;
  if (name == "error") {
    if (e.ok()) return Error{"the scenario breaks no rule"};
    return first_error(e.diagnostics);
  }
  if (!e.ok())
    return Error{"needs a scenario the core can analyse, and this one breaks a rule: " +
                 first_error(e.diagnostics)};
  if (takes_arg) return lane_value(name, arg, st);
  return analysis_value(name, st);
}

}  // namespace

std::span<const Placeholder> placeholders() {
  return kPlaceholders;
}

// [SECTION] reflow() and fill_text()

std::string reflow(std::string_view text, int width) {
  std::string out, paragraph;
  auto flush = [&] {
    if (paragraph.empty()) return;
    std::size_t column = 0;
    std::size_t at = 0;
    while (at < paragraph.size()) {
      std::size_t end = paragraph.find(' ', at);
      if (end == std::string::npos) end = paragraph.size();
      const std::size_t len = end - at;
      if (column > 0 && width > 0 && column + 1 + len > static_cast<std::size_t>(width)) {
        out += '\n';
        column = 0;
      } else if (column > 0) {
        out += ' ';
        ++column;
      }
      out.append(paragraph, at, len);
      column += len;
      at = end + 1;
    }
    out += '\n';
    paragraph.clear();
  };
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string_view::npos) {  // a blank line ends the paragraph
      flush();
      if (!out.empty() && !out.ends_with("\n\n")) out += '\n';
    } else if (line.starts_with("    ")) {  // code: verbatim
      flush();
      out += line;
      out += '\n';
    } else {
      if (!paragraph.empty()) paragraph += ' ';
      paragraph += line.substr(first);
    }
    at = end + 1;
  }
  flush();
  while (out.ends_with("\n\n")) out.pop_back();
  return out;
}

Expected<std::string> fill_text(std::string_view text, const Study& st, FillError* error,
                                const StepCode* code, const StepDescriptor* descriptor) {
  std::string out;
  auto fail = [&](std::size_t at, std::string message) {
    if (error) *error = {message, at};
    return Error{std::move(message)};
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if ((ch == '{' || ch == '}') && i + 1 < text.size() && text[i + 1] == ch) {
      out += ch;
      ++i;
    } else if (ch == '}') {
      return fail(i, "a lone '}' (write '}}' for a brace)");
    } else if (ch == '{') {
      const std::size_t end = text.find('}', i);
      if (end == std::string_view::npos) return fail(i, "'{' without its '}'");
      const std::string_view key = text.substr(i + 1, end - i - 1);
      const Expected<std::string> v = value(key, st, code, descriptor);
      if (!v) return fail(i, "{" + std::string(key) + "}: " + v.error());
      // A value of several lines (code) keeps the indentation of the line it sits on.
      const std::size_t line_start = out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1;
      const std::size_t text_start = std::min(out.find_first_not_of(' ', line_start), out.size());
      const std::size_t indent = text_start - line_start;
      for (char vc : *v) {
        out += vc;
        if (vc == '\n') out.append(indent, ' ');
      }
      i = end;
    } else {
      out += ch;
    }
  }
  return out;
}

// [SECTION] Reading a lesson: steps, highlights, FILE:LINE errors; loading the shipped tracks

namespace {

// "FILE:LINE: what is wrong".
Error at(const std::string& file, int line, const std::string& what) {
  return Error{file + ":" + std::to_string(line) + ": " + what};
}

int line_of(const toml::node& n) {
  return static_cast<int>(n.source().begin.line);
}

Expected<std::string> string_of(const toml::node& n, const std::string& file,
                                std::string_view key) {
  if (const auto* s = n.as_string()) return s->get();
  return at(file, line_of(n), "'" + std::string(key) + "' must be a string");
}

// A list of small whole numbers in [0, limit), or the name of the computed set.
Expected<std::vector<int>> numbers_of(const toml::node& n, const std::string& file,
                                      std::string_view key, int limit, std::string_view set,
                                      bool* uses_set) {
  std::vector<int> out;
  if (const auto* s = n.as_string()) {
    if (s->get() == set) {
      *uses_set = true;
      return out;
    }
    return at(file, line_of(n),
              "'" + std::string(key) + "' must be a list of numbers or \"" + std::string(set) +
                  "\", got \"" + s->get() + "\"");
  }
  const auto* a = n.as_array();
  if (a == nullptr)
    return at(
        file, line_of(n),
        "'" + std::string(key) + "' must be a list of numbers or \"" + std::string(set) + "\"");
  for (const toml::node& item : *a) {
    const auto* i = item.as_integer();
    if (i == nullptr || i->get() < 0 || i->get() >= limit)
      return at(file, line_of(item),
                "'" + std::string(key) + "' holds numbers 0.." + std::to_string(limit - 1));
    out.push_back(static_cast<int>(i->get()));
  }
  return out;
}

Expected<std::vector<Cell>> cells_of(const toml::node& n, const std::string& file,
                                     const TileLayout& t) {
  std::vector<Cell> out;
  const auto* a = n.as_array();
  if (a == nullptr) return at(file, line_of(n), "'elements' must be a list of [row, column] pairs");
  for (const toml::node& item : *a) {
    const auto* pair = item.as_array();
    const auto* r = pair && pair->size() == 2 ? (*pair)[0].as_integer() : nullptr;
    const auto* c = pair && pair->size() == 2 ? (*pair)[1].as_integer() : nullptr;
    if (!r || !c || r->get() < 0 || r->get() >= t.rows || c->get() < 0 || c->get() >= t.cols)
      return at(file, line_of(item),
                "each element is [row, column] inside the " + std::to_string(t.rows) + " x " +
                    std::to_string(t.cols) + " tile");
    out.push_back({static_cast<int>(r->get()), static_cast<int>(c->get())});
  }
  return out;
}

// A list of strings, each one of `allowed`: show = ["banks", "tile"].
Expected<std::vector<std::string>> names_of(const toml::node& n, const std::string& file,
                                            std::string_view key,
                                            std::span<const std::string_view> allowed) {
  std::string choices;
  for (std::string_view a : allowed) choices += (choices.empty() ? "" : ", ") + std::string(a);
  const auto* a = n.as_array();
  if (a == nullptr || a->empty())
    return at(file, line_of(n), "'" + std::string(key) + "' must be a list of: " + choices);
  std::vector<std::string> out;
  for (const toml::node& item : *a) {
    const auto* v = item.as_string();
    if (v == nullptr || std::find(std::begin(allowed), std::end(allowed),
                                  std::string_view(v->get())) == allowed.end())
      return at(file, line_of(item), "'" + std::string(key) + "' takes: " + choices);
    out.push_back(v->get());
  }
  return out;
}

// compare = ["fp32-pad1", "fp32-xor"]: preset names, one to three of them.
Expected<std::vector<std::string>> preset_names_of(const toml::node& n, const std::string& file) {
  const auto* a = n.as_array();
  if (a == nullptr || a->empty() || a->size() > 3)
    return at(file, line_of(n), "'compare' must be a list of one to three preset names");
  std::vector<std::string> out;
  for (const toml::node& item : *a) {
    const auto* v = item.as_string();
    if (v == nullptr || find_preset(v->get()) == nullptr)
      return at(file, line_of(item),
                "'compare' takes preset names (banklab presets lists them)" +
                    (v ? std::string(", not '") + v->get() + "'" : std::string()));
    out.push_back(v->get());
  }
  return out;
}

// The line of the text at `offset`: multi-line strings start on the line after their """.
int text_line(const toml::node& n, std::string_view text, std::size_t offset) {
  const int first = line_of(n) + (n.source().end.line > n.source().begin.line ? 1 : 0);
  return first + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

// A step's args in the code form (--decl, --expr, --block, --warp, --let), evaluated by the
// core: the messages of `banklab analyze --decl ... --expr ...`.
Expected<StepCode> step_code(std::span<const std::string> args) {
  StepCode c;
  bool decl = false, expr = false;
  for (std::size_t i = 0; i < args.size(); i += 2) {
    const std::string& flag = args[i];
    if (i + 1 == args.size()) return Error{flag + " needs a value"};
    const std::string& v = args[i + 1];
    if (flag == "--decl") {
      c.decl = v;
      decl = true;
    } else if (flag == "--expr") {
      c.expr = v;
      expr = true;
    } else if (flag == "--block") {
      const Expected<std::array<int, 3>> b = parse_block(v);
      if (!b) return Error{"--block: " + b.error()};
      c.params.block = *b;
    } else if (flag == "--warp") {
      const Expected<std::int64_t> w =
          v == "all" ? Expected<std::int64_t>{kAllWarps} : parse_integer(v, "--warp", 0, 1023);
      if (!w) return Error{w.error()};
      c.params.warp = static_cast<int>(*w);
    } else if (flag == "--let") {
      const auto lets = parse_lets(v);
      if (!lets) return Error{"--let: " + lets.error()};
      c.params.lets = *lets;
      c.lets = v;
    } else {
      return Error{flag + " cannot be combined with --decl/--expr: the code gives the array and " +
                   "the access (a code step takes --decl, --expr, --block, --warp and --let)"};
    }
  }
  if (!decl || !expr)
    return Error{
        "the code form needs both --decl (the __shared__ declaration) and --expr (the "
        "access)"};
  const CodeSource sources[] = {{"--decl", c.decl}, {"--expr", c.expr}};
  CodeResult r = evaluate_code(sources, c.params);
  if (r.error) {
    const std::string text = format_code_error(*r.error, sources);
    return Error{text.substr(0, text.find('\n'))};
  }
  c.code = std::move(*r.code);
  return c;
}

// The step's `descriptor`: the flags of `banklab desc agree`, read against its scenario.
Expected<void> descriptor_words(const toml::node& n, const std::string& file, LessonStep& step) {
  if (!n.is_array()) return at(file, line_of(n), "'descriptor' must be a list of strings");
  for (const toml::node& w : *n.as_array()) {
    if (!w.is_string()) return at(file, line_of(w), "'descriptor' must be a list of strings");
    step.descriptor_args.push_back(w.as_string()->get());
  }
  Expected<StepDescriptor> d = parse_step_descriptor(step.descriptor_args, step.scenario);
  if (!d) return at(file, line_of(n), "the descriptor: " + d.error());
  step.descriptor = *d;
  return {};
}

bool written_as_code(std::span<const std::string> args) {
  return std::any_of(args.begin(), args.end(),
                     [](const std::string& a) { return a == "--decl" || a == "--expr"; });
}

Expected<LessonStep> parse_step(const toml::table& t, const std::string& file) {
  LessonStep step;
  step.line = line_of(t);
  static constexpr std::string_view kKeys[] = {"title",   "args",      "text",     "lanes",
                                               "banks",   "rows",      "elements", "show",
                                               "compare", "descriptor"};
  for (auto&& [key, node] : t) {
    if (std::find(std::begin(kKeys), std::end(kKeys), key.str()) == std::end(kKeys))
      return at(file, line_of(node),
                "unknown key '" + std::string(key.str()) +
                    "' in a step (title, args, text, lanes, banks, rows, "
                    "elements, show, compare, descriptor)");
  }
  for (std::string_view key : {"title", "args", "text"})
    if (!t.contains(key)) return at(file, step.line, "the step has no '" + std::string(key) + "'");
  const Expected<std::string> title = string_of(*t.get("title"), file, "title");
  if (!title) return Error{title.error()};
  step.title = *title;
  const toml::node& args = *t.get("args");
  if (!args.is_array()) return at(file, line_of(args), "'args' must be a list of strings");
  for (const toml::node& a : *args.as_array()) {
    if (!a.is_string()) return at(file, line_of(a), "'args' must be a list of strings");
    step.args.push_back(a.as_string()->get());
  }
  if (written_as_code(step.args)) {
    Expected<StepCode> code = step_code(step.args);
    if (!code) return at(file, line_of(args), "the code: " + code.error());
    step.scenario = code->code.scenario;
    step.code = std::move(*code);
  } else {
    const Expected<Scenario> s = scenario_from_words(step.args);
    if (!s) return at(file, line_of(args), "the scenario: " + s.error());
    step.scenario = *s;
  }
  if (const Expected<void> tile = step.scenario.tile.check(); !tile)
    return at(file, line_of(args), "the scenario's tile: " + tile.error());
  const toml::node& text = *t.get("text");
  const Expected<std::string> body = string_of(text, file, "text");
  if (!body) return Error{body.error()};
  step.text = *body;
  step.text_line = text_line(text, step.text, 0);
  if (const toml::node* n = t.get("lanes")) {
    auto v = numbers_of(*n, file, "lanes", kWarpSize, "busiest", &step.busiest_lanes);
    if (!v) return Error{v.error()};
    step.lanes = *v;
  }
  if (const toml::node* n = t.get("banks")) {
    auto v = numbers_of(*n, file, "banks", kBankCount, "busiest", &step.busiest_banks);
    if (!v) return Error{v.error()};
    step.banks = *v;
  }
  if (const toml::node* n = t.get("rows")) {
    auto v =
        numbers_of(*n, file, "rows", step.scenario.tile.rows, "misaligned", &step.misaligned_rows);
    if (!v) return Error{v.error()};
    step.rows = *v;
  }
  if (const toml::node* n = t.get("elements")) {
    auto v = cells_of(*n, file, step.scenario.tile);
    if (!v) return Error{v.error()};
    step.elements = *v;
  }
  if (const toml::node* n = t.get("show")) {
    auto v = names_of(*n, file, "show", kSlideParts);
    if (!v) return Error{v.error()};
    step.show = *v;
  }
  if (const toml::node* n = t.get("compare")) {
    auto v = preset_names_of(*n, file);
    if (!v) return Error{v.error()};
    step.compare = *v;
  }
  const bool shows_compare =
      std::find(std::begin(step.show), std::end(step.show), "compare") != step.show.end();
  if (shows_compare != !step.compare.empty())
    return at(file, step.line,
              "'compare' lists the presets shown beside the step, and 'show' names \"compare\": "
              "give both or neither");
  if (const toml::node* n = t.get("descriptor")) {
    auto words = descriptor_words(*n, file, step);
    if (!words) return Error{words.error()};
  }
  if (std::find(step.show.begin(), step.show.end(), "descriptor") != step.show.end() &&
      !step.descriptor)
    return at(file, step.line,
              "'show' names \"descriptor\": give the step its 'descriptor' (the flags of "
              "banklab desc agree)");
  // Fill the text now, so that a placeholder the scenario cannot give is the file's error.
  const Study st = study(step.scenario);
  FillError why;
  if (!fill_text(step.text, st, &why, step.code ? &*step.code : nullptr,
                 step.descriptor ? &*step.descriptor : nullptr))
    return at(file, text_line(text, step.text, why.offset), why.message);
  if ((step.busiest_lanes || step.busiest_banks) && !st.evaluation.ok())
    return at(file, step.line,
              "\"busiest\" needs a scenario the core can analyse: " +
                  first_error(st.evaluation.diagnostics));
  return step;
}

Expected<Lesson> parse_table(const toml::table& root, const std::string& file) {
  Lesson lesson;
  lesson.file = file;
  lesson.name = std::filesystem::path(file).stem().string();
  for (auto&& [key, node] : root) {
    const std::string_view k = key.str();
    if (k == "step") continue;
    if (k != "name" && k != "title" && k != "summary")
      return at(file, line_of(node),
                "unknown key '" + std::string(k) + "' (name, title, summary, [[step]])");
    const Expected<std::string> v = string_of(node, file, k);
    if (!v) return Error{v.error()};
    (k == "name" ? lesson.name : k == "title" ? lesson.title : lesson.summary) = *v;
  }
  if (lesson.title.empty()) return at(file, 1, "the lesson has no 'title'");
  if (lesson.name.empty() || lesson.name.find_first_of(" \t/") != std::string::npos)
    return at(file, 1, "the lesson's name must be one word, got '" + lesson.name + "'");
  const toml::node* steps = root.get("step");
  if (steps == nullptr || !steps->is_array_of_tables() || steps->as_array()->empty())
    return at(file, steps ? line_of(*steps) : 1, "the lesson has no [[step]]");
  for (const toml::node& n : *steps->as_array()) {
    Expected<LessonStep> step = parse_step(*n.as_table(), file);
    if (!step) return Error{step.error()};
    lesson.steps.push_back(std::move(*step));
  }
  return lesson;
}

}  // namespace

Expected<Lesson> parse_lesson(std::string_view toml_text, const std::string& file) {
  try {
    const toml::table root = toml::parse(toml_text, file);
    return parse_table(root, file);
  } catch (const toml::parse_error& err) {
    return at(file, static_cast<int>(err.source().begin.line), std::string(err.description()));
  }
}

Expected<Lesson> load_lesson(const std::filesystem::path& file) {
  const Expected<std::string> text =
      read_regular_file(file.string(), kMaxLessonFileBytes, "lesson file");
  if (!text) return Error{text.error()};
  return parse_lesson(*text, file.string());
}

Expected<std::filesystem::path> lessons_dir() {
  Expected<std::filesystem::path> data = data_dir();
  if (!data) return Error{data.error()};
  return *data / "lessons";
}

namespace {

// The lesson that owns a name: the one in NAME.toml (as the shipped ones are, and as find_lesson()
// looks for a file that did not load), else the first by file name.
bool owns_its_name(const Lesson& l) {
  return std::filesystem::path(l.file).stem() == l.name;
}

// Every name once (a copied lesson whose name was not changed, say): the owner of each name is
// kept and every other file with that name is refused, naming both files, so that a copy never
// replaces the lesson it came from in `lesson show NAME` or --lesson NAME.
void keep_one_lesson_per_name(std::vector<Lesson>& loaded, LessonCatalogue& catalogue) {
  for (Lesson& l : loaded) {
    const auto same_name = [&](const Lesson& other) { return other.name == l.name; };
    const auto owner = std::find_if(loaded.begin(), loaded.end(), [&](const Lesson& other) {
      return same_name(other) && owns_its_name(other);
    });
    const auto kept =
        owner != loaded.end() ? owner : std::find_if(loaded.begin(), loaded.end(), same_name);
    if (&*kept == &l) {
      catalogue.lessons.push_back(l);
    } else {
      catalogue.problems.push_back(l.file + ": the lesson name '" + l.name + "' is already " +
                                   kept->file + "'s; give this lesson a name of its own");
    }
  }
}

}  // namespace

Expected<LessonCatalogue> load_lessons(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  if (ec) return Error{dir.string() + ": cannot list the lessons: " + ec.message()};
  std::sort(files.begin(), files.end());
  std::vector<Lesson> loaded;
  LessonCatalogue catalogue;
  for (const auto& f : files) {
    Expected<Lesson> l = load_lesson(f);
    if (l) {
      loaded.push_back(std::move(*l));
    } else {
      catalogue.problems.push_back(l.error());
    }
  }
  keep_one_lesson_per_name(loaded, catalogue);
  return catalogue;
}

Expected<LessonCatalogue> load_lessons() {
  const Expected<std::filesystem::path> dir = lessons_dir();
  if (!dir) return Error{dir.error()};
  return load_lessons(*dir);
}

Expected<Lesson> find_lesson(std::string_view name) {
  const Expected<std::filesystem::path> dir = lessons_dir();
  if (!dir) return Error{dir.error()};
  Expected<LessonCatalogue> all = load_lessons(*dir);
  if (!all) return Error{all.error()};
  std::string names;
  for (Lesson& l : all->lessons) {
    if (l.name == name) return std::move(l);
    names += (names.empty() ? "" : ", ") + l.name;
  }
  // A file that did not load names itself first in its error.
  const std::string file = (*dir / (std::string(name) + ".toml")).string();
  for (const std::string& problem : all->problems) {
    if (problem.starts_with(file + ":")) return Error{problem};
  }
  return Error{"'" + std::string(name) + "' is not a lesson; the lessons are " + names};
}

// [SECTION] The Markdown handout and a filled step

std::string to_markdown(const Lesson& lesson, std::span<const std::string> images) {
  std::string out = "# " + lesson.title + "\n\n";
  if (!lesson.summary.empty()) out += lesson.summary + "\n\n";
  for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
    const FilledStep f = fill_step(lesson.steps[i]);
    out += "## " + std::to_string(i + 1) + ". " + f.title + "\n\n";
    if (i < images.size() && !images[i].empty())
      out += "![Step " + std::to_string(i + 1) + "](" + images[i] + ")\n\n";
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "*" + std::string.
    out += '*';
    out += describe_step(f);
    out += "*\n\n";
    // Code lines (four spaces) become fenced blocks, which may follow a paragraph directly.
    bool in_code = false;
    std::istringstream lines(f.text);
    for (std::string line; std::getline(lines, line);) {
      const bool code = line.starts_with("    ");
      if (code != in_code) out += code ? "\n```\n" : "```\n\n";
      in_code = code;
      out += (code ? line.substr(4) : line) + "\n";
    }
    if (in_code) out += "```\n";
    out += "\n";
  }
  return out;
}

std::string describe_step(const FilledStep& f) {
  if (f.descriptor) {
    const int boxes = f.descriptor->boxes;
    return format("%s, TMA's %s at byte %lld; %s", to_string(f.study.scenario.tile).c_str(),
                  boxes == 1 ? "box" : format("%d boxes side by side", boxes).c_str(),
                  static_cast<long long>(f.descriptor->dest),
                  describe_descriptor(*f.descriptor).c_str());
  }
  if (!f.code) return describe(f.study.scenario);
  const KernelCode& k = f.code->code;
  const auto& b = f.code->params.block;
  std::string decl = k.array.type + " " + k.array.name;
  for (std::int64_t d : k.array.dims) decl += "[" + std::to_string(d) + "]";
  std::string out = k.access_text + " on __shared__ " + decl + ", block " + std::to_string(b[0]) +
                    "x" + std::to_string(b[1]);
  if (b[2] > 1) out += "x" + std::to_string(b[2]);
  out += ", warp " + std::to_string(k.warp);
  if (f.code->params.warp == kAllWarps) out += " (the worst)";
  if (!f.code->lets.empty()) out += ", " + f.code->lets;
  return out;
}

FilledStep fill_step(const LessonStep& step) {
  FilledStep f;
  f.title = step.title;
  f.study = study(step.scenario);
  f.code = step.code;
  f.descriptor = step.descriptor;
  const Expected<std::string> text =
      fill_text(step.text, f.study, nullptr, step.code ? &*step.code : nullptr,
                step.descriptor ? &*step.descriptor : nullptr);
  f.text = reflow(text ? *text : step.text, 0);
  Highlights& h = f.highlights;
  h.lanes = step.lanes;
  h.banks = step.banks;
  h.rows = step.rows;
  h.elements = step.elements;
  f.show = step.show;
  for (const std::string& name : step.compare)
    f.compare.emplace_back(name, study(find_preset(name)->scenario));
  if (f.study.evaluation.ok()) {
    const Culprits c = busiest(*f.study.evaluation.analysis);
    if (step.busiest_lanes) h.lanes.insert(h.lanes.end(), c.lanes.begin(), c.lanes.end());
    if (step.busiest_banks && c.bank >= 0) h.banks.push_back(c.bank);
  }
  if (step.misaligned_rows) {
    const RowAlignment r = row_alignment(step.scenario.tile, step.scenario.effective_width());
    h.rows.insert(h.rows.end(), r.misaligned.begin(), r.misaligned.end());
  }
  return f;
}

}  // namespace banklab
