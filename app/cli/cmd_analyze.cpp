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
#include "banklab/scenario_flags.hpp"
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

}  // namespace

// Applies the scenario flags on top of `s` (the defaults, or a preset). The first flag that
// cannot be read ends it with a message naming the flag. Shared with gpu-bench --pattern.
Expected<Scenario> scenario_from_flags(const Args& args) {
  Scenario s;
  for (std::string_view flag : kScenarioFlags) {
    const auto text = args.value(flag);
    if (!text) continue;
    Expected<Scenario> next = apply_scenario_flag(std::move(s), flag, *text);
    if (!next) return Error{next.error()};
    s = std::move(*next);
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
