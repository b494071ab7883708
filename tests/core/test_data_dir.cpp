// banklab::data_dir(): where the programs find their data (beside the program's prefix, the
// build tree's sources, $BANKLAB_DATA_DIR, in that order), and the --version text.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/base/data_dir.hpp"
#include "core/base/version.hpp"

namespace banklab {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("banklab-data-dir-test-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE(
    "the data folder is looked for beside the program, in the build tree, then in the variable") {
  SUBCASE("an installed program: <prefix>/share/banklab, no build tree, the variable last") {
    const std::vector<DataDirPlace> places = data_dir_places("/opt/x/bin/banklab", "/data");
    REQUIRE(places.size() == 3);
    CHECK(places[0].path == fs::path("/opt/x/share/banklab"));
    CHECK(places[1].path.empty());
    CHECK(places[2].path == fs::path("/data"));
  }
  SUBCASE("an unset or empty variable is no place") {
    CHECK(data_dir_places("/usr/bin/banklab", nullptr)[2].path.empty());
    CHECK(data_dir_places("/usr/bin/banklab", "")[2].path.empty());
  }
  SUBCASE("a program in a build tree: the sources' assets/ named by its CMakeCache.txt") {
    TempDir tmp;
    fs::create_directories(tmp.path / "build" / "app" / "cli");
    std::ofstream(tmp.path / "build" / "CMakeCache.txt")
        << "CMAKE_BUILD_TYPE:STRING=Release\nBankLab_SOURCE_DIR:STATIC="
        << (tmp.path / "src").string() << "\n";
    const std::vector<DataDirPlace> places =
        data_dir_places(tmp.path / "build" / "app" / "cli" / "banklab", nullptr);
    CHECK(places[1].path == tmp.path / "src" / "assets");
    SUBCASE("found once the folder exists, before the variable") {
      CHECK_FALSE(find_data_dir(places).has_value());
      fs::create_directories(tmp.path / "src" / "assets");
      const Expected<fs::path> found = find_data_dir(places);
      REQUIRE(found.has_value());
      CHECK(*found == tmp.path / "src" / "assets");
    }
    SUBCASE("beside the program comes first") {
      fs::create_directories(tmp.path / "build" / "app" / "share" / "banklab");
      fs::create_directories(tmp.path / "src" / "assets");
      CHECK(*find_data_dir(places) == tmp.path / "build" / "app" / "share" / "banklab");
    }
  }
  SUBCASE("the variable, when nothing else is there") {
    TempDir tmp;
    const Expected<fs::path> found =
        find_data_dir(data_dir_places("/nonexistent/bin/banklab", tmp.path.c_str()));
    REQUIRE(found.has_value());
    CHECK(*found == tmp.path);
  }
  SUBCASE("nowhere: the message names every place looked at") {
    const Expected<fs::path> found =
        find_data_dir(data_dir_places("/nonexistent/bin/banklab", "/nonexistent/data"));
    REQUIRE_FALSE(found.has_value());
    CHECK(contains(found.error(), "not found"));
    CHECK(contains(found.error(), "beside the program (/nonexistent/share/banklab)"));
    CHECK(contains(found.error(), "in the build tree's sources (none)"));
    CHECK(contains(found.error(), "in $BANKLAB_DATA_DIR (/nonexistent/data)"));
  }
}

TEST_CASE("the version text names the program, the version, the commit and the data folder") {
  const std::string text = version_text("banklab");
  CHECK(text.starts_with("banklab " + std::string(version()) + " (commit " + std::string(commit()) +
                         ")\ndata: "));
  CHECK(text.ends_with("\n"));
  CHECK_FALSE(version().empty());
  CHECK_FALSE(commit().empty());
}

}  // namespace banklab
