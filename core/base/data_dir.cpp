#include "core/base/data_dir.hpp"

#include <cstdlib>
#include <fstream>
#include <string_view>
#include <system_error>

namespace banklab {

namespace {

namespace fs = std::filesystem;

// The source tree a build tree was configured from, as its CMakeCache.txt records it.
fs::path source_of_build_tree(const fs::path& cache) {
  constexpr std::string_view kKey = "BankLab_SOURCE_DIR:STATIC=";
  std::ifstream in(cache);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(kKey)) return fs::path(line.substr(kKey.size()));
  }
  return {};
}

// The nearest folder above the executable (at most four levels: build/app/cli/banklab) that
// holds a CMakeCache.txt of BankLab.
fs::path build_tree_data(const fs::path& executable) {
  fs::path dir = executable.parent_path();
  for (int level = 0; level < 4 && !dir.empty(); ++level) {
    std::error_code ec;
    if (const fs::path cache = dir / "CMakeCache.txt"; fs::is_regular_file(cache, ec)) {
      const fs::path source = source_of_build_tree(cache);
      return source.empty() ? fs::path() : source / "assets";
    }
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return {};
}

}  // namespace

std::vector<DataDirPlace> data_dir_places(const fs::path& executable, const char* environment) {
  std::vector<DataDirPlace> places;
  const fs::path prefix = executable.parent_path().parent_path();
  places.push_back(
      {executable.empty() ? fs::path() : prefix / "share" / "banklab", "beside the program"});
  places.push_back({executable.empty() ? fs::path() : build_tree_data(executable),
                    "in the build tree's sources"});
  places.push_back(
      {environment && *environment ? fs::path(environment) : fs::path(), "in $BANKLAB_DATA_DIR"});
  return places;
}

Expected<fs::path> find_data_dir(const std::vector<DataDirPlace>& places) {
  std::string looked;
  for (std::size_t i = 0; i < places.size(); ++i) {
    const DataDirPlace& p = places[i];
    std::error_code ec;
    if (!p.path.empty() && fs::is_directory(p.path, ec)) return p.path;
    if (i > 0) looked += i + 1 == places.size() ? " and " : ", ";
    looked += p.what + " (" + (p.path.empty() ? std::string("none") : p.path.string()) + ")";
  }
  return Error{"BankLab's data folder was not found: looked " + looked +
               "; install the package, run the programs from their build tree, or set "
               "BANKLAB_DATA_DIR"};
}

Expected<fs::path> data_dir() {
  std::error_code ec;
  const fs::path executable = fs::read_symlink("/proc/self/exe", ec);
  return find_data_dir(
      data_dir_places(ec ? fs::path() : executable, std::getenv("BANKLAB_DATA_DIR")));
}

}  // namespace banklab
