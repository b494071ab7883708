#pragma once
// Scenario files: a scenario as plain text a person can read and edit, the scenario flags one
// "key = value" a line under a comment header. `--scenario FILE` opens one in banklab (analyze,
// explain, gpu-bench --pattern) and banklab-gui; flags given beside it override its lines.
//
//   # BankLab scenario: bf16 tile[32][33], column 3, ld 2 B per lane
//   # Open it with: banklab analyze --scenario FILE  or  banklab-gui --scenario FILE
//   dtype = bf16
//   tile = 32x32
//   pad = 1
//   swizzle = none
//   access = column
//   index = 3
//   op = ld
//   lanes = 0xffffffff
//
// Blank lines and lines starting with '#' are skipped; a key is a scenario flag without its
// dashes (preset, dtype, tile, pad, swizzle, access, index, width, op, lanes, offsets). A bad
// file is reported as "FILE:LINE: what is wrong". Files are read only when regular and at most
// kMaxScenarioFileBytes long; they are written whole or not at all (a temporary file, renamed).
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/expected.hpp"
#include "core/model/scenario.hpp"

namespace banklab::frontend {

inline constexpr std::size_t kMaxScenarioFileBytes = 64 * 1024;

// The file's text. Reading it back gives the same Scenario (operator==), with one exception: a
// custom scenario keeps only what its analysis uses (op, width, offsets, lanes; a width of 0
// is written as the 4 bytes it means), not the tile it was drawn over.
std::string scenario_file_text(const Scenario& s);

// A file's lines as flags, in file order, every key known and given once.
struct ScenarioFile {
  std::vector<std::string> words;  // "--dtype=bf16", ...: what parse_args() takes
  std::vector<int> lines;          // the line of each word
};

// "FILE:LINE: ..." (or "FILE: ...") when the file cannot be read or a line is wrong.
Expected<ScenarioFile> read_scenario_file(const std::string& path);

// Writes scenario_file_text(s) to path; a message naming the file and the reason on failure.
Expected<bool> write_scenario_file(const std::string& path, const Scenario& s);

}  // namespace banklab::frontend
