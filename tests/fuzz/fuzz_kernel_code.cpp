// libFuzzer target over the kernel-code parser and evaluator (kernel_code.hpp) and the
// whole-file scan (scan.hpp): any bytes, as code, must give either a located error or per-lane
// offsets inside the declared array, and as a .cu file either an error or its kernels' counts,
// never a crash, a hang, undefined behaviour or a leak (built with ASan + UBSan, like
// fuzz_core.cpp).
//
// Input format (the seed corpus in tests/fuzz/corpus_kernel_code/ follows it):
//   byte 0    the block and the warp: bits 0-2 pick the block shape, bits 3-7 the warp
//             (31 = every warp)
//   byte 1    the op for a bare access (0 = none, then ld, st, ldmatrix.x1/.x2/.x4, stmatrix.x4)
//             and, in bits 4-7, the value of j (the one --let, j = bits - 8)
//   the rest  the code: before the first byte 0x01 the declaration (--decl), after it the
//             access (--expr); without 0x01, one source holds both
//
// Long code from short inputs (issue 22: 9,000-term sums, 10,000 subscripts, 7,000 chained
// locals, A(n) = A(n-1) + A(n-1) chains): a byte 0x02, a count byte C and a fragment up to the
// next 0x03 (or the end) stand for the fragment written 64 * (C + 1) times (up to 16,384), with
// '$' in each copy replaced by the copy's number (from 1) and '@' by the number before it, so that
// "\x02\xff+1\x03" is a 16,384-term sum and "\x02\x6dint a$ = a@ + 1;\x03" 7,040 chained locals.
//
// Every input runs on a stack of 4 MiB, whatever the machine's limit: a recursion as deep as the
// code is long overflows it and fails the run. The process's main thread runs the inputs, its
// stack bounded by RLIMIT_STACK, which LLVMFuzzerInitialize sets and then starts the program
// again, so that the kernel lays the stack out for that limit (issue 36: a thread of its own
// per input, as before, cost its creation and two hand-overs between threads for every input,
// most of the time of an input on a loaded machine). The time limit is libFuzzer's -timeout
// (scripts/sanitize-and-fuzz.sh gives 20 s an input), the memory limit its -rss_limit_mb
// (2048); the file scan runs under a work budget of kScanSteps statements (the command's is
// 4,000,000: the same code, a quicker input).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/banklab.hpp"
#include "core/code/scan.hpp"
#include "tests/fuzz/require.hpp"

