// banklab analyze: one access as a scenario (a tile and a pattern over it), as 32 raw byte
// offsets, or a batch of raw patterns, one a line (analyze_batch.cpp). All the counting is
// core's; this file turns flags into a Scenario or a WarpAccess and the results into text or
// JSON.
#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyze_batch.hpp"
#include "banklab/banklab.hpp"
#include "commands.hpp"
#include "text_output.hpp"

namespace banklab::cli {
namespace {

// The flags each form accepts beyond its own, so that mixing forms is an error rather than a
// silently ignored flag.
constexpr std::string_view kScenarioOnly[] = {"preset",  "dtype",  "tile", "pad",
                                              "swizzle", "access", "index"};
constexpr std::string_view kBatchFlags[] = {"batch", "json"};

bool listed(std::span<const std::string_view> names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

// "--dtype expects fp8, bf16, fp32 or fp64, got 'fp128'": a value outside a flag's choices.
Error expects(std::string_view flag, std::string_view choices, std::string_view got) {
  return Error{"--" + std::string(flag) + " expects " + std::string(choices) + ", got '" +
               std::string(got) + "'"};
}

// "ffff0000" or "0xffff0000": bit L set = lane L takes part.
Expected<std::uint32_t> parse_lane_mask(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  std::uint32_t mask = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, mask, 16);
  if (digits.empty() || ec == std::errc::invalid_argument || ptr != end) {
    return expects("lanes", "a hexadecimal lane mask such as ffffffff or 0x0000ffff", text);
  }
  if (ec == std::errc::result_out_of_range) {
    return Error{"--lanes " + std::string(text) + " has more than 32 bits; a warp has 32 lanes"};
  }
  return mask;
}

// Prints a result that could not be computed: the one-line reason on stderr, and with --json
// also the diagnostics as a JSON object on stdout, so that a script reading stdout sees why.
int reject(const Args& args, const std::vector<Diagnostic>& diagnostics) {
  if (args.has("json")) {
    std::string out;
    append_json_error(out, diagnostics);
    out += '\n';
    print(out);
  }
  return bad_input(first_error(diagnostics));
}

// A flag whose value cannot be read, as a diagnostic of the rule "usage".
int reject(const Args& args, std::string message) {
  Diagnostic d{.severity = Severity::error, .rule = "usage", .message = std::move(message)};
  return reject(args, std::vector<Diagnostic>{std::move(d)});
}

// --access: "row" and "column" are patterns; "ldmatrix.x4" and the like are the matrix pattern
// with that op.
struct AccessChoice {
  AccessPattern pattern = AccessPattern::column;
  std::optional<Op> matrix_op = {};
};

Expected<AccessChoice> parse_access(std::string_view text) {
  for (AccessPattern p : {AccessPattern::row, AccessPattern::column}) {
    if (text == pattern_name(p)) return AccessChoice{.pattern = p};
  }
  if (const auto op = parse_op(text); op && is_matrix_op(*op)) {
    return AccessChoice{.pattern = AccessPattern::matrix, .matrix_op = op};
  }
  // Custom offsets are not a pattern over the tile: they have a form of their own.
  if (text == pattern_name(AccessPattern::custom)) {
    return Error{"--access custom: give the 32 byte offsets with --offsets instead"};
  }
  return expects("access", "row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4",
                 text);
}

}  // namespace

// Applies the scenario flags on top of `s` (the defaults, or a preset). The first flag that
// cannot be read ends it with a message naming the flag. Shared with gpu-bench --pattern.
Expected<Scenario> scenario_from_flags(const Args& args) {
  Scenario s;
  if (const auto name = args.value("preset")) {
    const Preset* preset = find_preset(*name);
    if (preset == nullptr) return Error{unknown_preset(*name)};
    s = preset->scenario;
  }
  if (const auto text = args.value("dtype")) {
    const auto dtype = parse_dtype(*text);
    if (!dtype) {
      return expects("dtype", "fp8, bf16, fp32 or fp64 (or int8, fp16, half, float, double)",
                     *text);
    }
    s.tile.dtype = *dtype;
  }
  if (const auto text = args.value("tile")) {
    const Expected<Cell> size = parse_tile_size(*text);
    if (!size) return Error{"--tile: " + size.error()};
    s.tile.rows = size->row;
    s.tile.cols = size->col;
  }
  // Whole numbers here; whether they make sense for the tile is core's rule to state.
  const Expected<std::int64_t> pad = args.integer("pad", s.tile.pad, INT_MIN, INT_MAX);
  if (!pad) return Error{pad.error()};
  s.tile.pad = static_cast<int>(*pad);
  if (const auto text = args.value("swizzle")) {
    const Expected<SwizzleSpec> swizzle = parse_swizzle(*text);
    if (!swizzle) return Error{"--swizzle: " + swizzle.error()};
    s.tile.swizzle = *swizzle;
  }
  if (const auto text = args.value("access")) {
    const Expected<AccessChoice> access = parse_access(*text);
    if (!access) return Error{access.error()};
    // Leaving a matrix preset for a row or column read: its ldmatrix op and 16-byte width
    // would not fit, so they go back to the defaults (ld, the element size).
    if (s.pattern == AccessPattern::matrix && access->pattern != AccessPattern::matrix) {
      s.op = Op::ld;
      s.width = 0;
    }
    s.pattern = access->pattern;
    if (access->matrix_op) s.op = *access->matrix_op;
  }
  if (const auto text = args.value("op")) {
    const auto op = parse_op(*text);
    if (!op) return expects("op", "ld or st", *text);
    if (s.pattern == AccessPattern::matrix) {
      if (*op != s.op) {
        return Error{"--op " + std::string(*text) + " does not match --access " +
                     std::string(op_name(s.op)) + ", which is the op (leave --op out)"};
      }
    } else if (is_matrix_op(*op)) {
      return Error{"--op " + std::string(*text) + " is a matrix op: use --access " +
                   std::string(*text) + " for a tile, or --offsets for raw addresses"};
    }
    s.op = *op;
  }
  const Expected<std::int64_t> index = args.integer("index", s.index, INT_MIN, INT_MAX);
  if (!index) return Error{index.error()};
  s.index = static_cast<int>(*index);
  if (const auto text = args.value("width")) {
    const Expected<int> width = parse_width(*text);
    if (!width) return Error{"--width: " + width.error()};
    s.width = *width;
  }
  if (const auto text = args.value("lanes")) {
    const Expected<std::uint32_t> mask = parse_lane_mask(*text);
    if (!mask) return Error{mask.error()};
    s.lane_mask = *mask;
  }
  return s;
}

// The raw form's flags as one access. Shared with gpu-bench --pattern.
Expected<WarpAccess> access_from_flags(const Args& args) {
  WarpAccess access;
  if (const auto text = args.value("op")) {
    const auto op = parse_op(*text);
    if (!op) {
      return expects("op", "ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4", *text);
    }
    access.op = *op;
  }
  if (const auto text = args.value("width")) {
    const Expected<int> width = parse_width(*text);
    if (!width) return Error{"--width: " + width.error()};
    access.width = *width;
  } else if (is_matrix_op(access.op)) {
    access.width = 16;  // every matrix row address covers 16 bytes
  } else {
    return Error{"--offsets needs --width: the bytes each lane moves (1, 2, 4, 8 or 16)"};
  }
  const Expected<std::array<std::int64_t, kWarpSize>> offsets =
      parse_offsets(*args.value("offsets"));
  if (!offsets) return Error{"--offsets: " + offsets.error()};
  access.offsets = *offsets;
  if (const auto text = args.value("lanes")) {
    const Expected<std::uint32_t> mask = parse_lane_mask(*text);
    if (!mask) return Error{mask.error()};
    for (int l = 0; l < kWarpSize; ++l) {
      if ((*mask >> l & 1u) == 0) access.offsets[static_cast<std::size_t>(l)] = kInactiveLane;
    }
  }
  return access;
}

namespace {

int run_scenario(const Args& args) {
  const Expected<Scenario> s = scenario_from_flags(args);
  if (!s) return reject(args, s.error());
  const Evaluation e = evaluate(*s);
  if (!e.ok()) return reject(args, e.diagnostics);
  const Explanation x = explain(*s, e);

  std::string out;
  if (args.has("json")) {
    append_json(out, *s, e, &x);
    out += '\n';
  } else {
    append_report(out, describe(*s), *e.analysis, &e.elements, &s->tile, e.diagnostics, x);
  }
  print(out);
  return kExitOk;
}

int run_raw(const Args& args) {
  const Expected<WarpAccess> access = access_from_flags(args);
  if (!access) return reject(args, access.error());
  const std::vector<Diagnostic> diagnostics = check_access(*access);
  if (has_error(diagnostics)) return reject(args, diagnostics);
  const Analysis a = analyze(*access);

  std::string out;
  if (args.has("json")) {
    append_json(out, a, diagnostics);
    out += '\n';
  } else {
    append_report(out, to_string(*access), a, nullptr, nullptr, diagnostics, explain(a));
  }
  print(out);
  return kExitOk;
}

}  // namespace

int run_analyze(const Args& args) {
  // Which form: --batch, --offsets, or else a scenario. A flag of another form is an error,
  // never silently ignored.
  const bool batch = args.has("batch");
  const bool raw = args.has("offsets");
  for (std::string_view flag : args.given()) {
    if (batch && !listed(kBatchFlags, flag)) {
      return bad_input("--" + std::string(flag) +
                       " cannot be combined with --batch: each batch line gives its own op, "
                       "width and offsets");
    }
    if (raw && listed(kScenarioOnly, flag)) {
      return bad_input("--" + std::string(flag) +
                       " belongs to the scenario form; --offsets gives the 32 byte offsets "
                       "directly");
    }
  }
  if (batch) return run_analyze_batch(*args.value("batch"));
  if (raw) return run_raw(args);
  return run_scenario(args);
}

}  // namespace banklab::cli
