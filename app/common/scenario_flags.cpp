#include "scenario_flags.hpp"

#include <algorithm>
#include <charconv>
#include <climits>

#include "banklab/presets.hpp"

namespace banklab::cli {
namespace {

// The flags of the scenario form that the raw form does not share.
constexpr std::string_view kScenarioOnly[] = {"preset",  "dtype",  "tile", "pad",
                                              "swizzle", "access", "index"};

// "--dtype expects fp8, bf16, fp32 or fp64, got 'fp128'": a value outside a flag's choices.
Error expects(std::string_view flag, std::string_view choices, std::string_view got) {
  return Error{"--" + std::string(flag) + " expects " + std::string(choices) + ", got " +
               quote(got)};
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

// --op on top of the pattern: ld or st for a row or column; for the matrix pattern only the
// op --access already named.
Expected<Op> parse_scenario_op(std::string_view text, const Scenario& s) {
  const auto op = parse_op(text);
  if (!op) return expects("op", "ld or st", text);
  if (s.pattern == AccessPattern::matrix) {
    if (*op != s.op) {
      return Error{"--op " + shown(text) + " does not match --access " +
                   std::string(op_name(s.op)) + ", which is the op (leave --op out)"};
    }
  } else if (is_matrix_op(*op)) {
    return Error{"--op " + shown(text) + " is a matrix op: use --access " + shown(text) +
                 " for a tile, or --offsets for raw addresses"};
  }
  return *op;
}

// The tile flags (--preset, --dtype, --tile, --pad, --swizzle) on top of the defaults.
Expected<Scenario> tile_from_flags(const Args& args) {
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
  return s;
}

// The raw form as a custom scenario: the same 32 offsets, op, width and lanes.
Expected<Scenario> custom_from_flags(const Args& args) {
  const Expected<WarpAccess> access = access_from_flags(args);
  if (!access) return Error{access.error()};
  Scenario s;
  s.pattern = AccessPattern::custom;
  s.op = access->op;
  s.width = access->width;
  s.custom_offsets = access->offsets;
  if (const auto text = args.value("lanes")) s.lane_mask = *parse_lane_mask(*text);
  return s;
}

}  // namespace

std::string unknown_preset(std::string_view name) {
  std::string text = quote(name);
  text += " is not a preset; the presets are ";
  bool first = true;
  for (const Preset& p : presets()) {
    if (!first) text += ", ";
    text += p.name;
    first = false;
  }
  return text;
}

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
    return Error{"--lanes " + shown(text) + " has more than 32 bits; a warp has 32 lanes"};
  }
  return mask;
}

bool is_scenario_flag(std::string_view name) {
  return std::ranges::find(kScenarioFlags, name, &FlagSpec::name) != std::end(kScenarioFlags) ||
         std::ranges::find(kOffsetsFlags, name, &FlagSpec::name) != std::end(kOffsetsFlags);
}

bool has_scenario_flags(const Args& args) {
  return std::ranges::any_of(args.given(), is_scenario_flag);
}

std::optional<std::string> mixed_forms(const Args& args) {
  if (!args.has("offsets")) return std::nullopt;
  for (std::string_view flag : args.given()) {
    if (std::ranges::find(kScenarioOnly, flag) != std::end(kScenarioOnly)) {
      return "--" + std::string(flag) +
             " belongs to the scenario form; --offsets gives the 32 byte offsets directly";
    }
  }
  return std::nullopt;
}

Expected<Scenario> scenario_from_flags(const Args& args) {
  if (const auto mixed = mixed_forms(args)) return Error{*mixed};
  if (args.has("offsets")) return custom_from_flags(args);
  Expected<Scenario> tile = tile_from_flags(args);
  if (!tile) return tile;
  Scenario& s = *tile;
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
    const Expected<Op> op = parse_scenario_op(*text, s);
    if (!op) return Error{op.error()};
    s.op = *op;
  }
  const Expected<std::int64_t> index = args.integer("index", s.index, INT_MIN, INT_MAX);
  if (!index) return Error{index.error()};
  s.index = static_cast<int>(*index);
  if (const auto text = args.value("width")) {
    const Expected<int> width = parse_width(*text);
    if (!width) return Error{"--width: " + width.error()};
    // The raw form's rule (check_access), which the matrix pattern would otherwise pass over.
    if (s.pattern == AccessPattern::matrix && *width != 16) {
      return Error{"--width " + std::to_string(*width) + " does not fit --access " +
                   std::string(op_name(s.op)) +
                   ", which moves one 16-byte row per address (leave --width out)"};
    }
    s.width = *width;
  }
  if (const auto text = args.value("lanes")) {
    const Expected<std::uint32_t> mask = parse_lane_mask(*text);
    if (!mask) return Error{mask.error()};
    s.lane_mask = *mask;
  }
  return tile;
}

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

}  // namespace banklab::cli
