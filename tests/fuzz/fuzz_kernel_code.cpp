// libFuzzer target over the kernel-code parser and evaluator (kernel_code.hpp): any bytes, as
// code, must give either a located error or per-lane offsets inside the declared array, never a
// crash, a hang, undefined behaviour or a leak (built with ASan + UBSan, like fuzz_core.cpp).
//
// Input format (the seed corpus in tests/fuzz/corpus_kernel_code/ follows it):
//   byte 0    the block and the warp: bits 0-2 pick the block shape, bits 3-7 the warp
//             (31 = every warp)
//   byte 1    the op for a bare access (0 = none, then ld, st, ldmatrix.x1/.x2/.x4, stmatrix.x4)
//             and, in bits 4-7, the value of j (the one --let, j = bits - 8)
//   the rest  the code: before the first byte 0x01 the declaration (--decl), after it the
//             access (--expr); without 0x01, one source holds both
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/banklab.hpp"

#if __has_include(<nlohmann/json.hpp>)
#include <nlohmann/json.hpp>
#define BANKLAB_FUZZ_VALIDATE_JSON 1
#endif

namespace banklab {
namespace {

void require(bool property) {
  if (!property) std::abort();
}

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
  require(s.pattern == AccessPattern::custom);
  for (int l = 0; l < kWarpSize; ++l) {
    const LaneCode& lane = code.lanes[static_cast<std::size_t>(l)];
    const std::int64_t offset = s.custom_offsets[static_cast<std::size_t>(l)];
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
#ifdef BANKLAB_FUZZ_VALIDATE_JSON
  require(nlohmann::json::accept(out));
#endif
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
}

}  // namespace
}  // namespace banklab

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const banklab::KernelParams params = banklab::params_from(data[0], data[1]);
  banklab::fuzz(std::string_view(reinterpret_cast<const char*>(data + 2), size - 2), params);
  return 0;
}
