#pragma once
// Scenario files: a scenario as plain text a person can read and edit, one key of core's
// scenario table (core/model/scenario_keys.hpp) a line under a comment header, each line TOML
// (core/base/key_value_file.hpp). `--scenario FILE` opens one in banklab (analyze, explain,
// export, gpu-bench --pattern) and banklab-gui; flags given beside it override its lines.
//
//   # BankLab scenario: bf16 tile[32][33], column 3, ld 2 B per lane
//   # Open it with: banklab analyze --scenario FILE  or  banklab-gui --scenario FILE
//   dtype = "bf16"
//   tile = "32x32"
//   pad = 1
//   swizzle = "none"
//   access = "column"
//   index = 3
//   op = "ld"
//   lanes = 0xffffffff
//
// Blank lines and lines starting with '#' are skipped; a key is a scenario flag without its
// dashes (preset, dtype, tile, pad, swizzle, access, index, width, op, lanes, offsets), and a
// value may also be written without quotes (dtype = bf16), as files were before they were
// TOML. A bad file is reported as "FILE:LINE: what is wrong". Files are read only when regular
// and at most kMaxScenarioFileBytes long; they are written whole or not at all (a temporary
// file, renamed).
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/base/key_value_file.hpp"
#include "core/model/scenario.hpp"

namespace banklab::frontend {

inline constexpr std::size_t kMaxScenarioFileBytes = 64 * 1024;

// The file's text. Reading it back gives the same Scenario (operator==), with one exception: a
// raw scenario keeps only what its analysis uses (op, width, offsets, lanes; a width of 0
// is written as the 4 bytes it means), not the tile it was drawn over.
std::string scenario_file_text(const Scenario& s);

// The file's lines, in file order, every key a scenario key and given once; "FILE:LINE: ..."
// (or "FILE: ...") when the file cannot be read or a line is wrong. What the values mean is
// scenario_from_keys()'s to say.
Expected<std::vector<KeyValue>> read_scenario_file(const std::string& path);

// Writes scenario_file_text(s) to path; a message naming the file and the reason on failure.
Expected<void> write_scenario_file(const std::string& path, const Scenario& s);

}  // namespace banklab::frontend
