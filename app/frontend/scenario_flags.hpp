#pragma once
// The scenario flags, declared once and shared by banklab analyze, explain, gpu-bench --pattern
// and banklab-gui: a tile and an access pattern over it (--preset --dtype --tile --pad --swizzle
// --access --index --width --op --lanes), or 32 raw byte offsets (--offsets with --op, --width
// and --lanes). The values are read by core's parsers (parse_dtype, parse_tile_size,
// parse_swizzle, parse_width, parse_op, parse_offsets); this file only adds the flag names to
// their messages and the rules between flags.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "app/frontend/args.hpp"
#include "core/base/expected.hpp"
#include "core/model/access.hpp"
#include "core/model/scenario.hpp"

namespace banklab::frontend {

// The element type and the tile, also flags of banklab solve.
inline constexpr FlagSpec kDtypeFlag{
    "dtype", "D", "fp8|int8, bf16|fp16, fp32|float, fp64|double          (default fp32)"};
inline constexpr FlagSpec kTileFlag{
    "tile", "RxC", "rows x columns in elements                             (default 32x32)"};
inline constexpr FlagSpec kScenarioFlags[] = {
    {"scenario", "FILE",
     "start from a scenario file (key = value lines, the flags below); - reads\n"
     "it from standard input"},
    {"preset", "NAME", "start from a preset (banklab presets); the flags below override it"},
    kDtypeFlag,
    kTileFlag,
    {"pad", "P", "elements appended to every row                         (default 0)"},
    {"swizzle", "S",
     "none; xor (column c ^ r); cute:B,M,S on byte offsets;\n"
     "cute-elem:B,M,S on element indices (M + log2 e in bytes); tma32, tma64,\n"
     "tma128 (a narrower box row sits at span pitch); triton:VEC,PERPHASE,MAXPHASE\n"
     "(VEC in elements, PERPHASE in rows)                    (default none)"},
    {"access", "A",
     "row, column, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, stmatrix.x4\n"
     "                                                       (default column)"},
    {"index", "N", "the row, column or 16-byte chunk the warp reads        (default 0)"},
    {"width", "BYTES",
     "bytes per lane: 1, 2, 4, 8 or 16                (default: the element size)"},
    {"op", "OP", "ld or st; implied by ldmatrix/stmatrix                 (default ld)"},
    {"lanes", "MASK", "hex mask of the lanes that take part (bit L = lane L)  (default ffffffff)"},
};
inline constexpr FlagSpec kOffsetsFlags[] = {
    {"offsets", "LIST",
     "32 comma-separated byte offsets, -1 for a lane that takes no part;\n"
     "with --op ld, st, ldmatrix.x1, ldmatrix.x2, ldmatrix.x4 or stmatrix.x4,\n"
     "--width BYTES (16 for the matrix ops, and the default for them), --lanes"},
};
inline constexpr FlagGroup kScenarioGroup{"Scenario form: a tile and an access pattern over it.",
                                          kScenarioFlags};
inline constexpr FlagGroup kOffsetsGroup{"Raw form: 32 byte offsets.", kOffsetsFlags};
// Both forms, for a command that takes nothing else under these headings.
inline constexpr FlagGroup kScenarioGroups[] = {kScenarioGroup, kOffsetsGroup};

// Whether `name` is a flag of either form ("dtype", "offsets"), and whether any was given.
bool is_scenario_flag(std::string_view name);
bool has_scenario_flags(const Args& args);

// The scenario the flags describe: the defaults (or the --preset, or the --scenario file's lines:
// scenario_file.hpp) with the other flags applied, or with --offsets a custom scenario of those
// 32 offsets. The first flag that cannot be read,
// or that does not fit the others, ends it with a message naming the flag.
Expected<Scenario> scenario_from_flags(const Args& args);

// The raw form (--offsets, --op, --width, --lanes) as a custom scenario (the offsets as given,
// the lanes in its mask), and as one access (the lanes switched off are idle), for the commands
// that take raw addresses rather than a scenario (analyze, gpu-bench --pattern).
Expected<Scenario> custom_from_flags(const Args& args);
Expected<WarpAccess> access_from_flags(const Args& args);

// With --offsets, a flag of the scenario form is an error, never silently ignored: the
// message ("--pad belongs to the scenario form; ..."), or nothing when the forms are not mixed.
std::optional<std::string> mixed_forms(const Args& args);

}  // namespace banklab::frontend
