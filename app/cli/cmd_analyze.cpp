// banklab analyze: one access as a scenario (a tile and a pattern over it), as 32 raw byte
// offsets, or a batch of raw patterns, one a line. All the counting is core's; this file turns
// flags into a Scenario or a WarpAccess and the results into text or JSON.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "banklab/banklab.hpp"
#include "commands.hpp"
#include "text_output.hpp"

namespace banklab::cli {
namespace {

// The flags each form accepts beyond its own, so that mixing forms is an error rather than a
// silently ignored flag.
constexpr std::string_view kScenarioOnly[] = {"preset", "dtype", "tile", "pad",
                                              "swizzle", "access", "index"};
constexpr std::string_view kBatchFlags[] = {"batch", "json"};

bool listed(std::span<const std::string_view> names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

// "ffff0000" or "0xffff0000": bit L set = lane L takes part.
Expected<std::uint32_t> parse_lane_mask(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  std::uint32_t mask = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, mask, 16);
  if (digits.empty() || ec == std::errc::invalid_argument || ptr != end) {
    return Error{"--lanes expects a hexadecimal lane mask such as ffffffff or 0x0000ffff, got '" +
                 std::string(text) + "'"};
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

int reject(const Args& args, std::string message, std::string rule = "usage") {
  return reject(args, {Diagnostic{.severity = Severity::error,
                                  .rule = std::move(rule),
                                  .message = std::move(message)}});
}

// ---------------------------------------------------------------------------------------------
// Scenario form

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
  return Error{"--access expects row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or "
               "stmatrix.x4, got '" + std::string(text) +
               "' (for 32 explicit byte offsets use --offsets)"};
}

// Applies the scenario flags on top of `s` (the defaults, or a preset). The first flag that
// cannot be read ends it with a message naming the flag.
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
      return Error{"--dtype expects fp8, bf16, fp32 or fp64 (or int8, fp16, half, float, "
                   "double), got '" + std::string(*text) + "'"};
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
    if (!op) return Error{"--op expects ld or st, got '" + std::string(*text) + "'"};
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

// ---------------------------------------------------------------------------------------------
// Raw form

Expected<WarpAccess> access_from_flags(const Args& args) {
  WarpAccess access;
  if (const auto text = args.value("op")) {
    const auto op = parse_op(*text);
    if (!op) {
      return Error{"--op expects ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4, "
                   "got '" + std::string(*text) + "'"};
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

// ---------------------------------------------------------------------------------------------
// Batch form
//
// Speed matters here (100,000 patterns in well under a second as a whole process): the input
// is read in one piece, lines are views into it, one output string is reused and written in
// large blocks, and a good line allocates nothing but what analyze() itself needs.

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

// Reads all of `file`; false on a read error.
bool read_all(std::FILE* file, std::string& data) {
  char block[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(block, 1, sizeof block, file)) > 0) data.append(block, n);
  return std::ferror(file) == 0;
}

bool is_blank_or_comment(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

// A bad line's diagnostics, each message prefixed with where it came from.
std::vector<Diagnostic> located(std::vector<Diagnostic> diagnostics, std::size_t line_number) {
  for (Diagnostic& d : diagnostics) {
    d.message = "line " + std::to_string(line_number) + ": " + d.message;
  }
  return diagnostics;
}

int run_batch(const Args& args) {
  const std::string_view source = *args.value("batch");
  std::string data;
  if (source == "-") {
    if (!read_all(stdin, data)) return failure("cannot read standard input");
  } else {
    std::FILE* file = std::fopen(std::string(source).c_str(), "rb");
    // A name that cannot be opened is the user's to fix: bad input, not an environment failure.
    if (file == nullptr) {
      return bad_input("cannot open --batch file '" + std::string(source) +
                       "': " + std::strerror(errno));
    }
    const bool ok = read_all(file, data);
    std::fclose(file);
    if (!ok) return failure("cannot read --batch file '" + std::string(source) + "'");
  }

  std::string out;
  out.reserve(kFlushBytes + (std::size_t{64} << 10));
  std::size_t patterns = 0;
  std::size_t bad = 0;
  std::string first_bad;
  std::string_view rest = data;
  for (std::size_t line_number = 1; !rest.empty(); ++line_number) {
    const std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (is_blank_or_comment(line)) continue;
    ++patterns;

    std::vector<Diagnostic> diagnostics;
    const Expected<WarpAccess> access = parse_pattern_line(line);
    if (access) diagnostics = check_access(*access);
    else diagnostics.push_back({.severity = Severity::error, .rule = "syntax",
                                .message = access.error()});
    if (!access || has_error(diagnostics)) {
      diagnostics = located(std::move(diagnostics), line_number);
      if (bad++ == 0) first_bad = first_error(diagnostics);
      append_json_error(out, diagnostics);
    } else {
      append_json(out, analyze(*access), diagnostics);
    }
    out += '\n';
    if (out.size() >= kFlushBytes) {
      print(out);
      out.clear();
    }
  }
  print(out);
  if (bad > 0) {
    return bad_input(std::to_string(bad) + " of " + std::to_string(patterns) +
                     " batch patterns were bad; the first, " + first_bad);
  }
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
  if (batch) return run_batch(args);
  if (raw) return run_raw(args);
  return run_scenario(args);
}

}  // namespace banklab::cli
