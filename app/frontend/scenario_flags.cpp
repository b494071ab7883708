#include "app/frontend/scenario_flags.hpp"

#include <algorithm>
#include <charconv>
#include <climits>

#include "app/frontend/file_io.hpp"
#include "app/frontend/scenario_file.hpp"
#include "core/model/presets.hpp"
#include "core/model/scenario_flags.hpp"

namespace banklab::frontend {
namespace {

// The flags of the scenario form that the raw form does not share.
constexpr std::string_view kScenarioOnly[] = {"scenario", "preset",  "dtype",  "tile",
                                              "pad",      "swizzle", "access", "index"};

// The words of a scenario file, parsed as flags.
constexpr CommandSyntax kFileSyntax{.program = "a scenario file", .groups = kScenarioGroups};

Expected<Args> file_args(std::span<const std::string> words) {
  const std::vector<std::string_view> views(words.begin(), words.end());
  return parse_args(kFileSyntax, views);
}

// "--dtype expects fp8, bf16, fp32 or fp64, got 'fp128'": a value outside a flag's choices.
Error expects(std::string_view flag, std::string_view choices, std::string_view got) {
  return Error{"--" + std::string(flag) + " expects " + std::string(choices) + ", got " +
               quote(got)};
}

// The line of a scenario file that an error is about: the line of the flag the message starts
// with ("--pad expects ..."), else the first line whose flags, read with those above it, give
// the same error.
int line_of_error(const ScenarioFile& file, const std::string& error) {
  for (std::size_t i = 0; i < file.words.size(); ++i) {
    const std::string& word = file.words[i];
    const std::string_view flag = std::string_view(word).substr(0, word.find('='));
    if (error.starts_with(flag) && error.size() > flag.size() &&
        (error[flag.size()] == ' ' || error[flag.size()] == ':')) {
      return file.lines[i];
    }
  }
  for (std::size_t n = 1; n < file.words.size(); ++n) {
    const Expected<Args> prefix = file_args(std::span(file.words).first(n));
    if (!prefix) continue;
    const Expected<Scenario> partial = scenario_from_flags(*prefix);
    if (!partial && partial.error() == error) return file.lines[n - 1];
  }
  return file.lines.empty() ? 1 : file.lines.back();
}

// --scenario FILE: the file's lines, overridden by the other flags given; a value the file gets
// wrong is reported as FILE:LINE.
Expected<Scenario> scenario_from_file(const std::string& path, const Args& args) {
  const Expected<ScenarioFile> file = read_scenario_file(path);
  if (!file) return Error{file.error()};
  const Expected<Args> alone = file_args(file->words);
  if (!alone) return Error{input_name(path) + ": " + alone.error()};
  if (const Expected<Scenario> s = scenario_from_flags(*alone); !s) {
    return Error{input_name(path) + ":" + std::to_string(line_of_error(*file, s.error())) + ": " +
                 s.error()};
  }
  std::vector<std::string> merged;
  for (const std::string& word : file->words) {
    const std::string_view key = std::string_view(word).substr(2, word.find('=') - 2);
    if (!args.has(key)) merged.push_back(word);
  }
  for (std::string_view flag : args.given()) {
    if (flag != "scenario" && is_scenario_flag(flag)) {
      merged.push_back("--" + std::string(flag) + "=" + std::string(*args.value(flag)));
    }
  }
  const Expected<Args> both = file_args(merged);
  if (!both) return Error{both.error()};
  return scenario_from_flags(*both);
}

}  // namespace

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
  if (const auto file = args.value("scenario")) return scenario_from_file(std::string(*file), args);
  if (const auto mixed = mixed_forms(args)) return Error{*mixed};
  if (args.has("offsets")) return custom_from_flags(args);
  // The tile and pattern flags, with core's rules and messages (core/model/scenario_flags.hpp),
  // in core's order: --preset first, then the flags that refine it.
  Scenario s;
  for (std::string_view flag : banklab::kScenarioFlags) {
    const auto text = args.value(flag);
    if (!text) continue;
    Expected<Scenario> next = apply_scenario_flag(std::move(s), flag, *text);
    if (!next) return Error{next.error()};
    s = std::move(*next);
  }
  return s;
}

// The raw form as a custom scenario: the 32 offsets as given, the op, the width and the lanes.
Expected<Scenario> custom_from_flags(const Args& args) {
  Scenario s;
  s.pattern = AccessPattern::custom;
  if (const auto text = args.value("op")) {
    const auto op = parse_op(*text);
    if (!op) {
      return expects("op", "ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4", *text);
    }
    s.op = *op;
  }
  if (const auto text = args.value("width")) {
    const Expected<int> width = parse_width(*text);
    if (!width) return Error{"--width: " + width.error()};
    s.width = *width;
  } else if (is_matrix_op(s.op)) {
    s.width = 16;  // every matrix row address covers 16 bytes
  } else {
    return Error{"--offsets needs --width: the bytes each lane moves (1, 2, 4, 8 or 16)"};
  }
  const Expected<std::array<std::int64_t, kWarpSize>> offsets =
      parse_offsets(*args.value("offsets"));
  if (!offsets) return Error{"--offsets: " + offsets.error()};
  s.custom_offsets = *offsets;
  if (const auto text = args.value("lanes")) {
    const Expected<std::uint32_t> mask = parse_lane_mask(*text);
    if (!mask) return Error{mask.error()};
    s.lane_mask = *mask;
  }
  return s;
}

Expected<WarpAccess> access_from_flags(const Args& args) {
  const Expected<Scenario> s = custom_from_flags(args);
  if (!s) return Error{s.error()};
  WarpAccess access{.op = s->op, .width = s->width, .offsets = s->custom_offsets};
  for (int l = 0; l < kWarpSize; ++l) {
    if ((s->lane_mask >> l & 1u) == 0) access.offsets[static_cast<std::size_t>(l)] = kInactiveLane;
  }
  return access;
}

}  // namespace banklab::frontend
