#include "core/model/scenario_keys.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/find.hpp"
#include "core/base/format.hpp"
#include "core/model/presets.hpp"

namespace banklab {
namespace {

// "--dtype expects fp8, bf16, fp32 or fp64, got 'fp128'": a value outside a flag's choices.
Error expects(std::string_view flag, std::string_view choices, std::string_view got) {
  return Error{"--" + std::string(flag) + " expects " + std::string(choices) + ", got " +
               quote(got)};
}

// Whole numbers here; whether they make sense for the tile is the scenario's rule to state.
Expected<int> flag_whole_number(std::string_view flag, std::string_view text) {
  const Expected<std::int64_t> n = parse_integer(text, "--" + std::string(flag), INT_MIN, INT_MAX);
  if (!n) return Error{n.error()};
  return static_cast<int>(*n);
}

}  // namespace

namespace scenario_key {

Expected<Scenario> read_preset(Scenario, std::string_view value) {
  const Preset* preset = find_preset(value);
  if (preset == nullptr) return Error{unknown_preset(value)};
  return preset->scenario;
}

Expected<DType> dtype_of(std::string_view value) {
  const auto dtype = parse_dtype(value);
  if (!dtype) {
    return expects("dtype", "fp8, bf16, fp32 or fp64 (or int8, fp16, half, float, double)", value);
  }
  return *dtype;
}

Expected<Cell> tile_of(std::string_view value) {
  const Expected<Cell> size = parse_tile_size(value);
  if (!size) return Error{"--tile: " + size.error()};
  return size;
}

Expected<Scenario> read_dtype(Scenario s, std::string_view value) {
  const Expected<DType> dtype = dtype_of(value);
  if (!dtype) return Error{dtype.error()};
  s.tile.dtype = *dtype;
  return s;
}

Expected<Scenario> read_tile(Scenario s, std::string_view value) {
  const Expected<Cell> size = tile_of(value);
  if (!size) return Error{size.error()};
  s.tile.rows = size->row;
  s.tile.cols = size->col;
  return s;
}

Expected<Scenario> read_pad(Scenario s, std::string_view value) {
  const Expected<int> n = flag_whole_number("pad", value);
  if (!n) return Error{n.error()};
  s.tile.pad = *n;
  return s;
}

Expected<Scenario> read_swizzle(Scenario s, std::string_view value) {
  const Expected<SwizzleSpec> swizzle = parse_swizzle(value);
  if (!swizzle) return Error{"--swizzle: " + swizzle.error()};
  s.tile.swizzle = *swizzle;
  return s;
}

// "row" and "column" are patterns; "ldmatrix.x4" and the like are the matrix pattern with that
// op.
Expected<Scenario> read_access(Scenario s, std::string_view value) {
  std::optional<AccessPattern> pattern;
  std::optional<Op> matrix_op;
  for (AccessPattern p : {AccessPattern::row, AccessPattern::column})
    if (value == pattern_name(p)) pattern = p;
  if (const auto op = parse_op(value); op && is_matrix_op(*op)) {
    pattern = AccessPattern::matrix;
    matrix_op = op;
  }
  // The raw form is not a pattern over the tile: it has flags of its own. "custom" is its name
  // in the JSON (kPatterns), so a script may try it; "raw" is its name in the help.
  if (value == pattern_name(AccessPattern::raw) || value == "raw")
    return Error{"--access " + std::string(value) +
                 ": give the 32 byte offsets with --offsets instead (the raw form)"};
  if (!pattern)
    return expects("access", "row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4",
                   value);
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

Expected<Scenario> read_index(Scenario s, std::string_view value) {
  const Expected<int> n = flag_whole_number("index", value);
  if (!n) return Error{n.error()};
  s.index = *n;
  return s;
}

Expected<Scenario> read_width(Scenario s, std::string_view value) {
  const Expected<int> width = parse_width(value);
  if (!width) return Error{"--width: " + width.error()};
  // The raw form's rule (check_access), which the matrix pattern would otherwise pass over.
  if (s.pattern == AccessPattern::matrix && *width != 16) {
    return Error{"--width " + std::to_string(*width) + " does not fit --access " +
                 std::string(op_name(s.op)) +
                 ", which moves one 16-byte row per address (leave --width out)"};
  }
  s.width = *width;
  return s;
}

// The raw form takes any op; the scenario form takes ld or st, the matrix ops being accesses.
Expected<Scenario> read_op(Scenario s, std::string_view value) {
  const auto op = parse_op(value);
  if (s.pattern == AccessPattern::raw) {
    if (!op) {
      return expects("op", "ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4", value);
    }
  } else if (!op) {
    return expects("op", "ld or st", value);
  } else if (s.pattern == AccessPattern::matrix) {
    if (*op != s.op)
      return Error{"--op " + shown(value) + " does not match --access " +
                   std::string(op_name(s.op)) + ", which is the op (leave --op out)"};
  } else if (is_matrix_op(*op)) {
    return Error{"--op " + shown(value) + " is a matrix op: use --access " + shown(value) +
                 " for a tile, or --offsets for raw addresses"};
  }
  s.op = *op;
  return s;
}

Expected<Scenario> read_lanes(Scenario s, std::string_view value) {
  const Expected<std::uint32_t> mask = parse_lane_mask(value);
  if (!mask) return Error{mask.error()};
  s.lane_mask = *mask;
  return s;
}

Expected<Scenario> read_offsets(Scenario s, std::string_view value) {
  const Expected<std::array<std::int64_t, kWarpSize>> offsets = parse_offsets(value);
  if (!offsets) return Error{"--offsets: " + offsets.error()};
  s.raw_offsets = *offsets;
  return s;
}

// A scenario of the raw form is written as its offsets, op, width and lanes; one of the
// scenario form as everything else.
namespace {
bool raw_form(const Scenario& s) {
  return s.pattern == AccessPattern::raw;
}
}  // namespace

std::optional<std::string> print_dtype(const Scenario& s) {
  if (raw_form(s)) return std::nullopt;
  return std::string(dtype_name(s.tile.dtype));
}

std::optional<std::string> print_tile(const Scenario& s) {
  if (raw_form(s)) return std::nullopt;
  return std::to_string(s.tile.rows) + "x" + std::to_string(s.tile.cols);
}

std::optional<std::string> print_pad(const Scenario& s) {
  if (raw_form(s)) return std::nullopt;
  return std::to_string(s.tile.pad);
}

std::optional<std::string> print_swizzle(const Scenario& s) {
  if (raw_form(s)) return std::nullopt;
  return to_string(s.tile.swizzle);
}

std::optional<std::string> print_access(const Scenario& s) {
  if (raw_form(s)) return std::nullopt;
  return std::string(s.pattern == AccessPattern::matrix ? op_name(s.op) : pattern_name(s.pattern));
}

std::optional<std::string> print_index(const Scenario& s) {
  if (raw_form(s)) return std::nullopt;
  return std::to_string(s.index);
}

// A raw scenario always has a width (its offsets mean nothing without one); a tile
// scenario's 0 is "the element size", left out.
std::optional<std::string> print_width(const Scenario& s) {
  if (raw_form(s)) return std::to_string(s.effective_width());
  if (s.width == 0) return std::nullopt;
  return std::to_string(s.width);
}

// The matrix pattern's op is its access.
std::optional<std::string> print_op(const Scenario& s) {
  if (s.pattern == AccessPattern::matrix) return std::nullopt;
  return std::string(op_name(s.op));
}

std::optional<std::string> print_lanes(const Scenario& s) {
  return lane_mask_hex(s.lane_mask);
}

std::optional<std::string> print_offsets(const Scenario& s) {
  if (!raw_form(s)) return std::nullopt;
  std::string offsets;
  for (std::int64_t o : s.raw_offsets) {
    if (!offsets.empty()) offsets += ',';
    offsets += std::to_string(o);
  }
  return offsets;
}

}  // namespace scenario_key

const ScenarioKey* find_scenario_key(std::string_view name) {
  const auto* key = find_by(kScenarioKeys, &ScenarioKey::name, name);
  return key == std::end(kScenarioKeys) ? nullptr : key;
}

std::string scenario_key_names() {
  std::string names;
  for (const ScenarioKey& key : kScenarioKeys) {
    if (!names.empty()) names += ", ";
    names += key.name;
  }
  return names;
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

namespace {

// "FILE:LINE: " before an error about a file's line; nothing before one about a flag.
Error error_at(const KeyValue& v, std::string_view origin, const std::string& message) {
  if (v.line == 0) return Error{message};
  return Error{std::string(origin) + ":" + std::to_string(v.line) + ": " + message};
}

const KeyValue* find_value(std::span<const KeyValue> values, std::string_view key) {
  const auto v = find_by(values, &KeyValue::key, key);
  return v == values.end() ? nullptr : &*v;
}

}  // namespace

Expected<void> check_one_form(std::span<const KeyValue> values, std::string_view origin) {
  if (find_value(values, "offsets") == nullptr) return {};
  for (const KeyValue& v : values) {
    const ScenarioKey* key = find_scenario_key(v.key);
    if (key != nullptr && key->form == KeyForm::scenario) {
      return error_at(
          v, origin,
          "--" + v.key +
              " belongs to the scenario form; --offsets gives the 32 byte offsets directly");
    }
  }
  return {};
}

Expected<Scenario> scenario_from_keys(std::span<const KeyValue> values, std::string_view origin) {
  for (const KeyValue& v : values) {
    if (find_scenario_key(v.key) == nullptr) {
      return error_at(v, origin, "--" + v.key + " is not a scenario flag");
    }
  }
  if (const Expected<void> one = check_one_form(values, origin); !one) return Error{one.error()};
  // The raw form starts from a Scenario of AccessPattern::raw, so that op and width read with
  // its rules. Its width is needed unless the op is a matrix op (16 bytes a lane): said before
  // the offsets are read, after an op that cannot be read.
  const KeyValue* offsets = find_value(values, "offsets");
  Scenario s;
  if (offsets != nullptr) {
    s.pattern = AccessPattern::raw;
    const KeyValue* op = find_value(values, "op");
    const std::optional<Op> parsed = op != nullptr ? parse_op(op->value) : Op::ld;
    if (find_value(values, "width") == nullptr && parsed && !is_matrix_op(*parsed)) {
      return error_at(*offsets, origin,
                      "--offsets needs --width: the bytes each lane moves (1, 2, 4, 8 or 16)");
    }
  }
  for (const ScenarioKey& key : kScenarioKeys) {
    const KeyValue* v = find_value(values, key.name);
    if (v == nullptr) continue;
    Expected<Scenario> next = key.read(std::move(s), v->value);
    if (!next) return error_at(*v, origin, next.error());
    s = std::move(*next);
  }
  if (offsets != nullptr && s.width == 0) s.width = 16;  // a matrix row address covers 16 B
  return s;
}

std::vector<KeyValue> scenario_key_values(const Scenario& s) {
  std::vector<KeyValue> out;
  for (const ScenarioKey& key : kScenarioKeys) {
    if (key.print == nullptr) continue;
    if (std::optional<std::string> value = key.print(s)) {
      out.push_back({.key = std::string(key.name), .value = std::move(*value), .kind = key.kind});
    }
  }
  return out;
}

std::vector<std::string> scenario_words(const Scenario& s,
                                        std::span<const ScenarioKey* const> keys) {
  std::vector<std::string> words;
  for (const ScenarioKey* key : keys) {
    if (key->print == nullptr) continue;
    if (std::optional<std::string> value = key->print(s)) {
      words.push_back("--" + std::string(key->name));
      words.push_back(std::move(*value));
    }
  }
  return words;
}

Expected<Scenario> scenario_from_words(std::span<const std::string> words) {
  std::vector<KeyValue> given;
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
    if (find_scenario_key(name) == nullptr) {
      return Error{"--" + name + " is not a scenario flag (" + scenario_key_names() + ")"};
    }
    if (find_by(given, &KeyValue::key, name) != given.end())
      return Error{"--" + name + " is given twice"};
    given.push_back({.key = std::move(name), .value = std::move(value)});
  }
  return scenario_from_keys(given);
}

}  // namespace banklab
