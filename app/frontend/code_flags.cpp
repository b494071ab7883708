#include "app/frontend/code_flags.hpp"

#include <cstdint>

#include "app/frontend/scenario_flags.hpp"
#include "core/base/format.hpp"
#include "core/model/access.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab::frontend {
namespace {

// --warp W|all: a warp's number, or all (the worst one is shown).
Expected<int> read_warp(std::string_view text) {
  if (text == "all") return kAllWarps;
  const Expected<std::int64_t> warp = parse_integer(text, "--warp", 0, 31);
  if (!warp) return Error{warp.error() + " (or all)"};
  return static_cast<int>(*warp);
}

Expected<Op> read_op(std::string_view text) {
  const auto op = parse_op(text);
  if (!op) {
    return Error{"--op expects ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4, got " +
                 quote(text)};
  }
  return *op;
}

// --smem N: the launch's bytes for an extern array; the message names the limit, not only the
// range.
Expected<std::int64_t> read_smem(std::string_view text) {
  Expected<std::int64_t> smem = parse_integer(text, "--smem", 1, kMaxSharedPerBlockBytes);
  if (!smem) {
    return Error{smem.error() + " (the extern __shared__ bytes of one block, up to " +
                 block_limit_text() + ")"};
  }
  return smem;
}

}  // namespace

bool has_code_flags(const Args& args) {
  using Flag = FlagName<kCodeGroup>;
  return args.has(Flag("decl")) || args.has(Flag("expr"));
}

Expected<KernelParams> read_code_params(const Args& args) {
  KernelParams p;
  // --op is the scenario group's: the code form takes it for a bare access.
  return FlagReader<kCodeGroup, kScenarioGroup>(args)
      .value("block", p.block, parse_block)
      .value("warp", p.warp, read_warp)
      .value("let", p.lets, parse_lets)
      .value("smem", p.extern_bytes, read_smem)
      .value("op", p.op, read_op)
      .result(p);
}

}  // namespace banklab::frontend
