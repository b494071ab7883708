#pragma once
// Where BankLab's data lives (lessons/, recordings/, shaders/, ...), for the installed programs
// and for the ones in a build tree alike. The places, in order:
//   1. beside the executable's prefix: <prefix>/share/banklab for <prefix>/bin/banklab
//      (the Debian package: /usr/share/banklab; cmake --install --prefix P: P/share/banklab);
//   2. the build tree: a folder above the executable that holds CMakeCache.txt gives the
//      source tree it was configured from, whose assets/ folder is the data;
//   3. $BANKLAB_DATA_DIR.
// The first that is a folder wins. No path is compiled in, so a package carries no build path.
#include <filesystem>
#include <string>
#include <vector>

#include "core/base/expected.hpp"

namespace banklab {

struct DataDirPlace {
  std::filesystem::path path;  // empty when the place does not apply (no build tree, no variable)
  std::string what;            // "beside the program", "in the build tree's sources", ...
};

// The places for an executable at `executable`, with `environment` the value of
// $BANKLAB_DATA_DIR (nullptr when unset). Reads CMakeCache.txt files, nothing else.
std::vector<DataDirPlace> data_dir_places(const std::filesystem::path& executable,
                                          const char* environment);

// The first place that is a folder, or an error that names every place looked at.
Expected<std::filesystem::path> find_data_dir(const std::vector<DataDirPlace>& places);

// The data folder of this process (/proc/self/exe and $BANKLAB_DATA_DIR).
Expected<std::filesystem::path> data_dir();

}  // namespace banklab
