#include "core/model/scenario_flags.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/format.hpp"
#include "core/model/presets.hpp"

namespace banklab {

namespace {

// "--dtype expects fp8, bf16, fp32 or fp64, got 'fp128'": a value outside a flag's choices.
Error expects(std::string_view flag, std::string_view choices, std::string_view got) {
  return Error{"--" + std::string(flag) + " expects " + std::string(choices) + ", got " +
               quote(got)};
}

Expected<int> whole_number(std::string_view flag, std::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  // from_chars rejects a leading '+'; accept it, since "+3" is a number to any reader.
  const char* begin = text.data() + (text.starts_with('+') ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
    return Error{"--" + std::string(flag) + " expects a whole number, got " + quote(text)};
  if (ec == std::errc::result_out_of_range)
    return Error{"--" + std::string(flag) + " must be between " + std::to_string(INT_MIN) +
                 " and " + std::to_string(INT_MAX) + ", got " + shown(text)};
  return value;
}

// --access: "row" and "column" are patterns; "ldmatrix.x4" and the like are the matrix pattern
// with that op.
Expected<Scenario> apply_access(Scenario s, std::string_view text) {
  std::optional<AccessPattern> pattern;
  std::optional<Op> matrix_op;
  for (AccessPattern p : {AccessPattern::row, AccessPattern::column})
    if (text == pattern_name(p)) pattern = p;
  if (const auto op = parse_op(text); op && is_matrix_op(*op)) {
    pattern = AccessPattern::matrix;
    matrix_op = op;
  }
  // Custom offsets are not a pattern over the tile: they have a form of their own.
  if (text == pattern_name(AccessPattern::custom))
    return Error{"--access custom: give the 32 byte offsets with --offsets instead"};
  if (!pattern)
    return expects("access", "row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4",
                   text);
  // Leaving a matrix preset for a row or column read: its ldmatrix op and 16-byte width would
  // not fit, so they go back to the defaults (ld, the element size).
  if (s.pattern == AccessPattern::matrix && *pattern != AccessPattern::matrix) {
    s.op = Op::ld;
    s.width = 0;
  }
  s.pattern = *pattern;
  if (matrix_op) s.op = *matrix_op;
  return s;
}

Expected<Scenario> apply_op(Scenario s, std::string_view text) {
  const auto op = parse_op(text);
  if (!op) return expects("op", "ld or st", text);
  if (s.pattern == AccessPattern::matrix) {
    if (*op != s.op)
      return Error{"--op " + shown(text) + " does not match --access " +
                   std::string(op_name(s.op)) + ", which is the op (leave --op out)"};
  } else if (is_matrix_op(*op)) {
    return Error{"--op " + shown(text) + " is a matrix op: use --access " + shown(text) +
                 " for a tile, or --offsets for raw addresses"};
  }
  s.op = *op;
  return s;
}

}  // namespace

bool is_scenario_flag(std::string_view name) {
  return std::find(std::begin(kScenarioFlags), std::end(kScenarioFlags), name) !=
         std::end(kScenarioFlags);
}

Expected<std::uint32_t> parse_lane_mask(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  std::uint32_t mask = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, mask, 16);
  if (digits.empty() || ec == std::errc::invalid_argument || ptr != end)
    return expects("lanes", "a hexadecimal lane mask such as ffffffff or 0x0000ffff", text);
  if (ec == std::errc::result_out_of_range)
    return Error{"--lanes " + shown(text) + " has more than 32 bits; a warp has 32 lanes"};
  return mask;
}

Expected<Scenario> apply_scenario_flag(Scenario s, std::string_view flag, std::string_view value) {
  if (flag == "preset") {
    const Preset* preset = find_preset(value);
    if (preset == nullptr) return Error{unknown_preset(value)};
    return preset->scenario;
  }
  if (flag == "dtype") {
    const auto dtype = parse_dtype(value);
    if (!dtype)
      return expects("dtype", "fp8, bf16, fp32 or fp64 (or int8, fp16, half, float, double)",
                     value);
    s.tile.dtype = *dtype;
  } else if (flag == "tile") {
    const Expected<Cell> size = parse_tile_size(value);
    if (!size) return Error{"--tile: " + size.error()};
    s.tile.rows = size->row;
    s.tile.cols = size->col;
  } else if (flag == "pad" || flag == "index") {
    // Whole numbers here; whether they make sense for the tile is the scenario's rule to state.
    const Expected<int> n = whole_number(flag, value);
    if (!n) return Error{n.error()};
    (flag == "pad" ? s.tile.pad : s.index) = *n;
  } else if (flag == "swizzle") {
    const Expected<SwizzleSpec> swizzle = parse_swizzle(value);
    if (!swizzle) return Error{"--swizzle: " + swizzle.error()};
    s.tile.swizzle = *swizzle;
  } else if (flag == "access") {
    return apply_access(std::move(s), value);
  } else if (flag == "op") {
    return apply_op(std::move(s), value);
  } else if (flag == "width") {
    const Expected<int> width = parse_width(value);
    if (!width) return Error{"--width: " + width.error()};
    // The raw form's rule (check_access), which the matrix pattern would otherwise pass over.
    if (s.pattern == AccessPattern::matrix && *width != 16) {
      return Error{"--width " + std::to_string(*width) + " does not fit --access " +
                   std::string(op_name(s.op)) +
                   ", which moves one 16-byte row per address (leave --width out)"};
    }
    s.width = *width;
  } else if (flag == "lanes") {
    const Expected<std::uint32_t> mask = parse_lane_mask(value);
    if (!mask) return Error{mask.error()};
    s.lane_mask = *mask;
  } else {
    return Error{"--" + std::string(flag) + " is not a scenario flag"};
  }
  return s;
}

Expected<Scenario> scenario_from_words(std::span<const std::string> words) {
  std::vector<std::pair<std::string, std::string>> given;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (!w.starts_with("--") || w.size() == 2)
      return Error{quote(w) + " is not a flag: a scenario is flags such as --dtype bf16"};
    std::string name = w.substr(2), value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else if (i + 1 < words.size()) {
      value = words[++i];
    } else {
      return Error{"--" + name + " needs a value"};
    }
    if (!is_scenario_flag(name))
      return Error{"--" + name +
                   " is not a scenario flag (preset, dtype, tile, pad, swizzle, "
                   "access, op, index, width, lanes)"};
    for (const auto& [seen, v] : given)
      if (seen == name) return Error{"--" + name + " is given twice"};
    given.emplace_back(std::move(name), std::move(value));
  }
  Scenario s;
  for (std::string_view flag : kScenarioFlags) {
    for (const auto& [name, value] : given) {
      if (name != flag) continue;
      Expected<Scenario> next = apply_scenario_flag(std::move(s), name, value);
      if (!next) return Error{next.error()};
      s = std::move(*next);
    }
  }
  return s;
}

}  // namespace banklab
