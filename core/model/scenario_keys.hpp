#pragma once
// One table of the keys that name a scenario in text, each with how it reads its value onto a
// scenario and how it prints it back. The same keys are the scenario flags of banklab and
// banklab-gui (--dtype bf16; their --help lines are here too: app/frontend/scenario_flags.hpp),
// the lines of a scenario file (dtype = "bf16": app/frontend/scenario_file.hpp) and a lesson
// step's args (["--dtype", "bf16"]), so all three read a value with one set of rules and one
// set of messages.
//
// A scenario is named in one of two forms, as --help and the errors call them: the scenario form,
// a tile and an access pattern over it (every key but offsets), or the raw form, 32 raw byte
// offsets (offsets, with op, width and lanes; AccessPattern::raw in a Scenario). The table's
// order is the order the keys apply in: preset first (it replaces the whole scenario), then the
// tile, then the access, so "--preset X --pad 2" and "--pad 2 --preset X" mean the same.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/expected.hpp"
#include "core/base/key_value_file.hpp"
#include "core/model/scenario.hpp"

namespace banklab {

// Each key's reader and printer (scenario_keys.cpp). A reader applies one value to `s`; its
// Error names the flag and the value ("--pad expects a whole number, got 'two'"). A printer
// gives the value a scenario file writes for `s`, or nullopt where the key is left out.
namespace scenario_key {
// The element type and the tile size, as --dtype and --tile read them (banklab solve too).
Expected<DType> dtype_of(std::string_view value);
Expected<Cell> tile_of(std::string_view value);

Expected<Scenario> read_preset(Scenario s, std::string_view value);
Expected<Scenario> read_dtype(Scenario s, std::string_view value);
Expected<Scenario> read_tile(Scenario s, std::string_view value);
Expected<Scenario> read_pad(Scenario s, std::string_view value);
Expected<Scenario> read_swizzle(Scenario s, std::string_view value);
Expected<Scenario> read_access(Scenario s, std::string_view value);
Expected<Scenario> read_index(Scenario s, std::string_view value);
Expected<Scenario> read_width(Scenario s, std::string_view value);
Expected<Scenario> read_op(Scenario s, std::string_view value);
Expected<Scenario> read_lanes(Scenario s, std::string_view value);
Expected<Scenario> read_offsets(Scenario s, std::string_view value);
std::optional<std::string> print_dtype(const Scenario& s);
std::optional<std::string> print_tile(const Scenario& s);
std::optional<std::string> print_pad(const Scenario& s);
std::optional<std::string> print_swizzle(const Scenario& s);
std::optional<std::string> print_access(const Scenario& s);
std::optional<std::string> print_index(const Scenario& s);
std::optional<std::string> print_width(const Scenario& s);
std::optional<std::string> print_op(const Scenario& s);
std::optional<std::string> print_lanes(const Scenario& s);
std::optional<std::string> print_offsets(const Scenario& s);
}  // namespace scenario_key

// Which form of a scenario a key belongs to.
enum class KeyForm : std::uint8_t { scenario, raw, both };

struct ScenarioKey {
  std::string_view name;        // "dtype": the flag --dtype, the file's key
  std::string_view value_name;  // "D", as --help shows it: --dtype D
  std::string_view help;        // the --help line(s)
  KeyForm form;
  ValueKind kind;  // how a scenario file writes the value: "bf16" in quotes, 1, [0, 128, ...]
  Expected<Scenario> (*read)(Scenario s, std::string_view value);
  std::optional<std::string> (*print)(const Scenario& s);  // nullptr: never written (preset)
};

inline constexpr ScenarioKey kScenarioKeys[] = {
    {"preset", "NAME", "start from a preset (banklab presets); the flags below override it",
     KeyForm::scenario, ValueKind::text, scenario_key::read_preset, nullptr},
    {"dtype", "D", "fp8|int8, bf16|fp16, fp32|float, fp64|double          (default fp32)",
     KeyForm::scenario, ValueKind::text, scenario_key::read_dtype, scenario_key::print_dtype},
    {"tile", "RxC", "rows x columns in elements                             (default 32x32)",
     KeyForm::scenario, ValueKind::text, scenario_key::read_tile, scenario_key::print_tile},
    {"pad", "P", "elements appended to every row                         (default 0)",
     KeyForm::scenario, ValueKind::number, scenario_key::read_pad, scenario_key::print_pad},
    {"swizzle", "S",
     "none; xor (column c ^ r); cute:B,M,S on byte offsets;\n"
     "cute-elem:B,M,S on element indices (M + log2 e in bytes); tma32, tma64,\n"
     "tma128 (a narrower box row sits at span pitch); tma128-atom32, tma128-atom64\n"
     "(Blackwell; predicted: not measured on Blackwell); triton:VEC,PERPHASE,MAXPHASE\n"
     "(VEC in elements, PERPHASE in rows)                    (default none)",
     KeyForm::scenario, ValueKind::text, scenario_key::read_swizzle, scenario_key::print_swizzle},
    {"access", "A",
     "row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, stmatrix.x4\n"
     "                                                       (default column)",
     KeyForm::scenario, ValueKind::text, scenario_key::read_access, scenario_key::print_access},
    {"index", "N", "the row, column or 16-byte chunk the warp reads        (default 0)",
     KeyForm::scenario, ValueKind::number, scenario_key::read_index, scenario_key::print_index},
    {"width", "BYTES",
     "bytes per lane: 1, 2, 4, 8 or 16                (default: the element size)", KeyForm::both,
     ValueKind::number, scenario_key::read_width, scenario_key::print_width},
    {"op", "OP", "ld or st; implied by ldmatrix/stmatrix                 (default ld)",
     KeyForm::both, ValueKind::text, scenario_key::read_op, scenario_key::print_op},
    {"lanes", "MASK", "hex mask of the lanes that take part (bit L = lane L)  (default ffffffff)",
     KeyForm::both, ValueKind::number, scenario_key::read_lanes, scenario_key::print_lanes},
    {"offsets", "LIST",
     "32 comma-separated byte offsets, -1 for a lane that takes no part;\n"
     "with --op ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4,\n"
     "--width BYTES (16 for the matrix ops, and the default for them), --lanes",
     KeyForm::raw, ValueKind::list, scenario_key::read_offsets, scenario_key::print_offsets},
};

// The key of that name, for code that names one: a name that is not a key does not compile.
consteval const ScenarioKey& named_key(std::string_view name) {
  for (const ScenarioKey& k : kScenarioKeys) {
    if (k.name == name) return k;
  }
  throw "named_key: not a key of kScenarioKeys";
}

// The key of that name ("dtype"), or nullptr.
const ScenarioKey* find_scenario_key(std::string_view name);
// "preset, dtype, tile, ...": every key, for messages.
std::string scenario_key_names();

// The scenario the keys give, each at most once, in any order: the raw form when offsets is
// among them (a key of the scenario form beside it is an error), else the scenario form from the
// defaults; then every key applied in table order. An error names the flag and the value, and
// for a value from a file's line starts "ORIGIN:LINE: " (origin: the file's name).
Expected<Scenario> scenario_from_keys(std::span<const KeyValue> values,
                                      std::string_view origin = {});

// With offsets among the keys, no key of the scenario form beside it: the error names the first one
// ("--tile belongs to the scenario form; ..."), at its line as scenario_from_keys() says it.
Expected<void> check_one_form(std::span<const KeyValue> values, std::string_view origin = {});

// The keys a scenario file writes for `s`, in table order (line 0): a raw scenario keeps only
// what its analysis uses (offsets, width, op, lanes; a width of 0 written as the bytes it
// means), a tile scenario everything else but preset. scenario_from_keys() gives `s` back.
std::vector<KeyValue> scenario_key_values(const Scenario& s);

// `s` as command-line words, "--pad", "1", ...: each of `keys` in the order given, its value
// as its printer writes it (a key whose printer leaves it out for `s` is skipped). Where a
// scenario is shown as flags to type (a drill's bank view, a solver's layout), the caller
// picks the keys a reader needs; the table spells them.
std::vector<std::string> scenario_words(const Scenario& s,
                                        std::span<const ScenarioKey* const> keys);

// Words as a command line gives them, "--flag value" or "--flag=value" (a lesson step's args):
// every word a key's flag, each at most once.
Expected<Scenario> scenario_from_words(std::span<const std::string> words);

// "ffff0000" or "0xffff0000": bit L set = lane L takes part.
Expected<std::uint32_t> parse_lane_mask(std::string_view text);

}  // namespace banklab