namespace banklab {
namespace {

KernelParams params_from(std::uint8_t b0, std::uint8_t b1) {
  static constexpr std::array<int, 3> kBlocks[] = {{32, 1, 1}, {32, 8, 1},   {16, 16, 1},
                                                   {8, 8, 4},  {1024, 1, 1}, {7, 5, 3},
                                                   {1, 1, 1},  {64, 2, 1}};
  KernelParams p;
  p.block = kBlocks[b0 & 7];
  p.warp = (b0 >> 3) == 31 ? kAllWarps : b0 >> 3;
  if ((b1 & 15) != 0) p.op = kAllOps[((b1 & 15) - 1) % 6];
  p.lets = {{"j", (b1 >> 4) - 8}};
  return p;
}

void check_code(const KernelCode& code) {
  const Scenario& s = code.scenario;
  require(s.pattern == AccessPattern::raw);
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneCode& lane = code.lanes[static_cast<std::size_t>(l)];
    const std::int64_t offset = s.raw_offsets[static_cast<std::size_t>(l)];
    require(lane.active == ((s.lane_mask >> l & 1u) != 0));
    if (!lane.active) continue;
    require(offset == lane.byte);
    require(offset >= 0 && offset + s.effective_width() <= code.array.bytes());
  }
  const Evaluation e = evaluate(s);
  require(e.ok() == !has_error(e.diagnostics));
  if (e.ok()) require(e.analysis->wavefront_count() >= e.analysis->ideal_wavefronts);
  std::string out;
  append_json(out, code);
  require_json(out);
}

constexpr std::size_t kMaxCopies = 16384;
constexpr std::size_t kMaxExpanded = 1 << 20;  // bytes of code after the repetitions
constexpr std::size_t kStackBytes = 4 << 20;
constexpr std::int64_t kScanSteps = 5'000;

// The text as a whole .cu file, every kernel in it scanned with the input's block.
void fuzz_file(std::string_view text, const KernelParams& params) {
  ScanOptions options;
  options.block = params.block;
  options.max_steps = kScanSteps;
  const ScanResult r = scan_source({"fuzz.cu", std::string(text)}, options);
  require(r.error.has_value() == r.kernels.empty());
  for (const KernelScan& k : r.kernels) {
    for (const ScanLine& l : k.lines) {
      require(l.instructions > 0 && l.wavefronts >= l.ideal_wavefronts);
      require(l.excess_wavefronts == l.wavefronts - l.ideal_wavefronts);
    }
    std::string out;
    append_json(out, k);
    require_json(out);
  }
}

// The code with every 0x02 C fragment 0x03 written out (the format above). The fragment is cut
// at its '$' and '@' once; each copy appends the pieces whole, with the numbers between them
// written by std::to_chars, into a string reserved for all the copies. (Cutting every copy again,
// and growing the string as it went, was 15 % of the target's time under ASan: perf, issue 36.)
std::string expand_repetitions(std::string_view text) {
  std::string out;
  while (!text.empty() && out.size() < kMaxExpanded) {
    const std::size_t mark = text.find('\x02');
    out += text.substr(0, mark);
    if (mark == std::string_view::npos || mark + 1 >= text.size()) break;
    const std::size_t copies =
        std::min<std::size_t>(64 * (static_cast<std::uint8_t>(text[mark + 1]) + 1), kMaxCopies);
    text.remove_prefix(mark + 2);
    const std::size_t end = text.find('\x03');
    std::string_view fragment = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    // pieces[k] is followed by a number: the copy's when this_copy[k] ('$'), the one before it
    // otherwise ('@'); the last piece by none.
    const std::size_t fragment_bytes = fragment.size();
    std::vector<std::string_view> pieces;
    std::vector<bool> this_copy;
    for (std::size_t at = fragment.find_first_of("$@"); at != std::string_view::npos;
         at = fragment.find_first_of("$@")) {
      pieces.push_back(fragment.substr(0, at));
      this_copy.push_back(fragment[at] == '$');
      fragment.remove_prefix(at + 1);
    }
    pieces.push_back(fragment);
    out.reserve(std::min(kMaxExpanded, out.size() + copies * (fragment_bytes + 8 * pieces.size())));
    char digits[24];
    for (std::size_t i = 0; i < copies && out.size() < kMaxExpanded; ++i) {
      for (std::size_t k = 0; k + 1 < pieces.size(); ++k) {
        out += pieces[k];
        const std::size_t number = this_copy[k] ? i + 1 : i;
        out.append(digits, std::to_chars(digits, digits + sizeof digits, number).ptr);
      }
      out += pieces.back();
    }
  }
  return out;
}

void fuzz(std::string_view text, const KernelParams& params) {
  const std::size_t split = text.find('\x01');
  std::vector<CodeSource> sources;
  if (split == std::string_view::npos) {
    sources.push_back({"code", std::string(text)});
  } else {
    sources.push_back({"--decl", std::string(text.substr(0, split))});
    sources.push_back({"--expr", std::string(text.substr(split + 1))});
  }
  const CodeResult r = evaluate_code(sources, params);
  require(r.code.has_value() != r.error.has_value());
  if (r.error) {
    require(!r.error->message.empty());
    require(r.error->source < static_cast<int>(sources.size()));
    require(format_code_error(*r.error, sources).find("error: ") != std::string::npos);
  } else {
    check_code(*r.code);
  }
  // The same text as one integer expression: a value prints and reads back as itself.
  const IntResult v = evaluate_integer(text, params.lets);
  require(v.value.has_value() != v.error.has_value());
  if (v.value && *v.value != INT64_MIN) {
    const IntResult again = evaluate_integer(std::to_string(*v.value), {});
    require(again.value == v.value);
  }
  parse_lets(text);
  parse_block(text);
  fuzz_file(text, params);
}

}  // namespace
}  // namespace banklab

// The stack's limit, set before any input runs: where it is not kStackBytes already, it is set
// and the program started again with the same arguments (the kernel places the main thread's
// stack at exec; a limit raised later does not always let it grow). A hard limit below
// kStackBytes cannot be raised by a user: the run stops and says so.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** argv) {
  rlimit limit{};
  banklab::require(getrlimit(RLIMIT_STACK, &limit) == 0);
  if (limit.rlim_cur == banklab::kStackBytes) return 0;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < banklab::kStackBytes) {
    std::fprintf(stderr,
                 "banklab_fuzz_kernel_code: the stack's hard limit (%llu bytes) is below "
                 "the %zu bytes every input runs on\n",
                 static_cast<unsigned long long>(limit.rlim_max), banklab::kStackBytes);
    std::exit(1);
  }
  limit.rlim_cur = banklab::kStackBytes;
  banklab::require(setrlimit(RLIMIT_STACK, &limit) == 0);
  execv("/proc/self/exe", *argv);
  std::perror("banklab_fuzz_kernel_code: cannot start again with a 4 MiB stack: execv");
  std::exit(1);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string code = banklab::expand_repetitions(
      std::string_view(reinterpret_cast<const char*>(data + 2), size - 2));
  banklab::fuzz(code, banklab::params_from(data[0], data[1]));
  return 0;
}
