#include "app/frontend/code_flags.hpp"

#include <utility>

#include "core/model/access.hpp"
#include "core/model/hardware.hpp"
#include "core/model/shared_limits.hpp"

namespace banklab::frontend {

bool has_code_flags(const Args& args) {
  return args.has("decl") || args.has("expr");
}

Expected<KernelParams> code_params_from_flags(const Args& args) {
  KernelParams p;
  if (const auto text = args.value("block")) {
    const Expected<std::array<int, 3>> block = parse_block(*text);
    if (!block) return Error{block.error()};
    p.block = *block;
  }
  if (const auto text = args.value("warp"); text && *text == "all") {
    p.warp = kAllWarps;
  } else {
    const Expected<std::int64_t> warp = args.integer("warp", 0, 0, 31);
    if (!warp) return Error{warp.error() + " (or all)"};
    p.warp = static_cast<int>(*warp);
  }
  if (const auto text = args.value("let")) {
    auto lets = parse_lets(*text);
    if (!lets) return Error{lets.error()};
    p.lets = std::move(*lets);
  }
  const Expected<std::int64_t> smem =
      args.integer("smem", kMaxSharedPerBlockBytes, 1, kMaxSharedPerBlockBytes);
  // The launch's bytes for an extern array: name the limit, not only the range.
  if (!smem)
    return Error{smem.error() + " (the extern __shared__ bytes of one block, up to " +
                 block_limit_text() + ")"};
  p.extern_bytes = *smem;
  if (const auto text = args.value("op")) {
    const auto op = parse_op(*text);
    if (!op)
      return Error{
          "--op expects ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or "
          "stmatrix.x4, got " +
          quote(*text)};
    p.op = op;
  }
  return p;
}

}  // namespace banklab::frontend
